// Turns the parts scripts/bench measured (bench-results/*.part.json) into one table:
// bench-results/latest.json (everything) and bench-results/latest.md (printed too).
//   node scripts/bench-report.mjs bench-results
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const out = process.argv[2] || 'bench-results';
const part = (name) => { const f = join(out, `${name}.part.json`); return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : null; };
const machine = part('machine'), native = part('native'), engine = part('engine'),
      weight = part('weight'), browser = part('browser');
const FRAME_BUDGET_MS = 1000 / 60;

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

// ---- issue 12's targets, each beside its comparison from this run
const fc = browser?.frame_cost, own = fc?.renderers?.own, gl3 = fc?.renderers?.imgui_gl3;
const hm = (set, n) => set?.heatmap?.find((r) => r.tokens === n);
const st = browser?.startup || {};
const verdict = (x, limit) => (x == null ? 'n/a' : x <= limit ? 'met' : '**not met**');
say();
say('## Targets (issue 12)');
say();
say('| what | measured | target | | comparison (same run) |');
say('|---|---:|---:|---|---|');
if (weight || browser) {
  const bc = browser?.before_canvas, idx = weight?.pages['index.html'];
  const before = bc ? bc.gzip : idx?.total.gzip;
  say(`| index.html transferred before the reader nears the canvas (gzip) | ${kb(before)} KB | ≤ 40 KB | ${verdict(before / 1024, 40)} | ` +
      `${bc ? `${bc.files.length} files, app files fetched: ${bc.app_files_before.length ? bc.app_files_before.join(', ') : 'none'}; after scrolling to the stage: +${kb(bc.after_gzip)} KB (${bc.after_scroll.join(', ')}), canvas ${bc.state_after}` : 'static count (browser part did not run)'} |`);
  const h = weight?.canvas.http, f = weight?.canvas.file, hs = weight?.canvas.http_scalar, fs = weight?.canvas.file_scalar;
  say(`| the canvas over HTTP: JS + wasm (gzip / brotli), SIMD build | ${kb(h?.gzip)} / ${kb(h?.br)} KB | ≤ 280 / ≤ 240 KB | ${h ? (h.gzip / 1024 <= 280 && h.br / 1024 <= 240 ? 'met' : '**not met**') : 'n/a'} | ` +
      `${h ? Object.entries(h.parts).map(([k, v]) => `${k} ${kb(v.gzip)} / ${kb(v.br)}`).join(', ') : ''}; scalar build ${kb(hs?.gzip)} / ${kb(hs?.br)} KB; from file:// ${kb(f?.gzip)} KB gzip |`);
  say(`| the canvas from file:// (gzip), SIMD build | ${kb(f?.gzip)} KB | ≤ 380 KB | ${verdict(f && f.gzip / 1024, 380)} | ${f ? Object.entries(f.parts).map(([k, v]) => `${k} ${kb(v.gzip)}`).join(', ') : ''}; scalar build ${kb(fs?.gzip)} KB; over HTTP ${kb(h?.gzip)} KB |`);
}
if (own) {
  const h128 = hm(own, 128), h16 = hm(own, 16), g128 = hm(gl3, 128);
  const bb = fc.back_to_back, share = fc.raster_cpu_share, cores = (x) => (x == null ? '–' : `${x.toFixed(2)} cores`);
  const range = (r) => (r?.p95_range_ms ? `${ms(r.p95_range_ms[0])}–${ms(r.p95_range_ms[1])}` : '–');
  say(`| ImGui CPU time per frame, 128 tokens, 4 heads, heatmap shown (p95) | ${ms(h128?.p95_ms)} ms | ≤ 2 ms | ${verdict(h128?.p95_ms, 2)} | frames paced one per animation frame, as the app draws; p95 of each pass ${range(h128)} ms; the same frames back to back in one call: ${ms(bb?.heatmap?.p95_ms)} ms (p50 ${ms(bb?.heatmap?.p50_ms)}, p95 of each pass ${range(bb?.heatmap)} ms); SwiftShader's worker threads took ${cores(share?.paced)} of the 2 paced, ${cores(share?.back_to_back)} back to back; 16 tokens ${ms(h16?.p95_ms)} ms |`);
  say(`| whole frame while dragging a number in the Vectors view, SwiftShader, 1280x900 (p95) | ${ms(own.drag?.whole_p95_ms)} ms | ≤ 16.7 ms | ${verdict(own.drag?.whole_p95_ms, 16.7)} | with ImGui's OpenGL3 backend (state backup each frame) ${ms(gl3?.drag?.whole_p95_ms)} ms; 360 px phone at DPR 3: ${ms(browser.phone?.renderers?.own?.drag?.whole_p95_ms)} ms |`);
  say(`| whole frame, heatmap at 128 tokens x 4 heads, SwiftShader (p50) | ${ms(h128?.whole_p50_ms)} ms | ≤ 8 ms | ${verdict(h128?.whole_p50_ms, 8)} | ImGui's OpenGL3 backend ${ms(g128?.whole_p50_ms)} ms; 16 tokens ${ms(h16?.whole_p50_ms)} ms |`);
}
if (browser) {
  const i = st['index.html#stage'], e = st['embed.html'], f = st['file:// index.html#stage'], b = st.blank;
  say(`| first canvas frame after the app starts loading, SwiftShader (median) | ${ms(i?.first_frame_from_load_ms)} ms | ≤ 400 ms | ${verdict(i?.first_frame_from_load_ms, 400)} | blank page: load event ${ms(b?.load_ms)} ms from navigation; index.html#stage first frame ${ms(i?.first_frame_ms)} ms from navigation; embed.html ${ms(e?.first_frame_from_load_ms)} ms; file:// ${ms(f?.first_frame_from_load_ms)} ms (from load start); ` +
      `index.html#stage with every wasm function compiled before it runs: ${ms(browser.startup_eager?.['index.html#stage']?.first_frame_from_load_ms)} ms |`);
}
say();
say('Frame times come from the bench build (the product plus the attn_bench_* hooks, never in dist/): "ImGui CPU" is ImGui\'s new frame to Render(); "whole frame" is the whole frame() call plus glFinish, so SwiftShader\'s rasterisation is inside it. The page is scrolled to the top of the stage, as a reader arriving there sees it. Frames are paced one per animation frame, as the app draws (the page calls attn_bench_step from requestAnimationFrame while the app\'s own loop pauses), after a discarded back-to-back warm-up, so that V8 has compiled the hot wasm functions with its optimising tier first. The ImGui row\'s comparison gives the same frames drawn back to back in one call, as runs before 2026-12-07 measured them, and the share of the 2 cores that SwiftShader\'s worker threads (the GPU process\'s "Thread<NN>") took in each, from /proc.');

