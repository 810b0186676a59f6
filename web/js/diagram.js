/* The four-step SVG diagram: hovering, focusing (Tab) or tapping a candidate highlights its score,
 * weight and contribution path, and says the same in the visible, polite readout below the figure.
 * The numbers are read from the SVG's data attributes, which the build filled from the engine. */
(function () {
  'use strict';
  var svg, readout, hint, pinned = -1, cands = [];

  function focusToken() {
    var t = svg.querySelector('.d-focus-group .d-token');
    return t ? t.textContent : '';
  }
  function say(text) { if (readout && readout.textContent !== text) readout.textContent = text; }

  function show(i) {
    cands.forEach(function (g, j) {
      g.classList.toggle('is-active', j === i);
      var btn = g.querySelector('.d-cand-btn');
      if (btn) btn.setAttribute('aria-pressed', j === pinned ? 'true' : 'false');
    });
    svg.classList.toggle('has-active', i >= 0);
    if (i < 0) { say(hint); return; }
    var g = cands[i], q = window.AttentionFormat ? window.AttentionFormat.quote : function (s) { return s; };
    say(q(g.dataset.token) + ': raw score ' + g.dataset.score + ', weight after normalising ' + g.dataset.weight +
      '. Its value vector, scaled by ' + g.dataset.weight + ', flows into the new representation of ' + q(focusToken()) + '.');
  }

  function init() {
    svg = document.getElementById('diagram-svg');
    readout = document.getElementById('diagram-readout');
    if (!svg) return;
    hint = readout ? readout.textContent : '';
    cands = Array.prototype.slice.call(svg.querySelectorAll('.d-cand'));
    cands.forEach(function (g, i) {
      g.addEventListener('mouseenter', function () { show(i); });
      g.addEventListener('mouseleave', function () { show(pinned); });
      g.addEventListener('focusin', function () { show(i); });
      g.addEventListener('focusout', function () { show(pinned); });
      g.addEventListener('click', function () { pinned = pinned === i ? -1 : i; show(pinned === -1 ? i : pinned); });
      g.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pinned = pinned === i ? -1 : i; show(i); }
        else if (e.key === 'Escape') { pinned = -1; show(-1); }
      });
    });
  }

  window.AttentionDiagram = {
    // 0..3: highlight the column of the current step (kept in sync with the interactive stage)
    setStep: function (step) {
      if (!svg) return;
      svg.setAttribute('data-step', String(step));
      var items = document.querySelectorAll('#steps-list .step');
      Array.prototype.forEach.call(items, function (li, i) { li.classList.toggle('is-current', i === step); });
    }
  };
  document.addEventListener('DOMContentLoaded', init);
})();
