// The whole build from options: read and check the entry, run the engine for each scenario, render
// both pages, and write them with the CSS and JS (and app.js when given) into the output folder.
// It writes to a temporary folder and swaps it in, so a failure never leaves a half page.
import fs from 'node:fs';
import path from 'node:path';
import { fail } from './errors.mjs';
import { WEB } from './format.mjs';
import { runScenario } from './engine.mjs';
import { makeFiller } from './placeholders.mjs';
import { validateEntry, indexBody, embedBody, page, checkIds } from './pages.mjs';
import { paletteCss } from '../palette.mjs';
import { readModel, writeModel } from './model.mjs';

export const SCENARIO_IDS = ['diagram', 'worked-example'];

export function readEntry(content) {
  const entryFile = path.join(content, 'entry.json');
  try { return JSON.parse(fs.readFileSync(entryFile, 'utf8')); } catch (e) { return fail(`cannot read ${entryFile}: ${e.message}`); }
}

export function loadScenarios(cli, scenarios) {
  const data = {};
  for (const id of SCENARIO_IDS) data[id] = runScenario(path.resolve(cli), path.join(scenarios, `${id}.json`), id);
  return data;
}

// Renders both pages from an entry and the engine's data; returns {'index.html': ..., 'embed.html': ...}.
export function renderPages(entry, data) {
  validateEntry(entry);
  const fill = makeFiller(data);
  const template = (name) => fs.readFileSync(path.join(WEB, 'templates', name), 'utf8');
  const pages = {
    'index.html': page(template('index.html'), entry, indexBody(entry, fill, data), `${entry.title} — an interactive explainer`),
    'embed.html': page(template('embed.html'), entry, embedBody(entry, fill, data), `${entry.title} — interactive`),
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
  if (app && !fs.existsSync(app)) fail(`--app given but not found: ${app}`);
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
  if (app) fs.copyFileSync(app, path.join(tmp, 'app.js'));
  if (model) writeModel(tmp, model, title);
  fs.rmSync(out, { recursive: true, force: true });
  fs.renameSync(tmp, out);
  return out;
}

export function build(o) {
  const entry = readEntry(o.content);
  if (o.milestone !== undefined && entry.milestone) entry.milestone.href = o.milestone;
  validateEntry(entry);
  const data = loadScenarios(o.cli, o.scenarios);
  if (o.model) data.model = readModel(o.model, o['model-text']);
  const pages = renderPages(entry, data);
  return writeDist(o.out, pages, o.app, data.model, `Model card — ${entry.title}`);
}