// ---- frame cost growth with N
if (own) {
  say();
  say(`## Frame cost with N: Whole sentence view, 4 heads, ${browser.frames} frames at 1280 x 900, one per animation frame, median of ${fc.passes} interleaved passes (ms)`);
  say();
  say('| tokens | ImGui CPU p50 / p95 | whole p50 / p95 | growth from the previous N (whole p50) | ImGui OpenGL3 backend: whole p50 / p95 | own ÷ backend (whole p50) |');
  say('|---:|---:|---:|---:|---:|---:|');
  own.heatmap.forEach((r, k) => {
    if (r.error || r.ok === false) { say(`| ${r.tokens} | error: ${r.error} | | | | |`); return; }
    const prev = k ? own.heatmap[k - 1] : null, g = hm(gl3, r.tokens);
    say(`| ${r.tokens} | ${ms(r.p50_ms)} / ${ms(r.p95_ms)} | ${ms(r.whole_p50_ms)} / ${ms(r.whole_p95_ms)} | ${prev ? ratio(r.whole_p50_ms, prev.whole_p50_ms) : '–'} | ${g ? `${ms(g.whole_p50_ms)} / ${ms(g.whole_p95_ms)}` : '–'} | ${g ? ratio(r.whole_p50_ms, g.whole_p50_ms) : '–'} |`);
  });
  const d = own.drag, dg = gl3?.drag, ph = browser.phone?.renderers?.own;
  say(`| drag (Vectors) | ${ms(d?.p50_ms)} / ${ms(d?.p95_ms)} | ${ms(d?.whole_p50_ms)} / ${ms(d?.whole_p95_ms)} | – | ${dg ? `${ms(dg.whole_p50_ms)} / ${ms(dg.whole_p95_ms)}` : '–'} | ${dg ? ratio(d.whole_p50_ms, dg.whole_p50_ms) : '–'} |`);
  if (ph) {
    const p128 = hm(ph, 128);
    say();
    say(`Phone, 360 x 800 CSS px at DPR 3: drag ${ms(ph.drag?.whole_p50_ms)} / ${ms(ph.drag?.whole_p95_ms)} ms whole (p50 / p95), heatmap at 128 tokens ${ms(p128?.whole_p50_ms)} / ${ms(p128?.whole_p95_ms)} ms; drawing buffer ${browser.phone.canvas?.width} x ${browser.phone.canvas?.height} device px (limit 4096 on either side).`);
  }
  const mv = fc.model;
  say();
  say(mv && mv.ok !== false && !mv.missing
    ? `Trained model's view (a text of 110 tokens; each frame a new focus row, every eighth another head), 1280 x 900: ImGui CPU ${ms(mv.p50_ms)} / ${ms(mv.p95_ms)} ms (p50 / p95, max ${ms(mv.max_ms)}), whole frame ${ms(mv.whole_p50_ms)} / ${ms(mv.whole_p95_ms)} ms; the budget of one 60 fps frame is ${FRAME_BUDGET_MS.toFixed(1)} ms.`
    : `Trained model's view: n/a (${mv?.missing || mv?.error || 'not measured'})`);
  say(`Desktop drawing buffer: ${fc.canvas?.width} x ${fc.canvas?.height} device px (the canvas is one viewport tall and sticks while the page scrolls through the stage).`);
} else if (fc?.missing) { say(); say(`Frame cost: n/a (${fc.missing})`); }

