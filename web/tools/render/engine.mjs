// The engine CLI, as the build runs it: `attention_cli scenario <file> --json`, its answer checked.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fail } from './errors.mjs';

export function runScenario(cli, file, id) {
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

export function validateState(j, id) {
  const where = `scenario "${id}"`;
  if (!Array.isArray(j.tokens) || j.tokens.length === 0) fail(`${where}: no tokens`);
  if (!Number.isInteger(j.focus) || j.focus < 0 || j.focus >= j.tokens.length) fail(`${where}: bad focus ${j.focus}`);
  if (!Array.isArray(j.candidates) || j.candidates.length === 0) fail(`${where}: no candidates`);
  if (j.status !== 'ok') fail(`${where}: status is "${j.status}", expected "ok"`);
  for (const c of j.candidates) {
    for (const k of ['score', 'weight']) {
      if (typeof c[k] !== 'number' || !Number.isFinite(c[k])) fail(`${where}: candidate ${c.token}: ${k} is not a finite number`);
    }
    if (typeof c.token !== 'string') fail(`${where}: candidate without token`);
  }
  if (typeof j.weight_sum !== 'number' || Math.abs(j.weight_sum - 1) > 1e-6) fail(`${where}: weight_sum ${j.weight_sum} is not 1`);
  return j;
}
