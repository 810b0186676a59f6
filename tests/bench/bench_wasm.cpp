// bench_wasm.cpp - the engine's self-attention forward pass as a Node module with its own timing
// loop (emscripten_get_now = performance.now), for scripts/bench-engine.mjs. Same input as
// bench_native.cpp (bench_input.h); the JS reference builds the same numbers to compare results.
#include <emscripten/emscripten.h>

#include <string>

#include "bench_input.h"

namespace {
struct Harness {  // the module's only state: the last output and the last error
    attn::Matrix output;
    std::string error;
};
Harness& harness() {
    static Harness h;
    return h;
}
}  // namespace

extern "C" {

// ms per call of attn::self_attention(n tokens), averaged over reps calls; -1 if the engine
// refuses (message in bench_last_error). The input is built once, outside the timed loop.
EMSCRIPTEN_KEEPALIVE double bench_self_attention(int n, int reps) {
    const BenchInput in = make_bench_input(n, kBenchDModel, kBenchHeads);
    const attn::SequenceOptions options;
    double sink = 0.0;
    const double t0 = emscripten_get_now();
    for (int i = 0; i < reps; i++) {
        attn::Result<attn::SequenceResult> r = attn::self_attention(in.x, in.p, options);
        if (!r.ok()) {
            harness().error = r.error().message;
            return -1.0;
        }
        sink += r.value().output.data[0];
    }
    const double t1 = emscripten_get_now();
    if (sink != sink) return -1.0;  // keeps the result live; never NaN
    return (t1 - t0) / (reps > 0 ? reps : 1);
}

// Runs once and keeps the output (n x d_model); returns its element count, or -1 on error.
EMSCRIPTEN_KEEPALIVE int bench_run_once(int n) {
    const BenchInput in = make_bench_input(n, kBenchDModel, kBenchHeads);
    attn::Result<attn::SequenceResult> r =
        attn::self_attention(in.x, in.p, attn::SequenceOptions{});
    if (!r.ok()) {
        harness().error = r.error().message;
        return -1;
    }
    harness().output = r.value().output;
    return static_cast<int>(harness().output.data.size());
}

// Element i of the kept output (row-major), 0 outside it.
EMSCRIPTEN_KEEPALIVE double bench_output_at(int i) {
    const attn::Matrix& m = harness().output;
    return i >= 0 && static_cast<std::size_t>(i) < m.data.size()
               ? m.data[static_cast<std::size_t>(i)]
               : 0.0;
}

EMSCRIPTEN_KEEPALIVE const char* bench_last_error() { return harness().error.c_str(); }

// 1 if this module was compiled with WebAssembly SIMD (-msimd128).
EMSCRIPTEN_KEEPALIVE int bench_simd() {
#ifdef __wasm_simd128__
    return 1;
#else
    return 0;
#endif
}

}  // extern "C"
