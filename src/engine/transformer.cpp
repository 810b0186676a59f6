// transformer.cpp - the small decoder-only transformer: every layer step, forward and backward.
// Formulas and shapes are in transformer.h; each backward function sits below its forward twin.
// Loops are written so the compiler can vectorise without reordering a sum (matrix products in
// register tiles, each output summed in input order), so float results are the same natively and
// in wasm up to libm ulps (only the attention's double exp and the initialisation call libm).
// In wasm this file is built with -O3 (src/engine/CMakeLists.txt).
#include "transformer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace attn {

namespace {

Error error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

std::size_t sz(int n) { return static_cast<std::size_t>(n); }

// sum_i a_i b_i with 8 running partial sums (a fixed order, so repeatable; lets the compiler
// use SIMD). Used where a product must be reduced along a contiguous row.
// ATTN_PLAIN_LOOPS (defined only for scripts/bench-model's comparison build): one running sum.
template <class F>
F dot_rows(const F* a, const F* b, int len) {
#ifdef ATTN_PLAIN_LOOPS
    F sum = 0;
    for (int i = 0; i < len; i++) sum += a[i] * b[i];
    return sum;
#else
    F acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int i = 0;
    for (; i + 8 <= len; i += 8)
        for (int u = 0; u < 8; u++) acc[u] += a[i + u] * b[i + u];
    F sum = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
    for (; i < len; i++) sum += a[i] * b[i];
    return sum;
#endif
}

// y += a x  (a row update the compiler vectorises)
template <class F>
void axpy(F* y, F a, const F* x, int len) {
    for (int i = 0; i < len; i++) y[i] += a * x[i];
}

// exp(x) for x <= 0 in float, without libm: x = k ln 2 + r, |r| <= ln 2 / 2, exp(r) by Cephes'
// degree-6 polynomial (relative error < 2e-7 over the range), times 2^k built in the exponent
// bits. x < -87 (exp below the smallest normal float) gives 0. Numerical choice: the same
// operations in the same order on every platform, so native and wasm agree bit for bit here
// (libm's expf differs by an ulp between glibc and musl), and 2 to 4 times cheaper than a libm
// call in wasm. The vocabulary softmax and GELU's tanh use it in float; double keeps std::exp.
// No branch (x < -87 is clamped, then its result replaced by 0), so loops over it vectorise.
float exp_nonpositive(float x) {
    // false also for -infinity (and NaN, which never reaches here)
    const bool in_range = x >= -87.0f;
    const float xc = in_range ? x : -87.0f;
    const int k = -static_cast<int>(-xc * 1.44269504088896341f + 0.5f);  // round(x / ln 2)
    const float kf = static_cast<float>(k);
    const float r = (xc - kf * 0.693359375f) + kf * 2.12194440e-4f;  // x - k ln 2, in two parts
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const std::uint32_t bits = static_cast<std::uint32_t>(k + 127) << 23;  // 2^k, k >= -126
    float scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return in_range ? p * scale : 0.0f;
}
template <class F>
F exp_nonpositive(F x) {  // double: std::exp (the gradient checks and references use it)
    return std::exp(x);
}

// tanh(u) = sign(u) (1 - t) / (1 + t),  t = exp(-2 |u|) <= 1 (never overflows). In float the
// absolute error is below 1e-7 (relative error grows as |u| -> 0, where tanh u ~ u is tiny and
// GELU multiplies it by x / 2).
template <class F>
F tanh_from_exp(F u) {
    const F t = exp_nonpositive(F(-2) * std::fabs(u));
    const F th = (F(1) - t) / (F(1) + t);
    return u < F(0) ? -th : th;
}

// splitmix64: a tiny deterministic generator for the initialisation
struct SplitMix {
    unsigned long long s;
    unsigned long long next() {
        unsigned long long z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return (static_cast<double>(next() >> 11) + 0.5) / 9007199254740992.0; }
    double normal() {  // Box-Muller
        const double u1 = uniform(), u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Configuration and parameters
// ---------------------------------------------------------------------------------------------

std::optional<Error> check_model_config(const ModelConfig& c) {
    auto in = [](int x, int lo, int hi) { return x >= lo && x <= hi; };
    if (!in(c.vocab, 2, kMaxModelVocab))
        return error(ErrorCode::BadArgument, "The model's vocabulary must have 2 to " +
                                                 std::to_string(kMaxModelVocab) + " tokens.");
    if (!in(c.context, 1, kMaxModelContext))
        return error(ErrorCode::BadArgument, "The model's context must be 1 to " +
                                                 std::to_string(kMaxModelContext) + " tokens.");
    if (!in(c.d_model, 1, kMaxDimension))
        return error(ErrorCode::BadDimension,
                     "The model width must be 1 to " + std::to_string(kMaxDimension) + ".");
    if (auto e = check_heads(c.d_model, c.heads)) return e;
    if (!in(c.layers, 1, kMaxModelLayers))
        return error(ErrorCode::BadArgument,
                     "The model must have 1 to " + std::to_string(kMaxModelLayers) + " layers.");
    if (!in(c.d_ff, 1, 4 * kMaxDimension))
        return error(ErrorCode::BadDimension,
                     "The MLP width must be 1 to " + std::to_string(4 * kMaxDimension) + ".");
    return std::nullopt;
}

std::optional<Error> check_model_tokens(const ModelConfig& c, const std::vector<int>& tokens) {
    if (tokens.empty()) return error(ErrorCode::EmptyText, "There are no tokens to run.");
    if (tokens.size() > sz(c.context))
        return error(ErrorCode::TooManyTokens, "There are " + std::to_string(tokens.size()) +
                                                   " tokens; the model reads at most " +
                                                   std::to_string(c.context) + ".");
    for (std::size_t t = 0; t < tokens.size(); t++)
        if (tokens[t] < 0 || tokens[t] >= c.vocab)
            return error(ErrorCode::BadArgument, "Token " + std::to_string(t + 1) + " has id " +
                                                     std::to_string(tokens[t]) +
                                                     ", outside the vocabulary.");
    return std::nullopt;
}

std::vector<TensorInfo> parameter_tensors(const ModelConfig& c) {
    std::vector<TensorInfo> t;
    std::size_t offset = 0;
    auto add = [&](std::string name, int rows, int cols, bool matrix) {
        t.push_back(TensorInfo{std::move(name), offset, rows, cols, matrix});
        offset += sz(rows) * sz(cols);
    };
    const int C = c.d_model;
    add("wte", c.vocab, C, true);
    add("wpe", c.context, C, true);
    for (int l = 0; l < c.layers; l++) {
        const std::string p = "l" + std::to_string(l) + ".";
        add(p + "ln1_g", 1, C, false);
        add(p + "ln1_b", 1, C, false);
        add(p + "wq", C, C, true);
        add(p + "wk", C, C, true);
        add(p + "wv", C, C, true);
        add(p + "bq", 1, C, false);
        add(p + "bk", 1, C, false);
        add(p + "bv", 1, C, false);
        add(p + "wo", C, C, true);
        add(p + "bo", 1, C, false);
        add(p + "ln2_g", 1, C, false);
        add(p + "ln2_b", 1, C, false);
        add(p + "wfc", C, c.d_ff, true);
        add(p + "bfc", 1, c.d_ff, false);
        add(p + "wproj", c.d_ff, C, true);
        add(p + "bproj", 1, C, false);
    }
    add("lnf_g", 1, C, false);
    add("lnf_b", 1, C, false);
    return t;
}

std::size_t parameter_count(const ModelConfig& c) {
    const std::vector<TensorInfo> t = parameter_tensors(c);
    return t.back().offset + sz(t.back().rows) * sz(t.back().cols);
}

template <class F>
ModelParams<F> view_params(const ModelConfig& c, F* flat) {
    const std::vector<TensorInfo> t = parameter_tensors(c);
    std::size_t i = 0;
    auto next = [&]() { return flat + t[i++].offset; };
    ModelParams<F> p;
    p.wte = next();
    p.wpe = next();
    p.layers.resize(sz(c.layers));
    for (LayerParams<F>& l : p.layers) {
        l.ln1_g = next();
        l.ln1_b = next();
        l.wq = next();
        l.wk = next();
        l.wv = next();
        l.bq = next();
        l.bk = next();
        l.bv = next();
        l.wo = next();
        l.bo = next();
        l.ln2_g = next();
        l.ln2_b = next();
        l.wfc = next();
        l.bfc = next();
        l.wproj = next();
        l.bproj = next();
    }
    p.lnf_g = next();
    p.lnf_b = next();
    return p;
}

template <class F>
std::vector<F> init_params(const ModelConfig& c, unsigned long long seed) {
    std::vector<F> flat(parameter_count(c), F(0));
    SplitMix rng{seed};
    const double residual_scale = 1.0 / std::sqrt(2.0 * c.layers);
    for (const TensorInfo& t : parameter_tensors(c)) {
        const std::size_t count = sz(t.rows) * sz(t.cols);
        const bool gain = t.name.find("_g") != std::string::npos;
        const bool residual =
            t.name.find(".wo") != std::string::npos || t.name.find(".wproj") != std::string::npos;
        const bool query_key =
            t.name.find(".wq") != std::string::npos || t.name.find(".wk") != std::string::npos;
        for (std::size_t e = 0; e < count; e++) {
            double x = 0.0;
            if (t.matrix) x = 0.02 * rng.normal() * (residual ? residual_scale : 1.0);
            if (query_key) x = rng.normal() / std::sqrt(static_cast<double>(c.d_model));
            if (gain) x = 1.0;
            if (t.name == "wpe") {  // sinusoids (Vaswani et al.) of the same spread as wte
                const int pos = static_cast<int>(e / sz(t.cols)),
                          i = static_cast<int>(e % sz(t.cols));
                const double angle = pos / std::pow(10000.0, 2.0 * (i / 2) / t.cols);
                x = 0.02 * std::sqrt(2.0) * (i % 2 == 0 ? std::sin(angle) : std::cos(angle));
            }
            flat[t.offset + e] = static_cast<F>(x);
        }
    }
    return flat;
}

// ---------------------------------------------------------------------------------------------
// Embedding
// ---------------------------------------------------------------------------------------------

// x_t = wte[tok_t] + wpe[t]
template <class F>
void embedding_forward(F* out, const int* tokens, int n, const F* wte, const F* wpe, int C) {
    for (int t = 0; t < n; t++) {
        const F* e = wte + sz(tokens[t]) * sz(C);
        const F* p = wpe + sz(t) * sz(C);
        for (int i = 0; i < C; i++) out[sz(t) * sz(C) + sz(i)] = e[i] + p[i];
    }
}

// dwte[tok_t] += dout_t,  dwpe[t] += dout_t
template <class F>
void embedding_backward(F* dwte, F* dwpe, const F* dout, const int* tokens, int n, int C) {
    for (int t = 0; t < n; t++) {
        const F* d = dout + sz(t) * sz(C);
        axpy(dwte + sz(tokens[t]) * sz(C), F(1), d, C);
        axpy(dwpe + sz(t) * sz(C), F(1), d, C);
    }
}

// ---------------------------------------------------------------------------------------------
// LayerNorm
// ---------------------------------------------------------------------------------------------

// y = (x - mean) * rstd * g + b,  rstd = 1 / sqrt(var + 1e-5)
// Numerical choice: eps = 1e-5 keeps rstd finite for a constant row; variance is biased (1/C).
template <class F>
void layernorm_forward(F* out, F* mean, F* rstd, const F* in, const F* g, const F* b, int n,
                       int C) {
    const F eps = F(1e-5);
    for (int t = 0; t < n; t++) {
        const F* x = in + sz(t) * sz(C);
        F m = 0;
        for (int i = 0; i < C; i++) m += x[i];
        m /= F(C);
        F var = 0;
        for (int i = 0; i < C; i++) var += (x[i] - m) * (x[i] - m);
        var /= F(C);
        const F r = F(1) / std::sqrt(var + eps);
        F* y = out + sz(t) * sz(C);
        for (int i = 0; i < C; i++) y[i] = (x[i] - m) * r * g[i] + b[i];
        mean[t] = m;
        rstd[t] = r;
    }
}

// dx += rstd (dy g - mean(dy g) - xhat mean(dy g xhat)),  dg += dy xhat,  db += dy
template <class F>
void layernorm_backward(F* din, F* dg, F* db, const F* dout, const F* in, const F* mean,
                        const F* rstd, const F* g, int n, int C) {
    for (int t = 0; t < n; t++) {
        const F* x = in + sz(t) * sz(C);
        const F* dy = dout + sz(t) * sz(C);
        F* dx = din + sz(t) * sz(C);
        const F m = mean[t], r = rstd[t];
        F dnorm_mean = 0, dnorm_xhat_mean = 0;
        for (int i = 0; i < C; i++) {
            const F xhat = (x[i] - m) * r;
            const F dnorm = dy[i] * g[i];
            dnorm_mean += dnorm;
            dnorm_xhat_mean += dnorm * xhat;
        }
        dnorm_mean /= F(C);
        dnorm_xhat_mean /= F(C);
        for (int i = 0; i < C; i++) {
            const F xhat = (x[i] - m) * r;
            const F dnorm = dy[i] * g[i];
            dg[i] += dy[i] * xhat;
            db[i] += dy[i];
            dx[i] += (dnorm - dnorm_mean - xhat * dnorm_xhat_mean) * r;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Matrix product with bias
// ---------------------------------------------------------------------------------------------

namespace {

// Tile of matmul_forward(): 4 rows x 4 columns (16 sums in registers; measured in wasm, scalar
// and SIMD, against 1x8, 2x4, 2x8, 4x2, 4x8 and 1x16: best or within noise of it)
constexpr int kTileRows = 4, kTileCols = 4;

// One R x K tile of out = in W + b: rows t0 .. t0+R-1, columns o0 .. o0+K-1. Its R K sums stay in
// registers while i runs over the inputs, so each element of in and of W is loaded once per tile
// (not once per output) and nothing is stored until the end. Each sum is still
// b_o + in_t0 W_0o + in_t1 W_1o + ..., added in i order: the textbook loop's numbers, bit for bit.
template <class F, int R, int K>
void matmul_tile(F* out, const F* in, const F* w, const F* b, int t0, int o0, int IC, int OC) {
    F acc[R][K];
    for (int r = 0; r < R; r++)
        for (int u = 0; u < K; u++) acc[r][u] = b ? b[o0 + u] : F(0);
    const F* x = in + sz(t0) * sz(IC);
    for (int i = 0; i < IC; i++) {
        const F* wi = w + sz(i) * sz(OC) + sz(o0);
        for (int r = 0; r < R; r++) {
            const F xi = x[sz(r) * sz(IC) + sz(i)];
            for (int u = 0; u < K; u++) acc[r][u] += xi * wi[u];
        }
    }
    for (int r = 0; r < R; r++)
        for (int u = 0; u < K; u++) out[sz(t0 + r) * sz(OC) + sz(o0 + u)] = acc[r][u];
}

#ifdef __wasm_simd128__
// matmul_tile<float, 4, 8> written in WebAssembly SIMD (the SIMD twin only): 8 vectors of 4 sums
// (row r, columns o0 .. o0+7 in acc[2r], acc[2r+1]); per input i two loads of W's row and four
// splats of x. Each lane is the scalar tile's b_o, then + x_ti W_io (a multiply, then an add: no
// fused multiply-add in wasm) in i order, so its numbers are the scalar loop's bit for bit, with
// a quarter fewer instructions per product than the 4 x 4 tile the compiler vectorises itself.
void matmul_tile_4x8_simd(float* out, const float* in, const float* w, const float* b, int t0,
                          int o0, int IC, int OC) {
    const v128_t b0 = b ? wasm_v128_load(b + o0) : wasm_f32x4_splat(0.0f);
    const v128_t b1 = b ? wasm_v128_load(b + o0 + 4) : wasm_f32x4_splat(0.0f);
    v128_t a00 = b0, a01 = b1, a10 = b0, a11 = b1, a20 = b0, a21 = b1, a30 = b0, a31 = b1;
    const float* x0 = in + sz(t0) * sz(IC);
    const float *x1 = x0 + IC, *x2 = x1 + IC, *x3 = x2 + IC;
    const float* wi = w + o0;
    for (int i = 0; i < IC; i++, wi += OC) {
        const v128_t w0 = wasm_v128_load(wi), w1 = wasm_v128_load(wi + 4);
        const v128_t s0 = wasm_f32x4_splat(x0[i]), s1 = wasm_f32x4_splat(x1[i]);
        const v128_t s2 = wasm_f32x4_splat(x2[i]), s3 = wasm_f32x4_splat(x3[i]);
        a00 = wasm_f32x4_add(a00, wasm_f32x4_mul(s0, w0));
        a01 = wasm_f32x4_add(a01, wasm_f32x4_mul(s0, w1));
        a10 = wasm_f32x4_add(a10, wasm_f32x4_mul(s1, w0));
        a11 = wasm_f32x4_add(a11, wasm_f32x4_mul(s1, w1));
        a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(s2, w0));
        a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(s2, w1));
        a30 = wasm_f32x4_add(a30, wasm_f32x4_mul(s3, w0));
        a31 = wasm_f32x4_add(a31, wasm_f32x4_mul(s3, w1));
    }
    float* y = out + sz(t0) * sz(OC) + sz(o0);
    wasm_v128_store(y, a00);
    wasm_v128_store(y + 4, a01);
    wasm_v128_store(y + OC, a10);
    wasm_v128_store(y + OC + 4, a11);
    wasm_v128_store(y + 2 * OC, a20);
    wasm_v128_store(y + 2 * OC + 4, a21);
    wasm_v128_store(y + 3 * OC, a30);
    wasm_v128_store(y + 3 * OC + 4, a31);
}
#endif

// Rows t0 .. t0+R-1 of out: whole K-column tiles, then the columns left one at a time (in the
// SIMD twin, 4 float rows go 8 columns at a time first)
template <class F, int R>
void matmul_rows(F* out, const F* in, const F* w, const F* b, int t0, int IC, int OC) {
    constexpr int K = kTileCols;
    int o = 0;
#ifdef __wasm_simd128__
    if constexpr (std::is_same_v<F, float> && R == 4)
        for (; o + 8 <= OC; o += 8) matmul_tile_4x8_simd(out, in, w, b, t0, o, IC, OC);
#endif
    for (; o + K <= OC; o += K) matmul_tile<F, R, K>(out, in, w, b, t0, o, IC, OC);
    for (; o < OC; o++) matmul_tile<F, R, 1>(out, in, w, b, t0, o, IC, OC);
}

}  // namespace

// out = in W + b   (y_to = b_o + sum_i x_ti W_io, i in order; computed in tiles of R rows x K
// columns, the rows left over one at a time)
template <class F>
void matmul_forward(F* out, const F* in, const F* w, const F* b, int n, int IC, int OC) {
#ifdef ATTN_PLAIN_LOOPS  // the textbook order: each output a sum down a column of W
    for (int t = 0; t < n; t++)
        for (int o = 0; o < OC; o++) {
            F sum = b ? b[o] : F(0);
            for (int i = 0; i < IC; i++)
                sum += in[sz(t) * sz(IC) + sz(i)] * w[sz(i) * sz(OC) + sz(o)];
            out[sz(t) * sz(OC) + sz(o)] = sum;
        }
    return;
#endif
    constexpr int R = kTileRows;
    int t = 0;
    for (; t + R <= n; t += R) matmul_rows<F, R>(out, in, w, b, t, IC, OC);
    for (; t < n; t++) matmul_rows<F, 1>(out, in, w, b, t, IC, OC);
}

// din += dout W^T,  dW += in^T dout,  db += sum_t dout_t
template <class F>
void matmul_backward(F* din, F* dw, F* db, const F* dout, const F* in, const F* w, int n, int IC,
                     int OC) {
    for (int t = 0; t < n; t++) {
        const F* dy = dout + sz(t) * sz(OC);
        const F* x = in + sz(t) * sz(IC);
        if (din) {
            F* dx = din + sz(t) * sz(IC);
            for (int i = 0; i < IC; i++) dx[i] += dot_rows(dy, w + sz(i) * sz(OC), OC);
        }
        for (int i = 0; i < IC; i++) axpy(dw + sz(i) * sz(OC), x[i], dy, OC);
        if (db) axpy(db, F(1), dy, OC);
    }
}

// ---------------------------------------------------------------------------------------------
// Causal multi-head attention through the engine's focus-step functions
// ---------------------------------------------------------------------------------------------

namespace {

// Head h's rows of a (n x C) matrix as the engine's vectors (length D, in double)
template <class F>
std::vector<Vector> head_rows(const F* m, int n, int C, int D, int h) {
    std::vector<Vector> rows(sz(n), Vector(sz(D)));
    for (int j = 0; j < n; j++)
        for (int d = 0; d < D; d++) rows[sz(j)][sz(d)] = m[sz(j) * sz(C) + sz(h * D + d)];
    return rows;
}

// Tiles of attention_forward()'s two inner products. Each keeps K sums in registers while the
// other index runs (instead of a load and a store per step), and each sum is still added in the
// step functions' order from 0, so the numbers stay theirs bit for bit.
constexpr int kAttnTile = 4;

// dot_j = sum_d q_d kt_dj for the K candidates j0 .. j0+K-1 (kt: D x n, keys transposed)
template <int K>
void dots_tile(double* dot, const double* q, const double* kt, int j0, int n, int D) {
    double acc[K] = {};
    for (int d = 0; d < D; d++) {
        const double* kd = kt + sz(d) * sz(n) + sz(j0);
        for (int u = 0; u < K; u++) acc[u] += q[d] * kd[u];
    }
    for (int u = 0; u < K; u++) dot[j0 + u] = acc[u];
}

// o_d = sum_j w_j v_jd for the K dimensions d0 .. d0+K-1, j = 0 .. m-1 (v: n x D)
template <int K>
void mix_tile(double* o, const double* w, const double* v, int d0, int m, int D) {
    double acc[K] = {};
    for (int j = 0; j < m; j++) {
        const double* vj = v + sz(j) * sz(D) + sz(d0);
        for (int u = 0; u < K; u++) acc[u] += w[j] * vj[u];
    }
    for (int u = 0; u < K; u++) o[d0 + u] = acc[u];
}

}  // namespace

// Per head h and query i, over the candidates j = 0..i (no future key is ever compared), in double:
//   dot_ij = sum_d q_id k_jd                  dot_products()    (d in order, from 0)
//   score_ij = dot_ij * 1/sqrt(D)             scale_scores()    (apply_temperature(T = 1) is exact)
//   w_ij = exp(score_ij - m_i) / sum_j' exp(score_ij' - m_i),  m_i = max_j score_ij   softmax()
//   o_i = sum_j w_ij v_j                      mix()             (j in order, from 0)
// These are the step functions' operations, in their order, on the same doubles, written as one
// loop nest over a head's keys and values gathered once (keys transposed, D x n, so the dots of one
// query with every key run along memory) instead of a vector per candidate per query: the numbers
// are theirs bit for bit. A masked candidate j > i would add exactly 0 to the softmax's sum and to
// the mix, so attend(head_focus_input(...)) over all n candidates with the causal mask gives the
// same row (tests/model: TransformerAttention.HeadRowIsTheGlossaryFocusStep, in float and double).
// Entries j > i of dots, scores and weights are 0: masked, never computed.
template <class F>
void attention_forward(F* out, F* dots, F* scores_out, F* weights_out, const F* q, const F* k,
                       const F* v, int n, int C, int H, int ablate_head) {
    const int D = C / H;
    const double scale = scale_factor(D, true);
    std::vector<double> kt(sz(D) * sz(n)), vh(sz(n) * sz(D)), qi(sz(D)), dot(sz(n)), w(sz(n)),
        o(sz(D));
    for (int h = 0; h < H; h++) {
        const std::size_t col = sz(h * D);
        for (int j = 0; j < n; j++)  // K_h^T (D x n) and V_h (n x D)
            for (int d = 0; d < D; d++) {
                kt[sz(d) * sz(n) + sz(j)] = k[sz(j) * sz(C) + col + sz(d)];
                vh[sz(j) * sz(D) + sz(d)] = v[sz(j) * sz(C) + col + sz(d)];
            }
        for (int i = 0; i < n; i++) {
            const int m = i + 1;  // candidates 0..i
            for (int d = 0; d < D; d++) qi[sz(d)] = q[sz(i) * sz(C) + col + sz(d)];
            // dot_j = q . k_j   (kAttnTile candidates at a time, then the rest one by one)
            int j0 = 0;
            for (; j0 + kAttnTile <= m; j0 += kAttnTile)
                dots_tile<kAttnTile>(dot.data(), qi.data(), kt.data(), j0, n, D);
            for (; j0 < m; j0++) dots_tile<1>(dot.data(), qi.data(), kt.data(), j0, n, D);
            // score_j = dot_j * scale;  w_j = exp(score_j - max) / sum
            F* dots_i = dots + head_index(n, h, i, 0);
            F* scores_i = scores_out + head_index(n, h, i, 0);
            F* weights_i = weights_out + head_index(n, h, i, 0);
            double max_score = -std::numeric_limits<double>::infinity();
            for (int j = 0; j < m; j++) {
                const double score = dot[sz(j)] * scale;
                dots_i[j] = static_cast<F>(dot[sz(j)]);
                scores_i[j] = static_cast<F>(score);
                w[sz(j)] = score;
                if (score > max_score) max_score = score;
            }
            double sum = 0.0;
            for (int j = 0; j < m; j++) {
                w[sz(j)] = std::exp(w[sz(j)] - max_score);
                sum += w[sz(j)];
            }
            for (int j = 0; j < m; j++) {
                w[sz(j)] /= sum;
                weights_i[j] = static_cast<F>(w[sz(j)]);
            }
            for (int j = m; j < n; j++) dots_i[j] = scores_i[j] = weights_i[j] = F(0);
            // o = sum_j w_j v_j   (kAttnTile dimensions at a time, then the rest one by one)
            int d0 = 0;
            for (; d0 + kAttnTile <= D; d0 += kAttnTile)
                mix_tile<kAttnTile>(o.data(), w.data(), vh.data(), d0, m, D);
            for (; d0 < D; d0++) mix_tile<1>(o.data(), w.data(), vh.data(), d0, m, D);
            F* y = out + sz(i) * sz(C) + col;
            for (int d = 0; d < D; d++) y[d] = h == ablate_head ? F(0) : static_cast<F>(o[sz(d)]);
        }
    }
}

// dv_j += sum_i w_ij do_i;  dw_ij = do_i . v_j;  ds_ij = w_ij (dw_ij - sum_k w_ik dw_ik);
// dq_i += sum_j ds_ij k_j / sqrt(D);  dk_j += sum_i ds_ij q_i / sqrt(D)   (only j <= i)
template <class F>
void attention_backward(F* dq, F* dk, F* dv, const F* dout, const F* weights, const F* q,
                        const F* k, const F* v, int n, int C, int H, int ablate_head) {
    const int D = C / H;
    const F scale = static_cast<F>(scale_factor(D, true));
    std::vector<F> dw(sz(n));
    for (int h = 0; h < H; h++) {
        if (h == ablate_head) continue;  // output forced to 0: no gradient flows through
        const std::size_t col = sz(h * D);
        for (int i = 0; i < n; i++) {
            const F* doi = dout + sz(i) * sz(C) + col;
            const F* w = weights + head_index(n, h, i, 0);
            F weighted = 0;
            for (int j = 0; j <= i; j++) {
                const F* vj = v + sz(j) * sz(C) + col;
                dw[sz(j)] = dot_rows(doi, vj, D);
                weighted += w[j] * dw[sz(j)];
                axpy(dv + sz(j) * sz(C) + col, w[j], doi, D);
            }
            const F* qi = q + sz(i) * sz(C) + col;
            F* dqi = dq + sz(i) * sz(C) + col;
            for (int j = 0; j <= i; j++) {
                const F ds = w[j] * (dw[sz(j)] - weighted) * scale;
                axpy(dqi, ds, k + sz(j) * sz(C) + col, D);
                axpy(dk + sz(j) * sz(C) + col, ds, qi, D);
            }
        }
    }
}

template <class F>
FocusInput head_focus_input(const LayerActivations<F>& a, int n, int C, int H, int h, int i) {
    const int D = C / H;
    FocusInput in;
    in.query = head_rows(a.q.data(), n, C, D, h)[sz(i)];
    in.keys = head_rows(a.k.data(), n, C, D, h);
    in.values = head_rows(a.v.data(), n, C, D, h);
    in.focus_position = i;
    in.options.scale = true;
    in.options.temperature = 1.0;
    in.options.causal = true;
    return in;
}

// ---------------------------------------------------------------------------------------------
// GELU, residual
// ---------------------------------------------------------------------------------------------

// y = x / 2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   (tanh by tanh_from_exp(), above)
template <class F>
void gelu_forward(F* out, const F* in, std::size_t count) {
    const F s = F(0.7978845608028654);  // sqrt(2 / pi)
    for (std::size_t i = 0; i < count; i++) {
        const F x = in[i];
        out[i] = F(0.5) * x * (F(1) + tanh_from_exp(s * (x + F(0.044715) * x * x * x)));
    }
}

// dx += dy (0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) sqrt(2/pi) (1 + 3 * 0.044715 x^2))
template <class F>
void gelu_backward(F* din, const F* in, const F* dout, std::size_t count) {
    const F s = F(0.7978845608028654);
    for (std::size_t i = 0; i < count; i++) {
        const F x = in[i];
        const F th = tanh_from_exp(s * (x + F(0.044715) * x * x * x));
        const F sech2 = F(1) - th * th;
        const F grad =
            F(0.5) * (F(1) + th) + F(0.5) * x * sech2 * s * (F(1) + F(3) * F(0.044715) * x * x);
        din[i] += dout[i] * grad;
    }
}

// out = a + b
template <class F>
void residual_forward(F* out, const F* a, const F* b, std::size_t count) {
    for (std::size_t i = 0; i < count; i++) out[i] = a[i] + b[i];
}

// da += dout, db += dout
template <class F>
void residual_backward(F* da, F* db, const F* dout, std::size_t count) {
    for (std::size_t i = 0; i < count; i++) {
        da[i] += dout[i];
        db[i] += dout[i];
    }
}

// ---------------------------------------------------------------------------------------------
// Tied unembedding, softmax, cross-entropy
// ---------------------------------------------------------------------------------------------

// logits = x wte^T: logits_tv = sum_c x_tc wte_vc (c in order), as matmul_forward() against the
// transposed embedding (C x V, made here: 4 V C bytes, a small part of the product's cost)
template <class F>
void unembed_forward(F* logits, const F* x, const F* wte, int n, int C, int V) {
    std::vector<F> wte_t(sz(C) * sz(V));
    for (int u = 0; u < V; u++)
        for (int c = 0; c < C; c++) wte_t[sz(c) * sz(V) + sz(u)] = wte[sz(u) * sz(C) + sz(c)];
    matmul_forward(logits, x, wte_t.data(), static_cast<const F*>(nullptr), n, C, V);
}

// dx_t += sum_v dlogits_tv wte_v,  dwte_v += sum_t dlogits_tv x_t
template <class F>
void unembed_backward(F* dx, F* dwte, const F* dlogits, const F* x, const F* wte, int n, int C,
                      int V) {
    for (int t = 0; t < n; t++) {
        const F* dl = dlogits + sz(t) * sz(V);
        for (int u = 0; u < V; u++) {
            axpy(dx + sz(t) * sz(C), dl[u], wte + sz(u) * sz(C), C);
            axpy(dwte + sz(u) * sz(C), dl[u], x + sz(t) * sz(C), C);
        }
    }
}

// p_tv = exp(l_tv - m_t) / sum_u exp(l_tu - m_t),  m_t = max_v l_tv   (exp by exp_nonpositive())
template <class F>
void softmax_forward(F* probs, const F* logits, int n, int V) {
    for (int t = 0; t < n; t++) {
        const F* l = logits + sz(t) * sz(V);
        F* p = probs + sz(t) * sz(V);
        F m = l[0];
        for (int u = 1; u < V; u++) m = std::max(m, l[u]);
        for (int u = 0; u < V; u++) p[u] = exp_nonpositive(l[u] - m);  // <= 0: m is the row's max
        F sum = 0;  // apart from the loop above, which then vectorises; added in u order
        for (int u = 0; u < V; u++) sum += p[u];
        for (int u = 0; u < V; u++) p[u] /= sum;
    }
}

// loss_t = -ln max(p_t[target_t], smallest normal);  a target < 0 is ignored: loss_t = 0
template <class F>
void crossentropy_forward(F* losses, const F* probs, const int* targets, int n, int V) {
    for (int t = 0; t < n; t++) {
        if (targets[t] < 0) {
            losses[t] = F(0);
            continue;
        }
        const F p = probs[sz(t) * sz(V) + sz(targets[t])];
        losses[t] = -std::log(std::max(p, std::numeric_limits<F>::min()));
    }
}

// dlogits_tv = dloss (p_tv - [v == target_t]);  0 for an ignored target (< 0)
template <class F>
void crossentropy_softmax_backward(F* dlogits, const F* probs, const int* targets, F dloss, int n,
                                   int V) {
    for (int t = 0; t < n; t++)
        for (int u = 0; u < V; u++) {
            const F indicator = u == targets[t] ? F(1) : F(0);
            dlogits[sz(t) * sz(V) + sz(u)] =
                targets[t] < 0 ? F(0) : dloss * (probs[sz(t) * sz(V) + sz(u)] - indicator);
        }
}

// ---------------------------------------------------------------------------------------------
// The whole model
// ---------------------------------------------------------------------------------------------

template <class F>
void model_forward(const ModelConfig& c, const ModelParams<const F>& p, const int* tokens,
                   const int* targets, int n, Activations<F>& a, const ForwardOptions& options) {
    const int C = c.d_model, H = c.heads, Ff = c.d_ff, V = c.vocab;
    const std::size_t nc = sz(n) * sz(C), nf = sz(n) * sz(Ff), hnn = sz(H) * sz(n) * sz(n);
    a.n = n;
    a.tokens.assign(tokens, tokens + n);
    a.layers.resize(sz(c.layers));
    for (int l = 0; l < c.layers; l++) {
        LayerActivations<F>& la = a.layers[sz(l)];
        const LayerParams<const F>& w = p.layers[sz(l)];
        for (std::vector<F>* m : {&la.x_in, &la.ln1, &la.q, &la.k, &la.v, &la.heads_out,
                                  &la.attn_out, &la.x_mid, &la.ln2, &la.mlp_out, &la.x_out})
            m->resize(nc);
        for (std::vector<F>* m : {&la.ln1_mean, &la.ln1_rstd, &la.ln2_mean, &la.ln2_rstd})
            m->resize(sz(n));
        for (std::vector<F>* m : {&la.dots, &la.scores, &la.weights}) m->resize(hnn);
        la.fc.resize(nf);
        la.gelu.resize(nf);

        if (l == 0)
            embedding_forward(la.x_in.data(), tokens, n, p.wte, p.wpe, C);
        else
            la.x_in = a.layers[sz(l - 1)].x_out;
        layernorm_forward(la.ln1.data(), la.ln1_mean.data(), la.ln1_rstd.data(), la.x_in.data(),
                          w.ln1_g, w.ln1_b, n, C);
        matmul_forward(la.q.data(), la.ln1.data(), w.wq, w.bq, n, C, C);
        matmul_forward(la.k.data(), la.ln1.data(), w.wk, w.bk, n, C, C);
        matmul_forward(la.v.data(), la.ln1.data(), w.wv, w.bv, n, C, C);
        attention_forward(la.heads_out.data(), la.dots.data(), la.scores.data(), la.weights.data(),
                          la.q.data(), la.k.data(), la.v.data(), n, C, H,
                          options.ablate_layer == l ? options.ablate_head : -1);
        matmul_forward(la.attn_out.data(), la.heads_out.data(), w.wo, w.bo, n, C, C);
        residual_forward(la.x_mid.data(), la.x_in.data(), la.attn_out.data(), nc);
        layernorm_forward(la.ln2.data(), la.ln2_mean.data(), la.ln2_rstd.data(), la.x_mid.data(),
                          w.ln2_g, w.ln2_b, n, C);
        matmul_forward(la.fc.data(), la.ln2.data(), w.wfc, w.bfc, n, C, Ff);
        gelu_forward(la.gelu.data(), la.fc.data(), nf);
        matmul_forward(la.mlp_out.data(), la.gelu.data(), w.wproj, w.bproj, n, Ff, C);
        residual_forward(la.x_out.data(), la.x_mid.data(), la.mlp_out.data(), nc);
    }
    const std::vector<F>& x_last = a.layers.back().x_out;
    a.lnf.resize(nc);
    a.lnf_mean.resize(sz(n));
    a.lnf_rstd.resize(sz(n));
    layernorm_forward(a.lnf.data(), a.lnf_mean.data(), a.lnf_rstd.data(), x_last.data(), p.lnf_g,
                      p.lnf_b, n, C);
    a.losses.clear();
    if (!options.predictions) {
        a.logits.clear();
        a.probs.clear();
        return;
    }
    a.logits.resize(sz(n) * sz(V));
    a.probs.resize(sz(n) * sz(V));
    unembed_forward(a.logits.data(), a.lnf.data(), p.wte, n, C, V);
    softmax_forward(a.probs.data(), a.logits.data(), n, V);
    if (targets) {
        a.losses.resize(sz(n));
        crossentropy_forward(a.losses.data(), a.probs.data(), targets, n, V);
    }
}

// One row of the unembedding and softmax: matmul_forward's single-row path sums each logit in
// the same order as the n-row product, so these are the full pass's numbers
template <class F>
std::vector<F> next_token_probs(const ModelConfig& c, const ModelParams<const F>& p,
                                const Activations<F>& a, int t) {
    const int C = c.d_model, V = c.vocab;
    std::vector<F> logits(sz(V)), probs(sz(V));
    unembed_forward(logits.data(), a.lnf.data() + sz(t) * sz(C), p.wte, 1, C, V);
    softmax_forward(probs.data(), logits.data(), 1, V);
    return probs;
}

template <class F>
double mean_loss(const Activations<F>& a) {
    double sum = 0.0;
    for (F x : a.losses) sum += static_cast<double>(x);
    return a.losses.empty() ? 0.0 : sum / static_cast<double>(a.losses.size());
}

template <class F>
void model_backward(const ModelConfig& c, const ModelParams<const F>& p, const Activations<F>& a,
                    const int* targets, F dloss, F* grads) {
    const int n = a.n, C = c.d_model, H = c.heads, Ff = c.d_ff, V = c.vocab;
    const std::size_t nc = sz(n) * sz(C), nf = sz(n) * sz(Ff);
    ModelParams<F> g = view_params(c, grads);
    std::vector<F> dlogits(sz(n) * sz(V)), dlnf(nc, F(0)), dx(nc, F(0));
    crossentropy_softmax_backward(dlogits.data(), a.probs.data(), targets, dloss, n, V);
    unembed_backward(dlnf.data(), g.wte, dlogits.data(), a.lnf.data(), p.wte, n, C, V);
    layernorm_backward(dx.data(), g.lnf_g, g.lnf_b, dlnf.data(), a.layers.back().x_out.data(),
                       a.lnf_mean.data(), a.lnf_rstd.data(), p.lnf_g, n, C);

    std::vector<F> dx_mid(nc), dmlp(nc), dgelu(nf), dfc(nf), dln2(nc), dheads(nc), dq(nc), dk(nc),
        dv(nc), dln1(nc), dx_in(nc), dattn(nc);
    for (int l = c.layers - 1; l >= 0; l--) {
        const LayerActivations<F>& la = a.layers[sz(l)];
        const LayerParams<const F>& w = p.layers[sz(l)];
        LayerParams<F>& gw = g.layers[sz(l)];
        for (std::vector<F>* m :
             {&dx_mid, &dmlp, &dgelu, &dfc, &dln2, &dheads, &dq, &dk, &dv, &dln1, &dx_in, &dattn})
            std::fill(m->begin(), m->end(), F(0));
        // x_out = x_mid + mlp_out
        residual_backward(dx_mid.data(), dmlp.data(), dx.data(), nc);
        matmul_backward(dgelu.data(), gw.wproj, gw.bproj, dmlp.data(), la.gelu.data(), w.wproj, n,
                        Ff, C);
        gelu_backward(dfc.data(), la.fc.data(), dgelu.data(), nf);
        matmul_backward(dln2.data(), gw.wfc, gw.bfc, dfc.data(), la.ln2.data(), w.wfc, n, C, Ff);
        layernorm_backward(dx_mid.data(), gw.ln2_g, gw.ln2_b, dln2.data(), la.x_mid.data(),
                           la.ln2_mean.data(), la.ln2_rstd.data(), w.ln2_g, n, C);
        // x_mid = x_in + attn_out
        residual_backward(dx_in.data(), dattn.data(), dx_mid.data(), nc);
        matmul_backward(dheads.data(), gw.wo, gw.bo, dattn.data(), la.heads_out.data(), w.wo, n, C,
                        C);
        const int ablated = -1;  // training never ablates
        attention_backward(dq.data(), dk.data(), dv.data(), dheads.data(), la.weights.data(),
                           la.q.data(), la.k.data(), la.v.data(), n, C, H, ablated);
        matmul_backward(dln1.data(), gw.wq, gw.bq, dq.data(), la.ln1.data(), w.wq, n, C, C);
        matmul_backward(dln1.data(), gw.wk, gw.bk, dk.data(), la.ln1.data(), w.wk, n, C, C);
        matmul_backward(dln1.data(), gw.wv, gw.bv, dv.data(), la.ln1.data(), w.wv, n, C, C);
        layernorm_backward(dx_in.data(), gw.ln1_g, gw.ln1_b, dln1.data(), la.x_in.data(),
                           la.ln1_mean.data(), la.ln1_rstd.data(), w.ln1_g, n, C);
        dx = dx_in;
    }
    embedding_backward(g.wte, g.wpe, dx.data(), a.tokens.data(), n, C);
}

// ---------------------------------------------------------------------------------------------
// Instantiations: float (training, inference) and double (gradient checks, references)
// ---------------------------------------------------------------------------------------------
#define ATTN_TRANSFORMER_INSTANTIATE(F)                                                            \
    template ModelParams<F> view_params(const ModelConfig&, F*);                                   \
    template ModelParams<const F> view_params(const ModelConfig&, const F*);                       \
    template std::vector<F> init_params<F>(const ModelConfig&, unsigned long long);                \
    template void embedding_forward(F*, const int*, int, const F*, const F*, int);                 \
    template void embedding_backward(F*, F*, const F*, const int*, int, int);                      \
    template void layernorm_forward(F*, F*, F*, const F*, const F*, const F*, int, int);           \
    template void layernorm_backward(F*, F*, F*, const F*, const F*, const F*, const F*, const F*, \
                                     int, int);                                                    \
    template void matmul_forward(F*, const F*, const F*, const F*, int, int, int);                 \
    template void matmul_backward(F*, F*, F*, const F*, const F*, const F*, int, int, int);        \
    template void attention_forward(F*, F*, F*, F*, const F*, const F*, const F*, int, int, int,   \
                                    int);                                                          \
    template void attention_backward(F*, F*, F*, const F*, const F*, const F*, const F*, const F*, \
                                     int, int, int, int);                                          \
    template FocusInput head_focus_input(const LayerActivations<F>&, int, int, int, int, int);     \
    template void gelu_forward(F*, const F*, std::size_t);                                         \
    template void gelu_backward(F*, const F*, const F*, std::size_t);                              \
    template void residual_forward(F*, const F*, const F*, std::size_t);                           \
    template void residual_backward(F*, F*, const F*, std::size_t);                                \
    template void unembed_forward(F*, const F*, const F*, int, int, int);                          \
    template void unembed_backward(F*, F*, const F*, const F*, const F*, int, int, int);           \
    template void softmax_forward(F*, const F*, int, int);                                         \
    template void crossentropy_forward(F*, const F*, const int*, int, int);                        \
    template void crossentropy_softmax_backward(F*, const F*, const int*, F, int, int);            \
    template void model_forward(const ModelConfig&, const ModelParams<const F>&, const int*,       \
                                const int*, int, Activations<F>&, const ForwardOptions&);          \
    template std::vector<F> next_token_probs(const ModelConfig&, const ModelParams<const F>&,      \
                                             const Activations<F>&, int);                          \
    template double mean_loss(const Activations<F>&);                                              \
    template void model_backward(const ModelConfig&, const ModelParams<const F>&,                  \
                                 const Activations<F>&, const int*, F, F*);

ATTN_TRANSFORMER_INSTANTIATE(float)
ATTN_TRANSFORMER_INSTANTIATE(double)
#undef ATTN_TRANSFORMER_INSTANTIATE

}  // namespace attn
