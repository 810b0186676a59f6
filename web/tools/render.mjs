#!/usr/bin/env node
// Builds the static page: runs the engine CLI for the diagram and worked-example scenarios, fills
// the content's {{placeholders}} with its numbers, and writes dist/index.html + dist/embed.html
// with the CSS/JS (and app.js when given). Node 20 built-ins only. Fails loudly on any problem.
//
//   node web/tools/render.mjs --cli build/native/src/cli/attention_cli --scenarios assets/scenarios \
//        --content assets/content/attention-score [--app build/wasm/src/app/attention_app.js] \
//        [--model assets/model --model-text assets/app/model.json] --out dist
// With --model, the trained model's weights are copied to dist/model/ (model.bin for fetch, and
// model.js, a script-wrapped base64 copy for pages opened from file://) with their SHA-256 and the
// model card's head table recorded in the page; the model card becomes dist/model/card.html.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { paletteCss } from './palette.mjs';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

class BuildError extends Error {}
const fail = (msg) => { throw new BuildError(msg); };

// ---------------------------------------------------------------- arguments
function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) fail(`unexpected argument "${a}"`);
    const key = a.slice(2);
    if (!['cli', 'scenarios', 'content', 'app', 'out', 'model', 'model-text'].includes(key)) fail(`unknown option ${a}`);
    const v = argv[++i];
    if (v === undefined || v.startsWith('--')) fail(`${a} needs a value`);
    opts[key] = v;
  }
  for (const k of ['cli', 'scenarios', 'content', 'out']) if (!opts[k]) fail(`missing --${k}`);
  if (opts.model && !opts['model-text']) fail('--model needs --model-text (the model view\'s examples)');
  return opts;
}

// ---------------------------------------------------------------- shared formatting (web/js/format.js)
function loadFormat() {
  const ctx = {};
  ctx.self = ctx;
  vm.runInNewContext(fs.readFileSync(path.join(WEB, 'js', 'format.js'), 'utf8'), ctx);
  return ctx.AttentionFormat;
}
const F = loadFormat();

