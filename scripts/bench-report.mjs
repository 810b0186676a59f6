// Turns the parts scripts/bench measured (bench-results/*.part.json) into one table:
// bench-results/latest.json (everything) and bench-results/latest.md (printed too).
//   node scripts/bench-report.mjs bench-results
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const out = process.argv[2] || 'bench-results';
const part = (name) => { const f = join(out, `${name}.part.json`); return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : null; };
const machine = part('machine'), native = part('native'), engine = part('engine'),
      weight = part('weight'), browser = part('browser');
const BUDGET_KB = 600, AIM_KB = 300, FRAME_BUDGET_MS = 1000 / 60;

const ms = (x) => (x == null ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const ratio = (a, b) => (a == null || b == null || !b ? '–' : `${(a / b).toFixed(2)}×`);
const kb = (bytes) => (bytes == null ? '–' : (bytes / 1024).toFixed(1));
const lines = [];
const say = (s = '') => lines.push(s);

// ---- machine
say(`# Benchmark, ${machine.date}`);
say();
say(`Machine: ${machine.nproc} cores, ${machine.cpu}; ${machine.os}. Node ${machine.node}, ` +
    `${browser ? `Chromium ${browser.chromium}, ` : ''}${machine.cxx}, ${machine.emcc}. Commit ${machine.commit}.`);
say('Times are medians; each comes with its comparison measured in the same run (read the ratios: the machine is shared and noisy).');

// ---- engine speed
const natMs = {};  // N -> ms (median of repetitions), or error
for (const b of native?.benchmarks || []) {
  const n = parseInt((b.run_name || b.name).split('/')[1], 10);
  const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 }[b.time_unit || 'ns'];
  if (b.error_occurred) natMs[n] = { error: b.error_message };
  else if (b.aggregate_name === 'median') natMs[n] = { ms: b.real_time * toMs, reps: b.repetitions };
}
const rows = engine?.rows || [];
const col = (r, k) => (k === 'native' ? natMs[r.n]?.ms ?? null : r[`${k}_ms`]);
const cols = ['native', 'wasm_scalar', 'wasm_simd', 'js'];
const growth = (i, k) => {
  if (i === 0) return null;
  const a = col(rows[i - 1], k), b = col(rows[i], k);
  return a && b ? b / a : null;
};
const fit = (k) => {  // least-squares slope of ln t on ln N over the 3 largest N measured
  const pts = rows.filter((r) => col(r, k)).slice(-3).map((r) => [Math.log(r.n), Math.log(col(r, k))]);
  if (pts.length < 2) return null;
  const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length, my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
  const sxy = pts.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0), sxx = pts.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  return { k: sxy / sxx, from: Math.exp(pts[0][0]), to: Math.exp(pts[pts.length - 1][0]) };
};
say();
say(`## Engine speed: \`attn::self_attention\`, d_model ${engine?.d_model ?? 64}, ${engine?.heads ?? 4} heads (ms per forward pass)`);
say();
if (!engine) say('n/a (engine benchmark did not run)');
else {
  say('| N | native | wasm scalar | wasm SIMD | plain JS | JS ÷ wasm SIMD | JS ÷ wasm scalar | scalar ÷ SIMD | wasm SIMD ÷ native | growth from N/2: native, wasm SIMD, JS |');
  say('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  rows.forEach((r, i) => {
    const g = ['native', 'wasm_simd', 'js'].map((k) => { const x = growth(i, k); return x ? `${x.toFixed(2)}× (k ${Math.log2(x).toFixed(2)})` : '–'; });
    const nat = natMs[r.n]?.error ? 'refused' : ms(col(r, 'native'));
    const w = (k) => (r.engine_error ? 'refused' : ms(col(r, k)));
    say(`| ${r.n} | ${nat} | ${w('wasm_scalar')} | ${w('wasm_simd')} | ${ms(r.js_ms)} | ${ratio(r.js_ms, r.wasm_simd_ms)} | ${ratio(r.js_ms, r.wasm_scalar_ms)} | ` +
        `${ratio(r.wasm_scalar_ms, r.wasm_simd_ms)} | ${ratio(r.wasm_simd_ms, col(r, 'native'))} | ${g.join(', ')} |`);
  });
  say();
  const fits = cols.map((k) => [k, fit(k)]).filter(([, f]) => f);
  say(`Fitted exponent k in t ∝ N^k (3 largest N measured): ${fits.map(([k, f]) => `${k.replace('_', ' ').replace('simd', 'SIMD')} ${f.k.toFixed(2)} (N ${f.from.toFixed(0)}–${f.to.toFixed(0)})`).join('; ')}. ` +
      'Expected ≈ 2 at large N, where the N² d_k score and mixing terms dominate the N d² projections.');
  const refused = [...new Set(rows.map((r) => r.engine_error).concat(Object.values(natMs).map((v) => v.error)).filter(Boolean))];
  if (refused.length) say(`Refused by the engine: ${refused.join(' / ')}`);
  const diff = Math.max(...rows.map((r) => r.max_abs_diff ?? 0));
  say(`Check: wasm (scalar and SIMD) and JS outputs agree on the fixed input, max |diff| ${diff.toExponential(1)} (< ${engine.tolerance}) at every N the engine accepts. ` +
      `Samples: ${engine.samples} interleaved per implementation; native: Google Benchmark, median of ${Object.values(natMs).find((v) => v.reps)?.reps ?? '?'} repetitions.`);
}

