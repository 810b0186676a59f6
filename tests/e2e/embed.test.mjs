// embed.html in an iframe of a page on ANOTHER origin (a second local port): it posts its height,
// honours ?scenario= and ?theme=, and the interactive works inside the frame.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, serve, watch, hookModule, stageSettled, colourStats, shot, engine, SUB_PATH } from './helpers.mjs';

let browser, site, host, hostDir;
before(async () => {
  browser = await launch();
  site = await serve({ basePath: SUB_PATH });
  hostDir = mkdtempSync(join(tmpdir(), 'attn-host-'));
  // the host page: records every height message it receives, and sizes the iframe to it
  writeFileSync(join(hostDir, 'host.js'), `
    window.heights = [];
    window.addEventListener('message', function (e) {
      if (e.data && e.data.type === 'attention-score:height') {
        window.heights.push({ origin: e.origin, height: e.data.height });
        document.getElementById('f').style.height = e.data.height + 'px';
      }
    });
    var f = document.createElement('iframe');
    f.id = 'f'; f.title = 'Attention score'; f.style.width = '100%'; f.style.border = '0';
    f.src = new URLSearchParams(location.search).get('src');
    document.body.appendChild(f);`);
  writeFileSync(join(hostDir, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body><h1>A learning site</h1><script src="host.js"></script></body></html>');
  host = await serve({ dir: hostDir });
});
after(async () => {
  await browser?.close(); await site?.close(); await host?.close();
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

async function embedIn(query, viewport = { width: 800, height: 700 }) {
  const context = await browser.newContext({ viewport });
  await hookModule(context);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const src = site.url + 'embed.html' + query;
  await page.goto(host.url + '?src=' + encodeURIComponent(src));
  const frame = await (await page.waitForSelector('#f')).contentFrame();
  await frame.waitForLoadState('load');
  return { context, page, frame, errors };
}
const frameState = (frame) => frame.evaluate(() => JSON.parse(window.__attnModule.ccall('attn_state_json', 'string', [], [])));

test('embed.html on another origin posts its height and the iframe fits it', async () => {
  const { context, page, frame, errors } = await embedIn('');
  assert.notEqual(new URL(frame.url()).origin, new URL(page.url()).origin, 'really cross-origin');
  await page.waitForFunction(() => window.heights.length > 0);
  assert.equal(await stageSettled(frame), 'ready');
  await frame.waitForFunction(() => !!window.__attnModule);
  const { origin, height } = await page.evaluate(() => window.heights[window.heights.length - 1]);
  assert.equal(origin, site.origin);
  const real = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  assert.ok(height > 200 && Math.abs(height - real) <= 2, `posted ${height}, content is ${real}`);
  // when the content grows (a message appears), a new height is posted
  const n = await page.evaluate(() => window.heights.length);
  await frame.selectOption('#scenario-select', 'sentence');
  await frame.fill('#sentence-input', '');
  await frame.click('#sentence-submit');
  await frame.waitForFunction(() => document.getElementById('sentence-error').textContent.trim() !== '');
  await page.waitForFunction((k) => window.heights.length > k, n);
  const iframeBox = await (await page.$('#f')).boundingBox();
  const now = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  assert.ok(Math.abs(iframeBox.height - now) <= 2, `iframe ${iframeBox.height}px, content ${now}px`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('embed.html works inside the iframe: canvas draws, page controls drive it, no foreign request', async () => {
  const context = await browser.newContext({ viewport: { width: 800, height: 700 } });
  await hookModule(context);
  const log = await watch(context, [site.origin, host.origin]);
  const page = await context.newPage();
  await page.goto(host.url + '?src=' + encodeURIComponent(site.url + 'embed.html'));
  const frame = await (await page.waitForSelector('#f')).contentFrame();
  assert.equal(await stageSettled(frame), 'ready');
  await frame.waitForFunction(() => !!window.__attnModule);
  await page.waitForFunction(() => window.heights.length > 0);
  const png = await (await frame.$('#attention-canvas')).screenshot({ path: shot('embed-canvas') });
  const st = colourStats(png);
  assert.ok(st.distinct > 50 && st.dominant < 0.9, 'canvas in the iframe is not flat');
  const s0 = await frameState(frame);
  const other = s0.scenario === 'diagram' ? 'worked-example' : 'diagram';
  await frame.selectOption('#scenario-select', other);
  await frame.waitForFunction((id) => JSON.parse(window.__attnModule.ccall('attn_state_json', 'string', [], [])).scenario === id, other);
  await page.screenshot({ path: shot('embed-host'), fullPage: true });
  assert.deepEqual(log.foreign, [], 'the embed requests only its own files');
  assert.deepEqual(log.failed, [], 'failed requests');
  const fromEmbed = log.requests.filter((u) => u.startsWith(site.origin));
  assert.ok(fromEmbed.length > 3 && fromEmbed.every((u) => new URL(u).pathname.startsWith(SUB_PATH)), 'the embed loads from its sub-path');
  await context.close();
});

for (const [scenario, theme] of [['worked-example', 'dark'], ['diagram', 'dark'], ['diagram', 'light']]) {
  test(`embed.html?scenario=${scenario}&theme=${theme} opens on that scenario and theme (page and app)`, async () => {
    const { context, frame } = await embedIn(`?scenario=${scenario}&theme=${theme}`);
    assert.equal(await stageSettled(frame), 'ready');
    await frame.waitForFunction(() => !!window.__attnModule);
    assert.equal(await frame.getAttribute('html', 'data-theme'), theme);
    await frame.waitForFunction(() => document.getElementById('live-description').textContent.trim() !== '');
    const s = await frameState(frame);
    assert.equal(s.scenario, scenario, 'app scenario');
    assert.equal(s.theme, theme, 'app theme');
    assert.equal(await frame.inputValue('#scenario-select'), scenario, 'page select');
    const e = engine(scenario);
    const want = e.candidates[0].token;
    await frame.waitForFunction((t) => document.getElementById('live-description').textContent.includes(t), want);
    await context.close();
  });
}
