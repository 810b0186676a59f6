// The trained model on the page (issue 14): its weights load only when the reader asks for them,
// once; its focus rows and predictions are the CLI's (attention_cli model --json) to the shown
// precision, with and without a head switched off; the heads labelled "induction" and
// "previous-token" do what their labels say; it works from file:// and in the embed; a failed or
// damaged download leaves a clear message and a working page; axe finds nothing with the model
// view open.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import {
  launch, serve, openApp, appState, waitState, fmtScore, fmtWeight, shot, CLI, DIST, SUB_PATH, NO_SIMD,
} from './helpers.mjs';

const WEIGHTS = join(DIST, 'model', 'model.bin');
const BUILT = existsSync(WEIGHTS);
const NO_MODEL = 'the page was built without the trained model (no dist/model/model.bin: assets/model/ has no weights yet)';
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const isWeights = (u) => /\/model\/model\.bin(\?|$)/.test(u);
const isScript = (u) => /\/model\/model\.js(\?|$)/.test(u);

let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

const open = (url, options = {}) => openApp(browser, url, { viewport: { width: 1280, height: 900 }, ...options });
const active = (s) => s.model && s.model.active;
async function chooseModel(page) {
  await page.selectOption('#scenario-select', 'model');
  return waitState(page, active, null, 30000);
}
// attention_cli model --text ... --json on the weights the page shipped
function cli(text, extra = []) {
  const out = execFileSync(CLI, ['model', '--text', text, '--json', '--weights', WEIGHTS, ...extra], { encoding: 'utf8' });
  const j = JSON.parse(out);
  assert.equal(j.ok, true, out.slice(0, 300));
  return j;
}
const call = (page, fn, types, args) => page.evaluate(([f, t, a]) => window.__attnModule.ccall(f, 'string', t, a), [fn, types, args]);

test('choosing "A trained model" fetches the weights once, and not before', { skip: !BUILT && NO_MODEL }, async () => {
  const { context, page, requests, errors } = await open(srv.url);
  await page.waitForTimeout(500);
  assert.deepEqual(requests.filter((u) => isWeights(u) || isScript(u)), [], 'nothing of the model loads with the page');
  assert.equal((await appState(page)).model.loaded, false);
  const s = await chooseModel(page);
  assert.equal(await page.inputValue('#scenario-select'), 'model', 'the Example select follows');
  assert.equal(await page.inputValue('#view-select'), '4', 'the View select shows the trained model');
  assert.match(await page.textContent('#model-status'), /loaded/);
  assert.equal(await page.isVisible('#model-controls'), true);
  assert.equal(s.tokens.length, s.model.tokens.length, 'the focus select lists the model\'s tokens');
  await page.waitForFunction((d) => document.getElementById('live-description').textContent.includes(d),
    s.model.heads.find((h) => h.layer === s.model.layer && h.head === s.model.head).description);
  // leave and come back through the View select: no second download
  await page.selectOption('#scenario-select', 'worked-example');
  await waitState(page, (x) => x.scenario === 'worked-example' && !x.model.active);
  await page.selectOption('#view-select', '4');
  await waitState(page, active);
  assert.equal(requests.filter(isWeights).length, 1, 'the weights file is fetched exactly once');
  assert.equal(requests.filter(isScript).length, 0, 'over HTTP the base64 copy is not used');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a focus row, its next tokens and an ablated head equal attention_cli model --json', { skip: !BUILT && NO_MODEL }, async () => {
  const { context, page } = await open(srv.url);
  let s = await chooseModel(page);
  await page.selectOption('#model-example', '1');
  s = await waitState(page, (x) => active(x) && x.model.example === 1);
  assert.equal(await page.inputValue('#sentence-input'), s.model.text, 'the chosen example is in the sentence field, ready to edit');
  const layer = s.model.config.layers - 1, head = Math.min(2, s.model.config.heads - 1);
  await page.selectOption('#model-layer', String(layer));
  await waitState(page, (x) => x.model.layer === layer);
  await page.selectOption('#model-head', String(head));
  await waitState(page, (x) => x.model.head === head);
  const focus = Math.min(5, s.model.tokens.length - 1);
  await page.selectOption('#focus-select', String(focus));
  s = await waitState(page, (x) => x.model.focus === focus && x.focus === focus);
  const c = cli(s.model.text, ['--focus', String(focus)]);
  assert.deepEqual(s.model.tokens, c.tokens, 'the same tokens');
  assert.deepEqual(s.tokens, c.tokens, 'the focus select\'s tokens are the model\'s');
  const scores = c.layers[layer].heads[head].scores[focus].slice(0, focus + 1);
  const weights = c.layers[layer].heads[head].weights[focus].slice(0, focus + 1);
  assert.deepEqual(s.model.row.scores.map(fmtScore), scores.map(fmtScore), 'scores to the shown precision');
  assert.deepEqual(s.model.row.weights.map(fmtWeight), weights.map(fmtWeight), 'weights to the shown precision');
  assert.deepEqual(s.candidates.map((k) => fmtWeight(k.weight)), weights.map(fmtWeight), 'the four-step views show that row');
  s.model.row.weights.forEach((w, j) => assert.ok(Math.abs(w - weights[j]) < 1e-5, `weight ${j}: ${w} vs ${weights[j]}`));
  assert.deepEqual(s.model.next.map((t) => [t.token, fmtWeight(t.p)]), c.next.map((t) => [t.token, fmtWeight(t.p)]), 'next tokens');
  // switch the head off from the page's checkbox: the predictions follow the CLI's --ablate
  await page.check('#model-ablate');
  s = await waitState(page, (x) => x.model.ablated && x.model.ablated.layer === layer && x.model.ablated.head === head);
  const a = cli(s.model.text, ['--focus', String(focus), '--ablate', `${layer},${head}`]);
  assert.deepEqual(a.ablated, { layer, head });
  assert.deepEqual(s.model.next_ablated.map((t) => t.id), a.next.map((t) => t.id), 'the same ablated top 5');
  s.model.next_ablated.forEach((t, k) => assert.ok(Math.abs(t.p - a.next[k].p) < 1e-5, `p ${t.token}: ${t.p} vs ${a.next[k].p}`));
  const moved = s.model.next.some((t) => { const b = s.model.next_ablated.find((x) => x.id === t.id); return !b || Math.abs(b.p - t.p) > 1e-7; });
  assert.ok(moved, 'switching a head off changes the prediction');
  // the live text follows once the state settles (stage.js writes it after a short pause)
  await page.waitForFunction(() => /switched off/.test(document.getElementById('live-description').textContent));
  await context.close();
});