// ---- weight
say();
say(`## Weight: first load, raw / gzip -9 (KB = 1024 B); budget ${BUDGET_KB} KB gzip, aim ${AIM_KB} KB`);
say();
if (!weight) say('n/a (weight did not run)');
else {
  const kinds = ['HTML', 'CSS', 'JS', 'wasm-in-JS', 'font', 'image'];
  say(`| page | ${kinds.join(' | ')} | total raw | total gzip | vs budget |`);
  say(`|---|${kinds.map(() => '---:').join('|')}|---:|---:|---|`);
  for (const [page, p] of Object.entries(weight.pages)) {
    const inWasm = weight.embedded?.fonts;  // fonts packed into the wasm: shown, not added again
    const cell = (k) => (p.by_kind[k] ? `${kb(p.by_kind[k].raw)} / ${kb(p.by_kind[k].gzip)}`
      : k === 'font' && inWasm && p.by_kind['wasm-in-JS'] ? `(in wasm: ${kb(inWasm.raw)} / ${kb(inWasm.gzip)})` : '–');
    const g = p.total.gzip / 1024;
    const verdict = g > BUDGET_KB ? `**over by ${(g - BUDGET_KB).toFixed(0)} KB**` : `${((g / BUDGET_KB) * 100).toFixed(0)}% of budget${g > AIM_KB ? `, ${(g - AIM_KB).toFixed(0)} KB over aim` : ', within aim'}`;
    say(`| ${page} | ${kinds.map(cell).join(' | ')} | ${kb(p.total.raw)} | ${kb(p.total.gzip)} | ${verdict}${p.missing.length ? ` (missing: ${p.missing.join(', ')})` : ''} |`);
  }
  const all = Object.values(weight.pages).flatMap((p) => p.files);
  const uniq = [...new Map(all.map((f) => [f.path, f])).values()].sort((a, b) => b.gzip - a.gzip);
  const total = uniq.reduce((a, f) => a + f.gzip, 0);
  say();
  say(`Where the bytes go (gzip, largest first): ${uniq.slice(0, 5).map((f) => `${f.path} ${kb(f.gzip)} KB (${((f.gzip / total) * 100).toFixed(0)}%)`).join(', ')}.`);
  const app = uniq.find((f) => f.parts);
  if (app) {
    const s = app.parts.wasm_sections, wb = app.parts.wasm_binary.raw;
    say(`${app.path}: JS glue ${kb(app.parts.glue.raw)} / ${kb(app.parts.glue.gzip)} KB, wasm ${kb(wb)} KB binary as ${kb(app.parts.wasm_in_js.raw)} KB base64 (${kb(app.parts.wasm_in_js.gzip)} KB gzip; the binary alone would gzip to ${kb(app.parts.wasm_binary.gzip)} KB). ` +
        `Wasm sections: ${Object.entries(s).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${kb(v)} KB`).join(', ')}.` +
        (Object.keys(weight.embedded || {}).length ? ` Packed into the data section (--embed-file): ${Object.entries(weight.embedded).map(([k, e]) => `${k} ${kb(e.raw)} KB raw / ${kb(e.gzip)} KB gzip (${e.files} files)`).join(', ')}.` : ''));
  }
  const ext = Object.values(weight.pages).flatMap((p) => p.external);
  if (ext.length) say(`**External references (the page must make none):** ${ext.join(', ')}`);
  if (browser) {  // cross-check: what Chromium actually requested
    for (const [page, p] of Object.entries(weight.pages)) {
      const got = (browser.requests[page] || []).map((u) => new URL(u).pathname.replace(/^\//, '')).sort();
      const want = p.files.map((f) => f.path).concat(p.missing).sort();
      const extra = got.filter((x) => !want.includes(x)), lacking = want.filter((x) => !got.includes(x));
      say(`${page}: Chromium requested ${got.length} files` + (extra.length || lacking.length
        ? `; not in this count: ${extra.join(', ') || 'none'}; counted but not requested: ${lacking.join(', ') || 'none'}.` : ', the same as counted here.'));
    }
  }
}

// ---- start-up
say();
say(`## Start-up: headless Chromium, SwiftShader WebGL2, fresh context per load, median of ${browser?.reps ?? '?'} (ms from navigation)`);
say();
if (!browser) say('n/a (browser part did not run)');
else {
  const b = browser.startup.blank;
  say('| page | DOMContentLoaded | text interactive | first ImGui frame | DCL vs blank | interactive vs blank | first frame vs blank |');
  say('|---|---:|---:|---:|---:|---:|---:|');
  for (const [page, s] of Object.entries(browser.startup)) {
    const ff = s.first_frame_ms != null ? ms(s.first_frame_ms) : page === 'blank' ? '–' : `n/a (app: ${[...new Set(s.first_frame_missing)].join(', ')})`;
    say(`| ${page === 'blank' ? 'blank page (comparison)' : page} | ${ms(s.dcl_ms)} | ${ms(s.interactive_ms)}${s.quiz_enhanced ? ' (quiz ready)' : ''} | ${ff} | ` +
        `${ratio(s.dcl_ms, b.dcl_ms)} | ${ratio(s.interactive_ms, b.interactive_ms)} | ${page === 'blank' ? '–' : ratio(s.first_frame_ms, b.load_ms)} |`);
  }
  say();
  say('"text interactive": every DOMContentLoaded handler has run (quiz radios enhanced on index.html). "first frame vs blank" compares with the blank page\'s load event.');
  const errs = Object.entries(browser.errors).filter(([, e]) => e.length);
  if (errs.length) say(`Page errors: ${errs.map(([p, e]) => `${p}: ${e.join('; ')}`).join(' | ')}`);
}

// ---- frame cost
say();
say(`## Frame cost: one ImGui frame (new frame to render), heatmap shown, ${browser?.frames ?? '?'} frames, vs the ${FRAME_BUDGET_MS.toFixed(1)} ms budget of 60 fps`);
say();
say('| tokens | mean ms | p50 ms | p95 ms | max ms | p95 ÷ budget | mean vs 3 tokens | whole frame p50 / p95 ms (GL submission included) |');
say('|---:|---:|---:|---:|---:|---:|---:|---:|');
const fc = browser?.frame_cost;
if (!fc) say('| 3, 16, 64, 128 | n/a (browser part did not run) | | | | | |');
else if (fc.missing) say(`| 3, 16, 64, 128 | n/a (${fc.missing}) | | | | | |`);
else {
  const base = fc.rows.find((r) => r.tokens === 3)?.mean_ms;
  for (const r of fc.rows) {
    if (r.error) { say(`| ${r.tokens} | error: ${r.error} | | | | | |`); continue; }
    say(`| ${r.tokens} | ${ms(r.mean_ms)} | ${ms(r.p50_ms)} | ${ms(r.p95_ms)} | ${ms(r.max_ms)} | ${ratio(r.p95_ms, FRAME_BUDGET_MS)} | ${ratio(r.mean_ms, base)} | ${r.whole_p50_ms === undefined ? 'n/a' : `${ms(r.whole_p50_ms)} / ${ms(r.whole_p95_ms)}`} |`);
  }
  say();
  say('"whole frame" is the whole frame() call, drawing on SwiftShader (software WebGL2) included: it measures this machine\'s CPU rasteriser more than the app.');
}

const md = lines.join('\n') + '\n';
writeFileSync(join(out, 'latest.md'), md);
writeFileSync(join(out, 'latest.json'), JSON.stringify({ machine, native, engine, weight, browser }, null, 1) + '\n');
process.stdout.write(md);
