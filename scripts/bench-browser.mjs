// Start-up, lazy loading and frame cost in headless Chromium (SwiftShader WebGL2, so CPU-bound:
// read the ratios). Serves the product (dist/) and the bench build of the same site (--bench-dir,
// the app with the attn_bench_* hooks, never shipped) with scripts/serve.mjs, and a one-line blank
// page from a second server; every load is a fresh context (cold cache), 1280 x 900 unless named.
//   before_canvas  index.html, no scrolling: what it fetched (files, gzip bytes; app bytes must be 0),
//                  then scrolled to the stage: what followed, and the canvas in view
//   startup        REPS loads each of blank, index.html#stage (the URL targets the stage: the app
//                  loads at once), embed.html: DOMContentLoaded, text interactive, first frame from
//                  navigation and from the moment the loader started (performance mark)
//   file           index.html#stage from file:// (the base64 copy of the wasm): first frame
//   eager          index.html#stage and embed.html again, interleaved with the loads above, in a
//                  second Chromium that compiles every wasm function before it runs
//                  (--no-wasm-lazy-compilation): what Chromium's lazy compilation costs the start
//   frames         bench build, median of 3 interleaved passes of 120 frames, one per animation
//                  frame as the app draws: ImGui CPU time and whole frame (glFinish included) for
//                  the heatmap at N = 16..128 tokens x 4 heads and for a drag in the Vectors view,
//                  with the app's renderer and with ImGui's OpenGL3 backend (state backup), at
//                  1280 x 900; the drag and N = 128 also on a 360 x 800 phone viewport at DPR 3
//                  (drawing buffer size kept); and the same frames back to back in one call, with
//                  the CPU share of SwiftShader's worker threads (/proc) in both
//   node scripts/bench-browser.mjs --dir dist --bench-dir build/bench-dist [--reps 9] [--frames 120] [--passes 3]
import { chromium } from 'playwright-core';
import { mkdtempSync, writeFileSync, rmSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from './serve.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const dir = resolve(opt('--dir', 'dist'));
const benchDir = resolve(opt('--bench-dir', 'build/bench-dist'));
const REPS = Number(opt('--reps', 9)), FRAMES = Number(opt('--frames', 120)), PASSES = Number(opt('--passes', 3));
const TOKENS = [16, 32, 64, 128];
const FIRST_FRAME_TIMEOUT_MS = 30000;
const APP_FILES = /\/app(\.simd)?(\.wasm)?(\.js)?$/;
const log = (msg) => console.error(`    ${msg}`);

// Runs in the page before its scripts: timestamps, and a wrapper around createAttentionApp that
// notes the first onStateChange (sent after the first drawn frame) and keeps the module.
const probe = () => {
  const b = (window.__bench = { interactive: null, firstFrame: null, frameCpu: null, appError: null, module: null, quiz: false });
  // the first frame's CPU: from the start of the animation frame callback that sends the first state
  const raf = window.requestAnimationFrame.bind(window);
  let rafStart = null;
  window.requestAnimationFrame = (cb) => raf((t) => { rafStart = performance.now(); try { cb(t); } finally { rafStart = null; } });
  document.addEventListener('DOMContentLoaded', () => {
    setTimeout(() => {  // after every other DOMContentLoaded handler (ours was registered first)
      b.interactive = performance.now();
      b.quiz = !!document.querySelector('form.is-enhanced input[type=radio]');
    }, 0);
  });
  let factory;
  Object.defineProperty(window, 'createAttentionApp', {
    configurable: true,
    get: () => factory,
    set(f) {
      factory = typeof f !== 'function' ? f : function (options) {
        const o = options || {};
        const page = o.onStateChange;
        o.onStateChange = function (json) {
          if (b.firstFrame === null && b.appError === null) {  // an {"ok":false} start-up error is no frame
            let state = null;
            try { state = JSON.parse(json); } catch (e) { state = null; }
            if (state && state.ok === false) b.appError = (state.error && state.error.code) || 'error';
            else {
              b.firstFrame = performance.now();
              if (rafStart !== null) b.frameCpu = b.firstFrame - rafStart;
            }
          }
          return page ? page.apply(this, arguments) : undefined;
        };
        const p = f(o);
        Promise.resolve(p).then((m) => { b.module = m; }, () => {});
        return p;
      };
    },
  });
};

const gzipOf = (root, urlPath) => {
  const f = join(root, decodeURIComponent(urlPath).replace(/^\/+/, ''));
  if (!existsSync(f)) return 0;
  return existsSync(`${f}.gz`) ? readFileSync(`${f}.gz`).length : gzipSync(readFileSync(f), { level: 9 }).length;
};

async function waitFirstFrame(page) {
  const handle = await page.waitForFunction(() => {
    const stage = document.getElementById('attention-stage');
    const state = stage && stage.getAttribute('data-app-state');
    if (window.__bench.firstFrame !== null) {
      const mark = performance.getEntriesByName('attention-app-load')[0];
      return { t: window.__bench.firstFrame, from_load: mark ? window.__bench.firstFrame - mark.startTime : null,
               cpu: window.__bench.frameCpu, state };
    }
    if (window.__bench.appError) return { t: null, state: window.__bench.appError };
    if (state === 'failed' || state === 'no-webgl2') return { t: null, state };
    return false;
  }, null, { timeout: FIRST_FRAME_TIMEOUT_MS, polling: 10 }).catch(() => null);
  return handle ? handle.jsonValue() : { t: null, state: 'timeout' };
}

async function measure(browser, url, { app, viewport = { width: 1280, height: 900 }, dpr = 1 }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: dpr });
  const page = await context.newPage();
  const errors = [], requests = [];
  page.on('pageerror', (e) => errors.push(String(e.message || e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text().slice(0, 200)); });
  page.on('request', (r) => requests.push(r.url()));
  await page.addInitScript(probe);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__bench && window.__bench.interactive !== null);
  const v = app ? await waitFirstFrame(page) : { t: null, state: null };
  const times = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return { dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
             interactive: window.__bench.interactive, quiz: window.__bench.quiz };
  });
  return { page, context, errors, requests, appState: v.state, ...times, first_frame: v.t, from_load: v.from_load ?? null,
           frame_cpu: v.cpu ?? null };
}

