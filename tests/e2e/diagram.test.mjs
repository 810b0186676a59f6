// The four-step SVG diagram as a keyboard, touch and phone reader meets it: one Tab stop and one
// name per candidate, no sideways scrolling at 320 px (the narrow layout), the same highlight by
// tap, hover and focus, and the correction of the original figure's weights with the engine's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { launch, serve, engine, fmtScore, fmtWeight, norm } from './helpers.mjs';

let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

async function open(viewport, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  await page.goto(srv.url);
  await page.waitForFunction(() => !!window.AttentionDiagram);
  return { context, page };
}
const label = (c) => `${c.token}: score ${fmtScore(c.score)}, weight ${fmtWeight(c.weight)}`;

// Tabs from the top of the page through the diagram; returns what had focus inside #diagram.
async function tabThroughDiagram(page) {
  const stops = [];
  let entered = false;
  for (let n = 0; n < 120; n++) {
    await page.keyboard.press('Tab');
    const s = await page.evaluate(() => {
      const a = document.activeElement, fig = document.getElementById('diagram');
      if (!fig.contains(a)) return null;
      const b = a.getBoundingClientRect();
      return { cls: a.getAttribute('class'), tag: a.tagName, index: a.closest('.d-cand')?.dataset.index ?? null,
        layout: a.closest('svg')?.dataset.layout ?? null, box: [b.left, b.top + scrollY, b.right, b.bottom + scrollY] };
    });
    if (s) { stops.push(s); entered = true; } else if (entered) break;
  }
  return stops;
}

for (const [name, viewport, layout] of [['1280 px', { width: 1280, height: 900 }, 'wide'], ['320 px', { width: 320, height: 740 }, 'narrow']]) {
  test(`at ${name}, each diagram candidate is one Tab stop with one name, its ring inside its own row`, async () => {
    const e = engine('diagram');
    const { context, page } = await open(viewport);
    const stops = await tabThroughDiagram(page);
    assert.deepEqual(stops.map((s) => s.cls), e.candidates.map(() => 'd-cand-btn'), 'only the candidate buttons take focus');
    assert.deepEqual(stops.map((s) => s.index), e.candidates.map((_, i) => String(i)), 'in order, once each');
    assert.ok(stops.every((s) => s.layout === layout), `the ${layout} layout has the focus`);
    for (let i = 0; i + 1 < stops.length; i++) {
      const [, , , bottom] = stops[i].box, [, top] = stops[i + 1].box;
      assert.ok(bottom <= top, `the focused box of candidate ${i} (bottom ${bottom}) stays above the next one (top ${top})`);
    }
    for (const c of e.candidates) {
      // exactly one element in the accessibility tree carries this candidate's name
      assert.equal(await page.getByRole('button', { name: label(c), exact: true }).count(), 1, label(c));
    }
    // the row groups are not focusable and have no name of their own
    const groups = await page.$$eval('.diagram-svg .d-cand', (gs) => gs.map((g) => [g.getAttribute('tabindex'), g.getAttribute('role'), g.getAttribute('aria-label')]));
    assert.ok(groups.every((g) => g.every((v) => v === null)), JSON.stringify(groups));
    await context.close();
  });
}

