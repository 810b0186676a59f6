/* The four-step SVG diagram: hovering, focusing (Tab) or tapping a candidate highlights its score,
 * weight and contribution path, and says the same in the visible, polite readout below the figure.
 * The page has two layouts of the same diagram (wide, and narrow for phones; the CSS shows one);
 * a highlight applies to both. The numbers are read from the SVG's data attributes, which the build
 * filled from the engine. Listeners sit on the figure (an HTML element), not on the SVG groups:
 * Chromium makes an SVG element with focus listeners focusable, a second Tab stop. */
(function () {
  'use strict';
  var figure, svgs = [], readout, hint, pinned = -1, shown = -1;

  function candidates() { return figure.querySelectorAll('.diagram-svg .d-cand'); }
  function indexOf(node) {
    var g = node && node.closest ? node.closest('.d-cand') : null;
    return g ? Number(g.getAttribute('data-index')) : -1;
  }
  function say(text) { if (readout && readout.textContent !== text) readout.textContent = text; }

  function show(i) {
    shown = i;
    var first = null;
    Array.prototype.forEach.call(candidates(), function (g) {
      var j = Number(g.getAttribute('data-index'));
      g.classList.toggle('is-active', j === i);
      var btn = g.querySelector('.d-cand-btn');
      if (btn) btn.setAttribute('aria-pressed', j === pinned ? 'true' : 'false');
      if (j === i && !first) first = g;
    });
    svgs.forEach(function (svg) { svg.classList.toggle('has-active', i >= 0); });
    if (!first) { say(hint); return; }
    var q = window.AttentionFormat ? window.AttentionFormat.quote : function (s) { return s; };
    var focusText = (figure.querySelector('.d-focus-group .d-token') || {}).textContent || '';
    say(q(first.dataset.token) + ': score ' + first.dataset.score + ', weight after normalising ' + first.dataset.weight +
      '. Its value vector, scaled by ' + first.dataset.weight + ', flows into the new representation of ' + q(focusText) + '.');
  }
  function toggle(i) { pinned = pinned === i ? -1 : i; show(i); }

  // A label wider than its room in the reader's font (data-fit, in SVG units, from the build) is
  // squeezed to that width, so no text runs out of its box. A layout the CSS hides measures 0 and
  // is fitted when it is shown (the ResizeObserver), and again once web fonts have loaded.
  function fitLabels() {
    Array.prototype.forEach.call(figure.querySelectorAll('text[data-fit]'), function (t) {
      var room = Number(t.getAttribute('data-fit'));
      if (t.getAttribute('lengthAdjust') || t.getComputedTextLength() <= room) return;
      t.setAttribute('textLength', String(room));
      t.setAttribute('lengthAdjust', 'spacingAndGlyphs');
    });
  }

  function init() {
    figure = document.getElementById('diagram');
    readout = document.getElementById('diagram-readout');
    if (!figure) return;
    svgs = Array.prototype.slice.call(figure.querySelectorAll('.diagram-svg'));
    hint = readout ? readout.textContent : '';
    fitLabels();
    if (window.ResizeObserver) {
      var seen = new ResizeObserver(fitLabels);
      svgs.forEach(function (svg) { seen.observe(svg); });
    }
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitLabels);
    figure.addEventListener('mouseover', function (e) {
      var i = indexOf(e.target);
      if (i >= 0 && i !== shown) show(i);
    });
    figure.addEventListener('mouseout', function (e) {
      var from = indexOf(e.target), to = indexOf(e.relatedTarget);
      if (from >= 0 && to !== from) show(to >= 0 ? to : pinned);
    });
    figure.addEventListener('focusin', function (e) { var i = indexOf(e.target); if (i >= 0) show(i); });
    figure.addEventListener('focusout', function (e) {
      if (indexOf(e.target) >= 0 && indexOf(e.relatedTarget) < 0) show(pinned);
    });
    figure.addEventListener('click', function (e) {
      var i = indexOf(e.target);
      if (i < 0) return;
      pinned = pinned === i ? -1 : i;
      show(pinned === -1 ? i : pinned);
    });
    figure.addEventListener('keydown', function (e) {
      var i = indexOf(e.target);
      if (i < 0) return;
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(i); }
      else if (e.key === 'Escape') { pinned = -1; show(-1); }
    });
  }

  window.AttentionDiagram = {
    // 0..3: highlight the column of the current step (kept in sync with the interactive stage)
    setStep: function (step) {
      svgs.forEach(function (svg) { svg.setAttribute('data-step', String(step)); });
      var items = document.querySelectorAll('#steps-list .step');
      Array.prototype.forEach.call(items, function (li, i) { li.classList.toggle('is-current', i === step); });
    }
  };
  document.addEventListener('DOMContentLoaded', init);
})();
