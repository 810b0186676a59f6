// The explainer as every reader meets it (issue 13, and the one tokenizer of issue 10): the page
// shows the engine's tokens, keyboard readers reach every canvas control, the live text says what
// each view shows and only when it changes, HTML controls for every canvas setting, and phones.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, appState, waitState, norm, openApp } from './helpers.mjs';

let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

const open = (options = {}, query = '') => openApp(browser, srv.url + query, options);
// The engine's tokens of a text, straight from the wasm export (what the page must show).
const engineTokens = (page, text) => page.evaluate((t) => JSON.parse(window.__attnModule.ccall('attn_tokenize', 'string', ['string'], [t])), text);
const focusOptions = (page) => page.$$eval('#focus-select option', (os) => os.map((o) => ({ value: o.value, text: o.textContent })));
const selectedFocus = (page) => page.$eval('#focus-select', (s) => ({ value: s.value, text: s.options[s.selectedIndex].textContent }));

async function submitSentence(page, text) {
  await page.selectOption('#scenario-select', 'sentence');
  await page.fill('#sentence-input', text);
  await page.click('#sentence-submit');
  return waitState(page, (s, t) => s.sentence === t, text);
}

test('one tokenizer: the focus select lists the engine\'s tokens and the canvas focuses the token the select names', async () => {
  const { context, page, errors } = await open();
  for (const [text, want] of [['use snake_case here', 'here'], ['it costs 3\u00bd euros', 'euros']]) {
    const eng = await engineTokens(page, text);
    assert.ok(eng.ok, `the engine reads "${text}"`);
    const s = await submitSentence(page, text);
    assert.deepEqual(s.tokens, eng.tokens, 'the canvas uses the engine\'s tokens');
    const opts = await focusOptions(page);
    assert.equal(opts.length, eng.tokens.length, `the select has one option per engine token (${eng.tokens.join(' | ')})`);
    opts.forEach((o, i) => assert.ok(o.text.endsWith(eng.tokens[i]), `option ${i} "${o.text}" names token "${eng.tokens[i]}"`));
    assert.equal(s.tokens[s.focus], want, `the default focus is "${want}"`);
    const sel = await selectedFocus(page);
    assert.equal(Number(sel.value), s.focus, 'the select names the canvas\'s focus');
    assert.ok(sel.text.endsWith(want));
    assert.equal(norm(await page.textContent('#sentence-error')), '', 'no error');
    // choosing another token in the select moves the canvas's focus to exactly that token
    await page.selectOption('#focus-select', '0');
    const moved = await waitState(page, (st) => st.focus === 0);
    assert.equal(moved.tokens[0], eng.tokens[0]);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// ---------------------------------------------------------------- keyboard
const canvasId = (page) => page.evaluate(() => document.activeElement && document.activeElement.id);
async function tabToCanvas(page) {
  await page.focus('#scenario-select');
  for (let i = 0; i < 40 && (await canvasId(page)) !== 'attention-canvas'; i++) await page.keyboard.press('Shift+Tab');
  assert.equal(await canvasId(page), 'attention-canvas', 'Tab reaches the canvas');
}

test('Tab onto the canvas shows a focus ring at once (inside the stage, not clipped) and Page Down works without a click', async () => {
  const { context, page, errors } = await open();
  await page.locator('#attention-canvas').scrollIntoViewIfNeeded();
  await tabToCanvas(page);
  const ring = await page.$eval('#attention-canvas', (c) => {
    const st = getComputedStyle(c);
    return { visible: c.matches(':focus-visible'), style: st.outlineStyle, width: parseFloat(st.outlineWidth), offset: parseFloat(st.outlineOffset) };
  });
  assert.ok(ring.visible, ':focus-visible after Tab');
  assert.equal(ring.style, 'solid');
  assert.ok(ring.width >= 2, `outline ${ring.width}px`);
  assert.ok(ring.offset <= -ring.width, `the ring is drawn inside the stage's clip (offset ${ring.offset}px)`);
  // and the pixels show it: the canvas's left edge is the ring colour, not the canvas background
  const ringRgb = await page.evaluate(() => {
    const d = document.createElement('div'); d.style.color = getComputedStyle(document.documentElement).getPropertyValue('--ring');
    document.body.appendChild(d); const c = getComputedStyle(d).color; d.remove(); return c.match(/\d+/g).map(Number);
  });
  // at the middle of the part on screen: Shift+Tab may leave the canvas partly scrolled off (the
  // browser scrolls a focused element only until some of it shows)
  const box = await page.locator('#attention-canvas').boundingBox();
  const vh = await page.evaluate(() => innerHeight);
  const top = Math.max(box.y, 0), bottom = Math.min(box.y + box.height, vh);
  assert.ok(bottom - top >= 40, `the focused canvas is on screen (${top}..${bottom} of ${vh})`);
  const png = await page.screenshot({ clip: { x: box.x, y: Math.floor((top + bottom) / 2), width: 4, height: 4 } });
  const { decodePng } = await import('./helpers.mjs');
  const img = decodePng(png);
  const px = [img.data[4], img.data[5], img.data[6]];  // x = 1
  assert.ok(px.every((v, i) => Math.abs(v - ringRgb[i]) < 40), `edge pixel ${px} is the ring colour ${ringRgb}`);
  const before = await appState(page);
  await page.keyboard.press(before.step < 3 ? 'PageDown' : 'PageUp');
  await waitState(page, (s, t) => s.step === t, before.step < 3 ? before.step + 1 : before.step - 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the canvas keys are listed in a help the reader can open with the keyboard', async () => {
  const { context, page } = await open();
  const help = page.locator('#key-help');
  assert.equal(await help.getAttribute('open'), null, 'closed by default');
  await page.focus('#key-help summary');
  await page.keyboard.press('Enter');
  assert.notEqual(await help.getAttribute('open'), null, 'Enter opens it');
  const text = norm(await help.textContent());
  for (const k of ['Tab', 'Arrow keys', 'Page Down', 'Space or Enter', 'tap']) assert.ok(text.includes(k), `the help names ${k}`);
  await context.close();
});

// ---------------------------------------------------------------- HTML controls for every setting
test('every canvas setting has an HTML control that drives the canvas, and controls that do not apply say why', async () => {
  const { context, page, errors } = await open();
  await page.click('#canvas-settings summary');
  await page.selectOption('#scenario-select', 'worked-example');
  await waitState(page, (s) => s.scenario === 'worked-example');
  // temperature
  await page.$eval('#set-temperature', (r) => { r.value = '2'; r.dispatchEvent(new Event('input', { bubbles: true })); });
  await waitState(page, (s) => Math.abs(s.temperature - 2) < 1e-9);
  // 1/sqrt(d)
  await page.uncheck('#set-scale');
  await waitState(page, (s) => s.scaled === false);
  await page.check('#set-scale');
  // causal
  await page.check('#set-causal');
  await waitState(page, (s) => s.causal === true);
  await page.uncheck('#set-causal');
  // d
  await page.fill('#set-d', '6');
  await page.dispatchEvent('#set-d', 'change');
  await waitState(page, (s) => s.d === 6);
  // per-candidate mask
  const s0 = await appState(page);
  const pos = s0.candidates[0].position;
  await page.uncheck(`#set-mask-${pos}`);
  await waitState(page, (s, p) => s.candidates.find((c) => c.position === p).masked, pos);
  await page.check(`#set-mask-${pos}`);
  // vector components, in a table collapsed by default
  assert.equal(await page.getAttribute('#set-vectors', 'open'), null, 'the vector table is collapsed');
  await page.click('#set-vectors summary');
  const cell = page.locator('#set-vectors input[data-which="0"][data-component="0"]');
  await cell.fill('2.5');
  await cell.dispatchEvent('change');
  await waitState(page, (s) => Math.abs(s.query[0] - 2.5) < 1e-9);
  // heads do not apply to hand-chosen vectors: disabled, with the reason shown and described
  assert.ok(await page.isDisabled('#set-heads'));
  assert.match(norm(await page.textContent('#set-heads-reason')), /sentence/i);
  assert.equal(await page.getAttribute('#set-heads', 'aria-describedby'), 'set-heads-reason');
  // Vectors view: Next / Back are off, and say why
  await page.selectOption('#view-select', '1');
  await waitState(page, (s) => s.panel === 1);
  assert.ok(await page.isDisabled('#step-next') && await page.isDisabled('#step-back'));
  assert.match(norm(await page.textContent('#step-reason')), /every step at once/);
  // own sentence: heads apply, d does not
  await submitSentence(page, 'The cat sat on the mat because it was warm');
  await page.selectOption('#set-heads', '3');
  await waitState(page, (s) => s.heads === 3);
  assert.ok(await page.isDisabled('#set-d'));
  assert.match(norm(await page.textContent('#set-d-reason')), /sentence model/);
  // the word swaps of misconception 1: only in the Misconceptions view
  assert.ok(await page.isDisabled('#set-swap'));
  await page.selectOption('#view-select', '3');
  await waitState(page, (s) => s.panel === 3);
  await page.selectOption('#set-swap', '2');
  await waitState(page, (s) => s.misconception.variant === 2);
  assert.deepEqual(errors, []);
  await context.close();
});

// ---------------------------------------------------------------- the live description
test('the live description says what every view shows in at most about 400 characters, tokens isolated in <bdi>', async () => {
  const { context, page } = await open();
  const long = Array.from({ length: 128 }, (_, i) => ['the', 'bridge', 'was', 'blocked', 'so', 'it', 'waited', 'there'][i % 8]).join(' ');
  await submitSentence(page, long);
  await page.click('#canvas-settings summary');  // the settings are collapsed by default
  await page.selectOption('#set-heads', '4');
  await waitState(page, (s) => s.heads === 4);
  const texts = {};
  for (const [panel, want] of [[0, /^Step \d of 4/], [1, /^Vectors view/], [2, /^Whole sentence .*head 1 weighs .*head 4 weighs/], [3, /^Misconceptions\. 1: .*fingerprint.*2: head 1 favours.*3: the output is a vector/]]) {
    await page.selectOption('#view-select', String(panel));
    await waitState(page, (s, p) => s.panel === p, panel);
    await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('live-description').textContent), want.source, { timeout: 5000 })
      .catch(async () => assert.fail(`view ${panel}: ${await page.textContent('#live-description')}`));
    const t = norm(await page.textContent('#live-description'));
    texts[panel] = t;
    assert.ok(t.length <= 420, `view ${panel}: ${t.length} characters: ${t}`);
    assert.ok(!/NaN|undefined|\?\?\?/.test(t));
    const bdi = await page.$$eval('#live-description bdi', (b) => b.map((x) => x.textContent));
    assert.ok(bdi.length >= 2, `view ${panel}: tokens are in <bdi> (${bdi.length})`);
  }
  await context.close();
});

test('the header, the focus select and the live text name the same sentence: the whole-sentence view explains the own sentence', async () => {
  const { context, page } = await open();
  await page.selectOption('#scenario-select', 'diagram');
  await waitState(page, (s) => s.scenario === 'diagram');
  await page.selectOption('#view-select', '2');
  const s = await waitState(page, (x) => x.panel === 2 && typeof x.sentence === 'string');
  assert.equal(await page.inputValue('#scenario-select'), 'sentence', 'the Example select says what the map shows');
  const opts = await focusOptions(page);
  assert.deepEqual(opts.map((o) => o.text.replace(/^\d+\. /, '')), s.whole.tokens);
  await page.waitForFunction((w) => document.getElementById('live-description').textContent.includes(w.slice(0, 30)), s.whole.sentence);
  // and choosing "Your sentence" shows it on the canvas at once
  await page.selectOption('#view-select', '0');
  await page.selectOption('#scenario-select', 'worked-example');
  await waitState(page, (x) => x.scenario === 'worked-example');
  await page.selectOption('#scenario-select', 'sentence');
  await waitState(page, (x) => typeof x.sentence === 'string');
  await context.close();
});

// ---------------------------------------------------------------- sentence input
test('the sentence limit is stated in tokens and bytes; text the canvas cannot draw is refused before it is sent, naming the characters', async () => {
  const { context, page } = await open();
  const help = norm(await page.textContent('#sentence-help'));
  assert.match(help, /128 tokens/);
  assert.match(help, /4096 bytes/);
  await page.selectOption('#scenario-select', 'sentence');
  const before = await waitState(page, (s) => typeof s.sentence === 'string');
  for (const [text, chars] of [['\u732b\u5750\u5728 the mat', ['\u732b', '\u5750', '\u5728']], ['\u0627\u0644\u0642\u0637 sat here', ['\u0627', '\u0644']]]) {
    await page.fill('#sentence-input', text);
    await page.click('#sentence-submit');
    await page.waitForFunction(() => document.getElementById('sentence-error').textContent.trim() !== '');
    const msg = norm(await page.textContent('#sentence-error'));
    assert.match(msg, /cannot draw/);
    chars.forEach((c) => assert.ok(msg.includes(c), `the message names ${c}: ${msg}`));
    assert.equal((await appState(page)).sentence, before.sentence, 'nothing was sent');
  }
  // a 10,000-character paste: one message, not on the canvas too; it clears on the next try
  await page.fill('#sentence-input', '');
  await page.focus('#sentence-input');
  await page.evaluate((t) => {
    const dt = new DataTransfer(); dt.setData('text/plain', t);
    document.getElementById('sentence-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, 'attention '.repeat(1000));
  const msg = norm(await page.textContent('#sentence-error'));
  assert.match(msg, /10000 characters.*128 tokens.*4096 bytes/);
  assert.equal(await page.inputValue('#sentence-input'), '', 'the paste was not cut silently into the field');
  assert.equal(norm(await page.textContent('#control-error')), '', 'one message only');
  assert.equal((await appState(page)).message, '', 'and not on the canvas');
  await page.fill('#sentence-input', 'The small dog chased the ball');
  await page.click('#sentence-submit');
  await waitState(page, (s) => s.sentence === 'The small dog chased the ball');
  assert.equal(norm(await page.textContent('#sentence-error')), '', 'the message cleared on the next try');
  await context.close();
});

// ---------------------------------------------------------------- phones
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };

test('on a phone, tapping the canvas\'s sentence field gives the text to the page\'s real text input (the phone keyboard opens)', async () => {
  const { context, page } = await open(PHONE);
  await page.evaluate(() => window.__attnModule.ccall('attn_set_panel', 'string', ['number'], [2]));
  await page.waitForFunction(() => window.__attnModule.attnTextField && window.__attnModule.attnTextField.w > 0);
  // The canvas is sticky and at most one viewport tall; the app scrolls its content with the page,
  // so the field's place on the canvas (attnTextField, canvas CSS px) changes as the page scrolls:
  // scroll until the field is on screen, then tap where the app says it is now.
  let f = null, box = null;
  for (let k = 0; k < 10; k++) {
    f = await page.evaluate(() => window.__attnModule.attnTextField);
    box = await page.locator('#attention-canvas').boundingBox();
    const y = box.y + f.y + f.h / 2;
    if (y > 100 && y < PHONE.viewport.height - 100) break;
    await page.evaluate((dy) => window.scrollBy(0, dy), y - 250);
    await page.waitForFunction((old) => { const g = window.__attnModule.attnTextField; return g && g.y !== old; }, f.y, { timeout: 5000 }).catch(() => {});
  }
  // The scroll settles over a few frames (the sticky canvas, then the app's own scroll): read the
  // field's place until two reads 200 ms apart agree, so the tap lands where the field is drawn.
  for (let k = 0; k < 20; k++) {
    await page.waitForTimeout(200);
    const g = await page.evaluate(() => window.__attnModule.attnTextField);
    const b = await page.locator('#attention-canvas').boundingBox();
    const same = g.x === f.x && g.y === f.y && g.w === f.w && g.h === f.h && b.x === box.x && b.y === box.y;
    f = g; box = b;
    if (same) break;
  }
  const y = box.y + f.y + f.h / 2;
  assert.ok(y > 0 && y < PHONE.viewport.height, `the field is on screen (at ${y} px)`);
  await page.touchscreen.tap(box.x + f.x + f.w / 2, y);
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'sentence-input', null, { timeout: 10000 });
  await context.close();
});

test('on a phone, hints speak of taps and a swipe over the candidates leaves no highlight behind', async () => {
  const { context, page } = await open(PHONE);
  await page.locator('#attention-canvas').scrollIntoViewIfNeeded();
  const box = await page.locator('#attention-canvas').boundingBox();
  const cdp = await context.newCDPSession(page);
  const x = box.x + box.width * 0.5;
  let y = box.y + 420;
  const touch = (type, yy) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y: yy }] });
  await touch('touchStart', y);
  for (let k = 0; k < 6; k++) { y += 25; await touch('touchMove', y); await page.waitForTimeout(30); }
  await touch('touchEnd', y);
  await page.waitForTimeout(600);
  const s = await appState(page);
  assert.equal(s.hover, s.pinned, `no hover is left after the finger lifted (hover ${s.hover}, pinned ${s.pinned})`);
  await context.close();
});

test('on a phone, lists of scores and weights show every candidate: the canvas grows with the sentence', async () => {
  const { context, page } = await open(PHONE);
  const stageH = () => page.$eval('#attention-stage', (s) => s.getBoundingClientRect().height);
  await submitSentence(page, 'one two three four five six');
  await page.waitForTimeout(800);
  const h6 = await stageH();
  const long = Array.from({ length: 46 }, (_, i) => 'word' + i).join(' ');
  await submitSentence(page, long);
  await page.waitForTimeout(800);
  const h46 = await stageH();
  // two charts of 24 px rows: 40 more candidates need at least 40 x 2 x 24 px more
  assert.ok(h46 - h6 >= 40 * 2 * 24, `the canvas grew by ${h46 - h6}px for 40 more candidates`);
  await context.close();
});
