/* The interactive stage: loads app.js (the WebGL2 canvas, see docs/contract.md section 4) when it exists
 * and WebGL2 is available, and keeps the HTML controls, the canvas and the live description in sync
 * through onStateChange. Without the app it still steps through the two engine-computed scenarios
 * embedded in the page by the build, so the description and diagram keep working.
 * Faults: a failure the app reports before the page listens is kept and shown; an app that arrives
 * after the wait (data-load-timeout on the stage, ms) is taken up; a lost WebGL context
 * (onCanvasStatus) hides the canvas behind a message while the controls keep working.
 * Every state shown is also sent as an `attention:state` event on the stage (persist.js). */
(function () {
  'use strict';
  var MAX_CHARS = 800, LOAD_TIMEOUT_MS = 20000;  // MAX_CHARS: the input's maxlength (the engine's byte cap once ready)
  var MODEL_VIEW = 4;  // the canvas's Panel::Model (the View select's last option)
  var F, el = {}, data = {}, steps = [], messages = {};
  var api = null;            // wrapped app exports once ready
  var modelInfo = null;      // the trained model on record: file, script, sha256, bytes, heads
  var modelLoad = null;      // the one load in progress or done (a promise), null before/after a failure
  var state = null;          // the last state shown (engine JSON + step/hover)
  var liveTimer = 0;
  var limits = { tokens: 128, bytes: 4096 };  // the engine's, read from attn_tokenize once ready
  var early = null;          // a failure the app reported before it was ready
  var lost = false;          // the canvas's WebGL context is lost (until restored)
  var helpText = '';         // the sentence help as the build wrote it
  var shownExample = null;   // the model's example text last put in the sentence field
  var appModule = null;      // the app's Module once it resolved (to stop its loop on a failure; its memory takes the model's weights)

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
    try { el.stage.dispatchEvent(new CustomEvent('attention:state', { detail: s })); } catch (e) { /* a listener failed */ }
    var step = typeof s.step === 'number' ? s.step : 3;
    var scen = s.sentence ? 'sentence' : s.scenario;
    if (el.scenario.value !== scen) el.scenario.value = scen;
    renderModel(s);
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
    // Next / Back walk the steps of the four-step view only; other views show every step at once.
    // The four steps walk one focus row: in the Four steps view and in the trained model's view.
    var stepView = !(typeof s.panel === 'number' && s.panel !== 0 && s.panel !== MODEL_VIEW);
    el.back.disabled = !stepView || step <= 0;
    el.next.disabled = !stepView || step >= steps.length - 1;
    if (el.stepReason) { el.stepReason.hidden = stepView; el.stepReason.textContent = stepView ? '' : 'This view shows every step at once; Next and Back belong to the Four steps view.'; }
    el.stage.setAttribute('data-step', String(step));
    if (window.AttentionDiagram) window.AttentionDiagram.setStep(step);
    var text;
    try { text = F.describe(s, steps, { isolate: true }); } catch (e) { text = 'The current state could not be described.'; }
    if (window.AttentionCanvasControls) {
      window.AttentionCanvasControls.update(s);
      var ptr = '';
      try { ptr = F.describePointer(s, { isolate: true }); } catch (e) { ptr = ''; }
      window.AttentionCanvasControls.pointer(ptr.replace(/[\u2068\u2069]/g, ''));
    }
    // Announced only when what the view shows changes (never on hover: the pointer has its own,
    // non-live readout), once it settles.
    clearTimeout(liveTimer);
    liveTimer = setTimeout(function () { setLive(text); }, 250);
  }

  // Writes the live text; tokens (marked U+2068 .. U+2069 by describe) go into <bdi> elements so
  // right-to-left words cannot reorder the sentence around them.
  function setLive(marked) {
    var plainText = marked.replace(/[\u2068\u2069]/g, '');
    if (el.live.textContent === plainText) return;
    el.live.textContent = '';
    marked.split(/(\u2068[^\u2069]*\u2069)/).forEach(function (part) {
      if (!part) return;
      if (part.charAt(0) === '\u2068') {
        var b = document.createElement('bdi');
        b.textContent = part.slice(1, -1);
        el.live.appendChild(b);
      } else el.live.appendChild(document.createTextNode(part));
    });
  }

  // ------------------------------------------------------------ without the app: the embedded scenarios
  function offline(step) {
    var s = clone(data[el.scenario.value] || data.diagram);
    s.step = step; s.hover = -1; s.sentence = null;
    render(s);
  }

  // ------------------------------------------------------------ sentence checks before calling the app
  // The first 12 of a list of characters, spaced, with "…" when there are more.
  function listed(chars) { return chars.slice(0, 12).join(' ') + (chars.length > 12 ? ' \u2026' : ''); }

  // Symbols (+ = < > $ ° ...) and control characters: name each one, so the reader knows what to
  // change; a character with nothing to see is named by its code point (a tab: U+0009).
  function refusedMessage(chars) {
    var seen = [];
    chars.forEach(function (c) { if (seen.indexOf(c) < 0) seen.push(c); });
    var names = seen.map(function (c) {
      return /[\p{C}\p{Z}]/u.test(c) ? 'U+' + ('000' + c.codePointAt(0).toString(16).toUpperCase()).slice(-4) : c;
    });
    return 'The sentence cannot use ' + (seen.length > 1 ? 'these symbols' : 'this symbol') + ': ' + listed(names) +
      '. Please use letters, numbers and ordinary punctuation (such as . , ; : ! ? % & / and quotes).';
  }

  // The page never splits text itself: the engine's tokenizer (attn_tokenize) gives the tokens, the
  // default focus and the characters the canvas cannot draw; only then is the sentence sent.
  function checkSentence(text) {
    var t = text.trim();
    if (!t) return { error: 'Type a sentence first: at least two words.' };
    if (new TextEncoder().encode(t).length > limits.bytes) return { error: 'That is ' + t.length + ' characters; a sentence takes at most ' + limits.tokens + ' tokens and ' + limits.bytes + ' bytes. Please shorten it.' };
    if (/[\p{Extended_Pictographic}\u200d\ufe0f]/u.test(t)) return { error: 'Emoji cannot be used here. Please use letters, numbers and ordinary punctuation.' };
    var refused = t.match(/[^\p{L}\p{M}\p{N}\p{P}\p{Zs}]/gu);
    if (refused) return { error: refusedMessage(refused) };
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
      return { error: 'The canvas cannot draw ' + (chars.length > 1 ? 'these characters' : 'this character') + ': ' + listed(chars) + '. It draws Latin and Greek letters, digits and ordinary punctuation; please retype the sentence with those.' };
    }
    if (r.words < 2) return { error: 'Please use at least two words, so the focus token has something to compare with.' };
    return { text: t, focus: r.focus, tokens: r.tokens };
  }


  // ------------------------------------------------------------ the trained model
  function fillSelect(node, items) {
    var sig = items.map(function (x) { return x.value + '\u0001' + x.text; }).join('\u0002');
    if (node.dataset.sig === sig) return;
    node.textContent = '';
    items.forEach(function (x) {
      var o = document.createElement('option');
      o.value = String(x.value); o.textContent = x.text;
      node.appendChild(o);
    });
    node.dataset.sig = sig;
  }
  function headName(h) { return 'Head ' + (h.head + 1) + ': ' + h.label.replace('-', ' ') + ' (' + F.weight(h.score) + ')'; }
  function renderModel(s) {
    var m = s.model, on = !!(m && m.active);
    // the sentence field says which tokenizer takes the text (the trained model's, or the engine's)
    var help = on && messages.model_help ? messages.model_help : helpText;
    if (el.sentenceHelp.textContent !== help) el.sentenceHelp.textContent = help;
    el.modelControls.hidden = !on;
    el.modelHeadsWrap.hidden = !on;
    if (!on) return;
    var layers = [], heads = [];
    for (var l = 0; l < m.config.layers; l++) layers.push({ value: l, text: 'Layer ' + (l + 1) });
    m.heads.filter(function (h) { return h.layer === m.layer; }).forEach(function (h) { heads.push({ value: h.head, text: headName(h) }); });
    fillSelect(el.modelLayer, layers);
    fillSelect(el.modelHead, heads);
    el.modelLayer.value = String(m.layer);
    el.modelHead.value = String(m.head);
    el.modelExample.value = String(m.example);
    // choosing an example text puts it in the sentence field, ready to edit (one word changed is
    // the first misconception's test); what the reader typed stays while their text is shown
    var ex = m.example >= 0 ? m.example + '\u0001' + m.text : null;
    if (ex !== shownExample) {
      if (ex !== null && document.activeElement !== el.sentence) el.sentence.value = m.text;
      shownExample = ex;
    }
    el.modelAblate.checked = !!m.ablated;
    var sig = m.heads.map(function (h) { return h.description; }).join('\u0001');
    if (el.modelHeads.dataset.sig !== sig) {
      el.modelHeads.textContent = '';
      m.heads.forEach(function (h) {
        var li = document.createElement('li');
        li.textContent = h.description;
        el.modelHeads.appendChild(li);
      });
      el.modelHeads.dataset.sig = sig;
    }
  }
  function modelStatus(kind, text, fraction) {
    el.modelLoad.hidden = kind === 'none';
    el.modelLoad.setAttribute('data-model-state', kind);
    el.modelProgress.hidden = kind !== 'loading';
    if (typeof fraction === 'number') el.modelProgress.value = Math.max(0, Math.min(1, fraction));
    else el.modelProgress.removeAttribute('value');  // indeterminate
    el.modelStatus.textContent = text || '';
  }
  // Over HTTP: fetch model.bin, with progress from the stream. From file:// (no fetch): the
  // script-wrapped base64 copy model.js.
  function fetchWeights() {
    return fetch(modelInfo.file).then(function (r) {
      if (!r.ok) throw new Error('the weights file answered HTTP ' + r.status + '.');
      var total = modelInfo.bytes;
      if (!r.body || !r.body.getReader) return r.arrayBuffer().then(function (b) { return new Uint8Array(b); });
      var reader = r.body.getReader(), parts = [], got = 0;
      function pump() {
        return reader.read().then(function (x) {
          if (x.done) {
            var out = new Uint8Array(got), at = 0;
            parts.forEach(function (p) { out.set(p, at); at += p.length; });
            return out;
          }
          parts.push(x.value); got += x.value.length;
          modelStatus('loading', messages.model_loading + ' ' + Math.round(100 * Math.min(1, got / total)) + '%', got / total);
          return pump();
        });
      }
      return pump();
    });
  }
  function scriptWeights() {
    return new Promise(function (resolve, reject) {
      if (typeof window.AttentionModelWeights === 'string') { resolve(window.AttentionModelWeights); return; }
      var sc = document.createElement('script');
      sc.src = modelInfo.script;
      sc.onload = function () {
        if (typeof window.AttentionModelWeights === 'string') resolve(window.AttentionModelWeights);
        else reject(new Error('the weights script held no weights.'));
      };
      sc.onerror = function () { reject(new Error('the weights script could not be read.')); };
      document.head.appendChild(sc);
    }).then(function (b64) {
      var bin = atob(b64), out = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
      return out;
    });
  }
  // Loads the weights once (not before the reader asks); a failure leaves a message and the rest
  // of the page working, and the next request tries again.
  function loadModel() {
    if (modelLoad) return modelLoad;
    if (!modelInfo) { modelStatus('failed', messages.model_missing); return Promise.reject(new Error('no model')); }
    if (!api || !appModule) return Promise.reject(new Error('no app'));
    modelStatus('loading', messages.model_loading, location.protocol === 'file:' ? undefined : 0);
    el.stage.setAttribute('data-model', 'loading');
    var get = location.protocol === 'file:' ? scriptWeights : fetchWeights;
    modelLoad = get().then(function (bytes) {
      if (bytes.length !== modelInfo.bytes) throw new Error('the weights file has ' + bytes.length + ' bytes, not the ' + modelInfo.bytes + ' on record.');
      var ptr = api.modelBuffer(bytes.length);
      if (!ptr) throw new Error('the weights file is too large.');
      appModule.HEAPU8.set(bytes, ptr);
      var err = api.loadModel(modelInfo.sha256, JSON.stringify({ heads: modelInfo.heads }));
      if (err) throw new Error(err);
      el.stage.setAttribute('data-model', 'ready');
      modelStatus('ready', messages.model_loaded);
    });
    modelLoad.catch(function (e) {
      modelLoad = null;
      el.stage.setAttribute('data-model', 'failed');
      var reason = e && e.message ? e.message : String(e);
      if (!/[.!?…]$/.test(reason)) reason += '.';
      modelStatus('failed', messages.model_failed.replace('{reason}', reason.charAt(0).toUpperCase() + reason.slice(1)));
      refresh();  // the selects go back to what the canvas shows
    });
    return modelLoad;
  }
  // Opens the model (as an example or as a view) once its weights are in.
  function openModel(how) {
    loadModel().then(function () {
      if (how === 'view') call(api.setPanel, [MODEL_VIEW], el.ctlError);
      else call(api.setScenario, ['model'], el.ctlError);
    }, function () {});
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
      if (el.scenario.value === 'model') { if (api) openModel('scenario'); return; }
      if (api) call(api.setScenario, [el.scenario.value], el.ctlError);
      if (el.scenario.value === 'sentence') { el.sentence.focus(); return; }
      if (api) return;
      else offline(3);
    });
    el.focus.addEventListener('change', function () {
      if (api) call(api.setFocus, [parseInt(el.focus.value, 10)], el.ctlError);
    });
    el.view.addEventListener('change', function () {
      var v = parseInt(el.view.value, 10);
      if (v === MODEL_VIEW && api) { openModel('view'); return; }
      if (api) call(api.setPanel, [v], el.ctlError);
    });
    el.modelExample.addEventListener('change', function () {
      var v = parseInt(el.modelExample.value, 10);
      if (v < 0) { el.sentence.focus(); return; }
      if (api) call(api.setOption, ['model_example', v], el.ctlError);
    });
    el.modelLayer.addEventListener('change', function () {
      if (api) call(api.setOption, ['model_layer', parseInt(el.modelLayer.value, 10)], el.ctlError);
    });
    el.modelHead.addEventListener('change', function () {
      if (api) call(api.setOption, ['model_head', parseInt(el.modelHead.value, 10)], el.ctlError);
    });
    el.modelAblate.addEventListener('change', function () {
      if (api) call(api.setOption, ['model_ablate', el.modelAblate.checked ? 1 : 0], el.ctlError);
    });
    el.back.addEventListener('click', function () { go(-1); });
    el.next.addEventListener('click', function () { go(1); });
    // A paste longer than the engine takes gets one message and is not cut silently (the paste is
    // refused, so the field keeps what it had).
    el.sentence.addEventListener('paste', function (e) {
      var txt = e.clipboardData ? e.clipboardData.getData('text') : '';
      var bytes = new TextEncoder().encode(txt).length;
      if (txt.length > MAX_CHARS || bytes > limits.bytes) {
        e.preventDefault();
        showError(el.sentenceError, 'That text has ' + txt.length + ' characters; a sentence takes at most ' + limits.tokens + ' tokens (words and punctuation marks) and ' + limits.bytes + ' bytes. Please paste a shorter one.');
        el.sentence.setAttribute('aria-invalid', 'true');
      }
    });
    // An edit of the sentence clears its message: the message spoke of text no longer there.
    el.sentence.addEventListener('input', function () {
      showError(el.sentenceError, '');
      el.sentence.removeAttribute('aria-invalid');
    });
    el.form.addEventListener('submit', function (e) {
      e.preventDefault();
      if (!api) { showError(el.sentenceError, messages.no_app); return; }
      var r = checkSentence(el.sentence.value);
      if (r.error) { showError(el.sentenceError, r.error); el.sentence.setAttribute('aria-invalid', 'true'); el.sentence.focus(); return; }
      el.sentence.removeAttribute('aria-invalid');
      // In the trained model's view the text runs through the model (its own tokenizer; focus:
      // the last token); elsewhere through the illustrative model.
      var inModel = state && state.model && state.model.active;
      // The engine has the last word (e.g. more tokens than it takes): its message is shown as is.
      var ok = inModel ? call(api.setModelText, [r.text, -1], el.sentenceError) : call(api.setSentence, [r.text, r.focus], el.sentenceError);
      if (!ok) el.sentence.setAttribute('aria-invalid', 'true');
    });
  }
  function go(delta) {
    var step = (state && typeof state.step === 'number' ? state.step : 3) + delta;
    if (step < 0 || step >= steps.length) return;
    if (api) call(api.setStep, [step], el.ctlError);
    else offline(step);
  }

  // The app running: its canvas, or the message while its WebGL context is lost.
  function showCanvas() {
    el.canvas.hidden = lost;
    setStageMessage(lost ? 'context-lost' : 'ready', lost ? (messages.context_lost || messages.no_app) : '');
  }
  // The app cannot draw (reported by the app, before or after ready()).
  function appFailed(err) {
    var code = err && err.code;
    // no app keeps running under the message
    try { if (appModule && typeof appModule.pauseMainLoop === 'function') appModule.pauseMainLoop(); } catch (e) { /* gone */ }
    unavailable(code === 'no_webgl2' ? 'no-webgl2' : 'failed', code === 'no_webgl2' ? messages.no_webgl : messages.no_app);
  }
  // Module.onCanvasStatus: "lost" / "restored" (the WebGL context), "failed" (not rebuilt).
  function canvasStatus(status) {
    if (status === 'lost') lost = true;
    else if (status === 'restored') lost = false;
    else if (status === 'failed') { lost = false; early = { code: 'no_canvas' }; if (api) appFailed(early); return; }
    if (api) showCanvas();
  }

  function unavailable(kind, text) {
    api = null;
    el.canvas.hidden = true;
    setStageMessage(kind, text);
    el.sentence.disabled = true; el.submit.disabled = true; el.focus.disabled = true; el.view.disabled = true;
    el.sentenceHelp.textContent = 'Your own sentence needs the interactive view.';
  }

  function ready(m) {
    var cw = m && m.cwrap;
    if (typeof cw !== 'function') { unavailable('failed', messages.no_app); return; }
    appModule = m;
    if (early) { appFailed(early); return; }
    // The wrapper is generated from the export list (src/app/exports.json) into app.js.
    api = typeof m.attnApi === 'function' ? m.attnApi() : null;
    if (!api) { unavailable('failed', messages.no_app); return; }
    showCanvas();
    // The sentence limit is the engine's (tokens and bytes), stated once in the help text.
    try {
      var probe = JSON.parse(api.tokenize(''));
      if (probe.max_tokens) limits = { tokens: probe.max_tokens, bytes: probe.max_bytes };
    } catch (e) { /* keep the defaults */ }
    MAX_CHARS = limits.bytes;  // one limit, the engine's: the field never cuts a sentence it takes
    el.sentence.setAttribute('maxlength', String(limits.bytes));
    helpText = 'Up to ' + limits.tokens + ' tokens (each word and each punctuation mark is one) and ' + limits.bytes + ' bytes. The canvas draws Latin and Greek letters, digits and ordinary punctuation.';
    if (window.AttentionCanvasControls) {
      window.AttentionCanvasControls.attach({
        api: api, form: el.form, readout: el.readout,
        onError: function (msg) { showError(el.ctlError, msg); },
        onChange: refresh
      });
    }
    [el.focus, el.view, el.sentence, el.submit].forEach(function (n) { n.disabled = false; });
    el.sentenceHelp.textContent = helpText;
    el.scenario.querySelector('option[value="sentence"]').disabled = false;
    var mo = el.scenario.querySelector('option[value="model"]');
    if (mo) mo.disabled = false;
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
    // The canvas's first frame sends its state (onStateChange) and the page follows it; this
    // refresh only makes sure, after that frame has been painted, not before it (it costs tens of
    // ms of layout on a slow phone, which the first frame would otherwise wait for).
    afterPaint(refresh);
  }

  // fn runs once the next frame has been painted (a task after the animation frame callback)
  function afterPaint(fn) { window.requestAnimationFrame(function () { setTimeout(fn, 0); }); }

  function hasWebGL2() {
    var gl = null;
    try {
      gl = document.createElement('canvas').getContext('webgl2', window.AttentionLoader.contextAttributes);
    } catch (e) { gl = null; }
    // release the probe's context at once (the app makes its own)
    try { var probe = gl && gl.getExtension('WEBGL_lose_context'); if (probe) probe.loseContext(); } catch (e) { /* released with the canvas */ }
    return !!gl;
  }

  function loadApp() {
    setStageMessage('loading', messages.loading);
    var done = false;  // failed for good, or ready; a timeout only says so and keeps waiting
    var wait = parseInt(el.stage.getAttribute('data-load-timeout'), 10);
    if (!(wait >= 100 && wait <= 600000)) wait = LOAD_TIMEOUT_MS;
    var timer = setTimeout(function () { if (!done) unavailable('failed', messages.no_app); }, wait);
    function failed() { if (!done) { done = true; clearTimeout(timer); unavailable('failed', messages.no_app); } }
    var p;
    try {
      // web/js/loader.js fetches app.js and the wasm (a separate file over HTTP, a script from file://)
      p = window.AttentionLoader.load({
        canvas: el.canvas,
        onStateChange: function (json) {
          var s;
          try { s = JSON.parse(json); } catch (e) { return; /* ignore a malformed update; keep the last state */ }
          if (s && s.ok === false) { early = s.error || {}; if (api) appFailed(early); return; }
          if (api) render(s);
        },
        onCanvasStatus: canvasStatus,
        // The canvas never scrolls inside: the stage is as tall as its content, and the page scrolls.
        onContentHeight: function (h) {
          if (typeof h === 'number' && isFinite(h) && h > 0) el.stage.style.height = Math.round(Math.min(Math.max(h, 320), 6000)) + 'px';
        },
        // A tap on the canvas's own sentence field: the page's real text input takes the text (a
        // phone opens its keyboard only for a real input, inside the tap).
        onTextInputRequest: function () {
          if (el.sentence.disabled) return;
          el.sentence.focus({ preventScroll: true });
          el.sentence.scrollIntoView({ block: 'center' });
        },
        // The canvas asked for the trained model (its own picker): load the weights, then open it.
        onModelWanted: function () { if (api) openModel('scenario'); },
        print: function () {}, printErr: function () {}
      });
    } catch (e) { failed(); return; }
    Promise.resolve(p).then(function (mod) {
      if (done) return;
      done = true; clearTimeout(timer);
      try { ready(mod); } catch (e) { unavailable('failed', messages.no_app); }
    }, failed);
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
    helpText = el.sentenceHelp.textContent;
    el.ctlError = $('control-error'); el.live = $('live-description');
    // the non-live readout of what the pointer highlights, and why Next / Back are off
    el.readout = document.createElement('p');
    el.readout.id = 'pointer-readout'; el.readout.className = 'pointer-readout';
    el.readout.setAttribute('aria-live', 'off');
    el.live.parentNode.appendChild(el.readout);
    el.stepReason = document.createElement('p');
    el.stepReason.id = 'step-reason'; el.stepReason.className = 'setting-reason'; el.stepReason.hidden = true;
    el.next.parentNode.parentNode.appendChild(el.stepReason);
    el.next.setAttribute('aria-describedby', 'step-reason'); el.back.setAttribute('aria-describedby', 'step-reason');
    el.modelControls = $('model-controls'); el.modelExample = $('model-example');
    el.modelLayer = $('model-layer'); el.modelHead = $('model-head'); el.modelAblate = $('model-ablate');
    el.modelLoad = $('model-load'); el.modelProgress = $('model-progress'); el.modelStatus = $('model-status');
    el.modelHeads = $('model-heads'); el.modelHeadsWrap = $('model-heads-wrap');
    var store = $('engine-data');
    try {
      data.diagram = JSON.parse(store.getAttribute('data-scenario-diagram'));
      data['worked-example'] = JSON.parse(store.getAttribute('data-scenario-worked-example'));
      steps = JSON.parse(store.getAttribute('data-steps'));
      messages = JSON.parse(store.getAttribute('data-messages'));
      modelInfo = store.hasAttribute('data-model') ? JSON.parse(store.getAttribute('data-model')) : null;
    } catch (e) { return; }
    var want = null;
    try { want = new URLSearchParams(window.location.search).get('scenario'); } catch (e) { want = null; }
    if (want && data[want]) el.scenario.value = want;
    [el.scenario, el.back, el.next].forEach(function (n) { n.disabled = false; });
    wire();
    offline(3);
    // Until the reader nears the stage it shows a still preview of the canvas's size (loader.js).
    setStageMessage('waiting', messages.waiting || '');
    // The WebGL2 probe makes a context (about 100 ms on a software rasteriser): it runs once, when
    // the app is wanted, or else once the text is painted, so a browser without WebGL2 says so
    // soon without holding up the entry's first paint.
    var probed = null;
    function webgl2() {
      if (probed === null) probed = hasWebGL2();
      if (!probed) unavailable('no-webgl2', messages.no_webgl);
      return probed;
    }
    var started = false;
    window.AttentionLoader.whenWanted(el.stage.parentNode, function () {
      started = true;
      if (webgl2()) loadApp();
    });
    if (!started) afterPaint(webgl2);
  }

  window.AttentionStage = { checkSentence: checkSentence, loadModel: function () { return loadModel(); } };
  document.addEventListener('DOMContentLoaded', init);
})();
