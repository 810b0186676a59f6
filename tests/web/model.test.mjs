// The page build's trained-model part (web/tools/render/model.mjs): the record the page keeps of
// the weights, the file:// copy, the refusal of weights that disagree with their report, and the
// model card as a page. The weights here are made-up bytes: the build only copies and hashes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { BuildError } from '../../web/tools/render/errors.mjs';
import { readModel, writeModel, cardHtml, modelControlsHtml } from '../../web/tools/render/model.mjs';
import { parseArgs } from '../../web/tools/render/args.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TEXT = path.join(ROOT, 'assets/app/model.json');
const throwsBuild = (fn, re) => assert.throws(fn, (e) => e instanceof BuildError && re.test(e.message));

function modelDir({ sha, heads = [{ layer: 0, head: 1, label: 'induction', induction: 0.6 }], card = true } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-model-'));
  const bytes = crypto.randomBytes(1000);
  fs.writeFileSync(path.join(dir, 'model.bin'), bytes);
  const real = crypto.createHash('sha256').update(bytes).digest('hex');
  fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify({ heads, weights: { sha256: sha || real } }));
  if (card) {
    fs.writeFileSync(path.join(dir, 'README.md'), '# Card\n\nText with `code` and **bold**.\n\n- one\n  continued\n- two\n\n| a | b |\n|---|---|\n| 1 | <2> |\n\n![Loss](loss.svg)\n');
    fs.writeFileSync(path.join(dir, 'loss.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  }
  return { dir, bytes, real };
}

test('the page records the weights\' size, SHA-256 and head table, and both copies hold the same bytes', () => {
  const { dir, bytes, real } = modelDir();
  const m = readModel(dir, TEXT);
  assert.equal(m.record.sha256, real);
  assert.equal(m.record.bytes, bytes.length);
  assert.equal(m.record.heads[0].label, 'induction');
  assert.equal(m.record.card, 'model/card.html');
  assert.ok(m.examples.length >= 3, 'the example texts come from assets/app/model.json');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-dist-'));
  writeModel(out, m, 'Model card');
  assert.deepEqual(fs.readFileSync(path.join(out, 'model/model.bin')), bytes);
  const ctx = { window: {} };
  vm.runInNewContext(fs.readFileSync(path.join(out, 'model/model.js'), 'utf8'), ctx);
  assert.deepEqual(Buffer.from(ctx.window.AttentionModelWeights, 'base64'), bytes, 'model.js is the same file in base64');
  assert.ok(fs.existsSync(path.join(out, 'model/loss.svg')) && fs.existsSync(path.join(out, 'model/README.md')));
  const html = fs.readFileSync(path.join(out, 'model/card.html'), 'utf8');
  assert.match(html, /<h1>Card<\/h1>/);
  assert.match(html, /<li>one continued<\/li>/);
  assert.match(html, /<td>&lt;2&gt;<\/td>/, 'table cells are escaped');
  assert.match(html, /<img src="loss.svg" alt="Loss">/);
});

test('weights that disagree with their report, or a report without heads, fail the build', () => {
  throwsBuild(() => readModel(modelDir({ sha: 'ab'.repeat(32) }).dir, TEXT), /records/);
  throwsBuild(() => readModel(modelDir({ heads: null }).dir, TEXT), /no "heads" table/);
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-none-'));
  throwsBuild(() => readModel(empty, TEXT), /no weights/);
  throwsBuild(() => parseArgs(['--cli', 'c', '--scenarios', 's', '--content', 'x', '--out', 'o', '--model', 'm']), /go together/);
});

test('the model controls: every example text, then the reader\'s own; hidden until the model is shown', () => {
  const m = readModel(modelDir().dir, TEXT);
  const labels = { model: { example: 'Example text', own: 'Your own text', layer: 'Layer', head: 'Head', ablate: 'Off', heads_title: 'Heads' } };
  const html = modelControlsHtml(labels, m);
  assert.match(html, /id="model-controls" hidden/);
  assert.equal((html.match(/<option value="\d+">/g) || []).length, m.examples.length);
  assert.match(html, /<option value="-1">Your own text<\/option>/);
  assert.match(cardHtml('plain <b>', 'T'), /plain &lt;b&gt;/);
  throwsBuild(() => modelControlsHtml({}, m), /missing "model"/);
});
