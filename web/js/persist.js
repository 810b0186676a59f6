/* The reader's place on the stage: scenario, view, step, focus and own sentence.
 * - Kept in sessionStorage (this tab only; nothing leaves the device), so a reload returns to it.
 * - Readable from the URL hash, so a teacher can link to one step:
 *     #scenario=worked-example&view=vectors&step=3
 *     #scenario=sentence&sentence=The%20river%20bank%20flooded&focus=3&view=whole-sentence
 *   scenario: an option of the Example select; view: a View option's name in lower case with
 *   dashes; step and focus: counted from 1, as the page shows them. A hash the session already
 *   applied gives way to what the reader did since; a new link (also pasted later) wins.
 * - Everything goes through the page's own controls (the selects, the sentence form, Back/Next)
 *   and the stage's `attention:state` event, so this file needs nothing of stage.js's insides.
 *   A value the page would not take (unknown, out of range, a sentence it refuses) is dropped
 *   silently; so is a place that cannot be read or stored (storage off, quota). */
(function () {
  'use strict';
  var KEY = 'attention-score:place:' + location.pathname;
  var MAX_LEN = 4000;  // longer than any place the page can write (sentence <= maxlength)
  var FIELDS = ['scenario', 'view', 'step', 'focus', 'sentence'];

  // ------------------------------------------------------------ reading and writing one place
  // "a=1&b=2" -> {a, b}, only the known fields, each a string; null if there is none of them.
  function parse(text) {
    if (typeof text !== 'string' || !text || text.length > MAX_LEN || text.indexOf('=') < 0) return null;
    var q, out = {}, any = false;
    try { q = new URLSearchParams(text); } catch (e) { return null; }
    FIELDS.forEach(function (f) {
      var v = q.get(f);
      if (typeof v === 'string' && v !== '') { out[f] = v; any = true; }
    });
    return any ? out : null;
  }
  function format(place) {
    var q = new URLSearchParams();
    FIELDS.forEach(function (f) { if (place[f] !== undefined && place[f] !== null) q.set(f, String(place[f])); });
    return q.toString();
  }
  function get(key) { try { var s = window.sessionStorage; return s ? s.getItem(key) : null; } catch (e) { return null; } }
  function put(key, text) { try { var s = window.sessionStorage; if (s) s.setItem(key, text); } catch (e) { /* off or full */ } }
  function hashText() { return (location.hash || '').replace(/^#/, ''); }

  // Which place to open: a link (hash) this session has not opened yet, else the session's own.
  // The session keeps the last hash it opened under "<KEY>:hash".
  function wanted() {
    var h = hashText(), fromLink = parse(h);
    if (fromLink && h !== get(KEY + ':hash')) { put(KEY + ':hash', h); return fromLink; }
    return parse(get(KEY));
  }

  // ------------------------------------------------------------ the page's controls
  var el = {};
  function int(v, lo, hi) {
    if (!/^[0-9]{1,4}$/.test(String(v))) return null;
    var n = parseInt(v, 10);
    return n >= lo && n <= hi ? n : null;
  }
  function slug(text) { return String(text).trim().toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, ''); }
  function optionValue(select, want, byName) {
    for (var i = 0; i < select.options.length; i++) {
      var o = select.options[i];
      if (!o.disabled && (byName ? slug(o.textContent) === want : o.value === want)) return o.value;
    }
    return null;
  }
  function change(select, value) {
    if (value === null || select.disabled || select.value === value) return;
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }
  function currentStep() {
    var n = parseInt(el.stage.getAttribute('data-step'), 10);
    return isFinite(n) ? n : null;
  }
  function goToStep(step) {  // step counted from 0; Back / Next as a reader would press them
    for (var guard = 0; guard < 16; guard++) {
      var now = currentStep();
      if (now === null || now === step) return;
      var b = step < now ? el.back : el.next;
      if (b.disabled) return;
      b.click();
    }
  }
  function errorShown(node) { return !!(node && node.textContent.trim()); }

  // Opens `place` as far as the page can now: with the app, everything; without it, the
  // scenario and the step (the page's own stepper).
  function open(place, withApp) {
    if (!place) return;
    var sentence = place.scenario === 'sentence' && typeof place.sentence === 'string' ? place.sentence : null;
    if (sentence !== null && withApp && !el.sentence.disabled) {
      var maxLen = parseInt(el.sentence.getAttribute('maxlength'), 10) || 800;
      var check = window.AttentionStage && window.AttentionStage.checkSentence;
      var ok = sentence.length <= maxLen && check && !check(sentence).error;
      if (ok) {
        var before = el.sentence.value, shown = errorShown(el.sentenceError);
        el.sentence.value = sentence;
        if (el.form.requestSubmit) el.form.requestSubmit();
        else el.form.dispatchEvent(new Event('submit', { cancelable: true }));
        if (!shown && errorShown(el.sentenceError)) {  // the engine refused it: as if never asked
          el.sentence.value = before;
          el.sentence.removeAttribute('aria-invalid');
          el.sentenceError.textContent = '';
          el.sentenceError.classList.remove('is-shown');
        }
      }
    } else if (place.scenario && place.scenario !== 'sentence') {
      change(el.scenario, optionValue(el.scenario, place.scenario, false));
    }
    // the step first: Back / Next work in the four-step view (other views show every step)
    if (place.step) {
      var s = int(place.step, 1, 16);
      if (s !== null) goToStep(s - 1);
    }
    if (withApp && place.view) change(el.view, optionValue(el.view, place.view, true));
    if (withApp && place.focus && el.scenario.value === 'sentence') {
      var f = int(place.focus, 1, el.focus.options.length);
      if (f !== null) change(el.focus, String(f - 1));
    }
  }

  // ------------------------------------------------------------ keeping the place
  var opened = { offline: false, app: false }, place = null, saved = null;
  function save(s) {
    if (!s || !Array.isArray(s.tokens)) return;
    var p = { scenario: s.sentence ? 'sentence' : s.scenario };
    var v = el.view.options[typeof s.panel === 'number' ? s.panel : -1];
    if (v) p.view = slug(v.textContent);
    if (typeof s.step === 'number') p.step = s.step + 1;
    if (s.sentence) { p.sentence = s.sentence; p.focus = s.focus + 1; }
    var text = format(p);
    if (text !== saved && text.length <= MAX_LEN) { saved = text; put(KEY, text); }  // hover: no write
  }
  function onStage() {
    var st = el.stage.getAttribute('data-app-state');
    if (st === 'ready' && !opened.app) { opened.app = opened.offline = true; open(place, true); }
    else if ((st === 'no-webgl2' || st === 'failed') && !opened.offline) { opened.offline = true; open(place, false); }
  }

  function init() {
    el.stage = document.getElementById('attention-stage');
    el.form = document.getElementById('stage-controls');
    if (!el.stage || !el.form || !window.MutationObserver) return;
    el.scenario = document.getElementById('scenario-select'); el.view = document.getElementById('view-select');
    el.focus = document.getElementById('focus-select'); el.sentence = document.getElementById('sentence-input');
    el.sentenceError = document.getElementById('sentence-error');
    el.back = document.getElementById('step-back'); el.next = document.getElementById('step-next');
    if (!el.scenario || !el.view || !el.focus || !el.sentence || !el.back || !el.next) return;
    place = wanted();
    el.stage.addEventListener('attention:state', function (e) { if (opened.offline || opened.app) save(e.detail); });
    new MutationObserver(onStage).observe(el.stage, { attributes: true, attributeFilter: ['data-app-state'] });
    onStage();
    // A link pasted into this tab later (only the hash changes): open it too.
    window.addEventListener('hashchange', function () {
      var p = parse(hashText());
      if (!p) return;  // an ordinary in-page anchor
      put(KEY + ':hash', hashText());
      open(p, el.stage.getAttribute('data-app-state') === 'ready');
    });
  }

  document.addEventListener('DOMContentLoaded', init);
})();
