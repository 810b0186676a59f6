// What a reader reads on index.html and embed.html, with the app loaded: one minus sign (U+2212)
// before numbers, curly quotes only, "Illustrative" at most once per section, one word for the
// choice of example (the select says "Example"; the page never says "Scenario").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, stageSettled } from './helpers.mjs';

let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

const around = (t, i) => t.slice(Math.max(0, i - 30), i + 30).replace(/\s+/g, ' ');
function offenders(text, re) { return [...text.matchAll(re)].map((m) => around(text, m.index)); }

for (const file of ['index.html', 'embed.html']) {
  test(`${file}: real minus signs, curly quotes, one word for the example`, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(srv.url + file);
    assert.equal(await stageSettled(page), 'ready');
    await page.waitForFunction(() => document.getElementById('live-description').textContent.trim() !== '');
    const text = await page.evaluate(() => document.body.innerText);
    assert.deepEqual(offenders(text, /(^|[^\w])-\d/g), [], 'a hyphen-minus before a number');
    assert.deepEqual(offenders(text, /["']/g), [], 'straight quotes');
    assert.deepEqual(offenders(text, /\bscenarios?\b/gi), [], 'the page calls them examples');
    assert.ok(/\bExample\b/.test(await page.textContent('label[for="scenario-select"]')));
    const perSection = await page.$$eval('section[data-section], .stage-wrap', (ss) => ss.map((s) => [s.id, (s.innerText.match(/illustrative/gi) || []).length]));
    assert.deepEqual(perSection.filter(([, n]) => n > 1), [], '"Illustrative" more than once in a section');
    await page.close();
  });
}
