// Engine speed in one Node process: the wasm engine (scalar and SIMD builds) against the plain
// JavaScript reference (tests/bench/attention_reference.mjs), same input, samples interleaved.
// First checks that every implementation gives the same output (max abs diff < 1e-9).
//   node --no-experimental-fetch scripts/bench-engine.mjs --scalar A.js --simd B.js [--ns 16,32]
// Prints JSON: {rows: [{n, wasm_scalar_ms, wasm_simd_ms, js_ms, max_abs_diff, engine_error}]}
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { makeBenchInput, selfAttention } from '../tests/bench/attention_reference.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ns = opt('--ns', '16,32,64,128,256,512,1024').split(',').map(Number);
const SAMPLE_MS = Number(opt('--sample-ms', 150)), SAMPLES = Number(opt('--samples', 5));
const TOLERANCE = 1e-9;
const D_MODEL = 64, HEADS = 4;
const fail = (msg) => { console.error(`error: ${msg}`); process.exit(1); };

const require = createRequire(import.meta.url);
async function load(path) {
  const mod = await require(resolve(path))({ print() {}, printErr() {} });
  return {
    simd: mod._bench_simd(),
    time: (n, reps) => mod._bench_self_attention(n, reps),  // ms per run, -1 if refused
    output: (n) => {
      const count = mod._bench_run_once(n);
      if (count < 0) return null;
      const out = new Float64Array(count);
      for (let i = 0; i < count; i++) out[i] = mod._bench_output_at(i);
      return out;
    },
    error: () => mod.UTF8ToString ? mod.UTF8ToString(mod._bench_last_error())
                                  : mod.ccall('bench_last_error', 'string', [], []),
  };
}
const builds = { scalar: await load(opt('--scalar', 'build/bench-wasm/attention_bench_wasm.js')),
                 simd: await load(opt('--simd', 'build/bench-wasm-simd/attention_bench_wasm.js')) };
if (builds.scalar.simd !== 0) fail('the scalar module was compiled with -msimd128');
if (builds.simd.simd !== 1) fail('the SIMD module was not compiled with -msimd128');

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
function timeJs(input, reps) {
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) sink += selfAttention(input.x, input.p).data[0];
  const t = (performance.now() - t0) / reps;
  if (Number.isNaN(sink)) fail('the JavaScript reference produced NaN');
  return t;
}

const rows = [];
for (const n of ns) {
  const input = makeBenchInput(n, D_MODEL, HEADS);
  const ref = selfAttention(input.x, input.p).data;
  const row = { n, wasm_scalar_ms: null, wasm_simd_ms: null, js_ms: null, max_abs_diff: null,
                engine_error: null };
  // the check: the same numbers from every implementation
  for (const b of Object.values(builds)) {
    const out = b.output(n);
    if (!out) { row.engine_error = b.error(); continue; }
    if (out.length !== ref.length) fail(`N=${n}: wasm gives ${out.length} numbers, JS ${ref.length}`);
    let diff = 0;
    for (let i = 0; i < out.length; i++) diff = Math.max(diff, Math.abs(out[i] - ref[i]));
    if (!(diff < TOLERANCE)) fail(`N=${n}: wasm and JS outputs differ by ${diff} (tolerance ${TOLERANCE})`);
    row.max_abs_diff = Math.max(row.max_abs_diff ?? 0, diff);
  }
  // timers: one warm-up call to size the loop, then SAMPLES interleaved samples of ~SAMPLE_MS each
  const timers = { js: (reps) => timeJs(input, reps) };
  if (!row.engine_error) {
    timers.wasm_scalar = (reps) => builds.scalar.time(n, reps);
    timers.wasm_simd = (reps) => builds.simd.time(n, reps);
  }
  const reps = {}, samples = {};
  for (const [name, t] of Object.entries(timers)) {
    const once = t(1);
    if (once < 0) fail(`N=${n}: the wasm engine refused after the check passed`);
    reps[name] = Math.max(1, Math.round(SAMPLE_MS / Math.max(once, 1e-3)));
    samples[name] = [];
  }
  for (let s = 0; s < SAMPLES; s++)
    for (const [name, t] of Object.entries(timers)) samples[name].push(t(reps[name]));
  for (const name of Object.keys(timers)) row[`${name}_ms`] = median(samples[name]);
  rows.push(row);
  console.error(`    N=${n}: ${Object.keys(timers).map((k) => `${k} ${row[`${k}_ms`].toFixed(3)} ms`).join(', ')}` +
                (row.engine_error ? ` (engine: ${row.engine_error})` : ''));
}
console.log(JSON.stringify({ d_model: D_MODEL, heads: HEADS, tolerance: TOLERANCE, samples: SAMPLES,
                             node: process.version, rows }));
