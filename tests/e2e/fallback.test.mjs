// The page without a server, without WebGL and without JavaScript: it still renders what it can,
// says plainly what is missing, and keeps the text, the diagram and the quiz.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  launch, serve, watch, hookModule, appReady, appState, stageSettled, colourStats, readEntry, quizSpec,
  answerQuizByKeyboard, norm, plainText, shot, DIST,
} from './helpers.mjs';

let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

async function quizByKeyboardScores(page) {
  const spec = quizSpec();
  await page.evaluate(() => document.querySelector('#quiz input').focus());
  await page.keyboard.press('Shift+Tab');
  await answerQuizByKeyboard(page, spec.map((q) => q.wrong));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('quiz-result').textContent.trim() !== '');
  assert.equal(norm(await page.textContent('#quiz-result')), `You got 0 of ${spec.length} right.`);
}

test('opened from file:// the canvas renders, the app reacts and the quiz works', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await hookModule(context);
  const log = await watch(context, 'file:');
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(DIST, 'index.html')).href);
  await appReady(page);
  await page.locator('#attention-canvas').scrollIntoViewIfNeeded();
  const png = await page.locator('#attention-canvas').screenshot({ path: shot('file-canvas') });
  const st = colourStats(png);
  assert.ok(st.distinct > 50 && st.dominant < 0.9, 'the canvas is not one flat colour');
  const s0 = await appState(page);
  const other = s0.scenario === 'diagram' ? 'worked-example' : 'diagram';
  await page.selectOption('#scenario-select', other);
  assert.equal((await appState(page)).scenario, other);
  await quizByKeyboardScores(page);
  assert.deepEqual(log.foreign, [], 'only local files are requested');
  assert.deepEqual(log.errors.filter((e) => !/data:application\/octet-stream/.test(e)), [], 'console errors (besides the wasm data: URL, checked served)');
  await context.close();
});

async function noWebGl(how) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  if (how === 'script') {
    await context.addInitScript(() => {
      const real = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
        return /webgl/i.test(kind) ? null : real.call(this, kind, ...rest);
      };
    });
  }
  const log = await watch(context, srv.origin);
  const page = await context.newPage();
  await page.goto(srv.url);
  return { context, page, log };
}

for (const how of ['script', 'flag']) {
  test(`without WebGL2 (${how === 'flag' ? '--disable-webgl' : 'getContext returns null'}) the page says so and text, diagram and quiz remain`, async () => {
    let b = browser;
    let ctx;
    if (how === 'flag') {
      b = await launch(['--disable-webgl', '--disable-webgl2']);
      ctx = await b.newContext({ viewport: { width: 1200, height: 900 } });
    }
    const { context, page, log } = how === 'flag'
      ? await (async () => { const l = await watch(ctx, srv.origin); const p = await ctx.newPage(); await p.goto(srv.url); return { context: ctx, page: p, log: l }; })()
      : await noWebGl(how);
    try {
      assert.equal(await stageSettled(page), 'no-webgl2');
      const msg = page.locator('#stage-message');
      assert.ok(await msg.isVisible(), 'the fallback message is visible');
      assert.match(norm(await msg.textContent()), /WebGL/i);
      assert.ok(!(await page.locator('#attention-canvas').isVisible()), 'no empty canvas is left on screen');
      assert.ok(!log.requests.some((u) => /\/app(\.simd)?\.js$/.test(u)), 'app.js is not even downloaded');
      // the page controls still step through the engine's numbers
      const before = await page.textContent('#live-description');
      await page.click('#step-back');
      await page.waitForFunction((b0) => document.getElementById('live-description').textContent !== b0, before);
      assert.match(await page.textContent('#live-description'), /^Step 3 of 4/);
      await page.selectOption('#scenario-select', 'worked-example');
      await page.waitForFunction(() => document.getElementById('live-description').textContent.includes('bridge'));
      assert.equal(await page.locator('#diagram-svg .d-cand').count(), 3);
      await quizByKeyboardScores(page);
      assert.deepEqual(log.errors, [], 'console errors');
      await page.locator('#attention-stage').screenshot({ path: shot(`no-webgl-${how}`) });
    } finally {
      await context.close();
      if (b !== browser) await b.close();
    }
  });
}

test('without JavaScript the text, the diagram and the quiz questions with their answers are readable', async () => {
  const entry = readEntry();
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(srv.url);
  assert.equal(await page.getAttribute('#attention-stage', 'data-app-state'), 'none');
  assert.ok(await page.locator('#stage-message').isVisible(), 'the stage says it needs JavaScript');
  for (const g of entry.groups) for (const s of g.sections) {
    assert.ok(await page.locator(`section[data-section="${s.id}"]`).isVisible(), `section ${s.id} visible`);
  }
  assert.ok(await page.locator('#diagram-svg').isVisible());
  assert.equal(await page.locator('#diagram-svg .d-cand').count(), 3);
  assert.ok((await page.textContent('#diagram-svg')).includes('candidate A'));
  const quiz = entry.groups.flatMap((g) => g.sections).find((s) => s.kind === 'quiz');
  for (const q of quiz.questions) {
    const fs = page.locator(`fieldset#${q.id}`);
    assert.ok(await fs.locator('legend').isVisible(), `${q.id} question visible`);
    assert.ok(norm(await fs.locator('legend').textContent()).includes(norm(plainText(q.prompt))), `${q.id} prompt`);
    for (const o of q.options) assert.ok(norm(await fs.textContent()).includes(norm(plainText(o.text))), `${q.id} option`);
    // the answer is one click away, in native <details>
    await fs.locator('details.answer summary').click();
    const right = q.options.find((o) => o.correct);
    assert.ok(await fs.locator('details.answer').isVisible());
    assert.ok(norm(await fs.locator('details.answer').innerText()).includes(norm(plainText(right.text))), `${q.id} answer readable`);
  }
  await page.screenshot({ path: shot('no-js-page'), fullPage: false });
  await context.close();
});
