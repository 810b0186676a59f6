// The README's host snippet (kept verbatim in tests/e2e/embed-host.html) hosting embed.html from
// another origin: the iframe starts near the real content height, follows the embed's height
// messages, ignores a sibling frame's fake ones, and bounds what even the embed can ask for. The
// embed's fallback text, its theme toggle (only on request) and the absence of the milestone link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, serve, stageSettled, ROOT, SUB_PATH, readEntry, norm } from './helpers.mjs';

const HOST_PAGE = process.env.ATTN_HOST_PAGE || join(ROOT, 'tests/e2e/embed-host.html');
const snippet = () => readFileSync(HOST_PAGE, 'utf8').match(/<!-- snippet[^>]*-->\n([\s\S]*?)<!-- \/snippet -->/)[1];
const MIN = 300, MAX = 6000; // the bounds written in the snippet
let browser, site, host, other, hostDir;

before(async () => {
  browser = await launch();
  site = await serve({ basePath: SUB_PATH });
  hostDir = mkdtempSync(join(tmpdir(), 'attn-embed-host-'));
  // the host page points its iframe at the site's origin (the snippet's src is a path on the site)
  const html = readFileSync(HOST_PAGE, 'utf8').replace('src="/learn/ai/attention-score/', `src="${site.origin}/learn/ai/attention-score/`);
  writeFileSync(join(hostDir, 'index.html'), html);
  copyFileSync(join(ROOT, 'tests/e2e/embed-sibling.html'), join(hostDir, 'embed-sibling.html'));
  host = await serve({ dir: hostDir });
  other = await serve({ dir: hostDir }); // the sibling frame's origin
});
after(async () => {
  await browser?.close(); await site?.close(); await host?.close(); await other?.close();
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

const frameHeight = (page) => page.evaluate(() => document.getElementById('attention-embed').getBoundingClientRect().height);
const contentHeight = (frame) => frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));

