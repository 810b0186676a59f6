// bench_input.h - the fixed benchmark input: X (n x d_model) and the projections of h heads.
// Numbers come from a 32-bit LCG as k/1000 (X) and k/8000 (weights), k in -1000..1000, so the
// JavaScript reference (attention_reference.mjs, makeBenchInput) builds bit-identical doubles.
#pragma once

#include <cstdint>

#include "attention.h"

struct BenchInput {
    attn::Matrix x;
    attn::Projections p;
};

// state = state * 1664525 + 1013904223 (mod 2^32); k = (state >> 8) % 2001 - 1000
inline int bench_next(std::uint32_t& state) {
    state = state * 1664525u + 1013904223u;
    return static_cast<int>((state >> 8) % 2001u) - 1000;
}

inline attn::Matrix bench_matrix(int rows, int cols, double divisor, std::uint32_t& state) {
    attn::Matrix m = attn::zeros(rows, cols);
    for (double& v : m.data) v = bench_next(state) / divisor;
    return m;
}

// Fill order: X, then per head Wq, Wk, Wv, then Wo (all row-major).
inline BenchInput make_bench_input(int n, int d_model, int heads, std::uint32_t seed = 12345u) {
    std::uint32_t state = seed;
    const int d_k = d_model / heads;
    BenchInput in;
    in.x = bench_matrix(n, d_model, 1000.0, state);
    for (int h = 0; h < heads; h++) {
        attn::HeadProjection w;
        w.wq = bench_matrix(d_model, d_k, 8000.0, state);
        w.wk = bench_matrix(d_model, d_k, 8000.0, state);
        w.wv = bench_matrix(d_model, d_k, 8000.0, state);
        in.p.heads.push_back(w);
    }
    in.p.wo = bench_matrix(heads * d_k, d_model, 8000.0, state);
    return in;
}

constexpr int kBenchDModel = 64;
constexpr int kBenchHeads = 4;
