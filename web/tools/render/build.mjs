// The whole build from options: read and check the entry, run the engine for each scenario, render
// both pages, and write them with the CSS and JS (and the app when given: app.js, app.wasm and
// app.wasm.js, and the same three of its SIMD twin, app.simd.*) into the output folder.
// It writes to a temporary folder and swaps it in, so a failure never leaves a half page.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fail } from './errors.mjs';
import { WEB } from './format.mjs';
import { runScenario } from './engine.mjs';
import { makeFiller } from './placeholders.mjs';
import { validateEntry, indexBody, embedBody, page, checkIds } from './pages.mjs';
import { paletteCss } from '../palette.mjs';
import { readModel, writeModel } from './model.mjs';


export function readEntry(content) {
  const entryFile = path.join(content, 'entry.json');
  try { return JSON.parse(fs.readFileSync(entryFile, 'utf8')); } catch (e) { return fail(`cannot read ${entryFile}: ${e.message}`); }
}

// The scenarios, in the order of assets/scenarios/index.json (their one list): each fixed scenario
// is run through the engine; a free-text one (kind "sentence") is only offered in the Example select.
// Returns {data: {id: engine state}, choices: [{id, fixed}]}.
export function loadScenarios(cli, scenarios) {
  const indexFile = path.join(scenarios, 'index.json');
  let index;
  try { index = JSON.parse(fs.readFileSync(indexFile, 'utf8')); } catch (e) { return fail(`cannot read ${indexFile}: ${e.message}`); }
  if (!Array.isArray(index.scenarios)) fail(`${indexFile}: no "scenarios" list`);
  const data = {}, choices = [];
  for (const { id } of index.scenarios) {
    const file = path.join(scenarios, `${id}.json`);
    let kind;
    try { kind = JSON.parse(fs.readFileSync(file, 'utf8')).kind; } catch (e) { fail(`cannot read scenario ${file}: ${e.message}`); }
    const fixed = kind !== 'sentence';
    if (fixed) data[id] = runScenario(path.resolve(cli), file, id);
    choices.push({ id, fixed });
  }
  return { data, choices };
}

// Renders both pages from an entry and the engine's data; returns {'index.html': ..., 'embed.html': ...}.
// choices: the Example select's options in order ({id, fixed}); by default the fixed scenarios.
export function renderPages(entry, data, choices = Object.keys(data).map((id) => ({ id, fixed: true }))) {
  validateEntry(entry);
  for (const ns of ['diagram', 'worked-example']) if (!data[ns]) fail(`the page's placeholders need the scenario "${ns}" (assets/scenarios/index.json)`);
  const fill = makeFiller(data);
  const template = (name) => fs.readFileSync(path.join(WEB, 'templates', name), 'utf8');
  const pages = {
    'index.html': page(template('index.html'), entry, indexBody(entry, fill, data, choices), `${entry.title} — an interactive explainer`),
    'embed.html': page(template('embed.html'), entry, embedBody(entry, fill, data, choices), `${entry.title} — interactive`),
  };
  // every text went through fill() and esc(), which fail on an unknown placeholder or a missing
  // field; this catches a placeholder that was never closed. The words "NaN" or "undefined" in prose
  // are fine: the numbers come from the engine through format.js, which refuses non-finite ones.
  for (const [name, html] of Object.entries(pages)) {
    const left = html.match(/\{\{[^}]*(\}\})?/);
    if (left) fail(`${name}: unfilled placeholder "${left[0].slice(0, 40)}"`);
    checkIds(name, html);
  }
  return pages;
}

function copyDir(from, to, ext) {
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(from)) if (f.endsWith(ext)) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

export function writeDist(outDir, pages, app, model, title) {
  // The app and its SIMD twin (src/app/CMakeLists.txt): X.js + X.wasm and X_simd.js + X_simd.wasm
  const builds = (app ? [['app', app], ['app.simd', app.replace(/\.js$/, '_simd.js')]] : [])
    .map(([name, js]) => ({ name, js, wasm: js.replace(/\.js$/, '.wasm') }));
  for (const { js, wasm } of builds) {
    if (!fs.existsSync(js)) fail(`--app given but not found: ${js}`);
    if (!fs.existsSync(wasm)) fail(`--app given but its wasm is missing: ${wasm}`);
  }
  const out = path.resolve(outDir);
  const tmp = `${out}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  for (const [name, html] of Object.entries(pages)) fs.writeFileSync(path.join(tmp, name), html);
  copyDir(path.join(WEB, 'css'), path.join(tmp, 'css'), '.css');
  // the one palette (assets/theme/palette.json, shared with the canvas) as the page's CSS variables
  const paletteFile = path.join(WEB, '..', 'assets', 'theme', 'palette.json');
  let css;
  try { css = paletteCss(JSON.parse(fs.readFileSync(paletteFile, 'utf8'))); } catch (e) { fail(`cannot make css/palette.css from ${paletteFile}: ${e.message}`); }
  fs.writeFileSync(path.join(tmp, 'css', 'palette.css'), css);
  copyDir(path.join(WEB, 'js'), path.join(tmp, 'js'), '.js');
  // Each build (scalar, SIMD) is its glue and one binary, two ways to reach it (web/js/loader.js):
  // NAME.wasm over HTTP(S), and NAME.wasm.js, the same bytes gzip-compressed and then base64 in a
  // script, for file:// (no server compresses there: gzip first takes it from 960 to about 440 KB).
  for (const { name, js, wasm: wasmFile } of builds) {
    fs.copyFileSync(js, path.join(tmp, `${name}.js`));
    const wasm = fs.readFileSync(wasmFile);
    fs.writeFileSync(path.join(tmp, `${name}.wasm`), wasm);
    fs.writeFileSync(path.join(tmp, `${name}.wasm.js`),
      `/* ${name}.wasm, gzip -9 then base64: for pages opened from file:// (web/js/loader.js) */\n` +
      `window.AttentionAppWasm="${zlib.gzipSync(wasm, { level: 9 }).toString('base64')}";\n`);
  }
  if (model) writeModel(tmp, model, title);
  fs.rmSync(out, { recursive: true, force: true });
  fs.renameSync(tmp, out);
  return out;
}

export function build(o) {
  const entry = readEntry(o.content);
  if (o.milestone !== undefined && entry.milestone) entry.milestone.href = o.milestone;
  validateEntry(entry);
  const { data, choices } = loadScenarios(o.cli, o.scenarios);
  if (o.model) data.model = readModel(o.model, o['model-text']);
  const pages = renderPages(entry, data, choices);
  return writeDist(o.out, pages, o.app, data.model, `Model card — ${entry.title}`);
}
