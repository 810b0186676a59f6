// Page weight: what each page downloads, raw / gzip -9 / brotli (the .gz and .br siblings the build
// wrote, else compressed here), and where the app's bytes go.
//   pages        index.html and embed.html with what they reference (scripts, stylesheets, icons,
//                images, url() in CSS). The canvas app is not referenced: web/js/loader.js loads it
//                when it is wanted, so index.html's total is what a reader gets before the canvas.
//   canvas       the app over HTTP(S) (NAME.js + NAME.wasm) and from file:// (NAME.js + NAME.wasm.js),
//                for the SIMD build (NAME app.simd) and the scalar one (app)
//   origins      the wasm's code by origin (ImGui, SDL, engine, app, JSON, libc/libc++, ...), from
//                a build with function names (--names, the wasm's "name" section), plus its data
//                (the files compiled in: --embedded) and the JS glue
//   node scripts/bench-weight.mjs [--dir dist] [--names build/.../attention_app_names.wasm]
//                                 [--embedded label=DIR,label=DIR]   -> JSON on stdout
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { join, dirname, normalize, extname } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const dir = opt('--dir', 'dist');
const pages = opt('--pages', 'index.html,embed.html').split(',');
const fail = (msg) => { console.error(`error: ${msg}`); process.exit(1); };
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const br = (buf) => brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

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
  }
  return refs.filter(Boolean).map((r) => r.split(/[?#]/)[0]).filter((r) => r && !r.startsWith('data:'));
}

// wasm sections by size: id -> name; custom sections by their own name
function wasmSections(bytes) {
  const names = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export',
                 'start', 'element', 'code', 'data', 'data count'];
  const out = {}, at = {};
  let p = 8;
  const leb = () => { let r = 0, s = 0, b; do { b = bytes[p++]; r += (b & 0x7f) * 2 ** s; s += 7; } while (b & 0x80); return r; };
  while (p < bytes.length) {
    const id = bytes[p++]; const size = leb(); const start = p;
    let name = names[id] || `section ${id}`;
    if (id === 0) { const n = leb(); name = `custom:${bytes.subarray(p, p + n).toString()}`; }
    out[name] = (out[name] || 0) + size;
    at[name] = { start, end: start + size };
    p = start + size;
  }
  return { sizes: out, at };
}

function describe(path) {
  const full = join(dir, path);
  if (!existsSync(full)) return null;
  const buf = readFileSync(full);
  const sib = (ext, f) => (existsSync(full + ext) ? readFileSync(full + ext).length : f(buf));
  return { path, kind: KIND[extname(path)] || 'other', raw: buf.length, gzip: sib('.gz', gz), br: sib('.br', br) };
}
const sum = (files, k) => files.reduce((a, f) => a + (f ? f[k] : 0), 0);

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
      const base = extname(path) === '.css' ? dirname(path) : dirname(page);
      queue.push(normalize(join(base, ref)));
    }
  }
  const byKind = {};
  for (const f of files) { const k = (byKind[f.kind] ||= { raw: 0, gzip: 0, br: 0 }); k.raw += f.raw; k.gzip += f.gzip; k.br += f.br; }
  result.pages[page] = { files, by_kind: byKind, missing, external,
    total: { raw: sum(files, 'raw'), gzip: sum(files, 'gzip'), br: sum(files, 'br') } };
}

// the canvas: two builds (app.simd.* where the browser has WebAssembly SIMD, as most do; app.*
// otherwise), each one wasm with two ways to reach it
const way = (names) => { const files = names.map(describe);
  return { files: names, missing: names.filter((n, i) => !files[i]), raw: sum(files, 'raw'), gzip: sum(files, 'gzip'), br: sum(files, 'br'),
           parts: Object.fromEntries(files.filter(Boolean).map((f) => [f.path, { raw: f.raw, gzip: f.gzip, br: f.br }])) }; };
result.canvas = { http: way(['app.simd.js', 'app.simd.wasm']), file: way(['app.simd.js', 'app.simd.wasm.js']),
  http_scalar: way(['app.js', 'app.wasm']), file_scalar: way(['app.js', 'app.wasm.js']) };
if (existsSync(join(dir, 'app.simd.wasm'))) result.canvas.wasm_sections = wasmSections(readFileSync(join(dir, 'app.simd.wasm'))).sizes;

// files compiled into the wasm, by label: raw and gzip (each file compressed alone)
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

