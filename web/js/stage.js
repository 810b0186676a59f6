/* The interactive stage: loads app.js (the WebGL2 canvas, see notes/contracts.md "App") when it exists
 * and WebGL2 is available, and keeps the HTML controls, the canvas and the live description in sync
 * through onStateChange. Without the app it still steps through the two engine-computed scenarios
 * embedded in the page by the build, so the description and diagram keep working. */
(function () {
  'use strict';
  var MAX_CHARS = 800, LOAD_TIMEOUT_MS = 20000;  // MAX_CHARS: the input's maxlength (content data)
  var F, el = {}, data = {}, steps = [], messages = {};
  var api = null;            // wrapped app exports once ready
  var state = null;          // the last state shown (engine JSON + step/hover)
  var liveTimer = 0;

  function $(id) { return document.getElementById(id); }
  function clone(o) { return JSON.parse(JSON.stringify(o)); }

  // ------------------------------------------------------------ messages
  function setStageMessage(kind, text) {
    el.stage.setAttribute('data-app-state', kind);
    el.message.textContent = text;
    el.message.hidden = !text;
  }
  function showError(node, text) { node.textContent = text || ''; node.classList.toggle('is-shown', !!text); }

  // ------------------------------------------------------------ rendering the state into the controls
  function render(s) {
    if (!s || !Array.isArray(s.tokens) || !Array.isArray(s.candidates)) return;
    state = s;
    var step = typeof s.step === 'number' ? s.step : 3;
    var scen = s.sentence ? 'sentence' : s.scenario;
    if (el.scenario.value !== scen) el.scenario.value = scen;
    // focus select: one option per token
    var sig = s.tokens.join('\u0001');
    if (el.focus.dataset.sig !== sig) {
      el.focus.textContent = '';
      s.tokens.forEach(function (t, i) {
        var o = document.createElement('option');
        o.value = String(i);
        o.textContent = (i + 1) + '. ' + t;
        el.focus.appendChild(o);
      });
      el.focus.dataset.sig = sig;
    }
    el.focus.value = String(s.focus);
    if (typeof s.panel === 'number' && el.view.value !== String(s.panel)) el.view.value = String(s.panel);
    el.stepStatus.textContent = 'Step ' + (step + 1) + ' of ' + steps.length + ': ' + steps[step];
    el.back.disabled = step <= 0;
    el.next.disabled = step >= steps.length - 1;
    el.stage.setAttribute('data-step', String(step));
    if (window.AttentionDiagram) window.AttentionDiagram.setStep(step);
    var text;
    try { text = F.describe(s, steps); } catch (e) { text = 'The current state could not be described.'; }
    // debounce so that quick canvas changes (hover) are announced once, when they settle
    clearTimeout(liveTimer);
    liveTimer = setTimeout(function () { if (el.live.textContent !== text) el.live.textContent = text; }, 250);
  }

  // ------------------------------------------------------------ without the app: the embedded scenarios
  function offline(step) {
    var s = clone(data[el.scenario.value] || data.diagram);
    s.step = step; s.hover = -1; s.sentence = null;
    render(s);
  }

  // ------------------------------------------------------------ sentence checks before calling the app
  // The page never splits text itself: the engine's tokenizer (attn_tokenize) gives the tokens, the
  // default focus and the characters the canvas cannot draw; only then is the sentence sent.
  function checkSentence(text) {
    var t = text.trim();
    if (!t) return { error: 'Type a sentence first: at least two words.' };
    if (t.length > MAX_CHARS) return { error: 'That is ' + t.length + ' characters. Please keep it to ' + MAX_CHARS + ' or fewer.' };
    if (/[\p{Extended_Pictographic}\u200d\ufe0f]/u.test(t)) return { error: 'Emoji cannot be used here. Please use letters, numbers and ordinary punctuation.' };
    if (/[^\p{L}\p{M}\p{N}\p{P}\p{Zs}]/u.test(t)) return { error: 'Symbols and control characters cannot be used here. Please use letters, numbers and ordinary punctuation.' };
    if (!api) return { error: messages.no_app };
    var r;
    try { r = JSON.parse(api.tokenize(t)); } catch (e) { return { error: 'The sentence could not be read. Please try again.' }; }
    if (!r.ok) return { error: r.error && r.error.message ? r.error.message : 'The sentence could not be read.' };
    for (var i = 0; i < r.tokens.length; i++) {
      var w = r.tokens[i];
      var n = (/\p{Script=Latin}/u.test(w) ? 1 : 0) + (/\p{Script=Cyrillic}/u.test(w) ? 1 : 0) + (/\p{Script=Greek}/u.test(w) ? 1 : 0);
      if (n > 1) return { error: 'The word \u201c' + w + '\u201d mixes letters from different alphabets (for example Latin and Cyrillic). Please retype it in one alphabet.' };
    }
    if (r.unsupported) {
      var chars = Array.from(r.unsupported);
      return { error: 'The canvas cannot draw ' + (chars.length > 1 ? 'these characters' : 'this character') + ': ' + chars.slice(0, 12).join(' ') + (chars.length > 12 ? ' \u2026' : '') + '. It draws Latin and Greek letters, digits and ordinary punctuation; please retype the sentence with those.' };
    }
    if (r.words < 2) return { error: 'Please use at least two words, so the focus token has something to compare with.' };
    return { text: t, focus: r.focus, tokens: r.tokens };
  }

  // ------------------------------------------------------------ calling the app
  function call(fn, args, errNode) {
    var msg;
    try { msg = fn.apply(null, args); } catch (e) { msg = 'The interactive view could not do that (' + (e && e.message ? e.message : e) + ').'; }
    showError(errNode, msg || '');
    refresh();
    return !msg;
  }
  function refresh() {
    if (!api) return;
    try { render(JSON.parse(api.state())); } catch (e) { /* keep the last good state */ }
  }

  function wire() {
    el.scenario.addEventListener('change', function () {
      showError(el.ctlError, '');
      if (el.scenario.value === 'sentence') { el.sentence.focus(); return; }
      if (api) call(api.setScenario, [el.scenario.value], el.ctlError);
      else offline(3);
    });
    el.focus.addEventListener('change', function () {
      if (api) call(api.setFocus, [parseInt(el.focus.value, 10)], el.ctlError);
    });
    el.view.addEventListener('change', function () {
      if (api) call(api.setPanel, [parseInt(el.view.value, 10)], el.ctlError);
    });
    el.back.addEventListener('click', function () { go(-1); });
    el.next.addEventListener('click', function () { go(1); });
    el.sentence.addEventListener('paste', function (e) {
      var txt = e.clipboardData ? e.clipboardData.getData('text') : '';
      if (txt.length > MAX_CHARS) showError(el.sentenceError, 'That text has ' + txt.length + ' characters; only the first ' + MAX_CHARS + ' fit. Please shorten it.');
    });
    el.form.addEventListener('submit', function (e) {
      e.preventDefault();
      if (!api) { showError(el.sentenceError, messages.no_app); return; }
      var r = checkSentence(el.sentence.value);
      if (r.error) { showError(el.sentenceError, r.error); el.sentence.setAttribute('aria-invalid', 'true'); el.sentence.focus(); return; }
      el.sentence.removeAttribute('aria-invalid');
      // The engine has the last word (e.g. more tokens than it takes): its message is shown as is.
      if (!call(api.setSentence, [r.text, r.focus], el.sentenceError)) el.sentence.setAttribute('aria-invalid', 'true');
    });
  }
  function go(delta) {
    var step = (state && typeof state.step === 'number' ? state.step : 3) + delta;
    if (step < 0 || step >= steps.length) return;
    if (api) call(api.setStep, [step], el.ctlError);
    else offline(step);
  }

  function unavailable(kind, text) {
    api = null;
    el.canvas.hidden = true;
    setStageMessage(kind, text);
    el.sentence.disabled = true; el.submit.disabled = true; el.focus.disabled = true; el.view.disabled = true;
    el.sentenceHelp.textContent = 'Your own sentence needs the interactive view.';
  }

  function ready(mod) {
    var cw = mod && mod.cwrap;
    if (typeof cw !== 'function') { unavailable('failed', messages.no_app); return; }
    // The wrapper is generated from the export list (src/app/exports.json) into app.js.
    api = typeof mod.attnApi === 'function' ? mod.attnApi() : null;
    if (!api) { unavailable('failed', messages.no_app); return; }
    el.canvas.hidden = false;
    setStageMessage('ready', '');
    [el.focus, el.view, el.sentence, el.submit].forEach(function (n) { n.disabled = false; });
    el.scenario.querySelector('option[value="sentence"]').disabled = false;
    if (window.AttentionTheme) {
      api.setTheme(window.AttentionTheme.isDark() ? 1 : 0);
      window.AttentionTheme.onChange(function (dark) { if (api) api.setTheme(dark ? 1 : 0); });
    }
    var rm = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;
    if (rm) {
      api.setReducedMotion(rm.matches ? 1 : 0);
      if (rm.addEventListener) rm.addEventListener('change', function () { if (api) api.setReducedMotion(rm.matches ? 1 : 0); });
    }
    // The canvas starts on its own default; bring it to what the page (or ?scenario=) chose.
    var appScenario = null;
    try { appScenario = JSON.parse(api.state()).scenario; } catch (e) { appScenario = null; }
    if (el.scenario.value !== 'sentence' && el.scenario.value !== appScenario) call(api.setScenario, [el.scenario.value], el.ctlError);
    refresh();
  }

  function loadApp() {
    var gl = null;
    try { gl = document.createElement('canvas').getContext('webgl2'); } catch (e) { gl = null; }
    if (!gl) { unavailable('no-webgl2', messages.no_webgl); return; }
    setStageMessage('loading', messages.loading);
    var done = false;
    var timer = setTimeout(function () { if (!done) { done = true; unavailable('failed', messages.no_app); } }, LOAD_TIMEOUT_MS);
    function failed() { if (!done) { done = true; clearTimeout(timer); unavailable('failed', messages.no_app); } }
    var s = document.createElement('script');
    s.src = 'app.js';
    s.onerror = failed;
    s.onload = function () {
      if (typeof window.createAttentionApp !== 'function') { failed(); return; }
      var p;
      try {
        p = window.createAttentionApp({
          canvas: el.canvas,
          onStateChange: function (json) {
            if (!api) return;
            try { render(JSON.parse(json)); } catch (e) { /* ignore a malformed update; keep the last state */ }
          },
          // The canvas never scrolls inside: it is as tall as its content, and the page scrolls.
          onContentHeight: function (h) {
            if (typeof h === 'number' && isFinite(h) && h > 0) el.stage.style.height = Math.round(Math.min(Math.max(h, 320), 6000)) + 'px';
          },
          locateFile: function (f) { return f; },
          print: function () {}, printErr: function () {}
        });
      } catch (e) { failed(); return; }
      Promise.resolve(p).then(function (mod) {
        if (done) return;
        done = true; clearTimeout(timer);
        try { ready(mod); } catch (e) { unavailable('failed', messages.no_app); }
      }, failed);
    };
    document.head.appendChild(s);
  }

  function init() {
    F = window.AttentionFormat;
    el.stage = $('attention-stage');
    if (!el.stage || !F) return;
    el.canvas = $('attention-canvas'); el.message = $('stage-message');
    el.form = $('stage-controls'); el.scenario = $('scenario-select'); el.focus = $('focus-select');
    el.view = $('view-select');
    el.back = $('step-back'); el.next = $('step-next'); el.stepStatus = $('step-status');
    el.sentence = $('sentence-input');
    el.submit = $('sentence-submit');
    MAX_CHARS = parseInt(el.sentence.getAttribute('maxlength'), 10) || MAX_CHARS;
    el.sentenceError = $('sentence-error'); el.sentenceHelp = $('sentence-help');
    el.ctlError = $('control-error'); el.live = $('live-description');
    var store = $('engine-data');
    try {
      data.diagram = JSON.parse(store.getAttribute('data-scenario-diagram'));
      data['worked-example'] = JSON.parse(store.getAttribute('data-scenario-worked-example'));
      steps = JSON.parse(store.getAttribute('data-steps'));
      messages = JSON.parse(store.getAttribute('data-messages'));
    } catch (e) { return; }
    var want = null;
    try { want = new URLSearchParams(window.location.search).get('scenario'); } catch (e) { want = null; }
    if (want && data[want]) el.scenario.value = want;
    [el.scenario, el.back, el.next].forEach(function (n) { n.disabled = false; });
    wire();
    offline(3);
    loadApp();
  }

  window.AttentionStage = { checkSentence: checkSentence };
  document.addEventListener('DOMContentLoaded', init);
})();