test('the SIMD build and the scalar build show the same model numbers, to the last digit of the state', { skip: !BUILT && NO_MODEL }, async () => {
  // The same reader's steps in each build (web/js/loader.js picks app.js where the SIMD probe
  // does not validate): an example, the last layer, a focus, a head switched off.
  const run = async (options) => {
    const { context, page, requests } = await open(srv.url, options);
    let s = await chooseModel(page);
    await page.selectOption('#model-example', '1');
    s = await waitState(page, (x) => active(x) && x.model.example === 1);
    const layer = s.model.config.layers - 1, focus = Math.min(6, s.model.tokens.length - 1);
    await page.selectOption('#model-layer', String(layer));
    await page.selectOption('#focus-select', String(focus));
    await waitState(page, (x) => x.model.layer === layer && x.model.focus === focus);
    await page.check('#model-ablate');
    s = await waitState(page, (x) => !!x.model.ablated);
    const wasm = requests.map((u) => new URL(u).pathname.split('/').pop()).filter((f) => f.endsWith('.wasm'));
    await context.close();
    return { wasm, row: s.model.row, next: s.model.next, ablated: s.model.next_ablated };
  };
  const simd = await run({}), scalar = await run({ init: NO_SIMD });
  assert.deepEqual([simd.wasm, scalar.wasm], [['app.simd.wasm'], ['app.wasm']], 'each run used its build');
  assert.ok(simd.row.weights.length > 1 && simd.next.length === 5, 'there are numbers to compare');
  assert.deepEqual(simd.row, scalar.row, 'the focus row (dot products, scores, weights)');
  assert.deepEqual(simd.next, scalar.next, 'the next tokens');
  assert.deepEqual(simd.ablated, scalar.ablated, 'the next tokens with the head switched off');
});

