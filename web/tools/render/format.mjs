// The page's number formatting (web/js/format.js, a classic script) loaded once for the build, so
// the build and the page print every number the same way.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

export const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function loadFormat() {
  const ctx = {};
  ctx.self = ctx;
  vm.runInNewContext(fs.readFileSync(path.join(WEB, 'js', 'format.js'), 'utf8'), ctx);
  return ctx.AttentionFormat;
}
export const F = loadFormat();
