// The ImGui canvas (wasm, WebGL2 on SwiftShader) as the page drives it: it draws, it reacts to the
// pointer and the keyboard, it follows the page's controls, reduced motion and dark mode, and bad
// input in the page's own controls gets a clear message while everything keeps working.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, serve, appState, waitState, colourStats, pixelDiff, luminance, shot,
  fmtScore, fmtWeight, norm, quizSpec, answerQuizByKeyboard, engine, openApp,
} from './helpers.mjs';

let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

async function open(options = {}, query = '') {
  const r = await openApp(browser, srv.url + query, options);
  await r.page.locator('#attention-canvas').scrollIntoViewIfNeeded();
  return r;
}
const frames = (page, n = 3) => page.evaluate((k) => new Promise((r) => {
  let i = 0; const f = () => (++i >= k ? r() : requestAnimationFrame(f)); requestAnimationFrame(f);
}), n);
const canvasShot = async (page, name) => {
  await frames(page);
  return page.locator('#attention-canvas').screenshot(name ? { path: shot(name) } : {});
};
const live = (page) => page.textContent('#live-description');

test('the canvas draws the visualisation (not one flat colour) at the CSS size x devicePixelRatio', async () => {
  for (const dpr of [1, 2]) {
    const { context, page } = await open({ deviceScaleFactor: dpr });
    const png = await canvasShot(page, `canvas-${dpr}x-light`);
    const st = colourStats(png);
    assert.ok(st.distinct > 50 && st.dominant < 0.9, `canvas looks flat: ${st.distinct} colours, top one ${(st.dominant * 100).toFixed(1)}%`);
    const size = await page.$eval('#attention-canvas', (c) => [c.width, c.height, c.clientWidth, c.clientHeight]);
    assert.ok(Math.abs(size[0] - size[2] * dpr) <= 1 && Math.abs(size[1] - size[3] * dpr) <= 1, `buffer ${size[0]}x${size[1]} for CSS ${size[2]}x${size[3]} at ${dpr}x`);
    await context.close();
  }
});

// Changed deliberately (issue 13): hovering never re-announces the live description; a separate,
// non-live readout (#pointer-readout) says what the pointer highlights.
test('pointer over a candidate on the canvas sets the state hover and the pointer readout (not the live text) says it', async () => {
  const { context, page } = await open();
  await frames(page, 20);
  const liveBefore = await live(page);
  const box = await page.locator('#attention-canvas').boundingBox();
  // find a candidate row by moving down the candidates column; the app must report it as hover
  let hover = -1;
  for (let y = box.y + 8; y < box.y + box.height && hover < 0; y += 12) {
    await page.mouse.move(box.x + box.width * 0.33, y);
    await frames(page, 2);
    hover = (await appState(page)).hover;
  }
  assert.ok(hover >= 0, 'no candidate reacted to the pointer');
  const s = await appState(page);
  const c = s.candidates.find((k) => k.position === hover);
  assert.ok(c, 'hover is a candidate position');
  await page.waitForFunction((t) => document.getElementById('pointer-readout').textContent.includes('Highlighted: \u201c' + t + '\u201d'), c.token);
  assert.ok((await page.textContent('#pointer-readout')).includes(`score ${fmtScore(c.score)}, weight ${fmtWeight(c.weight)}`));
  assert.equal(await page.getAttribute('#pointer-readout', 'aria-live'), 'off', 'the readout is not announced');
  await page.waitForTimeout(400);
  assert.equal(await live(page), liveBefore, 'the live description did not change on hover');
  await context.close();
});

test('a click focuses the canvas and PageDown / PageUp walk the steps (state, page controls, live text)', async () => {
  const { context, page } = await open();
  const box = await page.locator('#attention-canvas').boundingBox();
  const before = await appState(page);
  await page.mouse.click(box.x + box.width - 20, box.y + box.height - 20);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'attention-canvas');
  const target = before.step < 3 ? before.step + 1 : before.step - 1;
  await page.keyboard.press(target > before.step ? 'PageDown' : 'PageUp');
  await waitState(page, (s, t) => s.step === t, target);
  await page.waitForFunction((t) => document.getElementById('step-status').textContent.startsWith('Step ' + (t + 1) + ' of 4'), target);
  await page.waitForFunction((t) => document.getElementById('live-description').textContent.startsWith('Step ' + (t + 1) + ' of 4'), target);
  assert.equal(await page.getAttribute('#diagram-svg', 'data-step'), String(target), 'the diagram follows the canvas');
  // Tab leaves the canvas for the page (the canvas does not trap the keyboard)
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement.id), 'attention-canvas');
  await context.close();
});

