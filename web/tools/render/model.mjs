// The trained model (optional, --model DIR --model-text FILE): what the page records about its
// weights, the stage's model controls, the model card as a page, and the files in dist/model/:
// model.bin (fetched over HTTP), model.js (the same bytes in base64 for pages opened from
// file://, which cannot fetch), card.html + README.md + the card's pictures.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fail } from './errors.mjs';
import { esc } from './inline.mjs';

// Reads the weights, their report (model.json, or run.json as the trainer writes it) and the
// model card from `dir`; returns what the page records and what goes into dist/model/.
export function readModel(dir, textFile) {
  const bin = path.join(dir, 'model.bin');
  if (!fs.existsSync(bin)) fail(`trained model: no weights at ${bin}`);
  const bytes = fs.readFileSync(bin);
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const reportFile = ['model.json', 'run.json'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!reportFile) fail(`trained model: no model.json (the run's report with the head table) in ${dir}`);
  let report;
  try { report = JSON.parse(fs.readFileSync(reportFile, 'utf8')); } catch (e) { fail(`trained model: ${reportFile}: ${e.message}`); }
  if (!Array.isArray(report.heads)) fail(`trained model: ${reportFile} has no "heads" table`);
  const recorded = report.weights && report.weights.sha256;
  if (recorded && recorded !== sha256) fail(`trained model: ${bin} has SHA-256 ${sha256}, but ${reportFile} records ${recorded}`);
  const heads = report.heads.map((h) => ({ layer: h.layer, head: h.head, label: h.label, previous_token: h.previous_token,
    first_token: h.first_token, self: h.self, induction: h.induction, ablation_loss_delta: h.ablation_loss_delta }));
  let text;
  try { text = JSON.parse(fs.readFileSync(textFile, 'utf8')); } catch (e) { fail(`trained model: ${textFile}: ${e.message}`); }
  const card = path.join(dir, 'README.md');
  return {
    dir, bytes, sha256, heads, hasCard: fs.existsSync(card), cardFile: card,
    examples: text.examples.map((x, i) => ({ index: i, title: x.title })),
    record: { file: 'model/model.bin', script: 'model/model.js', sha256, bytes: bytes.length, heads, card: fs.existsSync(card) ? 'model/card.html' : null },
  };
}

// A small Markdown subset for the model card: headings, paragraphs, lists, tables, images,
// `code`, **strong**, *emphasis* and links; everything else is escaped text.
export function cardHtml(md, title) {
  const inl = (t) => esc(t).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*\s][^*]*)\*/g, '<em>$1</em>')
    .replace(/!\[([^\]]*)\]\(([\w./-]+)\)/g, '<img src="$2" alt="$1">')
    .replace(/\[([^\]]+)\]\(((?:https:\/\/|#|\.\.\/|[\w-]+\.)[^)\s]*)\)/g, '<a href="$2">$1</a>');
  const out = [];
  const lines = md.replace(/\r/g, '').split('\n');
  for (let i = 0; i < lines.length;) {
    const l = lines[i];
    if (!l.trim()) { i++; continue; }
    const h = l.match(/^(#{1,4})\s+(.*)$/);
    if (h) { out.push(`<h${h[1].length}>${inl(h[2])}</h${h[1].length}>`); i++; continue; }
    if (/^```/.test(l)) { const b = []; for (i++; i < lines.length && !/^```/.test(lines[i]); i++) b.push(lines[i]); i++; out.push(`<pre>${esc(b.join('\n'))}</pre>`); continue; }
    if (/^\s*\|/.test(l)) {
      const rows = []; for (; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(lines[i]);
      const cells = (r) => r.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
      const body = rows.filter((r, k) => k !== 1 || !/^[\s|:-]+$/.test(r));
      out.push(`<div class="table-scroll"><table class="mapping"><thead><tr>${cells(body[0]).map((c) => `<th scope="col">${inl(c)}</th>`).join('')}</tr></thead><tbody>` +
        body.slice(1).map((r) => `<tr>${cells(r).map((c) => `<td>${inl(c)}</td>`).join('')}</tr>`).join('') + '</tbody></table></div>');
      continue;
    }
    if (/^\s*[-*]\s+/.test(l)) {  // a list; an indented line continues the item above
      const it = [];
      for (; i < lines.length && (/^\s*[-*]\s+/.test(lines[i]) || (it.length && /^\s{2,}\S/.test(lines[i]))); i++) {
        if (/^\s*[-*]\s+/.test(lines[i])) it.push(lines[i].replace(/^\s*[-*]\s+/, ''));
        else it[it.length - 1] += ' ' + lines[i].trim();
      }
      out.push(`<ul>${it.map((x) => `<li>${inl(x)}</li>`).join('')}</ul>`);
      continue;
    }
    const p = []; for (; i < lines.length && lines[i].trim() && !/^(#|\s*[-*]\s|\s*\||```)/.test(lines[i]); i++) p.push(lines[i]);
    out.push(`<p>${inl(p.join(' '))}</p>`);
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<link rel="stylesheet" href="../css/palette.css">
<link rel="stylesheet" href="../css/page.css">
</head>
<body>
<main id="main" class="model-card">
<p><a href="../index.html#trained-model">← Back to the attention score entry</a> · <a href="README.md">The card as plain text</a></p>
${out.join('\n')}
</main>
</body>
</html>
`;
}

// The stage's controls for the trained model (hidden until it is shown) and its load status.
export function modelControlsHtml(L, model) {
  const M = L.model;
  if (!M) fail('stage labels: missing "model"');
  const examples = model ? model.examples.map((x) => `<option value="${x.index}">${esc(x.title)}</option>`).join('') : '';
  return `<div class="control-row model-row" id="model-controls" hidden>
    <div class="field"><label for="model-example">${esc(M.example)}</label>
      <select id="model-example" name="model-example">${examples}<option value="-1">${esc(M.own)}</option></select></div>
    <div class="field"><label for="model-layer">${esc(M.layer)}</label>
      <select id="model-layer" name="model-layer"></select></div>
    <div class="field"><label for="model-head">${esc(M.head)}</label>
      <select id="model-head" name="model-head"></select></div>
    <div class="field field-check"><input type="checkbox" id="model-ablate" name="model-ablate"><label for="model-ablate">${esc(M.ablate)}</label></div>
  </div>
  <div class="model-load" id="model-load" hidden><progress id="model-progress" max="1" aria-labelledby="model-status"></progress>
    <p class="help" id="model-status" role="status"></p></div>
  <details class="model-heads" id="model-heads-wrap" hidden><summary>${esc(M.heads_title)}</summary><ul id="model-heads"></ul></details>`;
}

// Writes dist/model/ into the build's temporary folder.
export function writeModel(tmp, m, title) {
  const dir = path.join(tmp, 'model');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'model.bin'), m.bytes);
  fs.writeFileSync(path.join(dir, 'model.js'), `/* The trained model's weights file (model.bin), base64, for pages opened from file:// (which cannot fetch). SHA-256 ${m.sha256}. */\nwindow.AttentionModelWeights = "${m.bytes.toString('base64')}";\n`);
  if (!m.hasCard) return;
  const md = fs.readFileSync(m.cardFile, 'utf8');
  fs.writeFileSync(path.join(dir, 'README.md'), md);
  fs.writeFileSync(path.join(dir, 'card.html'), cardHtml(md, title));
  for (const f of fs.readdirSync(m.dir)) if (/\.(svg|png)$/.test(f)) fs.copyFileSync(path.join(m.dir, f), path.join(dir, f));
}