// ---------------------------------------------------------------- engine CLI
function runScenario(cli, file, id) {
  if (!fs.existsSync(cli)) fail(`engine CLI not found at ${cli} (build it first: cmake --build --preset native)`);
  if (!fs.existsSync(file)) fail(`scenario file not found: ${file}`);
  let out;
  try {
    out = execFileSync(cli, ['scenario', file, '--json'], { encoding: 'utf8', timeout: 30000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const detail = (e.stdout || '') + (e.stderr || '') || e.message;
    fail(`engine CLI failed for scenario "${id}" (exit ${e.status ?? 'signal ' + e.signal}):\n${detail.trim()}`);
  }
  let j;
  try { j = JSON.parse(out); } catch (e) { fail(`engine CLI printed invalid JSON for "${id}": ${e.message}`); }
  if (j.ok !== true) fail(`engine CLI reported an error for "${id}": ${JSON.stringify(j.error ?? j)}`);
  return validateState(j, id);
}

function validateState(j, id) {
  const where = `scenario "${id}"`;
  if (!Array.isArray(j.tokens) || j.tokens.length === 0) fail(`${where}: no tokens`);
  if (!Number.isInteger(j.focus) || j.focus < 0 || j.focus >= j.tokens.length) fail(`${where}: bad focus ${j.focus}`);
  if (!Array.isArray(j.candidates) || j.candidates.length === 0) fail(`${where}: no candidates`);
  if (j.status !== 'ok') fail(`${where}: status is "${j.status}", expected "ok"`);
  for (const c of j.candidates) {
    for (const k of ['score', 'weight', 'raw']) {
      if (typeof c[k] !== 'number' || !Number.isFinite(c[k])) fail(`${where}: candidate ${c.token}: ${k} is not a finite number`);
    }
    if (typeof c.token !== 'string') fail(`${where}: candidate without token`);
  }
  if (typeof j.weight_sum !== 'number' || Math.abs(j.weight_sum - 1) > 1e-6) fail(`${where}: weight_sum ${j.weight_sum} is not 1`);
  return j;
}

// ---------------------------------------------------------------- placeholders
// {{ns.field}} or {{ns.field.sel}}: ns = diagram | worked; field = scores, weights, weight_sum, top,
// focus, scale, score.<token|n>, weight.<token|n>, token.<n> (n counts candidates from 1).
function makeFiller(data) {
  const ns = { diagram: data.diagram, worked: data['worked-example'] };
  const pick = (s, sel, name) => {
    const n = Number(sel);
    const c = Number.isInteger(n) ? s.candidates[n - 1] : s.candidates.find((x) => x.token === sel);
    if (!c) fail(`placeholder {{${name}}}: no candidate "${sel}" in scenario ${s.scenario}`);
    return c;
  };
  return (text) => text.replace(/\{\{([^{}]*)\}\}/g, (_, name) => {
    const [n, field, sel, extra] = name.trim().split('.');
    const s = ns[n];
    if (!s || extra !== undefined) fail(`unknown placeholder {{${name}}}`);
    const live = s.candidates.filter((c) => !c.masked);
    switch (field) {
      case 'scores': if (sel === undefined) return F.list(live.map((c) => F.score(c.score))); break;
      case 'weights': if (sel === undefined) return F.list(live.map((c) => F.weight(c.weight))); break;
      case 'weight_sum': if (sel === undefined) return F.plain(s.weight_sum); break;
      case 'scale': if (sel === undefined) return F.plain(s.scale); break;
      case 'top': if (sel === undefined) return F.topCandidate(s).token; break;
      case 'focus': if (sel === undefined) return s.tokens[s.focus]; break;
      case 'score': if (sel !== undefined) return F.score(pick(s, sel, name).score); break;
      case 'weight': if (sel !== undefined) return F.weight(pick(s, sel, name).weight); break;
      case 'token': if (sel !== undefined) return pick(s, sel, name).token; break;
    }
    fail(`unknown placeholder {{${name}}}`);
  });
}

// ---------------------------------------------------------------- escaping and inline markup
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

// Inline markup (after escaping): **strong**, *emphasis*, [text](#anchor | https://...).
function inline(text, fill) {
  let h = esc(fill(text));
  h = h.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label, href) => {
    // #anchors, https:// links, and the page's own files (model/card.html)
    if (!/^(#[\w-]+|https:\/\/[^\s]+|[\w-]+(\/[\w-]+)*\.(html|md))$/.test(href)) fail(`link target not allowed: ${href}`);
    return `<a href="${href}">${label}</a>`;
  });
  h = h.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/\*([^*]+)\*/g, '<em>$1</em>');
  if (/[*[\]{}]/.test(h.replace(/<[^>]+>/g, ''))) fail(`unbalanced inline markup in: ${text}`);
  return h;
}
// Plain text for attributes and SVG labels: placeholders filled, markup stripped, escaped.
const plainText = (text, fill) => esc(fill(text).replace(/\*\*?([^*]+)\*\*?/g, '$1'));

// ---------------------------------------------------------------- the four-step diagram
// Long token labels get a smaller font, and very long ones are squeezed to fit their box.
const tokenClass = (tok, small) => ([...tok].length > small ? 'd-token d-token-sm' : 'd-token');
const fitAttr = (tok, max, px) => ([...tok].length > max ? ` textLength="${px}" lengthAdjust="spacingAndGlyphs"` : '');
function diagramSvg(state, d, fill) {
  const L = d.labels;
  const t = (s) => plainText(s, fill);
  const rows = state.candidates.map((c, i) => ({ c, y: 200 + i * 100 }));
  const focus = state.tokens[state.focus];
  const W = 1040, H = 520;
  const out = [];
  out.push(`<svg class="diagram-svg" id="diagram-svg" viewBox="0 0 ${W} ${H}" role="group" aria-labelledby="diagram-title" aria-describedby="diagram-desc" data-step="3">`);
  // column headers (the four steps)
  const cols = [[20, 230], [270, 540], [560, 800], [820, 1020]];
  cols.forEach(([x0, x1], i) => {
    out.push(`<g class="d-col" data-col="${i}"><rect class="d-col-band" x="${x0}" y="8" width="${x1 - x0}" height="${H - 16}" rx="14"/>` +
      `<text class="d-col-label" x="${x0 + 14}" y="36">${t(L.columns[i])}</text></g>`);
  });
  // focus token + query chip, and the query bus down to the comparisons
  out.push(`<g class="d-focus-group" aria-hidden="true">` +
    `<text class="d-small" x="36" y="74">${t(L.focus)}</text>` +
    `<rect class="d-box d-focus" x="36" y="84" width="180" height="60" rx="10"/>` +
    `<text class="${tokenClass(focus, 12)}" x="56" y="121"${fitAttr(focus, 18, 144)}>${esc(focus)}</text>` +
    `<rect class="d-chip d-chip-q" x="290" y="100" width="100" height="28" rx="14"/>` +
    `<text class="d-chip-text" x="340" y="119" text-anchor="middle">${t(L.query)}</text>` +
    `<path class="d-line d-q" d="M216 114 H290"/>` +
    `<path class="d-line d-q" d="M340 128 V${rows[rows.length - 1].y}"/></g>`);
  // normalise box and sum note
  const nTop = rows[0].y - 40, nBot = rows[rows.length - 1].y + 40;
  out.push(`<g class="d-norm-group"><rect class="d-box d-norm" x="600" y="${nTop}" width="110" height="${nBot - nTop}" rx="12"/>` +
    `<text class="d-norm-text" x="655" y="${(nTop + nBot) / 2 - 4}" text-anchor="middle">${t(L.normalise)}</text>` +
    `<text class="d-small" x="655" y="${(nTop + nBot) / 2 + 16}" text-anchor="middle">softmax</text>` +
    `<text class="d-sum" x="680" y="${nBot + 30}" text-anchor="middle">${t(L.sum)}</text></g>`);
  // output box
  const oy = (rows[0].y + rows[rows.length - 1].y) / 2;
  out.push(`<g class="d-out-group"><rect class="d-box d-out" x="900" y="${oy - 50}" width="120" height="100" rx="12"/>` +
    `<text class="d-out-text" x="960" y="${oy - 8}" text-anchor="middle">new token</text>` +
    `<text class="d-out-text" x="960" y="${oy + 14}" text-anchor="middle">representation</text>` +
    `<text class="d-small" x="960" y="${oy + 36}" text-anchor="middle">for “${esc(focus)}”</text></g>`);
  // one focusable group per candidate: its token, key/value chips, comparison, score, weight, contribution
  rows.forEach(({ c, y }, i) => {
    const sc = F.score(c.score), wt = F.weight(c.weight);
    const label = `${c.token}: score ${sc}, weight ${wt}`;
    // The row is the hover area; the button inside it is just the token box, so its visible text
    // (the token) is part of its accessible name (WCAG 2.5.3). The rest of the row is drawing.
    out.push(`<g class="d-cand" data-index="${i}" data-position="${c.position}" ` +
      `data-token="${esc(c.token)}" data-score="${esc(sc)}" data-weight="${esc(wt)}">` +
      `<rect class="d-hit" x="30" y="${y - 44}" width="870" height="88"/>` +
      `<g class="d-cand-btn" tabindex="0" role="button" aria-pressed="false" aria-label="${esc(label)}">` +
      `<rect class="d-box d-cand-box" x="36" y="${y - 36}" width="180" height="72" rx="10"/>` +
      `<text class="${tokenClass(c.token, 7)}" x="52" y="${y + 7}"${fitAttr(c.token, 9, 84)}>${esc(c.token)}</text></g>` +
      `<g aria-hidden="true">` +
      `<rect class="d-chip d-chip-k" x="146" y="${y - 28}" width="60" height="24" rx="12"/>` +
      `<text class="d-chip-text" x="176" y="${y - 11}" text-anchor="middle">${t(L.key)}</text>` +
      `<rect class="d-chip d-chip-v" x="146" y="${y + 4}" width="60" height="24" rx="12"/>` +
      `<text class="d-chip-text" x="176" y="${y + 21}" text-anchor="middle">${t(L.value)}</text>` +
      `<path class="d-line d-path" d="M206 ${y - 16} H318"/>` +
      `<circle class="d-cmp" cx="340" cy="${y}" r="22"/>` +
      `<text class="d-cmp-text" x="340" y="${y + 5}" text-anchor="middle">${t(L.compare)}</text>` +
      `<path class="d-line d-path" d="M362 ${y} H400"/>` +
      `<rect class="d-pill d-score" x="400" y="${y - 18}" width="130" height="36" rx="18"/>` +
      `<text class="d-pill-text" x="465" y="${y + 6}" text-anchor="middle">${t(L.score)} <tspan class="d-num">${esc(sc)}</tspan></text>` +
      `<path class="d-line d-path" d="M530 ${y} H600"/>` +
      `<path class="d-line d-path" d="M710 ${y} H730"/>` +
      `<rect class="d-pill d-weight" x="730" y="${y - 18}" width="80" height="36" rx="18"/>` +
      `<text class="d-pill-text d-num" x="770" y="${y + 6}" text-anchor="middle">${esc(wt)}</text>` +
      `<path class="d-line d-path" d="M810 ${y} H826"/>` +
      `<circle class="d-cmp d-mix" cx="848" cy="${y}" r="22"/>` +
      `<text class="d-cmp-text" x="848" y="${y + 5}" text-anchor="middle">× v</text>` +
      `<path class="d-line d-path d-contrib" d="M870 ${y} C885 ${y} 885 ${oy} 900 ${oy}"/>` +
      `</g></g>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

// ---------------------------------------------------------------- the trained model (optional)
// Reads the weights, their report (model.json, or run.json as the trainer writes it) and the
// model card from `dir`; returns what the page records and what goes into dist/model/.
function readModel(dir, textFile) {
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
function cardHtml(md, title) {
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
    if (/^\s*[-*]\s+/.test(l)) { const it = []; for (; i < lines.length && /^\s*[-*]\s+/.test(lines[i]); i++) it.push(lines[i].replace(/^\s*[-*]\s+/, '')); out.push(`<ul>${it.map((x) => `<li>${inl(x)}</li>`).join('')}</ul>`); continue; }
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
function modelControlsHtml(L, model) {
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

// ---------------------------------------------------------------- sections
function paragraphs(list, fill) { return (list || []).map((p) => `<p>${inline(p, fill)}</p>`).join('\n'); }

function subsections(s, fill, level) {
  return (s.subsections || []).map((x) =>
    `<div class="subsection" id="${esc(x.id)}"><h${level} class="subheading">${inline(x.heading, fill)}</h${level}>\n${paragraphs(x.paragraphs, fill)}</div>`).join('\n');
}

function stageHtml(s, fill, data, opts = {}) {
  const L = s.labels;
  const initial = data[opts.scenario || 'diagram'];
  const model = data.model || null;
  const scen = ['diagram', 'worked-example'].map((id) =>
    `<option value="${id}"${id === (opts.scenario || 'diagram') ? ' selected' : ''}>${esc(L.scenarios[id])}</option>`).join('') +
    `<option value="sentence" disabled>${esc(L.scenarios.sentence)}</option>` +
    (model ? `<option value="model" disabled>${esc(L.scenarios.model)}</option>` : '');
  const views = L.views.map((v, i) => ({ v, i })).filter(({ i }) => model || i < L.views.length - 1);
  const focusTok = initial.tokens[initial.focus];
  const engineData = Object.entries(data).filter(([id]) => id !== 'model').map(([id, j]) => ` data-scenario-${id}="${esc(JSON.stringify(j))}"`).join('') +
    (model ? ` data-model="${esc(JSON.stringify(model.record))}"` : '');
  const M = L.model || {};
  const messages = { loading: L.loading, no_webgl: L.no_webgl, no_app: L.no_app, model_loading: M.loading, model_loaded: M.loaded, model_failed: M.failed, model_missing: M.missing };
  return `<div class="stage-wrap" id="stage" data-stage>
<div class="engine-data" id="engine-data" hidden${engineData} data-steps="${esc(JSON.stringify(L.steps))}" data-messages="${esc(JSON.stringify(messages))}"></div>
<div class="attention-stage" id="attention-stage" data-app-state="none">
  <canvas id="attention-canvas" tabindex="0" aria-label="${esc(L.canvas)}"></canvas>
  <p class="stage-message" id="stage-message" role="status">The interactive view needs JavaScript. The diagram, the description below and the quiz work without it.</p>
</div>
<form class="controls" id="stage-controls" novalidate>
  <div class="control-row">
    <div class="field"><label for="scenario-select">${esc(L.scenario)}</label>
      <select id="scenario-select" name="scenario" disabled>${scen}</select></div>
    <div class="field"><label for="focus-select">${esc(L.focus)}</label>
      <select id="focus-select" name="focus" disabled><option value="${initial.focus}">${esc(focusTok)}</option></select></div>
    <div class="field"><label for="view-select">${esc(L.view)}</label>
      <select id="view-select" name="view" disabled>${views.map(({ v, i }) => `<option value="${i}">${esc(v)}</option>`).join('')}</select></div>
    <div class="field field-steps" role="group" aria-labelledby="step-label">
      <span class="label" id="step-label">Step</span>
      <div class="step-buttons">
        <button type="button" id="step-back" class="btn" disabled>← ${esc(L.back)}</button>
        <output id="step-status" for="step-back step-next" aria-live="off">4 / 4</output>
        <button type="button" id="step-next" class="btn" disabled>${esc(L.next)} →</button>
      </div>
    </div>
  </div>
  <div class="control-row sentence-row">
    <div class="field field-grow"><label for="sentence-input">${esc(L.sentence)}</label>
      <input type="text" id="sentence-input" name="sentence" maxlength="${Number(L.max_chars) || 800}" autocomplete="off" spellcheck="false" aria-describedby="sentence-help sentence-error" disabled>
      <p class="help" id="sentence-help">${esc(L.sentence_help.replace('{chars}', String(Number(L.max_chars) || 800)))}</p>
      <p class="error" id="sentence-error" role="alert"></p></div>
    <button type="submit" id="sentence-submit" class="btn btn-primary" disabled>${esc(L.submit)}</button>
  </div>
  ${modelControlsHtml(L, model)}
  <p class="error" id="control-error" role="alert"></p>
</form>
<div class="live-wrap"><h${opts.liveLevel || 4} class="live-title" id="live-title">What the picture shows now</h${opts.liveLevel || 4}>
<p id="live-description" class="live-description" aria-live="polite" aria-labelledby="live-title">${esc(F.describe(initial, L.steps))}</p></div>
</div>`;
}

function sectionHtml(s, fill, data, level) {
  const h = `h${level}`;
  const head = `<${h} id="${esc(s.id)}-title">${inline(s.heading, fill)}</${h}>`;
  let body = '';
  switch (s.kind) {
    case 'prose':
      body = paragraphs(s.paragraphs, fill) + subsections(s, fill, level + 1);
      break;
    case 'callout':
      body = `<div class="callout">${paragraphs(s.paragraphs, fill)}</div>`;
      break;
    case 'steps': {
      const d = s.diagram;
      body = `<p class="goal"><strong>Learning goal.</strong> ${inline(s.goal, fill)}</p>
<ol class="steps" id="steps-list">${s.steps.map((st, i) =>
        `<li class="step" data-step="${i}"><span class="step-num" aria-hidden="true">0${i + 1}</span><div><strong class="step-title">${inline(st.title, fill)}</strong><p>${inline(st.text, fill)}</p></div></li>`).join('\n')}</ol>
<figure class="diagram" id="diagram" aria-labelledby="diagram-title" aria-describedby="diagram-desc">
<figcaption><strong id="diagram-title">${inline(d.title, fill)}</strong>
<span class="diagram-hint">${inline(d.hint, fill)}</span></figcaption>
<div class="diagram-scroll">${diagramSvg(data.diagram, d, fill)}</div>
<p class="diagram-readout" id="diagram-readout" aria-live="polite">${inline(d.hint, fill)}</p>
<div class="diagram-desc" id="diagram-desc"><p>${inline(d.description, fill)}</p><p class="reduced-desc">${inline(d.static_description, fill)}</p></div>
<p class="diagram-note" id="diagram-note">${inline(d.correction, fill)}</p>
</figure>`;
      break;
    }
    case 'stage':
      body = paragraphs(s.paragraphs, fill) + stageHtml(s, fill, data);
      break;
    case 'table':
      body = `<div class="table-scroll"><table class="mapping"><caption>${inline(s.note, fill)}</caption>
<thead><tr>${s.columns.map((c) => `<th scope="col">${inline(c, fill)}</th>`).join('')}</tr></thead>
<tbody>${s.rows.map((r) => `<tr><th scope="row">${inline(r[0], fill)}</th><td>${inline(r[1], fill)}</td></tr>`).join('\n')}</tbody></table></div>`;
      break;
    case 'worked':
      body = `<p>${inline(s.intro, fill)}</p>
<p class="worked-start"><strong>Starting point.</strong> ${inline(s.start, fill)}</p>
<ol class="worked-steps">${s.steps.map((x) => `<li>${inline(x, fill)}</li>`).join('\n')}</ol>
<p class="worked-result"><strong>Result.</strong> ${inline(s.result, fill)}</p>`;
      break;
    case 'scenario':
      body = paragraphs(s.paragraphs, fill) +
        `<aside class="caution" aria-labelledby="${esc(s.id)}-caution"><h${level + 1} id="${esc(s.id)}-caution">${inline(s.caution.heading, fill)}</h${level + 1}>${paragraphs(s.caution.paragraphs, fill)}</aside>`;
      break;
    case 'list':
      body = `<ul class="plain-list">${s.items.map((x) => `<li>${inline(x, fill)}</li>`).join('\n')}</ul>`;
      break;
    case 'terms':
      body = `<dl class="terms">${s.terms.map((x) => `<div><dt>${inline(x.term, fill)}</dt><dd>${inline(x.definition, fill)}</dd></div>`).join('\n')}</dl>`;
      break;
    case 'misconceptions':
      body = `<ul class="myths">${s.items.map((x, i) => `<li class="myth" data-misconception="${i + 1}"><p class="myth-claim"><span class="tag tag-myth">Misconception</span> ${inline(x.myth, fill)}</p><p class="myth-fix"><span class="tag tag-fix">Correction</span> ${inline(x.correction, fill)}</p></li>`).join('\n')}</ul>`;
      break;
    case 'quiz':
      body = quizHtml(s, fill, level);
      break;
    case 'resources':
      body = `<ul class="resources">${s.items.map((r) => {
        if (!/^https:\/\//.test(r.href)) fail(`resource link must be https: ${r.href}`);
        return `<li class="resource"><span class="tag">${esc(r.kind)}</span>
<a href="${esc(r.href)}" target="_blank" rel="noopener noreferrer">${esc(r.title)} <span class="visually-hidden">${esc(s.new_tab)}</span><span class="ext" aria-hidden="true">↗</span></a>
<span class="resource-author">${esc(r.author)}</span>
<p>${inline(r.note, fill)}</p>
<p class="resource-meta"><span>${esc(r.level)}</span> · <span>${esc(s.checked)}</span></p></li>`;
      }).join('\n')}</ul>`;
      break;
    default:
      fail(`section "${s.id}": unknown kind "${s.kind}"`);
  }
  const cls = s.kind === 'callout' ? ' section-callout' : '';
  return `<section class="section${cls}" id="${esc(s.id)}" data-section="${esc(s.id)}" aria-labelledby="${esc(s.id)}-title">\n${head}\n${body}\n</section>`;
}

function quizHtml(s, fill, level) {
  const qs = s.questions.map((q, qi) => {
    const right = q.options.filter((o) => o.correct);
    if (right.length !== 1) fail(`quiz question ${q.id}: needs exactly one correct option`);
    const opts = q.options.map((o, oi) => `<li><label class="option" data-correct="${o.correct ? 'true' : 'false'}">` +
      `<input type="radio" name="${esc(q.id)}" value="${oi}" data-feedback="${esc(fill(o.feedback))}"> <span>${inline(o.text, fill)}</span></label></li>`).join('\n');
    return `<fieldset class="question" id="${esc(q.id)}" data-question="${qi + 1}">
<legend><span class="q-num">Question ${qi + 1}</span> ${inline(q.prompt, fill)}</legend>
<ul class="options">${opts}</ul>
<p class="feedback" id="${esc(q.id)}-feedback" aria-live="polite"></p>
<details class="answer"><summary>${esc(s.reveal)}</summary><p><strong>Answer:</strong> ${inline(right[0].text, fill)}</p><p>${inline(q.explanation, fill)}</p></details>
</fieldset>`;
  }).join('\n');
  return `<p>${inline(s.intro, fill)}</p>
<form class="quiz" id="quiz" novalidate data-unanswered="${esc(s.unanswered)}" data-score="${esc(s.score)}">
${qs}
<div class="quiz-actions"><button type="submit" class="btn btn-primary" id="quiz-submit" hidden>${esc(s.submit)}</button>
<button type="button" class="btn" id="quiz-retry" hidden>${esc(s.retry)}</button></div>
<p class="quiz-result" id="quiz-result" aria-live="polite"></p>
</form>`;
}

// ---------------------------------------------------------------- pages
function findSection(entry, kind) {
  for (const g of entry.groups) for (const s of g.sections) if (s.kind === kind) return s;
  fail(`content has no section of kind "${kind}"`);
}

function validateEntry(e) {
  for (const k of ['title', 'lang', 'breadcrumb', 'tags', 'also_called', 'milestone', 'groups', 'summary']) {
    if (e[k] === undefined) fail(`entry.json: missing "${k}"`);
  }
  const ids = new Set();
  for (const g of e.groups) for (const s of [g, ...g.sections]) {
    if (!/^[a-z][a-z0-9-]*$/.test(s.id)) fail(`entry.json: bad id "${s.id}"`);
    if (ids.has(s.id)) fail(`entry.json: duplicate id "${s.id}"`);
    ids.add(s.id);
  }
}

function indexBody(entry, fill, data) {
  const crumbs = entry.breadcrumb.map((c, i) => i === entry.breadcrumb.length - 1
    ? `<li><span aria-current="page">${esc(c)}</span></li>` : `<li>${esc(c)}</li>`).join('');
  const nav = entry.groups.map((g) => `<li><a href="#${esc(g.id)}">${esc(g.heading)}</a></li>`).join('');
  const groups = entry.groups.map((g) => `<div class="group" id="${esc(g.id)}" data-group="${esc(g.id)}" aria-labelledby="${esc(g.id)}-title">
<h2 class="group-title" id="${esc(g.id)}-title">${inline(g.heading, fill)}</h2>
${g.sections.map((s) => sectionHtml(s, fill, data, 3)).join('\n')}
</div>`).join('\n');
  return `<header class="page-header" id="top">
<div class="header-inner">
<nav class="breadcrumb" aria-label="Breadcrumb"><ol>${crumbs}</ol></nav>
<button type="button" class="theme-toggle" id="theme-toggle" aria-pressed="false" hidden><span aria-hidden="true" class="theme-icon"></span> Dark theme</button>
<h1 id="page-title">${esc(entry.title)}</h1>
<p class="also-called" data-section="also-called">Also called: ${entry.also_called.map((a) => `<em>${esc(a)}</em>`).join(', ')}.</p>
<ul class="tags" aria-label="Tags">${entry.tags.map((t) => `<li class="tag">${esc(t)}</li>`).join('')}</ul>
<p class="milestone"><a href="${esc(entry.milestone.href)}" id="milestone-link">← ${esc(entry.milestone.label)}</a></p>
<nav class="toc" aria-label="On this page"><ul>${nav}</ul></nav>
</div>
</header>
<main id="main" tabindex="-1">
${groups}
</main>
<footer class="page-footer"><p>Every score and weight on this page was computed by the project’s attention engine when the page was built.</p><p><a href="#top">Back to top</a></p></footer>`;
}

function embedBody(entry, fill, data) {
  const stage = findSection(entry, 'stage');
  const desc = entry.groups.flatMap((g) => g.sections).find((s) => s.id === 'without-diagram');
  return `<main id="main" class="embed" tabindex="-1">
<h1 class="embed-title" id="page-title">${esc(entry.title)}: ${inline(stage.heading, fill)}</h1>
<button type="button" class="theme-toggle" id="theme-toggle" aria-pressed="false" hidden><span aria-hidden="true" class="theme-icon"></span> Dark theme</button>
${stageHtml(stage, fill, data, { liveLevel: 2 })}
${desc ? `<details class="embed-desc"><summary>${inline(desc.heading, fill)}</summary>${paragraphs(desc.paragraphs, fill)}</details>` : ''}
</main>`;
}

// The shared <head> (templates/head.html) goes in first; its own slots are filled with the rest.
const HEAD = fs.readFileSync(path.join(WEB, 'templates', 'head.html'), 'utf8');
function page(template, entry, body, title) {
  const parts = { lang: esc(entry.lang), title: esc(title), description: esc(entry.summary), body };
  if (!template.includes('<!--slot:head-->')) fail('template has no <!--slot:head-->');
  return template.replace('<!--slot:head-->', HEAD.trimEnd()).replace(/<!--slot:(\w+)-->/g, (_, k) => {
    if (parts[k] === undefined) fail(`template slot ${k} unknown`);
    return parts[k];
  });
}

function copyDir(from, to, ext) {
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(from)) if (f.endsWith(ext)) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const entryFile = path.join(o.content, 'entry.json');
  let entry;
  try { entry = JSON.parse(fs.readFileSync(entryFile, 'utf8')); } catch (e) { fail(`cannot read ${entryFile}: ${e.message}`); }
  validateEntry(entry);
  const data = {};
  for (const id of ['diagram', 'worked-example']) data[id] = runScenario(path.resolve(o.cli), path.join(o.scenarios, `${id}.json`), id);
  if (o.model) data.model = readModel(o.model, o['model-text']);
  if (data.diagram.candidates.length !== 3) fail(`the diagram scenario must have 3 candidates (has ${data.diagram.candidates.length})`);
  const fill = makeFiller(data);
  const index = page(fs.readFileSync(path.join(WEB, 'templates', 'index.html'), 'utf8'), entry, indexBody(entry, fill, data), `${entry.title} — an interactive explainer`);
  const embed = page(fs.readFileSync(path.join(WEB, 'templates', 'embed.html'), 'utf8'), entry, embedBody(entry, fill, data), `${entry.title} — interactive`);
  for (const [name, html] of [['index.html', index], ['embed.html', embed]]) {
    const left = html.match(/\{\{[^}]*\}\}|NaN|undefined/);
    if (left) fail(`${name}: unfilled or broken value "${left[0]}"`);
  }
  if (o.app && !fs.existsSync(o.app)) fail(`--app given but not found: ${o.app}`);
  // write everything to a temporary folder, then swap it in, so a failure never leaves a half page
  const out = path.resolve(o.out);
  const tmp = `${out}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  fs.writeFileSync(path.join(tmp, 'index.html'), index);
  fs.writeFileSync(path.join(tmp, 'embed.html'), embed);
  copyDir(path.join(WEB, 'css'), path.join(tmp, 'css'), '.css');
  const paletteFile = path.join(WEB, '..', 'assets', 'theme', 'palette.json');
  try { fs.writeFileSync(path.join(tmp, 'css', 'palette.css'), paletteCss(JSON.parse(fs.readFileSync(paletteFile, 'utf8')))); } catch (e) { fail(`cannot make css/palette.css from ${paletteFile}: ${e.message}`); }
  copyDir(path.join(WEB, 'js'), path.join(tmp, 'js'), '.js');
  if (o.app) fs.copyFileSync(o.app, path.join(tmp, 'app.js'));
  if (data.model) {
    const m = data.model, dir = path.join(tmp, 'model');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'model.bin'), m.bytes);
    fs.writeFileSync(path.join(dir, 'model.js'), `/* The trained model's weights file (model.bin), base64, for pages opened from file:// (which cannot fetch). SHA-256 ${m.sha256}. */\nwindow.AttentionModelWeights = "${m.bytes.toString('base64')}";\n`);
    if (m.hasCard) {
      const md = fs.readFileSync(m.cardFile, 'utf8');
      fs.writeFileSync(path.join(dir, 'README.md'), md);
      fs.writeFileSync(path.join(dir, 'card.html'), cardHtml(md, `Model card — ${entry.title}`));
      for (const f of fs.readdirSync(m.dir)) if (/\.(svg|png)$/.test(f)) fs.copyFileSync(path.join(m.dir, f), path.join(dir, f));
    }
  }
  fs.rmSync(out, { recursive: true, force: true });
  fs.renameSync(tmp, out);
  console.log(`render: wrote ${path.relative(process.cwd(), out) || out}/index.html, embed.html${o.app ? ', app.js' : ' (no app.js)'}${data.model ? `, model/ (${data.model.bytes.length} bytes, sha256 ${data.model.sha256.slice(0, 12)}…)` : ''}`);
}

try {
  main();
} catch (e) {
  console.error(`render: ERROR: ${e instanceof BuildError ? e.message : e.stack}`);
  process.exit(1);
}
