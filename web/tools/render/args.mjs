// Command-line options of render.mjs: --name value pairs, the required ones checked.
import { fail } from './errors.mjs';

// --milestone <href>: where the "Back to the milestone" link leads (the hosting site sets it; without
// it, and without milestone.href in entry.json, the page shows no such link).
export const OPTIONS = ['cli', 'scenarios', 'content', 'app', 'out', 'milestone'];
export const REQUIRED = ['cli', 'scenarios', 'content', 'out'];

export function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) fail(`unexpected argument "${a}"`);
    const key = a.slice(2);
    if (!OPTIONS.includes(key)) fail(`unknown option ${a}`);
    const v = argv[++i];
    if (v === undefined || v.startsWith('--')) fail(`${a} needs a value`);
    opts[key] = v;
  }
  for (const k of REQUIRED) if (!opts[k]) fail(`missing --${k}`);
  return opts;
}
