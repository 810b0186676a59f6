// Start-up and frame cost in headless Chromium (SwiftShader WebGL2, so CPU-bound: read ratios).
// Serves dist/ with scripts/serve.mjs and a one-line blank page from a second server, and loads
// blank, index.html and embed.html in turn, each in a fresh context (cold cache), REPS times:
//   dcl          navigation -> DOMContentLoaded (performance timeline)
//   interactive  navigation -> every DOMContentLoaded handler done (the quiz form enhanced)
//   first_frame  navigation -> the app's first Module.onStateChange call (after its first frame;
//                window.__attentionFirstFrame is used instead if the page sets it to a time)
// Then, on index.html, the frame cost from the app's attn_bench_frames(tokens, frames) export.
//   node scripts/bench-browser.mjs [--dir dist] [--reps 5] [--frames 60]   -> JSON on stdout
import { chromium } from 'playwright-core';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from './serve.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const dir = resolve(opt('--dir', 'dist'));
const REPS = Number(opt('--reps', 5)), FRAMES = Number(opt('--frames', 60));
const TOKENS = [3, 16, 64, 128];
const FIRST_FRAME_TIMEOUT_MS = 30000;
const log = (msg) => console.error(`    ${msg}`);

// Runs in the page before its scripts: timestamps, and a wrapper around createAttentionApp that
// notes the first onStateChange and keeps the module for the frame-cost calls.
const probe = () => {
  const b = (window.__bench = { interactive: null, firstFrame: null, appError: null, module: null, quiz: false });
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
            else b.firstFrame = performance.now();
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

async function measure(browser, url, { app }) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors = [], requests = [];
  page.on('pageerror', (e) => errors.push(String(e.message || e)));
  page.on('request', (r) => requests.push(r.url()));
  await page.addInitScript(probe);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__bench && window.__bench.interactive !== null);
  let firstFrame = null, appState = null;
  if (app) {
    const handle = await page.waitForFunction(() => {
      const stage = document.getElementById('attention-stage');
      const state = stage && stage.getAttribute('data-app-state');
      const own = typeof window.__attentionFirstFrame === 'number' ? window.__attentionFirstFrame : null;
      const t = own ?? window.__bench.firstFrame;
      if (t !== null) return { t, state };
      if (window.__bench.appError) return { t: null, state: window.__bench.appError };
      if (state === 'failed' || state === 'no-webgl2') return { t: null, state };
      return false;
    }, null, { timeout: FIRST_FRAME_TIMEOUT_MS, polling: 10 }).catch(() => null);
    const v = handle ? await handle.jsonValue() : { t: null, state: 'timeout' };
    firstFrame = v.t; appState = v.state;
  }
  const times = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return { dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
             interactive: window.__bench.interactive, quiz: window.__bench.quiz };
  });
  return { page, context, errors, requests, appState, ...times, first_frame: firstFrame };
}

async function frameCost(page) {
  return page.evaluate(({ tokens, frames }) => {
    const m = window.__bench.module;
    if (!m) return { missing: 'the app did not start' };
    if (typeof m._attn_bench_frames !== 'function') return { missing: 'app lacks attn_bench_frames' };
    return { rows: tokens.map((n) => {
      try { return JSON.parse(m.ccall('attn_bench_frames', 'string', ['number', 'number'], [n, frames])); }
      catch (e) { return { tokens: n, error: String(e.message || e) }; }
    }) };
  }, { tokens: TOKENS, frames: FRAMES });
}

const blankDir = mkdtempSync(join(tmpdir(), 'bench-blank-'));
writeFileSync(join(blankDir, 'blank.html'), '<!doctype html><meta charset="utf-8"><title>blank</title><p>blank</p>\n');
const site = await startServer({ dir, port: 0, basePath: '/' });
const blank = await startServer({ dir: blankDir, port: 0, basePath: '/' });
const origin = (s) => `http://127.0.0.1:${s.address().port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--window-size=1200,900'],
});
const median = (xs) => { const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (!s.length) return null; const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const targets = { blank: { url: `${origin(blank)}/blank.html`, app: false },
                  'index.html': { url: `${origin(site)}/index.html`, app: true },
                  'embed.html': { url: `${origin(site)}/embed.html`, app: true } };
const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
const result = { reps: REPS, frames: FRAMES, chromium: browser.version(), startup: {}, frame_cost: null,
                 requests: {}, errors: {} };
try {
  for (let r = 0; r < REPS; r++) {
    for (const [name, t] of Object.entries(targets)) {
      const m = await measure(browser, t.url, t);
      samples[name].push(m);
      if (r === 0) {
        result.requests[name] = [...new Set(m.requests)];
        result.errors[name] = m.errors;
      }
      if (name === 'index.html' && r === REPS - 1) result.frame_cost = await frameCost(m.page);
      await m.context.close();
    }
    log(`round ${r + 1}/${REPS}: ` + Object.entries(samples).map(([k, v]) => {
      const s = v[v.length - 1];
      return `${k} dcl ${s.dcl.toFixed(0)} ms` + (targets[k].app ? `, frame ${s.first_frame === null ? s.appState : s.first_frame.toFixed(0) + ' ms'}` : '');
    }).join('; '));
  }
  for (const [name, list] of Object.entries(samples))
    result.startup[name] = { dcl_ms: median(list.map((s) => s.dcl)), load_ms: median(list.map((s) => s.load)),
      interactive_ms: median(list.map((s) => s.interactive)), quiz_enhanced: list.every((s) => s.quiz),
      first_frame_ms: targets[name].app ? median(list.map((s) => s.first_frame)) : null,
      first_frame_missing: targets[name].app ? list.filter((s) => s.first_frame === null).map((s) => s.appState) : [] };
} finally {
  await browser.close();
  site.close(); blank.close();
  rmSync(blankDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
