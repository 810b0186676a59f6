// The full page as a reader gets it from a server: clean load, every section in order, the
// engine's numbers, the diagram's highlight, the keyboard-only quiz, and screenshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, serve, watch, hookModule, appReady, stageSettled, readEntry, engine, fmtScore, fmtWeight,
  shot, answerQuizByKeyboard, SUB_PATH, norm, plainText, quizSpec,
} from './helpers.mjs';

let browser, srv, shared;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });
// one page for the read-only checks (sections, numbers), loaded once
async function readOnly() {
  if (!shared) shared = await open(srv.url);
  return { context: { close: async () => {} }, page: shared.page };
}

async function open(url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
  await hookModule(context);
  const page = await context.newPage();
  await page.goto(url);
  return { context, page };
}

test('loads with no console error, no failed request and no request to another origin', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await hookModule(context);
  const log = await watch(context, srv.origin);
  const page = await context.newPage();
  await page.goto(srv.url, { waitUntil: 'load' });
  await appReady(page);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.deepEqual(log.foreign, [], 'requests to another origin');
  assert.deepEqual(log.failed, [], 'failed requests');
  assert.deepEqual(log.errors, [], 'console errors');
  assert.ok(log.requests.some((u) => /\/app(\.simd)?\.js$/.test(u)), 'the app was requested');
  await context.close();
});

test('works under a sub-path: same files, app ready, every request below the sub-path', async () => {
  const sub = await serve({ basePath: SUB_PATH });
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await hookModule(context);
    const log = await watch(context, sub.origin);
    const page = await context.newPage();
    await page.goto(sub.url);
    await appReady(page);
    assert.deepEqual(log.failed, [], 'failed requests');
    assert.deepEqual(log.foreign, [], 'requests to another origin');
    const outside = log.requests.filter((u) => !u.startsWith('data:') && !new URL(u).pathname.startsWith(SUB_PATH));
    assert.deepEqual(outside, [], 'requests outside the sub-path');
    await context.close();
  } finally { await sub.close(); }
});

test('shows every group and section of entry.json, in the same order, with one h1', async () => {
  const entry = readEntry();
  const { context, page } = await readOnly();
  const wantSections = entry.groups.flatMap((g) => g.sections.map((s) => s.id));
  const wantGroups = entry.groups.map((g) => g.id);
  const known = new Set(wantSections);
  const gotSections = (await page.$$eval('section[data-section]', (ns) => ns.map((n) => n.dataset.section))).filter((id) => known.has(id));
  const gotGroups = await page.$$eval('div[data-group]', (ns) => ns.map((n) => n.dataset.group));
  assert.deepEqual(gotSections, wantSections);
  assert.deepEqual(gotGroups, wantGroups);
  for (const g of entry.groups) {
    for (const s of g.sections) {
      const heading = norm(await page.textContent(`section[data-section="${s.id}"] h3`));
      assert.equal(heading, norm(plainText(s.heading)), `heading of ${s.id}`);
      assert.equal(await page.locator(`div[data-group="${g.id}"] section[data-section="${s.id}"]`).count(), 1, `${s.id} inside ${g.id}`);
    }
  }
  assert.equal(await page.locator('h1').count(), 1);
  assert.equal(norm(await page.textContent('h1')), norm(plainText(entry.title)));
  await context.close();
});

// Fill entry.json's placeholders ourselves from the CLI, then expect the page to show that text.
function filler(ns) {
  const e = engine(ns === 'worked' ? 'worked-example' : 'diagram');
  const allowed = e.candidates.filter((c) => !c.masked);
  const list = (xs) => (xs.length <= 1 ? xs.join('') : xs.slice(0, -1).join(', ') + ' and ' + xs[xs.length - 1]);
  const pick = (sel) => (/^\d+$/.test(sel) ? e.candidates[Number(sel) - 1] : e.candidates.find((c) => c.token === sel));
  const top = allowed.reduce((a, c) => (c.weight > a.weight ? c : a));
  return (field, sel) => {
    switch (field) {
      case 'scores': return list(allowed.map((c) => fmtScore(c.score)));
      case 'weights': return list(allowed.map((c) => fmtWeight(c.weight)));
      case 'weight_sum': return fmtScore(e.weight_sum);
      case 'scale': return fmtScore(e.scale);
      case 'top': return top.token;
      case 'focus': return e.tokens[e.focus];
      case 'score': return fmtScore(pick(sel).score);
      case 'weight': return fmtWeight(pick(sel).weight);
      case 'token': return pick(sel).token;
      default: throw new Error('unknown placeholder field ' + field);
    }
  };
}

