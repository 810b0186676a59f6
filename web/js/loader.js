/* loader.js - fetches the canvas app (app.js + its wasm) only when the reader wants it:
 *   - when the stage comes within about one screen of the viewport (IntersectionObserver),
 *   - at once when the URL targets the stage (#stage, anything inside it, or a #scenario=...&step=...
 *     link to a place in it), a stage control is
 *     used, or the page asks for it (<body data-app-load="now">, the embed),
 * and reaches the one wasm binary in the way the page was opened: over HTTP(S) it fetches app.wasm
 * (streaming compile); from file://, where fetch cannot read files, it loads app.wasm.js (the
 * same bytes, base64 in a script). Either way the wasm compiles while app.js arrives, and the
 * app gets the compiled module through Module.instantiateWasm.
 *   AttentionLoader.whenWanted(stageWrap, start)  calls start() once, when wanted
 *   AttentionLoader.load(options) -> Promise<Module>  loads the scripts, starts the app */
(function () {
  'use strict';

  function whenWanted(wrap, start) {
    var started = false, io = null;
    function go() {
      if (started) return;
      started = true;
      if (io) io.disconnect();
      ['focusin', 'pointerdown', 'input', 'change'].forEach(function (t) { wrap.removeEventListener(t, go, true); });
      window.removeEventListener('hashchange', onHash);
      start();
    }
    function targeted() {
      var id = (window.location.hash || '').slice(1), t = null;
      if (id.indexOf('=') >= 0) return true;  // a link to a place in the canvas (persist.js)
      try { t = id && document.getElementById(decodeURIComponent(id)); } catch (e) { t = null; }
      return !!t && (t === wrap || wrap.contains(t));
    }
    function onHash() { if (targeted()) go(); }
    if (document.body.getAttribute('data-app-load') === 'now' || targeted() ||
        typeof window.IntersectionObserver !== 'function') { go(); return; }
    ['focusin', 'pointerdown', 'input', 'change'].forEach(function (t) { wrap.addEventListener(t, go, true); });
    window.addEventListener('hashchange', onHash);
    io = new IntersectionObserver(function (entries) {
      for (var i = 0; i < entries.length; i++) if (entries[i].isIntersecting) { go(); return; }
    }, { rootMargin: '100% 0px 100% 0px' });  // one viewport height above and below
    io.observe(wrap);
  }

  function script(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error('could not load ' + src)); };
      document.head.appendChild(s);
    });
  }

  function decode(b64) {
    var bin = atob(b64), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  // The wasm, compiled while app.js is still arriving: over HTTP(S) streamed from app.wasm, from
  // file:// decoded from app.wasm.js.
  function compileWasm(local) {
    if (local) {
      return script('app.wasm.js').then(function () {
        var b64 = window.AttentionAppWasm;
        if (typeof b64 !== 'string') throw new Error('app.wasm.js holds no wasm');
        window.AttentionAppWasm = null;
        return WebAssembly.compile(decode(b64));
      });
    }
    function whole() {
      return fetch('app.wasm', { credentials: 'same-origin' }).then(function (r) {
        if (!r.ok) throw new Error('app.wasm: HTTP ' + r.status);
        return r.arrayBuffer();
      }).then(function (b) { return WebAssembly.compile(b); });
    }
    if (typeof WebAssembly.compileStreaming !== 'function') return whole();
    // streaming needs the server to say application/wasm; otherwise compile the whole file
    return WebAssembly.compileStreaming(fetch('app.wasm', { credentials: 'same-origin' })).catch(whole);
  }

  function load(options) {
    if (window.performance && performance.mark) performance.mark('attention-app-load');
    var local = window.location.protocol === 'file:';
    return Promise.all([compileWasm(local), script('app.js')]).then(function (r) {
      if (typeof window.createAttentionApp !== 'function') throw new Error('app.js defines no app');
      var module = r[0];
      options.instantiateWasm = function (imports, receive) {
        WebAssembly.instantiate(module, imports).then(function (instance) { receive(instance); },
          function (e) { if (options.printErr) options.printErr('wasm instantiation failed: ' + e); });
        return {};  // the exports arrive through receive()
      };
      return window.createAttentionApp(options);
    });
  }

  window.AttentionLoader = { whenWanted: whenWanted, load: load };
})();
