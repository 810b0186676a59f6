// bench_model.cpp - speed of the project's transformer, for scripts/bench-model: the forward pass
// of 128 tokens on the shipped weights (with every position's predictions, as evaluation needs,
// and the app's: without them, then one row's next tokens), and training tokens per second
// (forward + backward + AdamW, batch 8 x 128). Prints one JSON line. Built three ways by CMake:
// native, native with ATTN_PLAIN_LOOPS (textbook loop orders, the comparison) and wasm (run under
// Node). Usage: model_bench <weights file>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "model.h"
#include "trainer.h"

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: model_bench <weights file>\n");
        return 2;
    }
    attn::Result<attn::Model> loaded = attn::load_model(argv[1]);
    if (!loaded.ok()) {
        std::fprintf(stderr, "model_bench: %s\n", loaded.error().message.c_str());
        return 2;
    }
    attn::Model& m = loaded.value();
    const attn::ModelConfig& c = m.config;
    std::vector<int> ids(static_cast<std::size_t>(c.context) * 64);
    std::uint64_t s = 7;
    for (int& id : ids) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        id = static_cast<int>((s >> 33) % static_cast<std::uint64_t>(c.vocab));
    }
    // forward: median of 25 passes over 128 tokens
    attn::Activations<float> a;
    std::vector<double> times;
    for (int r = 0; r < 26; r++) {
        const double t0 = now();
        attn::model_forward<float>(c,
                                   attn::view_params(c, static_cast<const float*>(m.params.data())),
                                   ids.data(), nullptr, c.context, a);
        if (r > 0) times.push_back(now() - t0);  // the first pass warms caches and allocations
    }
    std::sort(times.begin(), times.end());
    const double forward_ms = times[times.size() / 2] * 1e3;
    // the app's pass: no predictions at every position, then one row's (the focus's) next tokens
    attn::ForwardOptions lean;
    lean.predictions = false;
    std::vector<double> view_times;
    for (int r = 0; r < 26; r++) {
        const double t0 = now();
        const auto p = attn::view_params(c, static_cast<const float*>(m.params.data()));
        attn::model_forward<float>(c, p, ids.data(), nullptr, c.context, a, lean);
        const std::vector<float> next = attn::next_token_probs(c, p, a, c.context - 1);
        if (r > 0) view_times.push_back(now() - t0);
        if (next.empty()) return 2;
    }
    std::sort(view_times.begin(), view_times.end());
    const double view_ms = view_times[view_times.size() / 2] * 1e3;
    // training: 6 steps of the real loop (batch 8, corpus windows only)
    attn::TrainOptions o;
    o.steps = 6;
    o.synthetic_fraction = 0;
    o.eval_every = 1000000;
    attn::Model t = m;
    const attn::TrainCurve curve = attn::train_model(t, ids, ids, o);
    std::printf(
        "{\"forward_128_ms\": %.4f, \"forward_128_view_ms\": %.4f, "
        "\"train_tokens_per_s\": %.1f}\n",
        forward_ms, view_ms, static_cast<double>(curve.tokens) / curve.seconds);
    return 0;
}