test('every number in the glossary text equals the engine CLI, at the page precision', async () => {
  const entry = readEntry();
  const fill = { diagram: filler('diagram'), worked: filler('worked') };
  const { context, page } = await readOnly();
  let checked = 0;
  for (const g of entry.groups) {
    for (const s of g.sections) {
      const strings = [];
      (function walk(v) {
        if (typeof v === 'string') { if (v.includes('{{')) strings.push(v); }
        else if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === 'object') Object.values(v).forEach(walk);
      })(s);
      if (!strings.length) continue;
      const text = norm(await page.textContent(`section[data-section="${s.id}"]`));
      for (const str of strings) {
        const want = norm(plainText(str.replace(/\{\{(\w+)\.(\w+)(?:\.([^}]+))?\}\}/g, (_, ns, f, sel) => fill[ns](f, sel))));
        // the aria/visible text may be split across elements; check each placeholder-bearing sentence
        for (const sentence of want.split(/(?<=\.)\s+/).filter((x) => /\d/.test(x))) {
          assert.ok(text.includes(sentence), `section ${s.id} should show "${sentence}"`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked >= 5, `checked ${checked} sentences with engine numbers`);
  await context.close();
});

test('the diagram and the embedded engine data carry the CLI numbers', async () => {
  const e = engine('diagram');
  const w = engine('worked-example');
  const { context, page } = await readOnly();
  const cands = await page.$$eval('#diagram-svg .d-cand', (gs) => gs.map((g) => ({ ...g.dataset, label: g.querySelector('.d-cand-btn').getAttribute('aria-label') })));
  assert.equal(cands.length, e.candidates.length);
  e.candidates.forEach((c, i) => {
    assert.equal(cands[i].token, c.token);
    assert.equal(cands[i].score, fmtScore(c.score), `score of ${c.token}`);
    assert.equal(cands[i].weight, fmtWeight(c.weight), `weight of ${c.token}`);
    assert.ok(cands[i].label.includes(fmtScore(c.score)) && cands[i].label.includes(fmtWeight(c.weight)), `aria-label of ${c.token}`);
  });
  const baked = await page.$eval('#engine-data', (n) => ({ d: JSON.parse(n.dataset.scenarioDiagram), w: JSON.parse(n.dataset.scenarioWorkedExample) }));
  for (const [got, want] of [[baked.d, e], [baked.w, w]]) {
    assert.deepEqual(got.candidates.map((c) => [c.token, c.score, c.weight]), want.candidates.map((c) => [c.token, c.score, c.weight]));
    assert.deepEqual(got.output, want.output);
  }
  await context.close();
});

test('the diagram highlights a candidate on hover and on Tab focus, and the readout says it', async () => {
  const e = engine('diagram');
  const { context, page } = await open(srv.url);
  const readout = () => page.textContent('#diagram-readout');
  const says = (c) => async () => {
    const t = await readout();
    return t.includes(c.token) && t.includes(fmtScore(c.score)) && t.includes(fmtWeight(c.weight));
  };
  const hint = await readout();
  const c1 = e.candidates[1];
  await page.hover('#diagram-svg .d-cand[data-index="1"]');
  await page.waitForSelector('#diagram-svg .d-cand[data-index="1"].is-active');
  assert.equal(await page.locator('#diagram-svg .d-cand.is-active').count(), 1);
  assert.ok(await says(c1)(), `readout after hover: ${await readout()}`);
  assert.equal(await page.getAttribute('#diagram-readout', 'aria-live'), 'polite');
  await page.mouse.move(0, 0);
  await page.waitForFunction((h) => document.getElementById('diagram-readout').textContent === h, hint);
  // keyboard: Tab from the top of the page until a candidate has focus
  await page.keyboard.press('Tab');
  for (let n = 0; n < 80; n++) {
    if (await page.evaluate(() => document.activeElement.classList.contains('d-cand-btn'))) break;
    await page.keyboard.press('Tab');
  }
  const idx = Number(await page.evaluate(() => document.activeElement.closest('.d-cand').dataset.index));
  assert.equal(idx, 0, 'Tab reaches the first candidate first');
  assert.ok(await page.evaluate(() => document.activeElement.closest('.d-cand').classList.contains('is-active')));
  assert.ok(await says(e.candidates[0])(), `readout after Tab: ${await readout()}`);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('.d-cand').dataset.index), '1');
  assert.ok(await says(c1)(), `readout after second Tab: ${await readout()}`);
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('#diagram-svg .d-cand[data-index="1"] .d-cand-btn', 'aria-pressed'), 'true');
  await context.close();
});

