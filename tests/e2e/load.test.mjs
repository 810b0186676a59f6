// Loading the canvas when it is wanted (web/js/loader.js): index.html fetches no app bytes until
// the reader nears the stage, then the canvas renders, over HTTP (app.simd.js + app.simd.wasm in
// this Chromium, which has WebAssembly SIMD; app.js + app.wasm in a browser without it) and from
// file:// (NAME.js + NAME.wasm.js, the same wasm gzip-compressed then base64, unpacked by the
// browser's DecompressionStream or, where there is none, by js/inflate.js); a URL that targets the stage or a page
// control loads it at once; and the drawing buffer stays within 4096 device px on a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { launch, serve, openApp, appReady, appState, waitState, colourStats, DIST, APP_TIMEOUT, NO_SIMD } from './helpers.mjs';

let browser, srv;
before(async () => { browser = await launch(['--allow-file-access-from-files']); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

const APP = /\/app(\.simd)?(\.wasm)?(\.js)?$/;
const appRequests = (reqs) => reqs.map((u) => new URL(u).pathname).filter((p) => APP.test(p)).map((p) => p.split('/').pop());

const open = (url, options = {}) => openApp(browser, url, options, { ready: false });
const frames = (page, n = 3) => page.evaluate((k) => new Promise((r) => {
  let i = 0; const f = () => (++i >= k ? r() : requestAnimationFrame(f)); requestAnimationFrame(f);
}), n);

async function idleThenScroll(url, wantFiles, options = {}) {
  const { context, page, requests, errors } = await open(url, options);
  await page.waitForTimeout(1500);  // a reader reading the top of the page
  assert.deepEqual(appRequests(requests), [], 'app bytes were fetched before the reader neared the stage');
  assert.equal(await page.getAttribute('#attention-stage', 'data-app-state'), 'waiting');
  assert.ok(await page.locator('#attention-stage .stage-preview').isVisible(), 'the stage shows its still preview');
  const waitingHeight = await page.$eval('#attention-stage', (s) => s.getBoundingClientRect().height);
  assert.ok(waitingHeight > 300, `the preview holds the stage's room (${waitingHeight} px)`);
  await page.locator('#stage').scrollIntoViewIfNeeded();
  await appReady(page);
  assert.deepEqual(appRequests(requests).sort(), wantFiles);
  assert.equal(await page.evaluate(() => typeof window.__attnModule._attn_bench_frames), 'undefined', 'the product has no bench hooks');
  await frames(page);
  const st = colourStats(await page.locator('#attention-canvas').screenshot());
  assert.ok(st.distinct > 50 && st.dominant < 0.9, `canvas looks flat: ${st.distinct} colours`);
  assert.deepEqual(errors, []);
  await context.close();
}

test('index.html over HTTP fetches no app bytes before the stage nears the viewport; app.simd.js + app.simd.wasm after', async () => {
  await idleThenScroll(srv.url + 'index.html', ['app.simd.js', 'app.simd.wasm']);
});

test('a browser without WebAssembly SIMD gets the scalar build, app.js + app.wasm, and the canvas renders', async () => {
  await idleThenScroll(srv.url + 'index.html', ['app.js', 'app.wasm'], { init: NO_SIMD });
});

test('index.html from file:// loads the script-wrapped wasm only after scrolling, and the canvas renders', async () => {
  await idleThenScroll(pathToFileURL(join(DIST, 'index.html')).href, ['app.simd.js', 'app.simd.wasm.js']);
  await idleThenScroll(pathToFileURL(join(DIST, 'index.html')).href, ['app.js', 'app.wasm.js'], { init: NO_SIMD });
});

test('from file:// in a browser without DecompressionStream, js/inflate.js unpacks the wasm and the canvas renders', async () => {
  const NO_STREAMS = () => { window.DecompressionStream = undefined; };
  const { context, page, requests, errors } = await open(pathToFileURL(join(DIST, 'index.html')).href + '#stage', { init: NO_STREAMS });
  await appReady(page);
  await frames(page);
  const names = requests.map((u) => new URL(u).pathname.split('/').pop());
  assert.ok(names.includes('inflate.js') && names.includes('app.simd.wasm.js'), `fetched: ${names.join(', ')}`);
  const st = colourStats(await page.locator('#attention-canvas').screenshot());
  assert.ok(st.distinct > 50 && st.dominant < 0.9, `canvas looks flat: ${st.distinct} colours`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('with DecompressionStream, js/inflate.js is never fetched (file://)', async () => {
  const { context, page, requests } = await open(pathToFileURL(join(DIST, 'index.html')).href + '#stage');
  await appReady(page);
  assert.ok(!requests.some((u) => u.endsWith('/inflate.js')), 'inflate.js was fetched');
  await context.close();
});

test('a URL that targets the stage, or a page control used, loads the app at once', async () => {
  let o = await open(srv.url + 'index.html#stage');
  await appReady(o.page);
  await o.context.close();
  o = await open(srv.url + 'index.html');
  await o.page.waitForTimeout(500);
  assert.deepEqual(appRequests(o.requests), []);
  await o.page.evaluate(() => window.scrollTo(0, 0));
  await o.page.focus('#scenario-select');  // keyboard focus on a stage control (no scrolling)
  await o.page.waitForFunction(() => ['loading', 'ready'].includes(document.getElementById('attention-stage').getAttribute('data-app-state')), null, { timeout: APP_TIMEOUT });
  await appReady(o.page);
  await o.context.close();
});

test('Tab from the last diagram candidate lands on the waiting canvas at once, which starts the load', async () => {
  const o = await open(srv.url + 'index.html');
  await o.page.waitForTimeout(500);
  assert.equal(await o.page.getAttribute('#attention-stage', 'data-app-state'), 'waiting');
  await o.page.locator('.d-cand-btn:visible').last().focus();  // the layout this width shows
  await o.page.keyboard.press('Tab');  // before any app byte arrives: the canvas must already take focus
  assert.equal(await o.page.evaluate(() => document.activeElement && document.activeElement.id), 'attention-canvas');
  await o.page.waitForFunction(() => ['loading', 'ready'].includes(document.getElementById('attention-stage').getAttribute('data-app-state')), null, { timeout: APP_TIMEOUT });
  await appReady(o.page);
  assert.equal(await o.page.evaluate(() => document.activeElement && document.activeElement.id), 'attention-canvas', 'focus stays on the canvas');
  assert.deepEqual(o.errors, []);
  await o.context.close();
});

test('the drawing buffer stays within 4096 px at a 360 px viewport, DPR 3, 128 tokens', async () => {
  const { context, page } = await open(srv.url + 'index.html#stage', { viewport: { width: 360, height: 800 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  await appReady(page);
  const words = ['the', 'convoy', 'stopped', 'because', 'the', 'bridge', 'was', 'blocked', 'by', 'snow'];
  const text = Array.from({ length: 128 }, (_, i) => words[i % words.length]).join(' ');
  await page.fill('#sentence-input', text);
  await page.click('#sentence-submit');
  await page.selectOption('#view-select', '2');  // the whole sentence: 4 heads x 128 x 128
  await waitState(page, (s) => s.tokens.length === 128 && s.panel === 2);
  const stageH = await page.$eval('#attention-stage', (s) => s.getBoundingClientRect().height);
  assert.ok(stageH * 3 > 4096, `the content is taller than 4096 device px (${stageH} CSS px): the test means something`);
  for (const f of [0, 0.5, 1]) {  // top, middle and bottom of the stage
    await page.evaluate((k) => {
      const s = document.getElementById('attention-stage'), r = s.getBoundingClientRect();
      window.scrollBy(0, r.top + k * (r.height - window.innerHeight));
    }, f);
    await frames(page, 4);
    const [w, h] = await page.$eval('#attention-canvas', (c) => [c.width, c.height]);
    assert.ok(w <= 4096 && h <= 4096 && w > 0 && h > 0, `drawing buffer ${w} x ${h} at ${f} of the stage`);
    const st = colourStats(await page.locator('#attention-canvas').screenshot());
    assert.ok(st.distinct > 20, `the canvas draws at ${f} of the stage (${st.distinct} colours)`);
  }
  assert.equal((await appState(page)).tokens.length, 128);
  await context.close();
});

test('dist/ ships only the product: no bench hooks in either build\'s glue or wasm', () => {
  for (const name of ['app', 'app.simd']) {
    for (const f of [`${name}.js`, `${name}.wasm`, `${name}.wasm.js`]) {
      const text = readFileSync(join(DIST, f)).toString('latin1');
      assert.ok(!text.includes('attn_bench'), `${f} names a bench hook`);
      assert.ok(text.length > 10000, `${f} is the app`);
    }
    const b64 = /AttentionAppWasm="([A-Za-z0-9+/=]+)"/.exec(readFileSync(join(DIST, `${name}.wasm.js`), 'utf8'));
    assert.ok(b64, `${name}.wasm.js sets window.AttentionAppWasm`);
    assert.ok(gunzipSync(Buffer.from(b64[1], 'base64')).equals(readFileSync(join(DIST, `${name}.wasm`))),
      `${name}.wasm.js holds the same wasm as ${name}.wasm, gzip-compressed`);
  }
  const simd = readFileSync(join(DIST, 'app.simd.wasm')), scalar = readFileSync(join(DIST, 'app.wasm'));
  assert.ok(!simd.equals(scalar), 'the SIMD twin is another binary');
  assert.ok(!WebAssembly.validate(simd) || WebAssembly.validate(scalar), 'both validate here');
});
