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
  var MAX_LISTED = 4;  // more candidates than this: the live text names the strongest three

  // Bidirectional isolation for tokens: with opts.isolate the page wraps each token in U+2068 ..
  // U+2069 and turns those spans into <bdi> elements, so right-to-left words keep their place.
  function tokenQuoter(opts) {
    return opts && opts.isolate ? function (t) { return '\u201c\u2068' + t + '\u2069\u201d'; } : quote;
  }
  function strongest(cands, k) {
    return cands.slice().sort(function (a, b) { return b.weight - a.weight; }).slice(0, k);
  }
  // "“bridge” 0.59, “stopped” 0.29 and “convoy” 0.12", or the strongest three and how many more.
  function listed(cands, q, fmt) {
    var shown = cands.length > MAX_LISTED ? strongest(cands, 3) : cands;
    var items = shown.map(function (c) { return q(c.token) + ' ' + fmt(c); });
    if (cands.length > MAX_LISTED) items.push((cands.length - 3) + ' more');
    return list(items);
  }
  function short(text, n) { return text.length > n ? text.slice(0, n - 1) + '\u2026' : text; }

  // The four-step view (and the page without the app): the step, the scores and the weights.
  function describeSteps(state, names, q) {
    var step = typeof state.step === 'number' ? state.step : 3;
    var tokens = state.tokens || [];
    var focus = q(tokens[state.focus]);
    var cands = state.candidates || [];
    var parts = ['Step ' + (step + 1) + ' of ' + names.length + ': ' + names[step] + '.'];
    var allowed = cands.filter(function (c) { return !c.masked; });
    if (state.status === 'all_masked' || allowed.length === 0) {
      parts.push('Focus token ' + focus + '. Every candidate position is masked, so no weights can be formed and nothing is mixed.');
      return parts.join(' ');
    }
    var masked = cands.length - allowed.length;
    if (step === 0) {
      var names2 = cands.length > MAX_LISTED ? [cands.length + ' candidates'] : cands.map(function (c) { return q(c.token) + (c.masked ? ' (masked)' : ''); });
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
        q(top.token) + ' contributes the largest share.');
    }
    parts.push('Scores: ' + listed(allowed, q, function (c) { return score(c.score); }) + '.');
    parts.push('Weights: ' + listed(allowed, q, function (c) { return weight(c.weight); }) + '.');
    if (masked > 0 && cands.length > MAX_LISTED) parts.push(masked + ' masked.');
    return parts.join(' ');
  }

  // The trained model's view: the chosen head's pattern, the focus, the focus row's largest
  // weights and the likeliest next tokens (with the head switched off, if it is).
  function describeModel(state, names, q) {
    var m = state.model;
    var step = typeof state.step === 'number' ? state.step : 3;
    var head = m.heads.filter(function (h) { return h.layer === m.layer && h.head === m.head; })[0];
    var parts = ['Trained model. ' + (head ? head.description : 'Layer ' + (m.layer + 1) + ', head ' + (m.head + 1) + '.')];
    parts.push('Focus ' + q(m.tokens[m.focus]) + ', token ' + (m.focus + 1) + ' of ' + m.tokens.length + '; step ' + (step + 1) + ' of ' + names.length + '.');
    var order = m.row.weights.map(function (w, j) { return j; }).sort(function (a, b) { return m.row.weights[b] - m.row.weights[a] || a - b; });
    parts.push('Largest weights: ' + list(order.slice(0, 3).map(function (j) {
      return q(m.tokens[j]) + ' ' + weight(m.row.weights[j]) + ' (score ' + score(m.row.scores[j]) + ')';
    })) + '.');
    var next = m.ablated ? m.next_ablated : m.next;
    parts.push((m.ablated ? 'With the head switched off, next: ' : 'Next: ') +
      list(next.slice(0, 3).map(function (t) { return q(t.token) + ' ' + weight(t.p); })) + '.');
    return parts.join(' ');
  }

  // The vectors view: every step at once for the focus token.
  function describeVectors(state, q) {
    var cands = (state.candidates || []).filter(function (c) { return !c.masked; });
    var focus = q((state.tokens || [])[state.focus]);
    if (cands.length === 0) return 'Vectors view: every candidate is masked, so nothing is mixed.';
    return 'Vectors view for ' + focus + ' (d = ' + state.d + (state.editable ? ', editable' : ', from the model') + '): ' +
      'dot products ' + listed(cands, q, function (c) { return score(c.dot_product); }) +
      (state.scaled ? '; \u00d7 ' + plain(state.scale) + ' gives the scores' : '; unscaled, they are the scores') +
      (state.temperature !== 1 ? '; temperature ' + plain(state.temperature) : '') +
      '; weights ' + listed(cands, q, function (c) { return weight(c.weight); }) + '.';
  }

  // The whole-sentence view: the sentence, and per head the focus row's strongest weights.
  function describeWhole(state, q) {
    var w = state.whole;
    if (!w || !Array.isArray(w.heads)) return 'Whole sentence view.';
    var parts = ['Whole sentence ' + q(short(w.sentence, 80)) + ', ' + w.tokens.length + ' tokens' +
      (w.causal ? ', causal mask on' : '') + '. For the focus ' + q(w.tokens[w.focus]) + ':'];
    var heads = w.heads.map(function (top, h) {
      return (w.heads.length > 1 ? 'head ' + (h + 1) + ' weighs ' : 'the strongest weights are ') +
        list(top.slice(0, w.heads.length > 2 ? 2 : 3).map(function (t) { return q(t.token) + ' ' + weight(t.weight); }));
    });
    parts.push(heads.join('; ') + '.');
    return parts.join(' ');
  }

  // The misconceptions view: what each demonstration shows now.
  function describeMisconceptions(state, q) {
    var m = state.misconception || {};
    var parts = ['Misconceptions.'];
    if (m.from && typeof m.score_before === 'number') {
      parts.push('1: with ' + q(m.from) + ' changed to ' + q(m.to) + ', its score for ' + q(m.focus_token) + ' goes from ' +
        score(m.score_before) + ' to ' + score(m.score_after) + ' while the projection fingerprint stays ' + (m.projections_identical ? 'identical' : 'different') + '.');
    }
    var w = state.whole;
    if (w && Array.isArray(w.heads) && w.heads.length) {
      parts.push('2: ' + w.heads.map(function (top, h) { return 'head ' + (h + 1) + ' favours ' + q(top[0].token) + ' ' + weight(top[0].weight); }).slice(0, 4).join(', ') + '; the residual path adds the token\u2019s own vector.');
    }
    if (Array.isArray(state.output)) parts.push('3: the output is a vector of ' + state.output.length + ' numbers, not a score.');
    return parts.join(' ');
  }

  // One paragraph (at most about 400 characters) saying what the current view shows. Hover is
  // never part of it (the page has a separate, non-live readout for the pointer).
  function describe(state, stepNames, opts) {
    var names = stepNames || STEP_NAMES;
    var q = tokenQuoter(opts);
    var panel = typeof state.panel === 'number' ? state.panel : 0;
    if (state.model && state.model.active && (panel === 0 || panel === 4)) return describeModel(state, names, q);
    var text = panel === 1 ? describeVectors(state, q) : panel === 2 ? describeWhole(state, q)
      : panel === 3 ? describeMisconceptions(state, q) : describeSteps(state, names, q);
    // Your own sentence runs the illustrative (untrained) model: said wherever its numbers appear.
    if (typeof state.sentence === 'string' || panel === 2 || panel === 3) text += ' Illustrative numbers: an untrained, made-up model.';
    return text;
  }

  // The pointer's candidate, for the non-live readout ('' when nothing is highlighted).
  function describePointer(state, opts) {
    var q = tokenQuoter(opts);
    if (typeof state.hover !== 'number' || state.hover < 0) return '';
    var h = (state.candidates || []).filter(function (c) { return c.position === state.hover; })[0];
    if (!h) return '';
    return 'Highlighted: ' + q(h.token) + (h.masked ? ', masked.' : ', score ' + score(h.score) + ', weight ' + weight(h.weight) + '.');
  }

  var api = { score: score, weight: weight, plain: plain, list: list, quote: quote,
              topCandidate: topCandidate, describe: describe, describePointer: describePointer,
              STEP_NAMES: STEP_NAMES };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.AttentionFormat = api;
})(typeof self !== 'undefined' ? self : this);
