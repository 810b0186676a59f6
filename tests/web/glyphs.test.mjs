// The canvas's glyph list (assets/theme/glyphs.json): the ranges marked "lazy" join
// the font atlas only when a text the reader brings needs them (src/app/platform_web.cpp,
// wants_lazy_glyphs), so the canvas's own text must never use them: it would be drawn as "?"
// until then. Checked on every source and data file the canvas's text comes from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const glyphs = JSON.parse(fs.readFileSync(path.join(ROOT, 'assets/theme/glyphs.json'), 'utf8'));
const isLazy = (r) => r[3] === 'lazy';
const lazy = glyphs.ranges.filter(isLazy).map((r) => [parseInt(r[0], 16), parseInt(r[1], 16), r[2]]);
const inLazy = (cp) => lazy.find(([a, b]) => cp >= a && cp <= b);

// Code points of `text`, written out or as \uXXXX escapes (C++ and JSON both have them).
function* codePoints(text) {
  for (const ch of text) yield ch.codePointAt(0);
  for (const m of text.matchAll(/\\u([0-9a-fA-F]{4})/g)) yield parseInt(m[1], 16);
}

function lazyUses(dirs, exts) {
  const found = [];
  for (const dir of dirs) {
    for (const name of fs.readdirSync(path.join(ROOT, dir))) {
      if (!exts.some((e) => name.endsWith(e))) continue;
      const text = fs.readFileSync(path.join(ROOT, dir, name), 'utf8');
      for (const cp of codePoints(text)) {
        const r = inLazy(cp);
        if (r) found.push(`${dir}/${name}: U+${cp.toString(16).toUpperCase().padStart(4, '0')} (${String.fromCodePoint(cp)}, ${r[2]})`);
      }
    }
  }
  return [...new Set(found)];
}

test('the glyph list has lazily loaded ranges and they do not overlap the others', () => {
  assert.ok(lazy.length > 0, 'no range is marked "lazy"');
  for (const r of glyphs.ranges.filter((x) => !isLazy(x))) {
    const a = parseInt(r[0], 16), b = parseInt(r[1], 16);
    for (const [la, lb, label] of lazy) assert.ok(b < la || a > lb, `${r[0]}-${r[1]} overlaps ${label}`);
  }
});

test("the canvas's own text uses no glyph of a lazily loaded range", () => {
  const found = lazyUses(['src/app', 'assets/app', 'assets/scenarios'], ['.cpp', '.h', '.json']);
  assert.deepEqual(found, [], 'give these their own range in assets/theme/glyphs.json, not marked "lazy"');
});

test('the check finds a lazily loaded glyph, written out or escaped', () => {
  const [a] = lazy[0];
  const sample = `x ${String.fromCodePoint(a)} y \\u${a.toString(16).padStart(4, '0')}`;
  assert.equal([...codePoints(sample)].filter((cp) => inLazy(cp)).length, 2);
});
