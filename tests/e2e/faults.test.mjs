// Faults the page must survive (issue 15): a lost WebGL context, the app's own context failing
// after the page's probe worked, app.js arriving after the page gave up waiting, state kept over a
// reload and readable from a link (hostile values ignored), and load: many sentence changes, view
// switches and resizes leave the wasm heap and the DOM flat, with no error and no oscillation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, serve, watch, hookModule, appReady, appState, waitState, stageSettled, colourStats,
  norm, shot,
} from './helpers.mjs';

let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

const SETTLE = 15000; // how long a state change may take on SwiftShader before the test fails

async function openPage({ viewport = { width: 1200, height: 900 }, init = [], hash = '', ready = true } = {}) {
  const context = await browser.newContext({ viewport });
  await hookModule(context);
  for (const [fn, arg] of init) await context.addInitScript(fn, arg);
  const log = await watch(context, srv.origin);
  const page = await context.newPage();
  await page.goto(srv.url + hash);
  if (ready) await appReady(page);
  return { context, page, log };
}
const frames = (page, n = 3) => page.evaluate((k) => new Promise((r) => {
  let i = 0; const f = () => (++i >= k ? r() : requestAnimationFrame(f)); requestAnimationFrame(f);
}), n);
const stageState = (page) => page.getAttribute('#attention-stage', 'data-app-state');
const waitStage = (page, want, timeout = SETTLE) => page.waitForFunction((w) =>
  document.getElementById('attention-stage').getAttribute('data-app-state') === w, want, { timeout });
async function canvasPixels(page, name) {
  await page.locator('#attention-canvas').scrollIntoViewIfNeeded();
  await frames(page, 4);
  return colourStats(await page.locator('#attention-canvas').screenshot(name ? { path: shot(name) } : {}));
}
const drawn = (st) => st.distinct > 50 && st.dominant < 0.9;
const live = (page) => page.textContent('#live-description');