// ---- where the wasm's bytes go, by origin (a build with function names)
const ORIGINS = [  // first match wins; names are the demangled C++ names of the wasm's functions
  ['JSON (attn::Json)', /attn::Json|attn::\(anonymous namespace\)::(Parser|dump_|null_json|newline|lower_bound_key)/],
  ['app (views, platform, model)', /(^|[ <(])app::|platform_gl|platform_fonts|^main$|^main::|^attn_|^\(anonymous namespace\)::|^eglGetProcAddress$/],
  ['engine', /(^|[ <(])attn::/],
  ['ImGui', /ImGui|(^|[ <(*])Im[A-Z]\w*|stb|^Path[A-Z]|^InputText|^STB_TEXTEDIT|^GetDefault|^Decode85|^Nav[A-Z]|^Table[A-Z]|^Find[A-Z]|^Calc[A-Z]/],
  ['SDL', /^SDL|^Emscripten|^_SDL|^dollar|^Map1to1|^Blit|^Guess|^GetScaledMouseDelta|^cmpmodes/],
  ['libc / libc++', /^(void |bool |int |unsigned int |unsigned long |char const\* |decltype\(.*?\) )?std::|^__|^_|^(emmalloc|dlmalloc|fmt_|printf_core|pop_arg|strto|sn_write|wctomb|str|mem|qsort|sift|trinkle|cycle|shl|shr|pntz|claim_more_memory|attempt_allocate|scanexp|fflush|fwrite|v?s?n?printf|v?s?scanf|vfscanf|out|pad|getint|abort|sbrk|malloc|free|realloc|calloc|operator)|^(a?(sin|cos|tan)h?|exp2?|log(2|10)?|pow|sqrt|floor|ceil|round|trunc|fabs|atan2|hypot|cbrt|expm1|log1p|copysign|frexp|fmod|scalbn|ldexp)[fl]?(\(|$)/],
];
const names = opt('--names', '');
if (names && existsSync(names)) {
  const bytes = readFileSync(names);
  const { at } = wasmSections(bytes);
  let p = 0;
  const leb = () => { let r = 0, s = 0, b; do { b = bytes[p++]; r += (b & 0x7f) * 2 ** s; s += 7; } while (b & 0x80); return r; };
  // imported functions come first in the function index space
  let imports = 0;
  if (at.import) { p = at.import.start; const n = leb();
    for (let i = 0; i < n; i++) { { const a = leb(); p += a; } { const b2 = leb(); p += b2; } const kind = bytes[p++];
      if (kind === 0) { leb(); imports++; } else if (kind === 1) { p++; const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); } else if (kind === 3) { p += 2; } } }
  const fnName = new Map();
  if (at['custom:name']) { p = at['custom:name'].start; const nl = leb(); p += nl;
    while (p < at['custom:name'].end) { const id = bytes[p++]; const size = leb(); const end = p + size;
      if (id === 1) { const n = leb(); for (let i = 0; i < n; i++) { const idx = leb(); const l = leb(); fnName.set(idx, bytes.subarray(p, p + l).toString()); p += l; } }
      p = end; } }
  const chunks = {};
  p = at.code.start; const count = leb();
  for (let i = 0; i < count; i++) {
    const size = leb(); const body = bytes.subarray(p, p + size); p += size;
    const name = fnName.get(imports + i) || '';
    const origin = (ORIGINS.find(([, re]) => re.test(name)) || ['other (unnamed or unmatched)'])[0];
    (chunks[origin] ||= []).push(body);
  }
  const origins = {};
  for (const [k, list] of Object.entries(chunks)) { const b = Buffer.concat(list); origins[k] = { raw: b.length, gzip: gz(b), functions: list.length }; }
  const data = at.data ? bytes.subarray(at.data.start, at.data.end) : Buffer.alloc(0);
  const scen = Object.values(result.embedded).reduce((a, e) => ({ raw: a.raw + e.raw, gzip: a.gzip + e.gzip }), { raw: 0, gzip: 0 });
  origins['scenarios + canvas text (data)'] = scen;
  origins['other data (strings, tables)'] = { raw: Math.max(0, data.length - scen.raw), gzip: Math.max(0, gz(data) - scen.gzip) };
  const glue = describe('app.js');
  if (glue) origins['JS glue (app.js)'] = { raw: glue.raw, gzip: glue.gzip };
  result.origins = origins;
}
console.log(JSON.stringify(result));
