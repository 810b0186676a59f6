// Unit tests for the page build (web/tools/render/*.mjs), with node:test. Engine states here are
// made up in the test (softmax computed below); one test renders the real entry with the real CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
function state(scores, id = 'diagram', names = scores.map((_, i) => `tok${i + 1}`)) {
  const ex = scores.map((s) => Math.exp(s - Math.max(...scores)));
  const sum = ex.reduce((a, b) => a + b, 0);
  const tokens = ['focus', ...names];
  return {
    ok: true, status: 'ok', scenario: id, tokens, focus: 0, scale: 0.5, weight_sum: 1,
    candidates: scores.map((s, i) => ({ token: tokens[i + 1], position: i + 1, score: s, weight: ex[i] / sum, masked: false })),
  };
}
const diagramSection = () => readEntry().groups.flatMap((g) => g.sections).find((s) => s.kind === 'steps');

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

for (const [n, layout] of [2, 3, 4, 5, 6].flatMap((k) => [[k, 'wide'], [k, 'narrow']])) {
  test(`the SVG diagram (${layout}) draws ${n} candidates, each row inside the picture`, () => {
    const scores = Array.from({ length: n }, (_, i) => 2 - i * 0.9);
    const svg = diagramSvg(state(scores), diagramSection(), same, layout);
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
  const svgs = [...pages['index.html'].matchAll(/<svg [^>]*data-layout="(\w+)">([\s\S]*?)<\/svg>/g)];
  assert.deepEqual(svgs.map((m) => m[1]), ['wide', 'narrow'], 'the diagram in both layouts');
  for (const [, layout, svg] of svgs) {
    const cands = [...svg.matchAll(/<g class="d-cand" data-index="\d+" data-position="\d+" data-token="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(cands, cli.candidates.map((c) => c.token), layout);
  }
});

// ---------------------------------------------------------------- hostile or careless content (issue 15 item 6)
const engineData = () => ({ diagram: state([2.1, 0.4, -0.7]), 'worked-example': state([1.8, 0.2, 1.1], 'worked-example', ['bridge', 'convoy', 'stopped']) });
const render = (mutate) => { const e = readEntry(); mutate(e); return renderPages(e, engineData()); };
const firstProse = (e) => e.groups[0].sections.find((s) => s.kind === 'prose');

test('milestone.href goes through the link allow-list: javascript:, data:, http: and //host fail the build', () => {
  for (const href of ['javascript:alert(1)', ' javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', 'http://example.org/', '//example.org/x', 'vbscript:x', 'a\\b']) {
    throwsBuild(() => render((e) => { e.milestone.href = href; }), /link target not allowed/);
  }
  for (const href of ['../milestones/3.html', 'https://learn.example.org/ai/milestone-3/']) {
    const { 'index.html': html } = render((e) => { e.milestone.href = href; });
    assert.match(html, new RegExp(`<a href="${href.replace(/[.?/]/g, '\\$&')}" id="milestone-link">`));
  }
});

test('links in text and resources go through the same allow-list', () => {
  for (const href of ['javascript:alert(1)', 'data:,x', 'http://example.org/']) {
    throwsBuild(() => render((e) => { firstProse(e).paragraphs.push(`see [this](${href})`); }), /link target not allowed/);
    throwsBuild(() => render((e) => { e.groups.flatMap((g) => g.sections).find((s) => s.kind === 'resources').items[0].href = href; }), /link target not allowed|must be https/);
  }
  const { 'index.html': html } = render((e) => { firstProse(e).paragraphs.push('see [the quiz](#quick-check) or [a page](../other/page.html)'); });
  assert.match(html, /<a href="#quick-check">the quiz<\/a> or <a href="\.\.\/other\/page\.html">a page<\/a>/);
});

test('inline emphasis is never applied inside a URL', () => {
  const { 'index.html': html } = render((e) => {
    firstProse(e).paragraphs.push('read [*the* paper](https://example.org/a*b*c/**d**) and *this*');
  });
  assert.match(html, /<a href="https:\/\/example\.org\/a\*b\*c\/\*\*d\*\*"><em>the<\/em> paper<\/a> and <em>this<\/em>/);
});

test('a link to an anchor that is not on the page fails the build', () => {
  throwsBuild(() => render((e) => { firstProse(e).paragraphs.push('see [nothing](#no-such-place)'); }), /#no-such-place/);
});

test('every id is validated: subsections and quiz questions too', () => {
  throwsBuild(() => render((e) => { e.groups[0].sections[2].subsections[0].id = 'Bad Id'; }), /bad id "Bad Id"/);
  throwsBuild(() => render((e) => { e.groups.flatMap((g) => g.sections).find((s) => s.kind === 'quiz').questions[0].id = 'q"><script>'; }), /bad id/);
  throwsBuild(() => render((e) => { delete e.groups[1].sections[0].id; }), /bad id "undefined"|missing id/);
});

test('every id is unique on the page, including the ids the page makes itself', () => {
  // a subsection sharing a section's id
  throwsBuild(() => render((e) => { e.groups[0].sections[2].subsections[0].id = 'plain-words'; }), /duplicate id "plain-words"/);
  // a quiz question named like a group
  throwsBuild(() => render((e) => { e.groups.flatMap((g) => g.sections).find((s) => s.kind === 'quiz').questions[1].id = 'go-deeper'; }), /duplicate id "go-deeper"/);
  // a section named like a fixed part of the page (the quiz form, the diagram figure)
  throwsBuild(() => render((e) => { firstProse(e).id = 'quiz'; }), /duplicate id "quiz"/);
  throwsBuild(() => render((e) => { firstProse(e).id = 'diagram'; }), /duplicate id "diagram"/);
  // a section whose derived heading id is another section's id
  throwsBuild(() => render((e) => { e.groups[0].sections[0].id = 'plain-words-title'; }), /duplicate id "plain-words-title"/);
});

test('prose containing the words NaN and undefined builds; only an unfilled placeholder fails', () => {
  const words = 'A softmax written carelessly can print NaN, and a missing value in JavaScript is undefined.';
  const { 'index.html': html, 'embed.html': embed } = render((e) => {
    firstProse(e).paragraphs.push(words);
    e.groups.flatMap((g) => g.sections).find((s) => s.id === 'without-diagram').paragraphs.push(words);
  });
  assert.ok(html.includes(words) && embed.includes(words));
  throwsBuild(() => render((e) => { firstProse(e).paragraphs.push('scores {{diagram.scores'); }), /unbalanced|unfilled/);
  throwsBuild(() => render((e) => { firstProse(e).paragraphs.push('scores {{diagram.nothing}}'); }), /unknown placeholder/);
});

test('a missing text field fails the build by name instead of printing "undefined"', () => {
  throwsBuild(() => render((e) => { delete e.groups.flatMap((g) => g.sections).find((s) => s.kind === 'quiz').questions[0].explanation; }), /quick-check.*missing/);
  throwsBuild(() => render((e) => { delete e.groups.flatMap((g) => g.sections).find((s) => s.kind === 'worked').result; }), /worked-example.*missing/);
});

test('the milestone link appears only where the site set it, never to a folder or to the page itself', () => {
  const plain = render(() => {});
  assert.doesNotMatch(plain['index.html'], /milestone-link/, 'no href in entry.json: no link');
  const set = render((e) => { e.milestone.href = '../milestones/3.html'; });
  assert.match(set['index.html'], /<a href="\.\.\/milestones\/3\.html" id="milestone-link">← Back to the milestone/);
  assert.doesNotMatch(set['embed.html'], /milestone/i, 'the embed never shows it');
  for (const href of ['../', '..', './', '.', '../../', './../']) throwsBuild(() => render((e) => { e.milestone.href = href; }), /names a folder/);
  for (const href of ['#top', 'index.html', './index.html', 'index.html#top']) throwsBuild(() => render((e) => { e.milestone.href = href; }), /back to this page/);
});

test('render.mjs --milestone sets the link from the command line', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'render-milestone-'));
  try {
    const args = ['web/tools/render.mjs', '--cli', CLI, '--scenarios', 'assets/scenarios', '--content', 'assets/content/attention-score', '--out', path.join(out, 'dist')];
    execFileSync(process.execPath, [...args, '--milestone', 'https://learn.example.org/ai/milestone-3/'], { cwd: ROOT, stdio: 'pipe' });
    assert.match(fs.readFileSync(path.join(out, 'dist/index.html'), 'utf8'), /href="https:\/\/learn\.example\.org\/ai\/milestone-3\/" id="milestone-link"/);
    const bad = (() => { try { execFileSync(process.execPath, [...args, '--milestone', 'javascript:alert(1)'], { cwd: ROOT, stdio: 'pipe' }); return null; } catch (e) { return e; } })();
    assert.ok(bad && bad.status === 1, 'exit status 1');
    assert.match(String(bad.stderr), /render: ERROR: link target not allowed: "javascript:alert\(1\)"/);
    assert.ok(fs.existsSync(path.join(out, 'dist/index.html')), 'the failed build left the previous dist in place');
  } finally { fs.rmSync(out, { recursive: true, force: true }); }
});