test('the sentence field holds the text the model runs: the reader\'s own, or the chosen example', { skip: !BUILT && NO_MODEL }, async () => {
  const { context, page, errors } = await open(srv.url);
  let s = await chooseModel(page);
  assert.equal(await page.inputValue('#sentence-input'), s.model.text, 'the first example');
  const own = 'The cat sat on the mat because it was tired.';
  await page.fill('#sentence-input', own);
  await page.click('#sentence-submit');
  s = await waitState(page, (x, t) => active(x) && x.model.example === -1 && x.model.text === t, own);
  await page.locator('#model-example').focus();
  assert.equal(await page.inputValue('#sentence-input'), own, 'the reader\'s text stays while it is shown');
  assert.equal(await page.inputValue('#model-example'), '-1', 'no example is chosen');
  await page.selectOption('#model-example', '2');
  s = await waitState(page, (x) => active(x) && x.model.example === 2);
  assert.notEqual(s.model.text, own);
  assert.equal(await page.inputValue('#sentence-input'), s.model.text, 'choosing an example replaces it');
  assert.deepEqual(errors, []);
  await context.close();
});

// Opens the model on example text `example` with the head labelled `label` chosen (the shipped
// table has one: ShippedModel in the native suite holds it); focusRow(i) moves the focus there and
// returns the settled state.
async function openLabelledHead(label, example) {
  const { context, page } = await open(srv.url);
  await chooseModel(page);
  await page.selectOption('#model-example', String(example));
  const s = await waitState(page, (x) => active(x) && x.model.example === example);
  const head = s.model.heads.find((h) => h.label === label);
  assert.ok(head, `the shipped weights have a head labelled "${label}" (model card head table)`);
  await call(page, 'attn_set_option', ['string', 'number'], ['model_layer', head.layer]);
  await call(page, 'attn_set_option', ['string', 'number'], ['model_head', head.head]);
  const focusRow = async (i) => {
    assert.equal(await call(page, 'attn_set_focus', ['number'], [i]), '');
    return waitState(page, (x, [f, l, h]) => x.model.focus === f && x.model.layer === l && x.model.head === h,
      [i, head.layer, head.head]);
  };
  return { context, s, focusRow };
}

test('the head labelled "induction" looks from the second copy of a phrase to what followed the first (apart from the first token)', { skip: !BUILT && NO_MODEL }, async () => {
  const { context, s, focusRow } = await openLabelledHead('induction', 0);  // the repeated phrase
  const ids = s.model.token_ids, n = ids.length;
  let checked = 0, hits = 0, follower = 0;
  const misses = [];
  for (let i = Math.ceil(n / 2); i < n; i++) {
    const earlier = [];
    for (let j = 0; j < i; j++) if (ids[j] === ids[i]) earlier.push(j);
    if (earlier.length !== 1 || earlier[0] + 1 >= i) continue;  // a token seen once before
    const r = await focusRow(i);
    // The first token is where this head rests when it has nothing to copy (its first-token
    // score is in the card; a weight there mixes in almost nothing): the largest weight on any
    // other token must be the follower's, and the follower must carry a real share.
    const w = r.model.row.weights;
    const rest = w.slice(1), top = 1 + rest.indexOf(Math.max(...rest));
    checked++;
    follower += w[earlier[0] + 1];
    if (top === earlier[0] + 1) hits++; else misses.push(`${r.model.tokens[i]}@${i} -> ${r.model.tokens[top]}@${top}`);
  }
  assert.ok(checked >= 8, `the repeated phrase gives enough tokens to check (${checked})`);
  assert.ok(hits / checked >= 0.75, `largest weight after the first token on the follower of the first occurrence for ${hits} of ${checked}: ${misses.join(', ')}`);
  assert.ok(follower / checked >= 0.3, `mean weight on the follower ${(follower / checked).toFixed(2)}`);
  await context.close();
});

