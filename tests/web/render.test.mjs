// Unit tests for the page build (web/tools/render/*.mjs), with node:test. Engine states here are
// made up in the test (softmax computed below); one test renders the real entry with the real CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from '../../web/tools/render/args.mjs';
import { BuildError } from '../../web/tools/render/errors.mjs';
import { makeFiller } from '../../web/tools/render/placeholders.mjs';
import { esc, inline } from '../../web/tools/render/inline.mjs';
import { diagramSvg } from '../../web/tools/render/diagram.mjs';
import { sectionHtml } from '../../web/tools/render/sections.mjs';
import { renderPages, loadScenarios } from '../../web/tools/render/build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'build/native/src/cli/attention_cli');
const ENTRY = path.join(ROOT, 'assets/content/attention-score/entry.json');
const readEntry = () => JSON.parse(fs.readFileSync(ENTRY, 'utf8'));
const throwsBuild = (fn, re) => assert.throws(fn, (e) => e instanceof BuildError && re.test(e.message));
const same = (x) => x;

// A made-up engine state with the given scores (weights = softmax, computed here).
function state(scores, id = 'diagram') {
  const ex = scores.map((s) => Math.exp(s - Math.max(...scores)));
  const sum = ex.reduce((a, b) => a + b, 0);
  const tokens = ['focus', ...scores.map((_, i) => `tok${i + 1}`)];
  return {
    ok: true, status: 'ok', scenario: id, tokens, focus: 0, scale: 0.5, weight_sum: 1,
    candidates: scores.map((s, i) => ({ token: tokens[i + 1], position: i + 1, score: s, weight: ex[i] / sum, masked: false })),
  };
}
const diagramSection = () => readEntry().groups.flatMap((g) => g.sections).find((s) => s.kind === 'steps').diagram;

test('arguments: all required options, values after each, unknown options refused', () => {
  const o = parseArgs(['--cli', 'c', '--scenarios', 's', '--content', 'x', '--out', 'o']);
  assert.deepEqual(o, { cli: 'c', scenarios: 's', content: 'x', out: 'o' });
  throwsBuild(() => parseArgs(['--cli', 'c', '--scenarios', 's', '--content', 'x']), /missing --out/);
  throwsBuild(() => parseArgs(['--cli', '--out', 'o']), /--cli needs a value/);
  throwsBuild(() => parseArgs(['--colour', 'red']), /unknown option --colour/);
  throwsBuild(() => parseArgs(['stray']), /unexpected argument/);
});

test('placeholders: lists, single candidates by token or index, unknown names fail', () => {
  const fill = makeFiller({ diagram: state([2.1, 0.4, -0.7]), 'worked-example': state([1.8, 0.2, 1.1], 'worked-example') });
  assert.equal(fill('{{diagram.scores}}'), '2.1, 0.4 and \u22120.7');
  assert.equal(fill('{{diagram.weights}}'), '0.80, 0.15 and 0.05');
  assert.equal(fill('{{worked.score.tok3}} / {{worked.weight.1}}'), '1.1 / 0.59');
  assert.equal(fill('{{worked.top}} for {{worked.focus}}'), 'tok1 for focus');
  assert.equal(fill('{{diagram.scale}}, sum {{diagram.weight_sum}}'), '0.5, sum 1');
  throwsBuild(() => fill('{{diagram.nope}}'), /unknown placeholder/);
  throwsBuild(() => fill('{{other.scores}}'), /unknown placeholder/);
  throwsBuild(() => fill('{{worked.score.tok9}}'), /no candidate "tok9"/);
  throwsBuild(() => fill('{{diagram.scores.1.2}}'), /unknown placeholder/);
});

test('inline markup: escaped text, emphasis, strong, anchors and https links', () => {
  assert.equal(esc('<a href="x">&\'</a>'), '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
  assert.equal(inline('a *b* **c** <i>', same), 'a <em>b</em> <strong>c</strong> &lt;i&gt;');
  assert.equal(inline('[see](#quick-check) and [paper](https://arxiv.org/abs/1706.03762)', same),
    '<a href="#quick-check">see</a> and <a href="https://arxiv.org/abs/1706.03762">paper</a>');
  throwsBuild(() => inline('an *open emphasis', same), /unbalanced inline markup/);
});

for (const n of [2, 3, 4, 5, 6]) {
  test(`the SVG diagram draws ${n} candidates, each row inside the picture`, () => {
    const scores = Array.from({ length: n }, (_, i) => 2 - i * 0.9);
    const svg = diagramSvg(state(scores), diagramSection(), same);
    const [, , , , h] = svg.match(/viewBox="(\d+) (\d+) (\d+) (\d+)"/).map(Number);
    const rows = [...svg.matchAll(/<g class="d-cand" data-index="(\d+)"[^>]*data-score="([^"]*)" data-weight="([^"]*)"/g)];
    assert.equal(rows.length, n);
    rows.forEach((r, i) => assert.equal(Number(r[1]), i));
    // every y coordinate of the drawing lies inside the viewBox
    const ys = [...svg.matchAll(/ (?:y|cy)="(-?[\d.]+)"/g)].map((m) => Number(m[1]));
    assert.ok(Math.max(...ys) < h && Math.min(...ys) >= 0, `y within 0..${h}: ${Math.min(...ys)}..${Math.max(...ys)}`);
    // one contribution path per candidate, all ending at the output box
    assert.equal([...svg.matchAll(/class="d-line d-path d-contrib"/g)].length, n);
  });
}

test('the SVG diagram refuses 1 or 7 candidates with a clear message', () => {
  for (const n of [1, 7]) {
    throwsBuild(() => diagramSvg(state(Array.from({ length: n }, (_, i) => i)), diagramSection(), same), /draws 2 to 6 candidates; the diagram scenario has/);
  }
});

test('a quiz question needs exactly one correct option', () => {
  const quiz = structuredClone(readEntry().groups.flatMap((g) => g.sections).find((s) => s.kind === 'quiz'));
  quiz.questions[0].options.forEach((o) => { delete o.correct; });
  throwsBuild(() => sectionHtml(quiz, same, {}, 3), /needs exactly one correct option/);
});

test('an unknown section kind fails the build and names the section', () => {
  throwsBuild(() => sectionHtml({ id: 'odd', kind: 'poem', heading: 'x' }, same, {}, 3), /section "odd": unknown kind "poem"/);
});

test('the real entry renders with the real engine: both pages, no placeholder left', () => {
  assert.ok(fs.existsSync(CLI), `the engine CLI is built first (${path.relative(ROOT, CLI)})`);
  const data = loadScenarios(CLI, path.join(ROOT, 'assets/scenarios'));
  const pages = renderPages(readEntry(), data);
  assert.deepEqual(Object.keys(pages), ['index.html', 'embed.html']);
  for (const html of Object.values(pages)) assert.doesNotMatch(html, /\{\{|<!--slot:/);
  const cli = JSON.parse(execFileSync(CLI, ['scenario', path.join(ROOT, 'assets/scenarios/diagram.json'), '--json'], { encoding: 'utf8' }));
  const cands = [...pages['index.html'].matchAll(/<g class="d-cand" data-index="\d+" data-position="\d+" data-token="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(cands, cli.candidates.map((c) => c.token));
});
