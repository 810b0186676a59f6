// The trained model on a 360 px phone (touch, device pixel ratio 2), as in issue 14: type a sentence,
// every head, open one by tapping its map, move the focus with the buttons, steps 2 and 4, switch the
// head off, one word changed, the induction head. Writes PNGs; prints what each step shows.
//   node web/tools/walkthrough.mjs light|dark [out-dir]   (after scripts/build; serves dist/)
// The taps are at this layout's positions (metrics.h); each one is checked against the state, so a
// moved control stops the walk with a message instead of taking the wrong picture.
import assert from 'node:assert/strict';
import { launch, serve, openApp, appState, waitState } from '../../tests/e2e/helpers.mjs';
const scheme = process.argv[2] || 'light';
const D = (process.argv[3] || 'docs/screenshots/model-walkthrough') + '/';
const browser = await launch(); const srv = await serve();
const { context, page } = await openApp(browser, srv.url, { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, colorScheme: scheme, isMobile: true, hasTouch: true });
const logs = [];
page.on('console', m => { if (m.type() === 'error') logs.push(m.text().slice(0, 200)); });
page.on('pageerror', e => logs.push('pageerror: ' + e.message));
const top = () => page.evaluate(() => document.getElementById('attention-stage').getBoundingClientRect().top + scrollY);
const go = async (y) => { await page.evaluate(v => window.scrollTo(0, v), (await top()) + y); await page.waitForTimeout(450); };
const shotAt = async (name, y) => { await go(y); await page.screenshot({ path: `${D}${name}-${scheme}.png` }); };
const tap = async (x, y) => { await page.touchscreen.tap(x, y); await page.waitForTimeout(350); return appState(page); };
const m = (s) => s.model;
await page.selectOption('#scenario-select', 'model');
let s = await waitState(page, x => x.model && x.model.active, null, 30000);
// 1. type a sentence in the page's field
const text = 'The cat sat on the mat because it was tired.';
await page.locator('#sentence-input').scrollIntoViewIfNeeded();
await page.locator('#sentence-input').tap();
await page.fill('#sentence-input', text);
await page.evaluate(() => document.getElementById('sentence-input').scrollIntoView({ block: 'center' }));
await page.waitForTimeout(300);
await page.screenshot({ path: `${D}1-type-${scheme}.png` });
await page.locator('#sentence-submit').tap();
s = await waitState(page, (x, t) => x.model && x.model.active && x.model.example === -1 && x.model.text === t, text, 30000);
console.log('tokens', m(s).tokens.join('|'));
// 2. every head
await shotAt('2-heads', 560);
// 3. open layer 1 head 3 by tapping its small map, move the focus with "Token before"
await go(600);
s = await tap(112, 380);
assert.deepEqual([m(s).layer, m(s).head], [0, 2], 'the tap opens layer 1 head 3');
await go(1200);
for (let k = 0; k < 4; k++) s = await tap(115, 591);
console.log('focus', m(s).focus, m(s).tokens[m(s).focus], 'weights', m(s).row.weights.map(w => w.toFixed(2)).join(' '));
await shotAt('3-head-opened', 1230);
// 4. steps: Next
await go(1800);
for (let k = 2; k <= 4; k++) {
  s = await tap(29 + 40 * k, 54);  // the step chips 1-4 at the panel's top
  assert.equal(s.step, k - 1, `the chip opens step ${k}`);
  if (k === 2 || k === 4) await page.screenshot({ path: `${D}4-step${k}-${scheme}.png` });
}
// 5. switch the head off (the canvas checkbox under the predictions)
await go(3560);
s = await tap(65, 194);
if (!m(s).ablated) { console.log('canvas checkbox missed; using the page\'s'); await page.locator('#model-ablate').check(); s = await waitState(page, x => x.model.ablated); }
console.log('next', m(s).next.map(t => t.token + ' ' + t.p.toFixed(2)).join(', '));
console.log('ablated', m(s).next_ablated.map(t => t.token + ' ' + t.p.toFixed(2)).join(', '));
await shotAt('5-switched-off', 3380);
// 6. one word changed: the ordinary sentence
await go(0);
s = await tap(129, 514);
s = await waitState(page, x => x.model.example === 1);
const H = await page.evaluate(() => document.getElementById('attention-stage').offsetHeight);
console.log('variant', JSON.stringify(m(s).variant && { from: m(s).variant.from, to: m(s).variant.to }), 'H', H);
await shotAt('6-not-a-parameter', H - 820);
// 7. induction: the repeated phrase, layer 2 head 2 tapped
await go(0);
s = await tap(120, 479);
s = await waitState(page, x => x.model.example === 0);
await go(600);
s = await tap(242, 560);
console.log('head', m(s).layer, m(s).head, 'focus', m(s).focus, m(s).tokens[m(s).focus], 'tokens', m(s).tokens.join('|'));
// the second-copy token whose induction target (the token after its first occurrence) gets most weight
{
  const t = m(s).tokens, half = t.length / 2;
  let best = -1, bw = -1;
  for (let i = half + 1; i < t.length; i++) {
    assert(await page.evaluate(f => window.__attnModule.ccall('attn_set_focus', 'string', ['number'], [f]), i) === '');
    const x = await waitState(page, (y, f) => y.model.focus === f, i);
    const wt = x.model.row.weights[i - half + 1];
    if (wt > bw) { bw = wt; best = i; }
  }
  console.log('best induction focus', best, t[best], bw.toFixed(2));
  await page.evaluate(f => window.__attnModule.ccall('attn_set_focus', 'string', ['number'], [f]), t.length - 1);
  await waitState(page, (y, f) => y.model.focus === f, t.length - 1);
  await go(1230);
  for (let k = t.length - 1; k > best; k--) s = await tap(115, 610);
  assert.equal(m(s).focus, best, '"Token before" moves the focus one token back per tap');
}
const w = m(s).row.weights.map((v, j) => [j, m(s).tokens[j], +v.toFixed(2)]).sort((a, b) => b[2] - a[2]).slice(0, 3);
console.log('top weights', JSON.stringify(w));
await shotAt('7-induction', 1230);
console.log('errors', JSON.stringify(logs));
await context.close(); await browser.close(); await srv.close();
