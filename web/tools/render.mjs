#!/usr/bin/env node
// Builds the static page: runs the engine CLI for each fixed scenario of assets/scenarios/index.json, fills
// the content's {{placeholders}} with its numbers, and writes dist/index.html + dist/embed.html
// with the CSS/JS (and, when given, the app: app.js, its app.wasm, and app.wasm.js, the same wasm
// base64 in a script for pages opened from file://; and from the --app file's SIMD twin beside it,
// X_simd.js, the same three as app.simd.*). Node 20 built-ins only. Fails loudly.
// The work is done by the modules in render/: args, engine, placeholders, inline, diagram,
// sections, pages, build.
//
//   node web/tools/render.mjs --cli build/native/src/cli/attention_cli --scenarios assets/scenarios \
//        --content assets/content/attention-score [--app build/wasm/src/app/attention_app.js] --out dist
//        [--milestone ../milestones/3.html]   (the site's milestone page; no link without it)
//        [--model assets/model --model-text assets/app/model.json]   (the trained model: dist/model/)
import path from 'node:path';
import { BuildError } from './render/errors.mjs';
import { parseArgs } from './render/args.mjs';
import { build } from './render/build.mjs';

try {
  const o = parseArgs(process.argv.slice(2));
  const out = build(o);
  console.log(`render: wrote ${path.relative(process.cwd(), out) || out}/index.html, embed.html${o.app ? ', app.js, app.wasm, app.wasm.js and their SIMD twins app.simd.*' : ' (no app.js)'}`);
} catch (e) {
  console.error(`render: ERROR: ${e instanceof BuildError ? e.message : e.stack}`);
  process.exit(1);
}