test('the page controls drive the canvas: scenario select and Next/Back change state and pixels', async () => {
  const { context, page } = await open();
  const s0 = await appState(page);
  const other = s0.scenario === 'diagram' ? 'worked-example' : 'diagram';
  const png0 = await canvasShot(page);
  await page.selectOption('#scenario-select', other);
  await waitState(page, (s, id) => s.scenario === id, other);
  const s1 = await appState(page);
  const e = engine(other);
  assert.deepEqual(s1.tokens, e.tokens);
  assert.deepEqual(s1.candidates.map((c) => [c.token, c.score, c.weight]), e.candidates.map((c) => [c.token, c.score, c.weight]), 'app numbers = CLI numbers');
  await page.waitForTimeout(400); // let eased bars settle before comparing pixels
  const png1 = await canvasShot(page, `canvas-${other}`);
  const d = pixelDiff(png0, png1);
  assert.ok(d > 0.01, `the canvas barely changed (${(d * 100).toFixed(2)}% of pixels)`);
  // the focus select lists the new tokens; live text restates the engine's weights
  const opts = await page.$$eval('#focus-select option', (os) => os.map((o) => o.textContent));
  assert.equal(opts.length, e.tokens.length);
  await page.waitForFunction((w) => document.getElementById('live-description').textContent.includes(w),
    'Weights: ' + e.candidates.filter((c) => !c.masked).map((c) => '\u201c' + c.token + '\u201d ' + fmtWeight(c.weight)).join(', ').replace(/, ([^,]*)$/, ' and $1') + '.');
  // Next / Back
  const step = s1.step;
  await page.click(step < 3 ? '#step-next' : '#step-back');
  await waitState(page, (s, t) => s.step === t, step < 3 ? step + 1 : step - 1);
  await context.close();
});

test('reduced motion (emulated) turns animation off in the page and the app', async () => {
  const dur = (page) => page.$eval('#diagram-svg .d-cand', (g) => getComputedStyle(g).transitionDuration);
  const a = await open({ reducedMotion: 'no-preference' });
  assert.equal((await appState(a.page)).reduced_motion, false);
  assert.notEqual(await dur(a.page), '0s', 'animations are on by default');
  await a.context.close();
  const b = await open({ reducedMotion: 'reduce' });
  assert.equal((await appState(b.page)).reduced_motion, true);
  assert.ok((await dur(b.page)).split(',').every((x) => parseFloat(x) === 0), 'diagram transitions are 0s');
  assert.equal(await b.page.$eval('html', (h) => getComputedStyle(h).scrollBehavior), 'auto');
  assert.ok(await b.page.locator('.reduced-desc').first().isVisible(), 'the static description is shown');
  // switching the preference live reaches the app too
  await b.page.emulateMedia({ reducedMotion: 'no-preference' });
  await waitState(b.page, (s) => s.reduced_motion === false);
  await b.context.close();
});

test('dark mode (emulated) switches the page and the app theme; the toggle switches back', async () => {
  const { context, page } = await open({ colorScheme: 'dark' });
  assert.equal((await appState(page)).theme, 'dark');
  assert.equal(await page.getAttribute('#theme-toggle', 'aria-pressed'), 'true');
  const bg = await page.$eval('body', (b) => getComputedStyle(b).backgroundColor);
  const rgb = bg.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
  assert.ok(luminance(rgb) < 80, `dark page background expected, got ${bg}`);
  const darkPng = await canvasShot(page, 'canvas-1x-dark');
  assert.ok(luminance(colourStats(darkPng).mean) < 110, 'the canvas is dark');
  await page.click('#theme-toggle');
  await waitState(page, (s) => s.theme === 'light');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
  await page.waitForTimeout(300);
  const lightPng = await canvasShot(page);
  assert.ok(luminance(colourStats(lightPng).mean) > luminance(colourStats(darkPng).mean) + 40, 'the canvas turned light');
  await context.close();
});

