// bench_native.cpp - Google Benchmark of the full multi-head self-attention forward pass
// (attn::self_attention) at N = 16..1024 tokens, d_model 64, 4 heads. Run by scripts/bench.
#include <benchmark/benchmark.h>

#include <string>

#include "bench_input.h"

static void SelfAttention(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const BenchInput in = make_bench_input(n, kBenchDModel, kBenchHeads);
    const attn::SequenceOptions options;
    std::string error;  // outlives the loop: SkipWithError keeps the pointer
    for (auto _ : state) {
        attn::Result<attn::SequenceResult> r = attn::self_attention(in.x, in.p, options);
        if (!r.ok()) {
            error = r.error().message;
            state.SkipWithError(error.c_str());
            break;
        }
        benchmark::DoNotOptimize(r.value().output.data.data());
    }
    state.SetComplexityN(n);
}
BENCHMARK(SelfAttention)->RangeMultiplier(2)->Range(16, 1024)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
