/* HTML controls for every setting the canvas offers (temperature, the 1/sqrt(d) switch, d, the
 * causal mask, per-candidate masks, heads, the misconception word swaps, the vector components in
 * a collapsed table), a short key help the reader can open, and a non-live readout that follows
 * the pointer. Built once the app is ready (they need it); stage.js calls attach() and update().
 * Controls that do not apply to the current view or example are disabled and say why. Every
 * number comes from the app's state JSON (the engine's); the page never computes attention. */
(function () {
  'use strict';
  var VIEWS = { steps: 0, vectors: 1, sentence: 2, misconceptions: 3 };
  // The canvas's keys (what src/app/layout.cpp and ImGui's keyboard navigation do).
  var KEYS = [
    ['Tab', 'moves onto the canvas (a ring shows it) and on to the next page control'],
    ['Arrow keys', 'move between the canvas\u2019s buttons, candidates and map rows'],
    ['Left / Right, Home / End', 'in the whole-sentence map, move along the row'],
    ['Space or Enter', 'press the highlighted button, pin a candidate, make a map row the focus'],
    ['Page Down / Page Up', 'next / previous step of the four-step view'],
    ['Escape', 'leave a text field or a drop-down'],
  ];
  var api = null, el = {}, state = null, onError = null, onChange = null, sig = {};

  function $(id) { return document.getElementById(id); }
  function make(tag, attrs, text) {
    var n = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function field(id, label, control, reasonId) {
    var wrap = make('div', { 'class': 'setting', id: id + '-field' });
    if (control.type === 'checkbox') {
      var l = make('label', { 'for': id });
      l.appendChild(control); l.appendChild(document.createTextNode(' ' + label));
      wrap.appendChild(l);
    } else {
      wrap.appendChild(make('label', { 'for': id }, label));
      wrap.appendChild(control);
    }
    var reason = make('p', { 'class': 'setting-reason', id: reasonId });
    reason.hidden = true;
    wrap.appendChild(reason);
    control.setAttribute('aria-describedby', reasonId);
    return wrap;
  }
  function set(name, value) {
    if (!api) return;
    var msg;
    try { msg = api.setOption(name, value); } catch (e) { msg = 'The canvas could not change that setting.'; }
    if (onError) onError(msg || '');
    if (onChange) onChange();
  }
  // Enables or disables one control with a visible reason (also its accessible description).
  function applies(control, reasonNode, ok, why) {
    control.disabled = !ok;
    reasonNode.textContent = ok ? '' : why;
    reasonNode.hidden = ok;
  }

  function build(form) {
    // collapsed: one line until the reader opens it (the canvas itself has the same controls)
    var box = make('details', { 'class': 'canvas-settings', id: 'canvas-settings' });
    box.appendChild(make('summary', { 'class': 'settings-title', id: 'canvas-settings-title' }, 'Canvas settings: temperature, \u221ad scaling, d, masks, heads, word swaps, vectors'));
    var grid = make('div', { 'class': 'settings-grid' });
    el.temperature = make('input', { type: 'range', id: 'set-temperature', min: '0.1', max: '5', step: '0.05' });
    el.temperatureOut = make('output', { id: 'set-temperature-value', 'for': 'set-temperature' });
    var t = field('set-temperature', 'Temperature T', el.temperature, 'set-temperature-reason');
    t.insertBefore(el.temperatureOut, t.querySelector('.setting-reason'));
    grid.appendChild(t);
    el.scale = make('input', { type: 'checkbox', id: 'set-scale' });
    grid.appendChild(field('set-scale', 'Divide by \u221ad (the 1/\u221ad scale)', el.scale, 'set-scale-reason'));
    el.causal = make('input', { type: 'checkbox', id: 'set-causal' });
    grid.appendChild(field('set-causal', 'Causal mask: a token sees only itself and earlier tokens', el.causal, 'set-causal-reason'));
    el.d = make('input', { type: 'number', id: 'set-d', min: '2', max: '8', step: '1', inputmode: 'numeric' });
    grid.appendChild(field('set-d', 'd (numbers per vector)', el.d, 'set-d-reason'));
    el.heads = make('select', { id: 'set-heads' });
    grid.appendChild(field('set-heads', 'Heads', el.heads, 'set-heads-reason'));
    el.swap = make('select', { id: 'set-swap' });
    grid.appendChild(field('set-swap', 'Misconception 1: the word changed', el.swap, 'set-swap-reason'));
    box.appendChild(grid);
    // per-candidate masks
    el.masks = make('fieldset', { 'class': 'setting-masks', id: 'set-masks' });
    el.masks.appendChild(make('legend', {}, 'Candidates the focus token attends to (clear one to mask it)'));
    el.maskList = make('div', { 'class': 'mask-list' });
    el.masks.appendChild(el.maskList);
    box.appendChild(el.masks);
    // the vector components, collapsed
    el.vectors = make('details', { 'class': 'setting-vectors', id: 'set-vectors' });
    el.vectors.appendChild(make('summary', {}, 'Vector components (q, k, v): edit the numbers'));
    el.vectorsReason = make('p', { 'class': 'setting-reason', id: 'set-vectors-reason' });
    el.vectors.appendChild(el.vectorsReason);
    el.vectorTable = make('div', { 'class': 'vector-table-wrap' });
    el.vectors.appendChild(el.vectorTable);
    box.appendChild(el.vectors);
    // keys
    var help = make('details', { 'class': 'key-help', id: 'key-help' });
    help.appendChild(make('summary', {}, 'Keys for the canvas'));
    var dl = make('dl', {});
    KEYS.forEach(function (k) { dl.appendChild(make('dt', {}, k[0])); dl.appendChild(make('dd', {}, k[1])); });
    help.appendChild(dl);
    help.appendChild(make('p', {}, 'On a touch screen: tap a candidate to pin it, tap it again to let go; tap a row of the map to make it the focus. Every setting is also here, below the canvas.'));
    form.parentNode.insertBefore(box, form.nextSibling);
    box.parentNode.insertBefore(help, box.nextSibling);
    el.box = box;
    wire();
  }

  function wire() {
    el.temperature.addEventListener('input', function () { el.temperatureOut.textContent = Number(el.temperature.value).toFixed(2); set('temperature', Number(el.temperature.value)); });
    el.scale.addEventListener('change', function () { set('scale', el.scale.checked ? 1 : 0); });
    el.causal.addEventListener('change', function () { set('causal', el.causal.checked ? 1 : 0); });
    el.d.addEventListener('change', function () {
      var v = Number(el.d.value);
      if (!Number.isInteger(v) || v < 2 || v > 8) { if (onError) onError('d goes from 2 to 8.'); return; }
      set('d', v);
    });
    el.heads.addEventListener('change', function () { set('heads', Number(el.heads.value)); });
    el.swap.addEventListener('change', function () { set('variant', Number(el.swap.value)); });
    el.maskList.addEventListener('change', function (e) {
      var t = e.target;
      if (t && t.dataset && t.dataset.position !== undefined) set('mask', Number(t.dataset.position));
    });
    el.vectorTable.addEventListener('change', function (e) {
      var t = e.target;
      if (!t || !t.dataset || t.dataset.which === undefined) return;
      var v = Number(t.value);
      if (t.value.trim() === '' || !isFinite(v)) { if (onError) onError('A vector component must be a number.'); return; }
      var msg;
      try { msg = api.setVector(Number(t.dataset.which), Number(t.dataset.candidate), Number(t.dataset.component), v); } catch (err) { msg = 'The canvas could not change that number.'; }
      if (onError) onError(msg || '');
      if (onChange) onChange();
    });
  }

  function options(select, labels, key) {
    var s = labels.join('\u0001');
    if (sig[key] === s) return;
    sig[key] = s;
    select.textContent = '';
    labels.forEach(function (l, i) { select.appendChild(make('option', { value: String(i + (key === 'heads' ? 1 : 0)) }, l)); });
  }

  function updateMasks(s) {
    var cands = s.candidates || [];
    var key = cands.map(function (c) { return c.position + ':' + c.token; }).join('\u0001');
    if (sig.masks !== key) {
      sig.masks = key;
      el.maskList.textContent = '';
      cands.forEach(function (c) {
        var id = 'set-mask-' + c.position;
        var l = make('label', { 'for': id, 'class': 'mask-item' });
        var box = make('input', { type: 'checkbox', id: id });
        box.dataset.position = String(c.position);
        l.appendChild(box);
        var b = make('bdi', {}, c.token);
        l.appendChild(document.createTextNode(' ' + (c.position + 1) + '. '));
        l.appendChild(b);
        el.maskList.appendChild(l);
      });
    }
    var denied = s.denied || [];
    cands.forEach(function (c) {
      var box = $('set-mask-' + c.position);
      if (!box) return;
      box.checked = denied.indexOf(c.position) < 0;
      // a causal or padding mask is not the reader's to lift
      box.disabled = c.masked && denied.indexOf(c.position) < 0;
      box.title = box.disabled ? 'masked by the causal mask (after the focus token)' : '';
    });
  }

  function numberInput(which, cand, comp, v, label) {
    var i = make('input', { type: 'number', step: '0.1', min: '-9.99', max: '9.99', inputmode: 'decimal', 'aria-label': label });
    i.value = String(Math.round(v * 100) / 100);
    i.dataset.which = String(which); i.dataset.candidate = String(cand); i.dataset.component = String(comp);
    return i;
  }
  function updateVectors(s) {
    var ok = !!s.editable && Array.isArray(s.query);
    el.vectorsReason.textContent = ok ? '' : 'These vectors come from the illustrative sentence model and cannot be typed in; choose the diagram or the worked example to edit q, k and v.';
    el.vectorsReason.hidden = ok;
    var key = ok ? JSON.stringify([s.query, (s.candidates || []).map(function (c) { return [c.token, c.key, c.value]; })]) : 'none';
    if (sig.vectors === key) return;
    sig.vectors = key;
    el.vectorTable.textContent = '';
    if (!ok) return;
    var table = make('table', { 'class': 'vector-table' });
    table.appendChild(make('caption', {}, 'q of the focus token, and k and v of each candidate (d = ' + s.d + ')'));
    var head = make('tr', {});
    head.appendChild(make('th', { scope: 'col' }, 'vector'));
    for (var c = 0; c < s.d; c++) head.appendChild(make('th', { scope: 'col' }, String(c + 1)));
    var thead = make('thead', {}); thead.appendChild(head); table.appendChild(thead);
    var body = make('tbody', {});
    function row(name, which, cand, vec) {
      var tr = make('tr', {});
      var th = make('th', { scope: 'row' });
      th.appendChild(document.createTextNode(name[0] + ' '));
      th.appendChild(make('bdi', {}, name[1]));
      tr.appendChild(th);
      vec.forEach(function (v, k) {
        var td = make('td', {});
        td.appendChild(numberInput(which, cand, k, v, name[0] + ' of ' + name[1] + ', component ' + (k + 1)));
        tr.appendChild(td);
      });
      body.appendChild(tr);
    }
    row(['q', (s.tokens || [])[s.focus] || 'focus'], 0, 0, s.query);
    (s.candidates || []).forEach(function (cd, j) {
      row(['k', cd.token], 1, j, cd.key || []);
      row(['v', cd.token], 2, j, cd.value || []);
    });
    table.appendChild(body);
    el.vectorTable.appendChild(table);
  }

  function update(s) {
    if (!el.box || !s || !Array.isArray(s.candidates)) return;
    state = s;
    var panel = typeof s.panel === 'number' ? s.panel : 0;
    var lim = s.limits || {};
    var tl = lim.temperature || [0.1, 5];
    el.temperature.min = String(tl[0]); el.temperature.max = String(tl[1]);
    if (document.activeElement !== el.temperature) el.temperature.value = String(s.temperature);
    el.temperatureOut.textContent = Number(s.temperature).toFixed(2);
    el.scale.checked = !!s.scaled;
    el.causal.checked = !!s.causal;
    var dl = lim.d || [2, 8];
    el.d.min = String(dl[0]); el.d.max = String(dl[1]);
    if (document.activeElement !== el.d) el.d.value = String(s.d);
    applies(el.d, $('set-d-reason'), !!s.editable, 'd is set by the sentence model (d_model ' + (s.d_model || 12) + ' split over the heads); choose the diagram or the worked example to change it.');
    var hl = lim.heads || [1, 4], headLabels = [];
    for (var h = hl[0]; h <= hl[1]; h++) headLabels.push(h + (h === 1 ? ' head' : ' heads'));
    options(el.heads, headLabels, 'heads');
    el.heads.value = String(s.heads);
    var sentenceView = s.kind === 'sentence' || panel === VIEWS.sentence || panel === VIEWS.misconceptions;
    applies(el.heads, $('set-heads-reason'), sentenceView, 'Heads split the sentence model; the hand-chosen vectors of this example are one head. Choose \u201cYour sentence\u201d or the Whole sentence view.');
    var m = s.misconception || {};
    options(el.swap, m.swaps || [], 'swap');
    if (typeof m.variant === 'number') el.swap.value = String(m.variant);
    applies(el.swap, $('set-swap-reason'), panel === VIEWS.misconceptions, 'Used by misconception 1: choose the Misconceptions view.');
    updateMasks(s);
    updateVectors(s);
  }

  // A short readout of what the pointer (or the canvas's keyboard focus) highlights: not live.
  function pointer(text) { if (el.readout && el.readout.textContent !== text) el.readout.textContent = text; }

  function attach(opts) {
    api = opts.api; onError = opts.onError; onChange = opts.onChange;
    if (!el.box) build(opts.form);
    el.readout = opts.readout;
  }

  window.AttentionCanvasControls = { attach: attach, update: update, pointer: pointer, VIEWS: VIEWS };
})();
