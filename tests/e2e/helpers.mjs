// Shared helpers for the browser suite: paths, the Chromium launch, the project's server, the
// engine CLI, number formatting to the page's precision, a tiny PNG decoder for pixel checks, and a
// watcher that records console errors, failed requests and requests to any other origin.
// ATTN_DIST=/some/dir runs the suite against another build of the page (default: dist/).
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { startServer } from '../../scripts/serve.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = resolve(process.env.ATTN_DIST || join(ROOT, 'dist'));
export const CLI = resolve(process.env.ATTN_CLI || join(ROOT, 'build/native/src/cli/attention_cli'));
export const SCENARIOS = join(ROOT, 'assets/scenarios');
export const ENTRY = join(ROOT, 'assets/content/attention-score/entry.json');
export const SHOTS = join(ROOT, 'tests/e2e/screenshots');
export const SUB_PATH = '/learn/ai/attention-score/';
export const APP_TIMEOUT = 30000; // SwiftShader on 2 cores: the app is usually ready in ~2 s

// WebGL2 through SwiftShader (--use-angle, --enable-unsafe-swiftshader), no network side-traffic
// (the --disable-* flags).
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];

export function launch(extraArgs = []) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...extraArgs] });
}

// Serves `dir` with scripts/serve.mjs on a free port; returns {server, origin, url, close}.
export async function serve({ dir = DIST, basePath = '/' } = {}) {
  const server = await startServer({ dir: resolve(dir), port: 0, basePath });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { server, origin, url: origin + basePath, close: () => new Promise((ok) => server.close(ok)) };
}

export function shot(name) {
  mkdirSync(SHOTS, { recursive: true });
  return join(SHOTS, name + '.png');
}

export function readEntry() { return JSON.parse(readFileSync(ENTRY, 'utf8')); }

// The engine, as the build runs it: attention_cli scenario <id>.json --json
export function engine(id) {
  const out = execFileSync(CLI, ['scenario', join(SCENARIOS, id + '.json'), '--json'], { encoding: 'utf8' });
  const j = JSON.parse(out);
  if (!j.ok) throw new Error('engine failed on ' + id + ': ' + out);
  return j;
}

// The page's documented precision (assets/content/SCHEMA.md), written out independently here:
// scores up to 2 decimals with trailing zeros dropped and a real minus sign; weights 2 decimals.
export function fmtScore(x) {
  let r = Math.round(x * 100) / 100;
  if (Object.is(r, -0)) r = 0;
  return String(r).replace('-', '\u2212');
}
export function fmtWeight(x) {
  const s = x.toFixed(2);
  return s === '-0.00' ? '0.00' : s.replace('-', '\u2212');
}

// Records what a reader would never want to see. Routes every request: any origin other than
// `origin` (or file:/data:/blob:) is aborted and counted.
export async function watch(target, origin) {
  const log = { errors: [], failed: [], foreign: [], requests: [] };
  const origins = [].concat(origin); // one origin or several (an embed and its host)
  const allowed = (u) => u.startsWith('data:') || u.startsWith('blob:') ||
    origins.some((o) => (o === 'file:' ? u.startsWith('file:') : u.startsWith('http') && new URL(u).origin === o));
  await target.route('**/*', (route) => {
    const u = route.request().url();
    if (allowed(u)) return route.continue();
    log.foreign.push(u);
    return route.abort('blockedbyclient');
  });
  const attach = (page) => {
    page.on('console', (m) => { if (m.type() === 'error') log.errors.push(m.text().slice(0, 300)); });
    page.on('pageerror', (e) => log.errors.push('pageerror: ' + e.message));
    page.on('request', (r) => { log.requests.push(r.url()); if (!allowed(r.url())) log.foreign.push(r.url()); });
    page.on('requestfailed', (r) => { if (!log.foreign.includes(r.url())) log.failed.push(r.url() + ' ' + (r.failure() || {}).errorText); });
    page.on('response', (r) => { if (r.status() >= 400) log.failed.push(r.url() + ' HTTP ' + r.status()); });
  };
  if (typeof target.newPage === 'function' && typeof target.pages === 'function') {
    target.pages().forEach(attach);
    target.on('page', attach);
  } else attach(target);
  return log;
}

