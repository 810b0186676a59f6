// The canvas's text (src/app/platform_fonts.cpp): the browser measures and draws every glyph of the
// font atlas on a 2D canvas, in the font-family the page's CSS gives the canvas, regular and
// semibold; a page font change reaches the canvas's layout; and a browser that cannot draw text on
// a 2D canvas gets the page's message instead of a canvas without text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, openApp, stageSettled, norm } from './helpers.mjs';

let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

// Records the font of every 2D context drawn on off the page (the atlas's canvases are never
// attached) and the size of every one-byte texture uploaded (the atlas).
function recordGlyphs() {
  window.__fonts = new Set();
  window.__atlas = [];
  const desc = Object.getOwnPropertyDescriptor(CanvasRenderingContext2D.prototype, 'font');
  Object.defineProperty(CanvasRenderingContext2D.prototype, 'font', {
    get() { return desc.get.call(this); },
    set(v) { if (!this.canvas.isConnected) window.__fonts.add(v); desc.set.call(this, v); },
  });
  const upload = WebGL2RenderingContext.prototype.texImage2D;
  WebGL2RenderingContext.prototype.texImage2D = function (...a) {
    if (a[2] === this.R8) window.__atlas.push([a[3], a[4]]);
    return upload.apply(this, a);
  };
}
const frames = (page, n) => page.evaluate((k) => new Promise((r) => {
  let i = 0; const f = () => (++i >= k ? r() : requestAnimationFrame(f)); requestAnimationFrame(f);
}), n);
const stageHeight = (page) => page.evaluate(() => document.getElementById('attention-stage').getBoundingClientRect().height);

test("the canvas's atlas is drawn in the page's font, regular and semibold, at the canvas's pixel sizes", async () => {
  const { context, page, errors } = await openApp(browser, srv.url + '#attention-stage', { init: recordGlyphs });
  const family = await page.evaluate(() => getComputedStyle(document.getElementById('attention-canvas')).fontFamily);
  const fonts = await page.evaluate(() => [...window.__fonts]);
  assert.ok(fonts.length >= 2, `the atlas's fonts were set on a 2D context: ${fonts}`);
  for (const f of fonts) assert.ok(f.endsWith(family), `"${f}" is not in the canvas's font-family (${family})`);
  const weights = new Set(fonts.map((f) => f.split(' ')[0]));
  assert.deepEqual([...weights].sort(), ['400', '600'], 'regular and semibold faces');
  const atlas = await page.evaluate(() => window.__atlas);
  assert.ok(atlas.length >= 1, 'the atlas was uploaded as a one-byte texture');
  for (const [w, h] of atlas) assert.ok(w > 0 && h > 0 && w <= 4096 && h <= 4096, `atlas ${w} x ${h}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a wider page font reaches the canvas: its text wraps more and the stage grows", async () => {
  const open = async (mono) => {
    // through the CSSOM: the page's CSP refuses an injected <style>
    const init = mono ? () => document.addEventListener('DOMContentLoaded', () => {
      document.getElementById('attention-canvas').style.fontFamily = 'monospace';
    }) : undefined;
    const { context, page, errors } = await openApp(browser, srv.url + '#attention-stage', init ? { init } : {});
    await frames(page, 10);
    const h = await stageHeight(page);
    const family = await page.evaluate(() => getComputedStyle(document.getElementById('attention-canvas')).fontFamily);
    await context.close();
    return { h, family, errors };
  };
  const normal = await open(false);
  const mono = await open(true);
  assert.equal(mono.family, 'monospace', 'the style reached the canvas element');
  assert.ok(mono.h > normal.h, `the stage in monospace (${mono.h} px) is taller than in the page's font (${normal.h} px)`);
  assert.deepEqual([...normal.errors, ...mono.errors], []);
});

test('a browser that cannot draw text on a 2D canvas gets the message, not a canvas without text', async () => {
  const init = () => {
    const real = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      return kind === '2d' ? null : real.call(this, kind, ...rest);
    };
  };
  const { context, page, errors } = await openApp(browser, srv.url + '#attention-stage', { init }, { ready: false });
  const settled = await stageSettled(page);
  assert.equal(settled, 'failed', 'the stage says the canvas failed');
  const msg = page.locator('#stage-message');
  assert.ok(await msg.isVisible(), 'the message is visible');
  assert.match(norm(await msg.textContent()), /\S/);
  assert.ok(!(await page.locator('#attention-canvas').isVisible()), 'no canvas without text on screen');
  assert.deepEqual(errors, [], 'no page error');
  await context.close();
});
