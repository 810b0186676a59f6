// Page weight: the bytes a reader downloads on first load of each page, raw and gzip (level 9),
// by kind. Follows what the HTML references (scripts, stylesheets, icons, images), url() in CSS,
// and scripts that a referenced script loads itself (`x.src = 'app.js'`). A single-file wasm app
// (base64 wasm inside the JS) is split into its JS glue and "wasm-in-JS", and the wasm's sections
// (code, data, ...) are listed, so the table says where the bytes go.
// --embedded lists the folders the app's link step packed into the wasm (--embed-file: the
// data section), to tell how much of the wasm is fonts and data; they are not counted twice.
//   node scripts/bench-weight.mjs [--dir dist] [--pages index.html,embed.html]
//                                 [--embedded fonts=DIR,data=DIR,...]   -> JSON on stdout
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname, normalize, extname } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const dir = opt('--dir', 'dist');
const pages = opt('--pages', 'index.html,embed.html').split(',');
const fail = (msg) => { console.error(`error: ${msg}`); process.exit(1); };
const gz = (buf) => gzipSync(buf, { level: 9 }).length;

const KIND = { '.html': 'HTML', '.css': 'CSS', '.js': 'JS', '.mjs': 'JS', '.wasm': 'wasm',
  '.woff2': 'font', '.woff': 'font', '.ttf': 'font', '.otf': 'font', '.svg': 'image',
  '.png': 'image', '.jpg': 'image', '.webp': 'image', '.ico': 'image', '.json': 'data' };
const attr = (tag, name) => (tag.match(new RegExp(`\\b${name}\\s*=\\s*["']([^"']*)["']`, 'i')) || [])[1];

function references(file, text) {
  const refs = [];
  const ext = extname(file);
  if (ext === '.html') {
    for (const [tag] of text.matchAll(/<(script|img|source|link|iframe|video|audio|object)\b[^>]*>/gi)) {
      const name = tag.slice(1).split(/[\s>]/)[0].toLowerCase();
      if (name === 'link') {
        const rel = (attr(tag, 'rel') || '').toLowerCase();
        if (/stylesheet|icon|preload|modulepreload|manifest/.test(rel)) refs.push(attr(tag, 'href'));
      } else {
        refs.push(attr(tag, 'src'), attr(tag, 'poster'), attr(tag, 'data'));
        const srcset = attr(tag, 'srcset');
        if (srcset) refs.push(...srcset.split(',').map((s) => s.trim().split(/\s+/)[0]));
      }
    }
  } else if (ext === '.css') {
    for (const m of text.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)|@import\s+["']([^"']+)["']/g))
      refs.push(m[1] || m[2]);
  } else if (ext === '.js' && !isSingleFileWasm(text)) {
    for (const m of text.matchAll(/\.src\s*=\s*["']([^"']+)["']|fetch\(\s*["']([^"']+)["']|importScripts\(\s*["']([^"']+)["']/g))
      refs.push(m[1] || m[2] || m[3]);
  }
  return refs.filter(Boolean).map((r) => r.split(/[?#]/)[0]).filter((r) => r && !r.startsWith('data:'));
}

const WASM_B64 = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/;
function isSingleFileWasm(text) { return WASM_B64.test(text); }

// wasm sections by size: id -> name; custom sections by their own name
function wasmSections(bytes) {
  const names = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export',
                 'start', 'element', 'code', 'data', 'data count'];
  const out = {};
  let p = 8;
  const leb = () => { let r = 0, s = 0, b; do { b = bytes[p++]; r |= (b & 0x7f) << s; s += 7; } while (b & 0x80); return r >>> 0; };
  while (p < bytes.length) {
    const id = bytes[p++]; const size = leb();
    const name = names[id] || `section ${id}`;
    out[name] = (out[name] || 0) + size;
    p += size;
  }
  return out;
}

function describe(path) {
  const full = join(dir, path);
  if (!existsSync(full)) return null;
  const buf = readFileSync(full);
  const kind = KIND[extname(path)] || 'other';
  const entry = { path, kind, raw: buf.length, gzip: gz(buf), parts: null };
  if (kind === 'JS') {
    const text = buf.toString('utf8');
    const m = text.match(WASM_B64);
    if (m) {  // single-file wasm: split the glue from the base64 wasm
      const glue = Buffer.from(text.replace(m[1], ''));
      const b64 = Buffer.from(m[1]);
      const wasm = Buffer.from(m[1], 'base64');
      entry.kind = 'JS + wasm-in-JS';
      entry.parts = { glue: { raw: glue.length, gzip: gz(glue) },
                      wasm_in_js: { raw: b64.length, gzip: gz(b64) },
                      wasm_binary: { raw: wasm.length, gzip: gz(wasm) },
                      wasm_sections: wasmSections(wasm) };
    }
  }
  return entry;
}

const result = { dir, pages: {} };
for (const page of pages) {
  if (!existsSync(join(dir, page))) fail(`${join(dir, page)} does not exist (run scripts/build)`);
  const seen = new Set(), files = [], missing = [], external = [];
  const queue = [page];
  while (queue.length) {
    const path = queue.shift();
    if (seen.has(path)) continue;
    seen.add(path);
    const entry = describe(path);
    if (!entry) { missing.push(path); continue; }
    files.push(entry);
    const text = readFileSync(join(dir, path), 'utf8');
    for (const ref of references(path, text)) {
      if (/^[a-z]+:\/\//i.test(ref) || ref.startsWith('//')) { external.push(ref); continue; }
      // url() in CSS is relative to the stylesheet; a URL a script sets, to the page
      const base = extname(path) === '.css' ? dirname(path) : dirname(page);
      queue.push(normalize(join(base, ref)));
    }
  }
  const byKind = {};
  const add = (kind, raw, gzip) => { const k = (byKind[kind] ||= { raw: 0, gzip: 0 }); k.raw += raw; k.gzip += gzip; };
  for (const f of files) {
    if (f.parts) { add('JS', f.parts.glue.raw, f.parts.glue.gzip); add('wasm-in-JS', f.parts.wasm_in_js.raw, f.parts.wasm_in_js.gzip); }
    else add(f.kind, f.raw, f.gzip);
  }
  result.pages[page] = { files, by_kind: byKind, missing, external,
    total: { raw: files.reduce((a, f) => a + f.raw, 0), gzip: files.reduce((a, f) => a + f.gzip, 0) } };
}
// files packed into the wasm, by label: raw and gzip (each file compressed alone)
result.embedded = {};
for (const item of (opt('--embedded', '') || '').split(',').filter(Boolean)) {
  const [label, folder] = item.split('=');
  if (!folder || !existsSync(folder)) continue;
  const e = (result.embedded[label] ||= { raw: 0, gzip: 0, files: 0 });
  const walk = (d) => { for (const f of readdirSync(d)) { const p = join(d, f);
    if (statSync(p).isDirectory()) walk(p);
    else { const b = readFileSync(p); e.raw += b.length; e.gzip += gz(b); e.files++; } } };
  walk(folder);
}
console.log(JSON.stringify(result));