// index.html as a reader opens it: no scrolling for 2 s after load; then scrolled to the stage.
async function beforeCanvas(browser, origin) {
  const m = await measure(browser, `${origin}/index.html`, { app: false });
  await m.page.waitForTimeout(2000);
  const before = [...new Set(m.requests)].map((u) => new URL(u).pathname);
  const state = await m.page.getAttribute('#attention-stage', 'data-app-state');
  await m.page.evaluate(() => document.getElementById('stage').scrollIntoView({ block: 'start' }));
  const v = await waitFirstFrame(m.page);
  const after = [...new Set(m.requests)].map((u) => new URL(u).pathname).filter((p) => !before.includes(p));
  const r = { files: before, gzip: before.reduce((a, p) => a + gzipOf(dir, p), 0),
    app_files_before: before.filter((p) => APP_FILES.test(p)), state_before: state,
    after_scroll: after, after_gzip: after.reduce((a, p) => a + gzipOf(dir, p), 0),
    first_frame_after_scroll: v.from_load, state_after: v.state, errors: m.errors };
  await m.context.close();
  return r;
}

// CPU seconds so far of the GPU process's worker threads (SwiftShader's rasteriser, named
// "Thread<NN>"), from /proc; null where there is no /proc. Back-to-back frames keep them spinning
// on both cores, which is why the frame figures are paced.
function rasterCpuSeconds() {
  if (!existsSync('/proc/self/task')) return null;
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    let tasks = [];
    try { tasks = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tasks) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        if (!/^Thread<\d+>$/.test(stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')))) continue;
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks += Number(f[11]) + Number(f[12]);  // utime + stime
      } catch { /* the thread ended */ }
    }
  }
  return ticks / 100;  // USER_HZ
}