test('bad sentences get a clear message and leave the app, the controls and the quiz working', async () => {
  const { context, page, errors } = await open();
  const cases = [
    ['', /sentence|word/i],
    ['   ', /sentence|word/i],
    ['The cat \u{1F600} sat on the mat', /emoji/i],
    ['\u041C\u0438\u0440 and p\u0435ace', /alphabet/i], // "p\u0435ace" has a Cyrillic "\u0435"
    ['one', /two words|at least two/i],
    ['tab\u0007 bell', /cannot use this symbol: U\+0007\./],  // a character with nothing to see: its code point
    ['cost $5, x = y + 1', /cannot use these symbols: \$ = \+\./],  // each symbol named once, in order
    [Array.from({ length: 130 }, (_, i) => `w${i}`).join(' '), /more than 128 words/i], // the engine's own cap
  ];
  await page.selectOption('#scenario-select', 'sentence');
  // Changed deliberately (issue 13): choosing "Your sentence" now shows it on the canvas at once.
  const good = await waitState(page, (s) => typeof s.sentence === 'string');
  const err = page.locator('#sentence-error');
  const checkStillWorking = async (label, pixels = false) => {
    const s = await appState(page); // throws on NaN/Infinity in the JSON
    assert.ok(Array.isArray(s.candidates) && s.candidates.length > 0, `${label}: state still has candidates`);
    assert.ok(!/NaN|Infinity|undefined/.test(await live(page)), `${label}: no NaN on screen`);
    if (pixels) {
      const st = colourStats(await canvasShot(page, 'canvas-after-bad-input'));
      assert.ok(st.distinct > 50, `${label}: the canvas is not blank`);
    }
    return s;
  };
  for (const [text, why] of cases) {
    await page.fill('#sentence-input', text);
    await page.click('#sentence-submit');
    await page.waitForFunction(() => document.getElementById('sentence-error').textContent.trim() !== '');
    const msg = norm(await err.textContent());
    assert.match(msg, why, `message for ${JSON.stringify(text)}: "${msg}"`);
    assert.ok(await err.isVisible(), 'the message is visible');
    assert.equal(await err.getAttribute('role'), 'alert');
    assert.equal(await page.getAttribute('#sentence-input', 'aria-invalid'), 'true');
    const s = await checkStillWorking(JSON.stringify(text));
    assert.equal(s.sentence, good.sentence, 'the state is unchanged');
  }
  // the reader's next edit clears the message: it spoke of text no longer in the field
  await page.press('#sentence-input', 'Backspace');
  assert.equal(norm(await err.textContent()), '', 'an edit clears the message');
  assert.equal(await page.getAttribute('#sentence-input', 'aria-invalid'), null);
  // 10,000 characters pasted: the page says only maxlength fit; what is kept is either used or explained
  const max = Number(await page.getAttribute('#sentence-input', 'maxlength'));
  assert.ok(max > 0 && max < 10000, `maxlength ${max}`);
  const huge = ('attention ').repeat(1000);
  await page.fill('#sentence-input', '');
  await page.focus('#sentence-input');
  await page.evaluate((t) => {
    const dt = new DataTransfer(); dt.setData('text/plain', t);
    document.getElementById('sentence-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, huge);
  assert.match(norm(await err.textContent()), new RegExp(`10000 characters.*${max}`), 'the paste is explained');
  assert.ok(await err.isVisible());
  assert.equal(await page.inputValue('#sentence-input'), '', 'the refused paste left the field as it was');
  await page.keyboard.insertText(huge); // typed (or pasted by a browser that ignores the refusal)
  assert.ok((await page.inputValue('#sentence-input')).length <= max, 'maxlength holds');
  await page.click('#sentence-submit');
  await frames(page, 3);
  const afterHuge = await checkStillWorking('10,000 characters', true);
  const shownErr = norm(await err.textContent());
  assert.ok(shownErr !== '' || (afterHuge.sentence && afterHuge.sentence.length <= max), 'either a message or a sentence of at most maxlength characters');
  // a good sentence after all that still works
  await page.fill('#sentence-input', 'The small dog chased the ball');
  await page.click('#sentence-submit');
  await waitState(page, (s) => s.sentence === 'The small dog chased the ball');
  assert.equal(norm(await page.textContent('#sentence-error')), '');
  assert.equal(await page.getAttribute('#sentence-input', 'aria-invalid'), null);
  // and a bad one leaves that good state in place
  await page.fill('#sentence-input', '😀😀');
  await page.click('#sentence-submit');
  await page.waitForFunction(() => document.getElementById('sentence-error').textContent.trim() !== '');
  assert.equal((await appState(page)).sentence, 'The small dog chased the ball');
  // the quiz still works
  const spec = quizSpec();
  await page.evaluate(() => document.querySelector('#quiz input').focus());
  await page.keyboard.press('Shift+Tab');
  await answerQuizByKeyboard(page, spec.map((q) => q.right));
  await page.click('#quiz-submit');
  assert.equal(norm(await page.textContent('#quiz-result')), `You got ${spec.length} of ${spec.length} right.`);
  assert.deepEqual(errors, [], 'no script error');
  await context.close();
});

test('the app setters answer bad input (empty sentence, focus 9999, unknown scenario) with a message and keep a valid state', async () => {
  // the page's own check is one layer; the app's attn_set_sentence must also answer with a message
  const { context, page } = await open();
  const msg = await page.evaluate(() => window.__attnModule.ccall('attn_set_sentence', 'string', ['string', 'number'], ['', 0]));
  assert.ok(typeof msg === 'string' && msg.length > 10, `attn_set_sentence('') returned "${msg}"`);
  const msg2 = await page.evaluate(() => window.__attnModule.ccall('attn_set_focus', 'string', ['number'], [9999]));
  assert.ok(msg2.length > 10, `attn_set_focus(9999) returned "${msg2}"`);
  const msg3 = await page.evaluate(() => window.__attnModule.ccall('attn_set_scenario', 'string', ['string'], ['no-such']));
  assert.ok(msg3.length > 10, `attn_set_scenario('no-such') returned "${msg3}"`);
  await appState(page); // still valid JSON, no NaN
  await context.close();
});