test('the quiz works with the keyboard alone: feedback, score and retry', async () => {
  const spec = quizSpec();
  const { context, page } = await open(srv.url);
  await stageSettled(page);
  // first and third right, the others wrong: score must be 2 of 4 (generally: count of rights)
  const picks = spec.map((q, i) => (i % 2 === 0 ? q.right : q.wrong));
  const rights = picks.filter((p, i) => p === spec[i].right).length;
  await answerQuizByKeyboard(page, picks);
  // Tab to the submit button and press Enter
  for (let n = 0; n < 10 && (await page.evaluate(() => document.activeElement.id)) !== 'quiz-submit'; n++) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'quiz-submit');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('quiz-result').textContent.trim() !== '');
  assert.equal(norm(await page.textContent('#quiz-result')), `You got ${rights} of ${spec.length} right.`);
  for (let i = 0; i < spec.length; i++) {
    const q = spec[i], ok = picks[i] === q.right;
    const fb = norm(await page.textContent(`#${q.id} .feedback`));
    assert.equal(fb, norm((ok ? '\u2713 ' : '\u2717 ') + q.feedback[picks[i]]), `feedback of ${q.id}`);
    assert.ok(await page.locator(`#${q.id}.${ok ? 'is-right' : 'is-wrong'}`).count() === 1, `${q.id} marked ${ok ? 'right' : 'wrong'}`);
    assert.equal(await page.getAttribute(`#${q.id} .feedback`, 'aria-live'), 'polite');
    assert.ok(await page.locator(`#${q.id} details.answer`).isVisible(), `${q.id} reveals the explanation`);
  }
  // retry has focus; Enter resets everything
  assert.equal(await page.evaluate(() => document.activeElement.id), 'quiz-retry');
  await page.keyboard.press('Enter');
  assert.equal(norm(await page.textContent('#quiz-result')), '');
  assert.equal(await page.locator('#quiz input:checked').count(), 0);
  assert.equal(await page.locator('#quiz .is-right, #quiz .is-wrong').count(), 0);
  assert.ok(await page.locator('#quiz-submit').isVisible());
  // and a second round, all right, scores full marks
  await answerQuizByKeyboard(page, spec.map((q) => q.right));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('quiz-result').textContent.trim() !== '');
  assert.equal(norm(await page.textContent('#quiz-result')), `You got ${spec.length} of ${spec.length} right.`);
  await context.close();
});

test('submitting the quiz with questions open says which ones, and scores nothing', async () => {
  const { context, page } = await open(srv.url);
  await page.click('#quiz-submit');
  const t = await page.textContent('#quiz-result');
  assert.match(t, /question 1, question 2, question 3, question 4/);
  assert.equal(await page.locator('#quiz .is-right, #quiz .is-wrong').count(), 0);
  await context.close();
});

test('fits desktop and a 360px phone, light and dark, without sideways scrolling (screenshots)', async () => {
  for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 360, height: 780 }]]) {
    for (const scheme of ['light', 'dark']) {
      const { context, page } = await open(srv.url, { viewport, colorScheme: scheme, deviceScaleFactor: 1 });
      assert.equal(await stageSettled(page), 'ready');
      const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(over <= 0, `${name}/${scheme}: page is ${over}px wider than the viewport`);
      assert.equal(await page.evaluate(() => window.AttentionTheme.isDark()), scheme === 'dark');
      await page.screenshot({ path: shot(`page-${name}-${scheme}`), fullPage: true });
      await page.locator('#attention-stage').screenshot({ path: shot(`stage-${name}-${scheme}`) });
      await context.close();
    }
  }
});
