// axe-core (WCAG 2.0/2.1/2.2 A and AA rule sets) on the full page and the embed, light and dark,
// with the app loaded (the canvas, its controls and the live text as a reader meets them).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { launch, serve, stageSettled } from './helpers.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
let browser, srv;
before(async () => { browser = await launch(); srv = await serve(); });
after(async () => { await browser?.close(); await srv?.close(); });

const summary = (vs) => vs.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ` +
  v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 200)).join('\n    ')).join('\n');

for (const file of ['index.html', 'embed.html']) {
  for (const scheme of ['light', 'dark']) {
    test(`axe finds no WCAG A/AA violation on ${file} in ${scheme} mode`, async () => {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, colorScheme: scheme, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(srv.url + file);
      assert.equal(await stageSettled(page), 'ready');
      assert.equal(await page.evaluate(() => window.AttentionTheme.isDark()), scheme === 'dark');
      await page.waitForFunction(() => document.getElementById('live-description').textContent.trim() !== '');
      const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
      assert.ok(results.passes.length > 20, 'axe really ran');
      assert.equal(results.violations.length, 0, '\n' + summary(results.violations));
      await context.close();
    });
  }
}