// Runs `fn(arg)` in the page; returns its result, the wall seconds and the raster threads' CPU seconds.
async function timed(page, fn, arg) {
  const c0 = rasterCpuSeconds(), t0 = Date.now();
  const value = await page.evaluate(fn, arg);
  const c1 = rasterCpuSeconds();
  return { value, wall_s: (Date.now() - t0) / 1000, raster_cpu_s: c0 === null ? null : c1 - c0 };
}

// In the page: one paced pass per renderer call, every figure a run of `frames` frames, one frame
// per animation frame as the app draws (attn_bench_begin / step / end); kind 0 heatmap, 1 drag, 2 model.
const pacedPass = async ({ renderer, tokens, drag, model, frames }) => {
  const mod = window.__bench.module;
  if (!mod || typeof mod._attn_bench_begin !== 'function') return { missing: 'the bench build lacks attn_bench_begin' };
  const nextFrame = () => new Promise((ok) => requestAnimationFrame(ok));
  const run = async (kind, n) => {
    const err = mod.ccall('attn_bench_begin', 'string', ['number', 'number'], [kind, n]);
    for (let i = 0; !err && i < frames; i++) { await nextFrame(); mod.ccall('attn_bench_step', null, [], []); }
    const out = JSON.parse(mod.ccall('attn_bench_end', 'string', [], []));
    return err ? { ok: false, error: err } : out;
  };
  if (renderer) mod.ccall('attn_bench_renderer', null, ['number'], [renderer === 'imgui_gl3' ? 1 : 0]);
  const res = { heatmap: [] };
  for (const n of tokens) res.heatmap.push(Object.assign({ tokens: n }, await run(0, n)));
  res.drag = drag ? await run(1, 0) : null;
  res.model = model ? await run(2, 0) : null;
  mod.ccall('attn_bench_renderer', null, ['number'], [0]);
  return res;
};

// In the page: the heatmap at the largest N and the drag, each `frames` frames back to back in one call.
const backToBack = ({ n, frames }) => {
  const mod = window.__bench.module;
  const call = (f, types, a) => { try { return JSON.parse(mod.ccall(f, 'string', types, a)); } catch (e) { return { error: String(e.message || e) }; } };
  return { heatmap: Object.assign({ tokens: n }, call('attn_bench_frames', ['number', 'number'], [n, frames])),
           drag: call('attn_bench_drag', ['number'], [frames]) };
};

// The trained model's view needs its weights: the reader's choice loads them.
async function loadModel(page) {
  await page.selectOption('#scenario-select', 'model');
  return page.waitForFunction(() => {
    try { const s = JSON.parse(window.__bench.module.ccall('attn_state_json', 'string', [], [])); return !!(s.model && s.model.active); } catch { return false; }
  }, null, { timeout: 30000 }).then(() => true, () => false);
}