// ---------------------------------------------------------------- 1. WebGL context lost
test('a lost WebGL context shows the message, the HTML controls keep working, and restoring brings the canvas back', async () => {
  const { context, page, log } = await openPage();
  assert.ok(drawn(await canvasPixels(page)), 'the canvas draws before the loss');
  await page.evaluate(() => {
    window.__lose = document.getElementById('attention-canvas').getContext('webgl2').getExtension('WEBGL_lose_context');
    window.__lose.loseContext();
  });
  await waitStage(page, 'context-lost');
  const msg = page.locator('#stage-message');
  assert.ok(await msg.isVisible(), 'the message is visible');
  assert.match(norm(await msg.textContent()), /graphics|WebGL/i);
  assert.ok(!(await page.locator('#attention-canvas').isVisible()), 'no blank canvas is left on screen');
  // the page's controls still drive the reader's state and the live text
  const s0 = await appState(page);
  const target = s0.step > 0 ? s0.step - 1 : s0.step + 1;
  await page.click(target < s0.step ? '#step-back' : '#step-next');
  await waitState(page, (s, t) => s.step === t, target);
  await page.waitForFunction((t) => document.getElementById('live-description').textContent.startsWith('Step ' + (t + 1) + ' of 4'), target);
  const other = s0.scenario === 'diagram' ? 'worked-example' : 'diagram';
  await page.selectOption('#scenario-select', other);
  await waitState(page, (s, id) => s.scenario === id, other);
  await page.locator('#attention-stage').screenshot({ path: shot('fault-context-lost') });
  // restore: the GL objects are rebuilt, the canvas draws the state chosen meanwhile
  await page.evaluate(() => window.__lose.restoreContext());
  await waitStage(page, 'ready');
  assert.ok(!(await msg.isVisible()), 'the message is gone');
  assert.ok(await page.locator('#attention-canvas').isVisible(), 'the canvas is back');
  const st = await canvasPixels(page, 'fault-context-restored');
  assert.ok(drawn(st), `the canvas draws again: ${st.distinct} colours, top one ${(st.dominant * 100).toFixed(1)}%`);
  const s1 = await appState(page);
  assert.equal(s1.scenario, other, 'the reader\'s state carried on');
  // and it still reacts: the next step change reaches the canvas
  const before1 = await canvasPixels(page);
  await page.click(s1.step < 3 ? '#step-next' : '#step-back');
  await waitState(page, (s, t) => s.step === t, s1.step < 3 ? s1.step + 1 : s1.step - 1);
  assert.ok(drawn(await canvasPixels(page)) && before1.distinct > 0);
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

test('when the canvas cannot be rebuilt after a restore the page says so and the app stops drawing', async () => {
  // ImGui's backend cannot fail to rebuild, so the app's report is sent as the app would send it
  const { context, page, log } = await openPage({
    init: [[() => {
      const real = window.requestAnimationFrame.bind(window);
      window.__rafCalls = 0;
      window.requestAnimationFrame = (cb) => { window.__rafCalls++; return real(cb); };
    }]],
  });
  const rate = () => page.evaluate(() => new Promise((r) => { const n0 = window.__rafCalls; setTimeout(() => r(window.__rafCalls - n0), 500); }));
  // the loop runs: a few more animation frames come, however slowly this machine draws them
  const n0 = await page.evaluate(() => window.__rafCalls);
  await page.waitForFunction((n) => window.__rafCalls >= n + 5, n0, { timeout: SETTLE });
  await page.evaluate(() => window.__attnModule.onCanvasStatus('failed'));
  await waitStage(page, 'failed');
  assert.ok(await page.locator('#stage-message').isVisible());
  assert.ok(!(await page.locator('#attention-canvas').isVisible()));
  assert.ok(await rate() <= 1, 'no hidden app keeps running under the message');
  const before0 = await live(page);
  await page.click((await page.isDisabled('#step-back')) ? '#step-next' : '#step-back');
  await page.waitForFunction((b0) => document.getElementById('live-description').textContent !== b0, before0);
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

// ---------------------------------------------------------------- 2. the app's own context fails
test('when the app cannot get its own WebGL2 context (the page\'s probe could) the page says so, and the probe is released', async () => {
  const { context, page, log } = await openPage({
    ready: false,
    init: [[() => {
      const real = HTMLCanvasElement.prototype.getContext;
      window.__probes = [];
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
        if (/webgl/i.test(kind) && this.id === 'attention-canvas') return null;
        const ctx = real.call(this, kind, ...rest);
        if (/webgl/i.test(kind) && ctx && !this.isConnected) window.__probes.push(ctx);
        return ctx;
      };
    }]],
  });
  const settled = await stageSettled(page);
  await page.waitForTimeout(300); // a late report must not flip it to ready either
  assert.equal(await stageState(page), settled);
  assert.ok(['no-webgl2', 'failed'].includes(settled), `the stage must not claim ready over a blank canvas: ${settled}`);
  const msg = page.locator('#stage-message');
  assert.ok(await msg.isVisible(), 'the message is visible');
  assert.match(norm(await msg.textContent()), /WebGL|not available/i);
  assert.ok(!(await page.locator('#attention-canvas').isVisible()), 'no blank canvas on screen');
  const probes = await page.evaluate(() => window.__probes.map((c) => c.isContextLost()));
  assert.ok(probes.length >= 1, 'the page probed for WebGL2');
  assert.deepEqual(probes, probes.map(() => true), 'the probe\'s context is released (WEBGL_lose_context)');
  // the page's own stepper still works
  const before0 = await live(page);
  await page.click('#step-back');
  await page.waitForFunction((b0) => document.getElementById('live-description').textContent !== b0, before0);
  assert.match(await live(page), /^Step 3 of 4/);
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

test('on a working browser the probe asks for the app\'s own context attributes, and its context is released once the app runs', async () => {
  const { context, page } = await openPage({
    init: [[() => {
      const real = HTMLCanvasElement.prototype.getContext;
      window.__probes = [];
      window.__asked = { probe: [], app: [] };
      HTMLCanvasElement.prototype.getContext = function (kind, attrs) {
        const ctx = real.call(this, kind, attrs);
        if (/webgl/i.test(kind)) {
          window.__asked[this.isConnected ? 'app' : 'probe'].push({ ...(attrs || {}) });
          if (ctx && !this.isConnected) window.__probes.push(ctx);
        }
        return ctx;
      };
    }]],
  });
  const probes = await page.evaluate(() => window.__probes.map((c) => c.isContextLost()));
  assert.ok(probes.length >= 1 && probes.every(Boolean), `probe contexts lost: ${JSON.stringify(probes)}`);
  // the probe answers for the context the app really asks for (SDL through Emscripten's EGL), and
  // the app's request is the one loader.js names
  const { asked, named } = await page.evaluate(() => ({ asked: window.__asked, named: window.AttentionLoader.contextAttributes }));
  assert.ok(asked.app.length >= 1, 'the app made its context on the page\'s canvas');
  const keys = Object.keys(named);
  assert.deepEqual(keys.sort(), ['alpha', 'antialias', 'depth', 'stencil']);
  const pick = (a) => Object.fromEntries(keys.map((k) => [k, a[k]]));
  for (const a of asked.probe) assert.deepEqual(pick(a), named, 'the probe\'s attributes');
  for (const a of asked.app) assert.deepEqual(pick(a), named, 'the app\'s own request (platform_web.cpp) matches loader.js');
  assert.ok(drawn(await canvasPixels(page)), 'the app draws');
  await context.close();
});

// ---------------------------------------------------------------- 3. app.js after the page gave up
test('app.js arriving after the load timeout is accepted cleanly: the stage switches to ready and the canvas draws', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await hookModule(context);
  // a host may shorten the wait with data-load-timeout (ms) on the stage
  await context.addInitScript(() => document.addEventListener('DOMContentLoaded', () => {
    document.getElementById('attention-stage').setAttribute('data-load-timeout', '400');
  }));
  const log = await watch(context, srv.origin);
  let release;
  const gate = new Promise((r) => { release = r; });
  await context.route(/\/app(\.simd)?\.(js|wasm)(\?.*)?$/, async (route) => { await gate; await route.continue(); });
  const page = await context.newPage();
  // #stage: the URL targets the stage, so the app is requested at once (not when scrolled to)
  await page.goto(srv.url + '#stage', { waitUntil: 'domcontentloaded' }); // 'load' waits for app.js
  await waitStage(page, 'failed', 5000);
  const msg = page.locator('#stage-message');
  assert.ok(await msg.isVisible());
  assert.match(norm(await msg.textContent()), /not available/i);
  release();
  await waitStage(page, 'ready');
  await page.waitForFunction(() => !!window.__attnModule);
  assert.ok(!(await msg.isVisible()), 'the "not available" message is gone');
  assert.ok(await page.locator('#attention-canvas').isVisible(), 'the canvas is shown');
  assert.ok(drawn(await canvasPixels(page, 'fault-late-app')), 'the canvas draws');
  for (const id of ['#sentence-input', '#sentence-submit', '#focus-select', '#view-select']) {
    assert.equal(await page.isDisabled(id), false, `${id} is enabled`);
  }
  assert.doesNotMatch(await page.textContent('#sentence-help'), /needs the interactive view/);
  await page.selectOption('#scenario-select', 'worked-example');
  await waitState(page, (s) => s.scenario === 'worked-example');
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

// ---------------------------------------------------------------- 4. state over a reload, and links
test('a link with #scenario=…&view=…&step=… (and an own sentence with its focus) opens that place, in the canvas and the page controls', async () => {
  const { context, page, log } = await openPage({ hash: '#scenario=worked-example&view=vectors&step=2' });
  await waitState(page, (x) => x.scenario === 'worked-example' && x.panel === 1 && x.step === 1, null, SETTLE);
  assert.equal(await page.inputValue('#scenario-select'), 'worked-example');
  assert.equal(await page.inputValue('#view-select'), '1');
  assert.match(await page.textContent('#step-status'), /^Step 2 of 4/);
  // step and focus are counted from 1, as the page shows them; the view by its name
  const text = 'The river bank flooded after the rain';
  await page.goto('about:blank');
  await page.goto(srv.url + '#scenario=sentence&view=whole-sentence&step=3&focus=3&sentence=' + encodeURIComponent(text));
  await appReady(page);
  const s = await waitState(page, (x, t) => x.sentence === t && x.panel === 2 && x.step === 2 && x.focus === 2, text, SETTLE);
  assert.equal(s.tokens[2], 'bank');
  assert.equal(await page.inputValue('#scenario-select'), 'sentence');
  assert.equal(await page.inputValue('#focus-select'), '2');
  assert.equal(await page.inputValue('#sentence-input'), text);
  assert.equal(norm(await page.textContent('#sentence-error')), '');
  // the link was opened once: a reload keeps what the reader did since (changed deliberately,
  // issue 13: in the whole-sentence view the reader moves the focus; Back is for the four steps)
  await page.selectOption('#focus-select', '1');
  await waitState(page, (x) => x.focus === 1);
  await page.reload();
  await appReady(page);
  await waitState(page, (x, t) => x.sentence === t && x.step === 2 && x.focus === 1, text, SETTLE);
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

test('the embed opens a linked place too', async () => {
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  await hookModule(context);
  const log = await watch(context, srv.origin);
  const page = await context.newPage();
  await page.goto(srv.url + 'embed.html#scenario=worked-example&view=misconceptions&step=2');
  await appReady(page);
  await waitState(page, (x) => x.scenario === 'worked-example' && x.panel === 3 && x.step === 1, null, SETTLE);
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

test('the reader\'s scenario, view, step, focus and own sentence survive a reload (sessionStorage only)', async () => {
  const { context, page, log } = await openPage();
  const text = 'The quick fox jumped over the lazy river';
  await page.selectOption('#scenario-select', 'sentence');
  await page.fill('#sentence-input', text);
  await page.click('#sentence-submit');
  const s0 = await waitState(page, (s, t) => s.sentence === t, text);
  // Changed deliberately (issue 13): Next / Back belong to the Four steps view (disabled with a
  // reason elsewhere), so the step moves before the view changes.
  const step = s0.step < 3 ? s0.step + 1 : s0.step - 1;
  await page.click(step > s0.step ? '#step-next' : '#step-back');
  await waitState(page, (s, k) => s.step === k, step);
  await page.selectOption('#view-select', '2');
  await page.selectOption('#focus-select', '2');
  const like = (s, [t, k]) => s.sentence === t && s.panel === 2 && s.focus === 2 && s.step === k;
  const want = await waitState(page, like, [text, step]);
  const stored = await page.evaluate(() => Object.keys(sessionStorage).length);
  assert.ok(stored >= 1, 'the state is in sessionStorage');
  assert.equal(await page.evaluate(() => localStorage.length), 0, 'nothing in localStorage');
  await page.reload();
  await appReady(page);
  const got = await waitState(page, like, [text, step], SETTLE);
  assert.deepEqual(got.tokens, want.tokens);
  assert.equal(await page.inputValue('#scenario-select'), 'sentence');
  assert.equal(await page.inputValue('#sentence-input'), text);
  assert.equal(await page.inputValue('#focus-select'), '2');
  // a link pasted into the same tab later wins over what the session kept
  await page.evaluate(() => { location.hash = '#scenario=diagram&view=four-steps&step=1'; });
  await waitState(page, (s) => s.scenario === 'diagram' && !s.sentence && s.panel === 0 && s.step === 0, null, SETTLE);
  assert.ok(!log.requests.some((u) => !u.startsWith(srv.origin) && !u.startsWith('data:')), 'no request leaves the page');
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

test('hostile or stale values in the hash and in sessionStorage are ignored without an error', async () => {
  const hostile = [
    '#scenario=%3Cscript%3Ealert(1)%3C%2Fscript%3E&view=999&step=-1&focus=1e9',
    '#scenario=__proto__&view=constructor&step=NaN&focus=Infinity&sentence=%E0%A4%A',
    '#step=4.5&focus=-0&view=&scenario=',
    '#scenario=sentence&sentence=' + encodeURIComponent('\u202Eevil\u0007 text') + '&focus=99',
    '#scenario=sentence&sentence=' + 'x%20'.repeat(3000),
    '#%%%&&&==&step=2&step=3&toString=1',
    '#stage', // an ordinary in-page anchor is not state
  ];
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await hookModule(context);
  const log = await watch(context, srv.origin);
  const page = await context.newPage();
  await page.goto(srv.url);
  await appReady(page);
  const d = await appState(page);
  const check = async (label) => {
    await frames(page, 2);
    const s = await appState(page);
    assert.ok(['diagram', 'worked-example'].includes(s.scenario), `${label}: a known scenario`);
    assert.ok(s.step >= 0 && s.step <= 3 && s.panel >= 0 && s.panel <= 3, `${label}: step ${s.step}, panel ${s.panel} in range`);
    assert.ok(s.focus >= 0 && s.focus < s.tokens.length, `${label}: focus in range`);
    assert.ok(!s.sentence, `${label}: no hostile sentence used`);
    assert.equal(norm(await page.textContent('#control-error')), '', `${label}: no control error shown`);
    assert.equal(norm(await page.textContent('#sentence-error')), '', `${label}: no sentence error shown`);
    assert.doesNotMatch(await live(page), /NaN|undefined|script/);
  };
  // a hostile link pasted into the open page (hashchange)
  for (const h of hostile) {
    await page.evaluate((v) => { location.hash = v; }, h);
    await check(`hash ${h.slice(0, 60)}`);
  }
  // a reload with a hostile link while sessionStorage holds garbage or a stale place of another build
  const stale = ['{"not":"this format"}', '\u0000\uFFFF' + 'x'.repeat(100000), 'scenario=gone-in-this-build&view=9&step=9&focus=0'];
  for (const [i, stored] of stale.entries()) {
    await page.evaluate((v) => { try { for (const k of Object.keys(sessionStorage)) sessionStorage.setItem(k, v); } catch (e) { /* quota */ } }, stored);
    await page.goto('about:blank'); // a real reload, not a same-document hash change
    await page.goto(srv.url + hostile[i * 2]);
    await appReady(page);
    await check(`reload with ${stored.slice(0, 30)} stored`);
  }
  // the default state is what a fresh page shows after all that
  await page.evaluate(() => sessionStorage.clear());
  await page.goto(srv.url);
  await appReady(page);
  assert.equal((await appState(page)).scenario, d.scenario);
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

test('without WebGL2 a link still opens its scenario and step in the page\'s own stepper', async () => {
  const { context, page, log } = await openPage({
    ready: false,
    hash: '#scenario=worked-example&step=2',
    init: [[() => {
      const real = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) { return /webgl/i.test(kind) ? null : real.call(this, kind, ...rest); };
    }]],
  });
  assert.equal(await stageSettled(page), 'no-webgl2');
  await page.waitForFunction(() => document.getElementById('live-description').textContent.startsWith('Step 2 of 4'), null, { timeout: SETTLE });
  assert.equal(await page.inputValue('#scenario-select'), 'worked-example');
  assert.match(await live(page), /bridge/);
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

// ---------------------------------------------------------------- 10. load
// The wasm heap (the memory's byte length) and the DOM node count after `n` rounds, warmed up first.
async function flatUnder(page, n, round) {
  return page.evaluate(async ({ n, round }) => {
    const f = new Function('i', round); // eslint-disable-line no-new-func
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const heap = () => window.__attnModule.HEAP8.buffer.byteLength;
    const nodes = () => document.getElementsByTagName('*').length;
    // warm up, then measure; both measurements after the same round, so the same sentence/view
    for (let i = 0; i < 20; i++) { f(i); if (i % 5 === 4) await frame(); }
    f(0); await frame(); await frame();
    const h0 = heap(), d0 = nodes();
    for (let i = 1; i <= n; i++) { f(i); if (i % 10 === 0) await frame(); }
    f(0); await frame(); await frame();
    return { h0, h1: heap(), d0, d1: nodes() };
  }, { n, round });
}

// A short version by default; ATTN_LOAD_FULL=1 runs the full counts (about 2 minutes).
const FULL = process.env.ATTN_LOAD_FULL === '1';
const LOAD = { sentences: FULL ? 2000 : 100, views: FULL ? 1000 : 100, resizes: FULL ? 100 : 30 };

test('many sentence changes and view switches from the page controls leave the wasm heap and the DOM flat', async () => {
  const { context, page, log } = await openPage();
  await page.selectOption('#scenario-select', 'sentence');
  // sentences of 2 to 40 words through the form, as a reader types them
  const sent = await flatUnder(page, LOAD.sentences, `
    var words = ['the', 'bridge', 'was', 'blocked', 'so', 'convoy', 'stopped', 'before', 'it', 'rained'];
    var k = 2 + (i * 7) % 39, t = [];
    for (var j = 0; j < k; j++) t.push(words[(i + j * 3) % words.length]);
    document.getElementById('sentence-input').value = t.join(' ');
    document.getElementById('stage-controls').requestSubmit();`);
  const views = await flatUnder(page, LOAD.views, `
    var v = document.getElementById('view-select');
    v.value = String(i % v.options.length);
    v.dispatchEvent(new Event('change', { bubbles: true }));`);
  console.log(`# ${LOAD.sentences} sentence changes: heap ${sent.h0} -> ${sent.h1} bytes, DOM ${sent.d0} -> ${sent.d1} nodes; ` +
    `${LOAD.views} view switches: heap ${views.h0} -> ${views.h1}, DOM ${views.d0} -> ${views.d1}`);
  assert.equal(sent.h1, sent.h0, 'wasm heap after sentence changes');
  assert.equal(sent.d1, sent.d0, 'DOM nodes after sentence changes');
  assert.equal(views.h1, views.h0, 'wasm heap after view switches');
  assert.equal(views.d1, views.d0, 'DOM nodes after view switches');
  assert.equal(norm(await page.textContent('#sentence-error')), '', 'no sentence was refused');
  assert.ok(drawn(await canvasPixels(page)), 'the canvas still draws');
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});

test('rapid resizes cause no error, and the stage settles at one height (no oscillation)', async () => {
  const { context, page, log } = await openPage();
  const widths = [320, 1280, 360, 900, 414, 1024, 375, 1200];
  for (let i = 0; i < LOAD.resizes; i++) await page.setViewportSize({ width: widths[i % widths.length], height: 700 + (i % 3) * 100 });
  await page.setViewportSize({ width: 360, height: 800 });
  // the stage's height and the canvas buffer must come to rest (1 s without a change, within 10 s)
  // and then stay at rest
  const changes = await page.evaluate(() => new Promise((r) => {
    const stage = document.getElementById('attention-stage'), canvas = document.getElementById('attention-canvas');
    const t0 = performance.now();
    let last = t0, rest = 0, after = 0;
    const mo = new MutationObserver((list) => { last = performance.now(); if (rest) after += list.length; });
    mo.observe(stage, { attributes: true, attributeFilter: ['style'] });
    mo.observe(canvas, { attributes: true, attributeFilter: ['width', 'height'] });
    const tick = setInterval(() => {
      const now = performance.now();
      if (!rest && now - last > 1000) rest = now;
      if (rest && now - rest > 1500) { clearInterval(tick); mo.disconnect(); r(after); }
      if (!rest && now - t0 > 10000) { clearInterval(tick); mo.disconnect(); r(-1); }
    }, 50);
  }));
  assert.notEqual(changes, -1, 'the stage never came to rest after the last resize');
  assert.equal(changes, 0, 'the stage height / canvas size changed again after coming to rest');
  const size = await page.$eval('#attention-canvas', (c) => [c.width, c.height, c.clientWidth, c.clientHeight, devicePixelRatio]);
  assert.ok(Math.abs(size[0] - size[2] * size[4]) <= 1 && Math.abs(size[1] - size[3] * size[4]) <= 1, `buffer matches the CSS size: ${size}`);
  assert.equal(await stageState(page), 'ready');
  assert.ok(drawn(await canvasPixels(page, 'fault-after-resizes')), 'the canvas draws at the final size');
  assert.deepEqual(log.errors, [], 'console errors');
  await context.close();
});