// ---- weight
say();
say('## Weight: raw / gzip -9 / brotli (KB = 1024 B; the .gz and .br files the build writes into dist/)');
say();
if (!weight) say('n/a (weight did not run)');
else {
  say('| what | files | raw | gzip | brotli |');
  say('|---|---|---:|---:|---:|');
  for (const [page, p] of Object.entries(weight.pages))
    say(`| ${page}${page === "index.html" ? ", before the reader nears the canvas" : ", without the canvas (it loads at once)"} | ${p.files.length} (${Object.entries(p.by_kind).map(([k, v]) => `${k} ${kb(v.gzip)}`).join(', ')}) | ${kb(p.total.raw)} | ${kb(p.total.gzip)} | ${kb(p.total.br)} |`);
  for (const [k, c] of Object.entries({ 'the canvas over HTTP(S), SIMD build': weight.canvas.http, 'the canvas from file://, SIMD build': weight.canvas.file,
    'the canvas over HTTP(S), scalar build': weight.canvas.http_scalar, 'the canvas from file://, scalar build': weight.canvas.file_scalar }))
    if (c) say(`| ${k} | ${c.files.join(' + ')}${c.missing.length ? ` (missing: ${c.missing.join(', ')})` : ''} | ${kb(c.raw)} | ${kb(c.gzip)} | ${kb(c.br)} |`);
  const ext = Object.values(weight.pages).flatMap((p) => p.external);
  if (ext.length) say(`**External references (the page must make none):** ${ext.join(', ')}`);
  if (weight.canvas.wasm_sections) say(`\napp.simd.wasm sections: ${Object.entries(weight.canvas.wasm_sections).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${kb(v)} KB`).join(', ')}.`);
  if (weight.origins) {
    const o = Object.entries(weight.origins).sort((a, b) => b[1].gzip - a[1].gzip);
    const tg = o.reduce((a, [, v]) => a + v.gzip, 0);
    say();
    say('### Where the canvas\'s bytes go, by origin (code from a build with function names; each origin gzipped alone)');
    say();
    say('| origin | raw KB | gzip KB | share of gzip | functions |');
    say('|---|---:|---:|---:|---:|');
    for (const [k, v] of o) say(`| ${k} | ${kb(v.raw)} | ${kb(v.gzip)} | ${((v.gzip / tg) * 100).toFixed(0)}% | ${v.functions ?? '–'} |`);
  }
}

// ---- start-up
say();
say(`## Start-up: headless Chromium, SwiftShader WebGL2, fresh context per load, median of ${browser?.reps ?? '?'} (ms)`);
say();
if (!browser) say('n/a (browser part did not run)');
else {
  const b = browser.startup.blank;
  say('| page | DOMContentLoaded | text interactive | first canvas frame from navigation | from the loader\'s start | the first frame\'s CPU | DCL vs blank | first frame vs blank load |');
  say('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [page, s] of Object.entries(browser.startup)) {
    const ff = s.first_frame_ms != null ? ms(s.first_frame_ms) : page === 'blank' ? '–' : `n/a (app: ${[...new Set(s.first_frame_missing)].join(', ')})`;
    say(`| ${page === 'blank' ? 'blank page (comparison)' : page} | ${ms(s.dcl_ms)} | ${ms(s.interactive_ms)}${s.quiz_enhanced ? ' (quiz ready)' : ''} | ${ff} | ${ms(s.first_frame_from_load_ms)} | ${page === 'blank' ? '–' : ms(s.first_frame_cpu_ms)} | ` +
        `${ratio(s.dcl_ms, b.dcl_ms)} | ${page === 'blank' ? '–' : ratio(s.first_frame_ms, b.load_ms)} |`);
  }
  say();
  say('"text interactive": every DOMContentLoaded handler has run (quiz radios enhanced on index.html). index.html#stage: the URL targets the stage, so the app loads at once; without it the app loads when the reader nears the stage.');
  const eager = Object.entries(browser.startup_eager || {}).filter(([k]) => k !== 'flag');
  if (eager.length) {
    say();
    say(`Chromium compiles each wasm function the first time it runs (lazy compilation). The same loads, interleaved with the ones above, in a Chromium started with \`${browser.startup_eager.flag}\` (the whole module compiled before it runs; a page cannot ask for this):`);
    say();
    say('| page | from the loader\'s start: lazy / eager | the first frame\'s CPU: lazy / eager | eager ÷ lazy (from the loader\'s start) |');
    say('|---|---:|---:|---:|');
    for (const [page, s] of eager) {
      const l = browser.startup[page];
      say(`| ${page} | ${ms(l?.first_frame_from_load_ms)} / ${ms(s.first_frame_from_load_ms)} | ${ms(l?.first_frame_cpu_ms)} / ${ms(s.first_frame_cpu_ms)} | ${ratio(s.first_frame_from_load_ms, l?.first_frame_from_load_ms)} |`);
    }
    say();
    say('"the first frame\'s CPU": from the start of the animation frame callback that draws the first frame to the state it sends the page.');
  }
  const errs = Object.entries(browser.errors).filter(([, e]) => e.length);
  if (errs.length) say(`Page errors: ${errs.map(([p, e]) => `${p}: ${e.join('; ')}`).join(' | ')}`);
}

const md = lines.join('\n') + '\n';
writeFileSync(join(out, 'latest.md'), md);
writeFileSync(join(out, 'latest.json'), JSON.stringify({ machine, native, engine, weight, browser }, null, 1) + '\n');
process.stdout.write(md);