// Frame cost in one page: a discarded back-to-back warm-up (V8 compiles the hot wasm functions
// with its optimising tier first), then PASSES paced passes, renderers interleaved so machine noise
// hits both, and after each pass the back-to-back comparison; each figure the median over passes.
async function frames(browser, origin, { viewport, dpr, renderers, tokens, drag, model }) {
  const m = await measure(browser, `${origin}/index.html#stage`, { app: true, viewport, dpr });
  if (m.first_frame === null) { await m.context.close(); return { missing: `the bench app did not start (${m.appState})` }; }
  const hasModel = model ? await loadModel(m.page) : false;
  const big = tokens[tokens.length - 1];
  await m.page.evaluate(({ tokens, frames }) => {
    const mod = window.__bench.module;
    for (const n of tokens) mod.ccall('attn_bench_frames', 'string', ['number', 'number'], [n, frames]);
    mod.ccall('attn_bench_drag', 'string', ['number'], [frames]);
  }, { tokens, frames: FRAMES });
  const runs = Object.fromEntries(renderers.map((r) => [r, []]));
  const b2b = [], cpu = { paced: { wall_s: 0, raster_cpu_s: 0 }, back_to_back: { wall_s: 0, raster_cpu_s: 0 } };
  const add = (into, t) => { into.wall_s += t.wall_s; into.raster_cpu_s = t.raster_cpu_s === null || into.raster_cpu_s === null ? null : into.raster_cpu_s + t.raster_cpu_s; };
  for (let pass = 0; pass < PASSES; pass++) {
    for (const r of renderers) {
      const t = await timed(m.page, pacedPass, { renderer: r, tokens, drag, model: hasModel && r === renderers[0], frames: FRAMES });
      if (t.value.missing) { await m.context.close(); return { missing: t.value.missing }; }
      runs[r].push(t.value);
      if (r === renderers[0]) add(cpu.paced, t);
    }
    const t = await timed(m.page, backToBack, { n: big, frames: FRAMES });
    b2b.push(t.value);
    add(cpu.back_to_back, t);
  }
  const med = (xs) => { const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b); return s.length ? s[(s.length - 1) >> 1] : null; };
  const keys = ['p50_ms', 'p95_ms', 'max_ms', 'whole_p50_ms', 'whole_p95_ms'];
  const merge = (list) => (list[0] && list[0].ok !== false ? Object.assign({}, list[0], Object.fromEntries(keys.map((k) => [k, med(list.map((x) => x[k]))])),
    { passes: list.length, p95_range_ms: [Math.min(...list.map((x) => x.p95_ms)), Math.max(...list.map((x) => x.p95_ms))] }) : list[0]);
  const res = {};
  for (const r of renderers) res[r] = { heatmap: tokens.map((n, i) => merge(runs[r].map((p) => p.heatmap[i]))),
                                        drag: drag ? merge(runs[r].map((p) => p.drag)) : null };
  const share = (c) => (c.raster_cpu_s === null || !c.wall_s ? null : c.raster_cpu_s / c.wall_s);
  const canvas = await m.page.evaluate(() => { const c = document.getElementById('attention-canvas'); return { width: c.width, height: c.height, css_w: c.clientWidth, css_h: c.clientHeight }; });
  const out = { renderers: res, passes: PASSES, paced: true, canvas,
    back_to_back: { heatmap: merge(b2b.map((x) => x.heatmap)), drag: merge(b2b.map((x) => x.drag)) },
    raster_cpu_share: { paced: share(cpu.paced), back_to_back: share(cpu.back_to_back) },
    model: !model ? null : hasModel ? merge(runs[renderers[0]].map((p) => p.model)) : { missing: 'the trained model did not load in the bench page' } };
  out.errors = m.errors;
  await m.context.close();
  return out;
}

