// The entry's copy (issue 13, "Text and numbers that agree"), checked on entry.json and on the
// page the build renders from it: one set of step names, quiz answers that do not give themselves
// away, a mapping table about a story the page tells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPages, loadScenarios } from '../../web/tools/render/build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = JSON.parse(fs.readFileSync(path.join(ROOT, 'assets/content/attention-score/entry.json'), 'utf8'));
const sections = entry.groups.flatMap((g) => g.sections);
const kind = (k) => sections.find((s) => s.kind === k);
const words = (s) => new Set(s.toLowerCase().match(/[a-z]{5,}/g) || []);

test("the quiz's correct answers vary in position and are not always the longest option", () => {
  const qs = kind('quiz').questions;
  const positions = qs.map((q) => q.options.findIndex((o) => o.correct));
  assert.ok(new Set(positions).size >= 2, `correct positions ${positions}`);
  assert.ok(!positions.every((p) => p === 0), 'not always first');
  const longest = qs.map((q) => {
    const len = q.options.map((o) => o.text.length);
    return len[q.options.findIndex((o) => o.correct)] === Math.max(...len);
  });
  assert.ok(longest.filter(Boolean).length <= Math.floor(qs.length / 2), `correct answer is the longest in ${longest.filter(Boolean).length} of ${qs.length}`);
});

test('the mapping table maps a story the page tells (the everyday example), row by row', () => {
  const table = kind('table');
  const story = [...words(JSON.stringify(sections.find((s) => s.id === 'everyday-example').paragraphs))];
  for (const [told] of table.rows) {
    assert.ok([...words(told)].some((w) => story.some((s) => s.startsWith(w.slice(0, 5)))), `"${told}" comes from the everyday example`);
  }
  assert.match(table.note, /decorator/i);
  assert.doesNotMatch(JSON.stringify(table), /student|book/i, 'not the story of a student the page never tells');
});

test('one set of step names: the steps section only, used by the list, the stage and the diagram', () => {
  const steps = kind('steps').steps;
  assert.equal(kind('stage').labels.steps, undefined, 'the stage has no step names of its own');
  assert.equal(kind('steps').diagram.labels.columns, undefined, 'nor the diagram');
  const cli = path.join(ROOT, 'build/native/src/cli/attention_cli');
  const { 'index.html': html } = renderPages(entry, loadScenarios(cli, path.join(ROOT, 'assets/scenarios')));
  const titles = [...html.matchAll(/<strong class="step-title">([^<]*)<\/strong>/g)].map((m) => m[1]);
  assert.deepEqual(titles, steps.map((s) => s.title));
  const dataSteps = JSON.parse(html.match(/data-steps="([^"]*)"/)[1].replace(/&quot;/g, '"'));
  assert.deepEqual(dataSteps, titles, 'the stage and its live description use the same names');
  const columns = [...html.matchAll(/<text class="d-col-label"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  assert.deepEqual(columns, [...steps, ...steps].map((s, i) => `${(i % 4) + 1} · ${s.short}`), 'both diagram layouts');
});