// There is no window hook for the app's Module; this init script wraps the page's own factory
// (createAttentionApp, a global set by app.js) and keeps the Module it resolves to in
// window.__attnModule so the test can read the exported state (attn_state_json) directly.
export function hookModule(context) {
  return context.addInitScript(() => {
    let real;
    Object.defineProperty(window, 'createAttentionApp', {
      configurable: true,
      get() { return real; },
      set(factory) {
        real = function (opts) {
          const p = factory(opts);
          Promise.resolve(p).then((m) => { window.__attnModule = m; });
          return p;
        };
      },
    });
  });
}

// Waits until the stage has settled (ready / no-webgl2 / failed) and returns that state. The page
// loads the app only when the reader nears the stage (web/js/loader.js), so a waiting stage is
// scrolled to, as a reader would.
export async function stageSettled(page, timeout = APP_TIMEOUT) {
  await page.waitForFunction(() => {
    const s = document.getElementById('attention-stage');
    if (s && s.getAttribute('data-app-state') === 'waiting') s.scrollIntoView({ block: 'start' });
    return s && !['loading', 'none', 'waiting'].includes(s.getAttribute('data-app-state'));
  }, null, { timeout });
  return page.getAttribute('#attention-stage', 'data-app-state');
}

export async function appReady(page) {
  const st = await stageSettled(page);
  if (st !== 'ready') throw new Error('the app did not start: #attention-stage data-app-state=' + st);
  await page.waitForFunction(() => !!window.__attnModule, null, { timeout: APP_TIMEOUT });
}

// A fresh context (1200 x 900 unless `options` says otherwise) with the module hooked, on `url`;
// page errors and every request's URL are collected. `ready: false` returns at the load event
// instead of waiting for the app (the lazy-loading tests); `options.init`, a function, runs in
// every page before the page's own scripts. Returns {context, page, errors, requests}.
export async function openApp(browser, url, options = {}, { ready = true } = {}) {
  const { init, ...contextOptions } = options;  // init: a script run in the page before its own
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...contextOptions });
  if (init) await context.addInitScript(init);
  await hookModule(context);
  const page = await context.newPage();
  const errors = [], requests = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url, { waitUntil: 'load' });
  if (ready) await appReady(page);
  return { context, page, errors, requests };
}

// The app's exported state JSON, parsed (raw text kept to check for NaN/Infinity).
export async function appState(page) {
  const raw = await page.evaluate(() => window.__attnModule.ccall('attn_state_json', 'string', [], []));
  if (/NaN|Infinity/.test(raw)) throw new Error('state JSON contains NaN/Infinity: ' + raw.slice(0, 300));
  return Object.assign(JSON.parse(raw), { _raw: raw });
}

// Polls the exported state until predicate(state, arg) holds (no fixed sleeps; fails with the last state).
export async function waitState(page, predicate, arg, timeout = 15000) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    last = await appState(page);
    if (predicate(last, arg)) return last;
    if (Date.now() > end) throw new Error('state never matched ' + predicate + '; last: ' + last._raw.slice(0, 300));
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ---------------------------------------------------------------- pixels (PNG, 8-bit RGB/RGBA)
export function decodePng(buf) {
  let pos = 8, width = 0, height = 0, ctype = 0, depth = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), type = buf.toString('ascii', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') { width = body.readUInt32BE(0); height = body.readUInt32BE(4); depth = body[8]; ctype = body[9]; }
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  if (depth !== 8 || (ctype !== 2 && ctype !== 6)) throw new Error(`unsupported PNG: depth ${depth} type ${ctype}`);
  const bpp = ctype === 6 ? 4 : 3, stride = width * bpp;
  const raw = inflateSync(Buffer.concat(idat));
  const out = Buffer.alloc(width * height * 4);
  let prev = Buffer.alloc(stride), rp = 0;
  for (let y = 0; y < height; y++) {
    const f = raw[rp++], line = Buffer.from(raw.subarray(rp, rp + stride)); rp += stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? line[x - bpp] : 0, b = prev[x], c = x >= bpp ? prev[x - bpp] : 0;
      let add = 0;
      if (f === 1) add = a; else if (f === 2) add = b; else if (f === 3) add = (a + b) >> 1;
      else if (f === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      line[x] = (line[x] + add) & 255;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      out[o] = line[x * bpp]; out[o + 1] = line[x * bpp + 1]; out[o + 2] = line[x * bpp + 2]; out[o + 3] = bpp === 4 ? line[x * bpp + 3] : 255;
    }
    prev = line;
  }
  return { width, height, data: out };
}