for (const width of [320, 360]) {
  test(`the diagram fits ${width} px without sideways scrolling, every candidate on screen`, async () => {
    const e = engine('diagram');
    const { context, page } = await open({ width, height: 740 }, { hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const m = await page.evaluate(() => {
      const doc = document.documentElement, fig = document.getElementById('diagram');
      const visible = [...document.querySelectorAll('.diagram-svg')].filter((s) => s.getBoundingClientRect().width > 0);
      const svg = visible[0].getBoundingClientRect();
      const btns = [...visible[0].querySelectorAll('.d-cand-btn')].map((b) => { const r = b.getBoundingClientRect(); return [r.left, r.right]; });
      return { over: doc.scrollWidth - doc.clientWidth, figOver: fig.scrollWidth - fig.clientWidth, layouts: visible.map((s) => s.dataset.layout), svg: [svg.left, svg.right], btns, vw: doc.clientWidth };
    });
    assert.ok(m.over <= 0, `page ${m.over}px wider than the viewport`);
    assert.ok(m.figOver <= 0, `figure content ${m.figOver}px wider than the figure`);
    assert.deepEqual(m.layouts, ['narrow'], 'one diagram shown: the narrow layout');
    assert.ok(m.svg[0] >= 0 && m.svg[1] <= m.vw, `svg ${m.svg} inside 0..${m.vw}`);
    assert.equal(m.btns.length, e.candidates.length);
    assert.ok(m.btns.every(([l, r]) => l >= 0 && r <= m.vw), `candidates inside the viewport: ${JSON.stringify(m.btns)}`);
    await context.close();
  });
}

test('at 320 px a tap pins a candidate, a second tap releases it; focus highlights it too', async () => {
  const e = engine('diagram');
  const { context, page } = await open({ width: 320, height: 740 }, { hasTouch: true, isMobile: true });
  const c = e.candidates[1];
  const btn = page.locator('#diagram-svg-narrow .d-cand[data-index="1"] .d-cand-btn');
  await btn.scrollIntoViewIfNeeded();
  await btn.tap();
  await page.waitForSelector('#diagram-svg-narrow .d-cand[data-index="1"].is-active');
  assert.equal(await btn.getAttribute('aria-pressed'), 'true');
  const t = await page.textContent('#diagram-readout');
  assert.ok(t.includes(c.token) && t.includes(fmtScore(c.score)) && t.includes(fmtWeight(c.weight)), t);
  // the numbers of its weight, in the normalise and mix bands, belong to the highlighted group
  const inGroup = await page.$$eval('#diagram-svg-narrow .d-cand.is-active .d-num', (ns) => ns.map((n) => n.textContent));
  assert.deepEqual(inGroup, [fmtScore(c.score), fmtWeight(c.weight), fmtWeight(c.weight)]);
  await btn.tap();
  assert.equal(await btn.getAttribute('aria-pressed'), 'false');
  await page.locator('#diagram-svg-narrow .d-cand[data-index="2"] .d-cand-btn').focus();
  await page.waitForSelector('#diagram-svg-narrow .d-cand[data-index="2"].is-active');
  assert.ok((await page.textContent('#diagram-readout')).includes(e.candidates[2].token));
  await context.close();
});

// Every boxed label of a layout, as [text, its length, its room, squeezed?] (SVG units), once the
// CSS shows that layout at this viewport (a hidden layout is fitted when it is shown).
async function labelRooms(page, viewport, layout) {
  await page.setViewportSize(viewport);
  await page.waitForFunction((l) => document.querySelector(`svg[data-layout="${l}"] text[data-fit]`).getComputedTextLength() > 0, layout);
  await page.waitForTimeout(100);
  return page.$$eval(`svg[data-layout="${layout}"] text[data-fit]`,
    (ts) => ts.map((t) => [t.textContent, t.getComputedTextLength(), Number(t.dataset.fit), t.hasAttribute('lengthAdjust')]));
}

test('no diagram label runs out of its box, even in a font wider than the build planned for', async () => {
  // The build sizes the boxes for a typical sans-serif; 0.12em of extra letter spacing stands in for
  // a wide system-ui font.
  const { context: plain, page } = await open({ width: 1280, height: 900 });
  const context = await browser.newContext({ bypassCSP: true }); // the page's CSP refuses injected styles
  await context.addInitScript(() => {
    const st = document.createElement('style');
    st.textContent = '.diagram-svg text { letter-spacing: 0.12em; }';
    // registered before the page's own listener, so the page's script measures the wider text
    document.addEventListener('DOMContentLoaded', () => document.head.appendChild(st));
  });
  const wide = await context.newPage();
  await wide.goto(srv.url);
  await wide.waitForFunction(() => !!window.AttentionDiagram);
  for (const [viewport, layout] of [[{ width: 1280, height: 900 }, 'wide'], [{ width: 320, height: 740 }, 'narrow']]) {
    const before = await labelRooms(page, viewport, layout), after = await labelRooms(wide, viewport, layout);
    assert.ok(after.length > 10, `${layout}: labels with a room: ${after.length}`);
    for (const rooms of [before, after])
      assert.deepEqual(rooms.filter(([, len, room]) => len > room + 0.5).map(([t, len, room]) => `${t}: ${len} > ${room}`), [], layout);
    const squeezed = (rooms) => rooms.filter((r) => r[3]).length;
    assert.ok(squeezed(after) > squeezed(before), `${layout}: the wider font squeezed no more labels (${squeezed(after)})`);
  }
  await plain.close(); await context.close();
});

test('the page says plainly that the original figure printed other weights than the softmax of its scores', async () => {
  const e = engine('diagram');
  const { context, page } = await open({ width: 1280, height: 900 });
  const note = norm(await page.textContent('#diagram-note'));
  const list = (xs) => xs.slice(0, -1).join(', ') + ' and ' + xs[xs.length - 1];
  assert.ok(note.includes('0.75 / 0.14 / 0.11'), note);
  const want = `the softmax of ${list(e.candidates.map((c) => fmtScore(c.score)))} is ${e.candidates.map((c) => fmtWeight(c.weight)).join(' / ')}`;
  assert.ok(note.includes(want), `"${note}" should include "${want}"`);
  await context.close();
});

for (const scheme of ['light', 'dark']) {
  test(`axe finds no WCAG A/AA violation in the narrow diagram at 320 px (${scheme})`, async () => {
    const { context, page } = await open({ width: 320, height: 740 }, { colorScheme: scheme, bypassCSP: true });
    await page.locator('#diagram-svg-narrow .d-cand[data-index="0"] .d-cand-btn').focus(); // one highlighted, the rest dimmed
    const r = await new AxeBuilder({ page }).include('#diagram').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
    assert.ok(r.passes.length > 5, 'axe really ran');
    assert.deepEqual(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), []);
    await context.close();
  });
}
