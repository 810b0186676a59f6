// The explainer as every reader meets it (issue 13, and the one tokenizer of issue 10): the page
// shows the engine's tokens, keyboard readers reach every canvas control, the live text says what
// each view shows and only when it changes, HTML controls for every canvas setting, and phones.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, hookModule, appReady, appState, waitState, norm } from './helpers.mjs';

let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

async function open(options = {}, query = '') {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
  await hookModule(context);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(srv.url + query);
  await appReady(page);
  return { context, page, errors };
}
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