// How many distinct colours, and the share of the most common one.
export function colourStats(png) {
  const img = decodePng(png), counts = new Map();
  for (let i = 0; i < img.data.length; i += 4) {
    const k = img.data.readUInt32BE(i);
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  const top = Math.max(...counts.values());
  return { distinct: counts.size, dominant: top / (img.width * img.height), mean: meanRgb(img) };
}
function meanRgb(img) {
  let r = 0, g = 0, b = 0; const n = img.width * img.height;
  for (let i = 0; i < img.data.length; i += 4) { r += img.data[i]; g += img.data[i + 1]; b += img.data[i + 2]; }
  return [r / n, g / n, b / n];
}

// Share of pixels that differ between two same-sized screenshots.
export function pixelDiff(pngA, pngB) {
  const a = decodePng(pngA), b = decodePng(pngB);
  if (a.width !== b.width || a.height !== b.height) return 1;
  let diff = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]) > 24) diff++;
  }
  return diff / (a.width * a.height);
}

export function luminance([r, g, b]) { return 0.2126 * r + 0.7152 * g + 0.0722 * b; }

// Answers the quiz with the keyboard alone. `pick(question)` returns the option index to choose.
// Tabs from the element before the quiz into each radio group; arrow keys move within a group.
export async function answerQuizByKeyboard(page, picks) {
  const groups = await page.$$eval('#quiz fieldset.question', (fs) => fs.map((f) => f.id));
  for (let qi = 0; qi < groups.length; qi++) {
    const id = groups[qi];
    // Tab until focus is inside this fieldset (at most 60 presses, so a broken tab order fails).
    for (let n = 0; n < 60; n++) {
      const inside = await page.evaluate((g) => !!document.activeElement.closest('#' + g), id);
      if (inside) break;
      await page.keyboard.press('Tab');
      if (n === 59) throw new Error('Tab never reached ' + id);
    }
    // The first Tab into an unchecked group focuses its first radio (without checking it).
    const want = picks[qi];
    const idx = () => page.evaluate(() => {
      const r = document.activeElement;
      return Array.prototype.indexOf.call(r.closest('fieldset').querySelectorAll('input[type=radio]'), r);
    });
    await page.keyboard.press('Space'); // checks the focused (first) radio
    for (let guard = 0; (await idx()) !== want && guard < 10; guard++) await page.keyboard.press('ArrowDown');
    assertChecked(await page.evaluate(() => document.activeElement.checked), id);
  }
}
function assertChecked(ok, id) { if (!ok) throw new Error('keyboard did not check a radio in ' + id); }

export const norm = (s) => s.replace(/\s+/g, ' ').trim();
// inline markup of entry.json (SCHEMA.md): *em*, **strong**, [label](href) -> the text a reader sees
export const plainText = (s) => s.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*([^*]+)\*\*/g, '$1').replace(/\*([^*]+)\*/g, '$1');

// The quiz's right answers and feedback come from entry.json, not from the page.
export function quizSpec() {
  const quiz = readEntry().groups.flatMap((g) => g.sections).find((s) => s.kind === 'quiz');
  return quiz.questions.map((q) => ({
    id: q.id,
    right: q.options.findIndex((o) => o.correct),
    wrong: q.options.findIndex((o) => !o.correct),
    feedback: q.options.map((o) => plainText(o.feedback)),
  }));
}

// openApp's options.init for a browser without WebAssembly SIMD, as web/js/loader.js sees it: its
// 31-byte SIMD probe does not validate (every larger module still does), so it loads app.*.
export const NO_SIMD = () => {
  const validate = WebAssembly.validate;
  WebAssembly.validate = (bytes) => (bytes.length < 64 ? false : validate(bytes));
};
