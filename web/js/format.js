/* Number formatting and the plain-text description of one attention state.
 * Shared by the build (web/tools/render.mjs, via require) and the page (classic script,
 * exposes window.AttentionFormat). It only formats numbers that came from the engine;
 * it never computes attention itself. */
(function (root) {
  'use strict';

  function finite(x, what) {
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new Error('not a finite number: ' + what + ' = ' + String(x));
    }
    return x;
  }

  // Scores: up to two decimals, trailing zeros dropped, a real minus sign (2.1, 0.4, −0.7).
  function score(x) {
    var r = Math.round(finite(x, 'score') * 100) / 100;
    if (Object.is(r, -0)) r = 0;
    return String(r).replace('-', '\u2212');
  }

  // Weights: always two decimals (0.80, 0.15, 0.05).
  function weight(x) {
    var s = finite(x, 'weight').toFixed(2);
    return s === '-0.00' ? '0.00' : s.replace('-', '\u2212');
  }

  // Sums and factors: like scores (1, 0.5).
  var plain = score;

  function list(items) {
    if (items.length <= 1) return items.join('');
    return items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1];
  }

  function quote(t) { return '\u201c' + t + '\u201d'; }

  function topCandidate(state) {
    var best = null;
    (state.candidates || []).forEach(function (c) {
      if (!c.masked && (best === null || c.weight > best.weight)) best = c;
    });
    return best;
  }

  var STEP_NAMES = ['Choose a focus token', 'Compare with other tokens', 'Turn scores into weights', 'Mix the values'];

  // One paragraph restating the current step, the scores and the weights.
  function describe(state, stepNames) {
    var names = stepNames || STEP_NAMES;
    var step = typeof state.step === 'number' ? state.step : 3;
    var tokens = state.tokens || [];
    var focus = quote(tokens[state.focus]);
    var cands = state.candidates || [];
    var parts = [];
    parts.push('Step ' + (step + 1) + ' of ' + names.length + ': ' + names[step] + '.');
    var allowed = cands.filter(function (c) { return !c.masked; });
    if (state.status === 'all_masked' || allowed.length === 0) {
      parts.push('Focus token ' + focus + '. Every candidate position is masked, so no weights can be formed and nothing is mixed.');
      return parts.join(' ');
    }
    var names2 = cands.map(function (c) { return quote(c.token) + (c.masked ? ' (masked)' : ''); });
    var scores = allowed.map(function (c) { return quote(c.token) + ' ' + score(c.score); });
    var weights = allowed.map(function (c) { return quote(c.token) + ' ' + weight(c.weight); });
    if (step === 0) {
      parts.push('The focus token is ' + focus + '; its query will be compared with the keys of ' + list(names2) + '.');
    } else if (step === 1) {
      parts.push('The query of ' + focus + ' is compared with each key' +
        (state.scaled ? ', and each dot product is scaled by 1/\u221a' + state.d + ' = ' + plain(state.scale) : '') + '.');
    } else if (step === 2) {
      parts.push('Softmax' + (state.temperature !== undefined && state.temperature !== 1 ? ' at temperature ' + plain(state.temperature) : '') +
        ' turns the scores into weights that sum to ' + plain(state.weight_sum) + '.');
    } else {
      var top = topCandidate(state);
      parts.push('The weighted value vectors merge into a new representation of ' + focus + '; ' +
        quote(top.token) + ' contributes the largest share.');
    }
    parts.push('Scores: ' + list(scores) + '.');
    parts.push('Weights: ' + list(weights) + '.');
    if (typeof state.hover === 'number' && state.hover >= 0) {
      var h = cands.filter(function (c) { return c.position === state.hover; })[0];
      if (h) parts.push('Highlighted: ' + quote(h.token) + (h.masked ? ', masked.' : ', score ' + score(h.score) + ', weight ' + weight(h.weight) + '.'));
    }
    return parts.join(' ');
  }

  var api = { score: score, weight: weight, plain: plain, list: list, quote: quote,
              topCandidate: topCandidate, describe: describe, STEP_NAMES: STEP_NAMES };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.AttentionFormat = api;
})(typeof self !== 'undefined' ? self : this);