test('the head labelled "previous-token" puts its largest weight on the token before the focus', { skip: !BUILT && NO_MODEL }, async () => {
  const { context, s, focusRow } = await openLabelledHead('previous-token', 1);  // the ordinary sentence
  const n = s.model.token_ids.length;
  let hits = 0;
  const misses = [];
  for (let i = 1; i < n; i++) {
    const r = await focusRow(i);
    const w = r.model.row.weights;
    const top = w.indexOf(Math.max(...w));
    if (top === i - 1) hits++; else misses.push(`${r.model.tokens[i]}@${i} -> ${r.model.tokens[top]}@${top}`);
  }
  assert.ok(n >= 10, `the sentence has enough tokens (${n})`);
  assert.ok(hits / (n - 1) >= 0.6, `largest weight on the previous token for ${hits} of ${n - 1}: ${misses.join(', ')}`);
  await context.close();
});

test('from file:// the script-wrapped copy loads the same model', { skip: !BUILT && NO_MODEL }, async () => {
  const { context, page, requests, errors } = await open(pathToFileURL(join(DIST, 'index.html')).href);
  const s = await chooseModel(page);
  assert.equal(s.model.weights_sha256, JSON.parse(await page.getAttribute('#engine-data', 'data-model')).sha256);
  assert.equal(requests.filter(isScript).length, 1, 'model.js is read once');
  assert.equal(requests.filter(isWeights).length, 0, 'no fetch from file://');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the embed (under a sub-path) opens the trained model too', { skip: !BUILT && NO_MODEL }, async () => {
  const sub = await serve({ basePath: SUB_PATH });
  const { context, page, requests } = await open(sub.url + 'embed.html', { viewport: { width: 800, height: 700 } });
  await page.selectOption('#view-select', '4');
  const s = await waitState(page, active, null, 30000);
  assert.equal(s.panel, 4);
  assert.ok(requests.some((u) => isWeights(u) && u.includes(SUB_PATH)), 'fetched from the embed\'s own folder');
  await context.close();
  await sub.close();
});

test('weights that fail to load or fail their checksum leave a clear message and a working page', { skip: !BUILT && NO_MODEL }, async () => {
  const { context, page, errors } = await open(srv.url);
  // 1. the file is missing
  await page.route(/\/model\/model\.bin/, (r) => r.fulfill({ status: 404, body: 'not here' }));
  await page.selectOption('#scenario-select', 'model');
  await page.waitForFunction(() => document.getElementById('attention-stage').getAttribute('data-model') === 'failed');
  assert.match(await page.textContent('#model-status'), /could not be loaded.*HTTP 404.*still works/s);
  await page.waitForFunction(() => document.getElementById('scenario-select').value !== 'model');
  assert.equal((await appState(page)).model.loaded, false);
  // 2. one byte changed: the checksum catches it
  const good = readFileSync(WEIGHTS);
  const bad = Buffer.from(good); bad[bad.length >> 1] ^= 0x55;
  await page.unroute(/\/model\/model\.bin/);
  await page.route(/\/model\/model\.bin/, (r) => r.fulfill({ status: 200, body: bad, contentType: 'application/octet-stream' }));
  await page.selectOption('#scenario-select', 'model');
  await page.waitForFunction(() => /checksum/.test(document.getElementById('model-status').textContent));
  assert.equal((await appState(page)).model.loaded, false);
  // the rest of the page still works: another example, the steps
  await page.selectOption('#scenario-select', 'worked-example');
  await waitState(page, (x) => x.scenario === 'worked-example');
  await page.click('#step-next');
  await waitState(page, (x) => x.step === 1);
  // and a later try with the real file succeeds
  await page.unroute(/\/model\/model\.bin/);
  await chooseModel(page);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const scheme of ['light', 'dark']) {
  test(`axe finds no WCAG A/AA violation with the model view open (${scheme})`, { skip: !BUILT && NO_MODEL }, async () => {
    const { context, page } = await open(srv.url, { colorScheme: scheme, bypassCSP: true });
    await chooseModel(page);
    await page.click('#model-heads-wrap summary');
    const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    assert.ok(results.passes.length > 20, 'axe really ran');
    assert.equal(results.violations.length, 0, results.violations.map((v) => `${v.id}: ${v.help} ${v.nodes.slice(0, 2).map((x) => x.target.join(' ')).join(', ')}`).join('\n'));
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(600);
      await page.locator('#attention-canvas').screenshot({ path: shot(`model-canvas-${width}-${scheme}`) });
      await page.locator('#stage-controls').screenshot({ path: shot(`model-controls-${width}-${scheme}`) });
    }
    await context.close();
  });
}
