// Command-line options of render.mjs: --name value pairs, the required ones checked.
import { fail } from './errors.mjs';

// --milestone <href>: where the "Back to the milestone" link leads (the hosting site sets it; without
// it, and without milestone.href in entry.json, the page shows no such link).
// --model <dir> --model-text <file>: the trained model's weights, report and card (assets/model)
// and the model view's examples (assets/app/model.json); without them the page has no model.
export const OPTIONS = ['cli', 'scenarios', 'content', 'app', 'out', 'milestone', 'model', 'model-text'];
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
  if (!!opts.model !== !!opts['model-text']) fail('--model and --model-text go together');
  return opts;
}