// hold: the embed's files wait until release() (so the iframe's starting height can be measured)
async function hostPage(viewport, { sibling = false, hold = false } = {}) {
  const context = await browser.newContext({ viewport });
  let release = () => {};
  if (hold) {
    const gate = new Promise((ok) => { release = ok; });
    await context.route(site.origin + '/**', async (route) => { await gate; await route.continue(); });
  }
  const page = await context.newPage();
  const q = sibling ? '?sibling=' + encodeURIComponent(other.origin + '/embed-sibling.html') : '';
  await page.goto(host.url + q, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('#attention-embed');
  const frame = () => page.frames().find((f) => f.url().startsWith(site.origin));
  return { context, page, frame, release };
}

test('the snippet checks event.source and accepts only a finite, bounded height', () => {
  const s = snippet();
  assert.match(s, /e\.source !== frame\.contentWindow/);
  assert.match(s, /isFinite\(d\.height\)/);
  assert.match(s, /Math\.min\(MAX, Math\.max\(MIN/);
});

for (const [width, name] of [[360, 'a 360 px phone'], [1280, 'a 1280 px desktop']]) {
  test(`on ${name} the iframe starts near the embed's real height and then fits it exactly`, async () => {
    const { context, page, frame: getFrame, release } = await hostPage({ width, height: 800 }, { hold: true });
    const start = await frameHeight(page); // the embed's files are held: this is the snippet's own height
    release();
    await page.waitForFunction(() => window.seen.includes('attention-score:height'));
    const frame = getFrame();
    assert.equal(await stageSettled(frame), 'ready');
    await page.waitForTimeout(500);
    const real = await contentHeight(frame);
    assert.ok(Math.abs(start - real) / real < 0.15, `starts at ${start}px, content is ${real}px (within 15%: update the snippet's measured heights)`);
    await page.waitForFunction((r) => Math.abs(document.getElementById('attention-embed').getBoundingClientRect().height - r) <= 2, real);
    await context.close();
  });
}

test('a sibling frame cannot resize the embed: fake heights from another frame are ignored', async () => {
  const { context, page, frame: getFrame } = await hostPage({ width: 1280, height: 800 }, { sibling: true });
  await page.waitForFunction(() => window.seen.includes('attention-score:height'));
  const frame = getFrame();
  assert.equal(await stageSettled(frame), 'ready');
  await page.waitForTimeout(500);
  const sibling = page.frames().find((f) => f.url().startsWith(other.origin));
  await sibling.waitForFunction(() => typeof window.attack === 'function');
  await sibling.evaluate(() => window.attack());
  await page.waitForFunction(() => window.seen.includes('sibling:done'));
  const real = await contentHeight(frame);
  const h = await frameHeight(page);
  assert.ok(Math.abs(h - real) <= 2, `iframe ${h}px after the sibling's 33554432 px, content ${real}px`);
  await context.close();
});

test('even the embed itself gets only a finite height within bounds', async () => {
  const { context, page, frame: getFrame } = await hostPage({ width: 1280, height: 800 });
  await page.waitForFunction(() => window.seen.includes('attention-score:height'));
  const frame = getFrame();
  // the embed's own height reports settle first (the app starts, the canvas and its HTML controls
  // take their height), so each message below is the test's own
  await frame.waitForFunction(() => document.getElementById('attention-stage').getAttribute('data-app-state') === 'ready', null, { timeout: 30000 });
  for (let n = -1, k = 0; k < 40; k++) {
    const now = await page.evaluate(() => window.seen.length);
    if (now === n) break;
    n = now;
    await page.waitForTimeout(250);
  }
  const post = async (height) => {
    const n = await page.evaluate(() => window.seen.length);
    await frame.evaluate((hh) => parent.postMessage({ type: 'attention-score:height', height: hh }, '*'), height);
    await page.waitForFunction((k) => window.seen.length > k, n);
    return frameHeight(page);
  };
  assert.equal(await post(1e9), MAX, 'a huge height is capped');
  assert.equal(await post(5), MIN, 'a tiny or negative height is raised to the minimum');
  assert.equal(await post(NaN), MIN, 'NaN is ignored');
  assert.equal(await post(Infinity), MIN, 'Infinity is ignored');
  assert.equal(await post('900'), MIN, 'a string is ignored');
  assert.equal(await post(1234.2), 1235);
  await context.close();
});

test('the embed promises only what it holds, shows no theme toggle unless asked, and no milestone link', async () => {
  const stage = readEntry().groups.flatMap((g) => g.sections).find((s) => s.kind === 'stage');
  const context = await browser.newContext({ viewport: { width: 800, height: 700 }, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(site.url + 'embed.html');
  const msg = norm(await page.textContent('#stage-message'));
  assert.equal(msg, norm(`${stage.labels.no_js} ${stage.labels.still.embed}`));
  const missing = await page.evaluate(() => ({ diagram: !!document.getElementById('diagram'), quiz: !!document.getElementById('quiz') }));
  assert.deepEqual(missing, { diagram: false, quiz: false }, 'the embed holds no diagram and no quiz');
  assert.doesNotMatch(msg, /diagram|quiz/i, 'so its message does not promise them');
  assert.equal(await page.locator('#milestone-link').count(), 0);
  await context.close();
  const js = await browser.newContext({ viewport: { width: 800, height: 700 } });
  const p2 = await js.newPage();
  await p2.goto(site.url + 'embed.html');
  await p2.waitForFunction(() => document.readyState === 'complete');
  assert.equal(await p2.locator('#theme-toggle').isVisible(), false, 'no toggle by default');
  const messages = JSON.parse(await p2.getAttribute('#engine-data', 'data-messages'));
  for (const k of ['no_webgl', 'no_app']) assert.doesNotMatch(messages[k], /diagram|quiz/i, k);
  await p2.goto(site.url + 'embed.html?theme-toggle=1');
  await p2.waitForSelector('#theme-toggle', { state: 'visible' });
  await p2.click('#theme-toggle');
  assert.ok(['dark', 'light'].includes(await p2.getAttribute('html', 'data-theme')));
  await js.close();
});