const blankDir = mkdtempSync(join(tmpdir(), 'bench-blank-'));
writeFileSync(join(blankDir, 'blank.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>blank</title><p>blank</p>\n');
const site = await startServer({ dir, port: 0, basePath: '/' });
const benchSite = existsSync(join(benchDir, 'index.html')) ? await startServer({ dir: benchDir, port: 0, basePath: '/' }) : null;
const blank = await startServer({ dir: blankDir, port: 0, basePath: '/' });
const origin = (s) => `http://127.0.0.1:${s.address().port}`;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--allow-file-access-from-files'];
const EAGER_FLAG = '--js-flags=--no-wasm-lazy-compilation';
const launchChromium = (extra = []) => chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, ...extra] });
const browser = await launchChromium();
const eagerBrowser = await launchChromium([EAGER_FLAG]);
const median = (xs) => { const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (!s.length) return null; const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const targets = { blank: { url: `${origin(blank)}/blank.html`, app: false },
                  'index.html#stage': { url: `${origin(site)}/index.html#stage`, app: true },
                  'embed.html': { url: `${origin(site)}/embed.html`, app: true },
                  'file:// index.html#stage': { url: `${pathToFileURL(join(dir, 'index.html')).href}#stage`, app: true } };
const eagerTargets = ['index.html#stage', 'embed.html'];
const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
const eagerSamples = Object.fromEntries(eagerTargets.map((k) => [k, []]));
const result = { reps: REPS, frames: FRAMES, chromium: browser.version(), startup: {}, startup_eager: { flag: EAGER_FLAG },
                 before_canvas: null, frame_cost: null, phone: null, requests: {}, errors: {} };
try {
  log('index.html without scrolling, then scrolled to the stage');
  result.before_canvas = await beforeCanvas(browser, origin(site));
  for (let r = 0; r < REPS; r++) {
    for (const [name, t] of Object.entries(targets)) {
      const m = await measure(browser, t.url, t);
      samples[name].push(m);
      if (r === 0) { result.requests[name] = [...new Set(m.requests)]; result.errors[name] = m.errors; }
      await m.context.close();
    }
    for (const name of eagerTargets) {
      const m = await measure(eagerBrowser, targets[name].url, targets[name]);
      eagerSamples[name].push(m);
      await m.context.close();
    }
    log(`round ${r + 1}/${REPS}: ` + Object.entries(samples).map(([k, v]) => {
      const s = v[v.length - 1];
      return `${k} dcl ${s.dcl.toFixed(0)} ms` + (targets[k].app ? `, frame ${s.first_frame === null ? s.appState : `${s.first_frame.toFixed(0)} ms (${(s.from_load ?? NaN).toFixed(0)} from load)`}` : '');
    }).join('; '));
  }
  for (const [name, list] of Object.entries(samples))
    result.startup[name] = { dcl_ms: median(list.map((s) => s.dcl)), load_ms: median(list.map((s) => s.load)),
      interactive_ms: median(list.map((s) => s.interactive)), quiz_enhanced: list.every((s) => s.quiz),
      first_frame_ms: targets[name].app ? median(list.map((s) => s.first_frame)) : null,
      first_frame_from_load_ms: targets[name].app ? median(list.map((s) => s.from_load)) : null,
      first_frame_cpu_ms: targets[name].app ? median(list.map((s) => s.frame_cpu)) : null,
      first_frame_missing: targets[name].app ? list.filter((s) => s.first_frame === null).map((s) => s.appState) : [] };
  for (const [name, list] of Object.entries(eagerSamples))
    result.startup_eager[name] = { first_frame_ms: median(list.map((s) => s.first_frame)),
      first_frame_from_load_ms: median(list.map((s) => s.from_load)), first_frame_cpu_ms: median(list.map((s) => s.frame_cpu)),
      first_frame_missing: list.filter((s) => s.first_frame === null).map((s) => s.appState) };
  if (benchSite) {
    log('frame cost, bench build, 1280 x 900: heatmap N = 16..128, drag; own renderer vs ImGui OpenGL3 backend');
    result.frame_cost = await frames(browser, origin(benchSite), { viewport: { width: 1280, height: 900 }, dpr: 1,
      renderers: ['own', 'imgui_gl3'], tokens: TOKENS, drag: true, model: true });
    log('frame cost, bench build, 360 x 800 at DPR 3: heatmap N = 128, drag');
    result.phone = await frames(browser, origin(benchSite), { viewport: { width: 360, height: 800 }, dpr: 3,
      renderers: ['own'], tokens: [128], drag: true });
  } else result.frame_cost = { missing: `no bench build at ${benchDir}` };
} finally {
  await browser.close();
  await eagerBrowser.close();
  site.close(); blank.close(); if (benchSite) benchSite.close();
  rmSync(blankDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
