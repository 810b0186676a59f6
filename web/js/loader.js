/* loader.js - fetches the canvas app (app.js + its wasm) only when the reader wants it:
 *   - when the stage comes within about one screen of the viewport (IntersectionObserver),
 *   - at once when the URL targets the stage (#stage, anything inside it, or a #scenario=...&step=...
 *     link to a place in it), a stage control is
 *     used, or the page asks for it (<body data-app-load="now">, the embed),
 * picks the build: app.simd.* (the trained model's forward pass in WebAssembly SIMD, about twice
 * as fast) where the browser validates a SIMD instruction, else app.* (scalar; the same app, the
 * same numbers), and reaches its wasm in the way the page was opened: over HTTP(S) it fetches
 * NAME.wasm (streaming compile); from file://, where fetch cannot read files, it loads
 * NAME.wasm.js (the same bytes gzip-compressed, then base64, in a script) and unpacks it with the
 * browser's DecompressionStream, or with js/inflate.js where there is none (loaded only then).
 * Either way the wasm compiles while NAME.js
 * arrives, and the app gets the compiled module through Module.instantiateWasm.
 *   AttentionLoader.whenWanted(stageWrap, start)  calls start() once, when wanted
 *   AttentionLoader.load(options) -> Promise<Module>  loads the scripts, starts the app
 *   AttentionLoader.contextAttributes  the WebGL2 context attributes the app asks for */
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

  // A module of one function that uses i32x4.splat and i8x16.popcnt: valid only where the browser
  // has WebAssembly SIMD (the probe of the wasm-feature-detect library).
  var SIMD_PROBE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8,
    0, 65, 0, 253, 15, 253, 98, 11];

  // 'app.simd' or 'app': the base name of the build this browser runs
  function buildName() {
    try { return WebAssembly.validate(new Uint8Array(SIMD_PROBE)) ? 'app.simd' : 'app'; } catch (e) { return 'app'; }
  }

  // gzip bytes -> Promise<the bytes they hold>
  function gunzip(bytes) {
    if (typeof window.DecompressionStream === 'function') {
      var stream = new Blob([bytes]).stream().pipeThrough(new window.DecompressionStream('gzip'));
      return new Response(stream).arrayBuffer();
    }
    return script('js/inflate.js').then(function () { return window.AttentionInflate.gunzip(bytes); });
  }

  // The wasm, compiled while NAME.js is still arriving: over HTTP(S) streamed from NAME.wasm, from
  // file:// unpacked from NAME.wasm.js.
  function compileWasm(name, local) {
    if (local) {
      return script(name + '.wasm.js').then(function () {
        var b64 = window.AttentionAppWasm;
        if (typeof b64 !== 'string') throw new Error(name + '.wasm.js holds no wasm');
        window.AttentionAppWasm = null;
        return gunzip(decode(b64));
      }).then(function (wasm) { return WebAssembly.compile(wasm); });
    }
    var url = name + '.wasm';
    function whole() {
      return fetch(url, { credentials: 'same-origin' }).then(function (r) {
        if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
        return r.arrayBuffer();
      }).then(function (b) { return WebAssembly.compile(b); });
    }
    if (typeof WebAssembly.compileStreaming !== 'function') return whole();
    // streaming needs the server to say application/wasm; otherwise compile the whole file
    return WebAssembly.compileStreaming(fetch(url, { credentials: 'same-origin' })).catch(whole);
  }

  function load(options) {
    if (window.performance && performance.mark) performance.mark('attention-app-load');
    var local = window.location.protocol === 'file:', name = buildName();
    return Promise.all([compileWasm(name, local), script(name + '.js')]).then(function (r) {
      if (typeof window.createAttentionApp !== 'function') throw new Error(name + '.js defines no app');
      var module = r[0];
      options.instantiateWasm = function (imports, receive) {
        WebAssembly.instantiate(module, imports).then(function (instance) { receive(instance); },
          function (e) { if (options.printErr) options.printErr('wasm instantiation failed: ' + e); });
        return {};  // the exports arrive through receive()
      };
      return window.createAttentionApp(options);
    });
  }

  // What platform_web.cpp asks SDL for (through Emscripten's EGL): no alpha, depth, stencil or
  // multisampling (ImGui draws in order, opaque, and antialiases its own edges). The page's probe
  // asks for the same; a multisampled context, the browser's default, costs about three times as
  // long to make on a software rasteriser (about 290 against 100 ms, headless Chromium).
  var CONTEXT_ATTRIBUTES = { alpha: false, depth: false, stencil: false, antialias: false };

  window.AttentionLoader = { whenWanted: whenWanted, load: load, contextAttributes: CONTEXT_ATTRIBUTES };
})();
