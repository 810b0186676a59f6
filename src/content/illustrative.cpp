// illustrative.cpp - a deterministic, NOT trained, stand-in model for free text: embeddings
// from a hash of each word plus a position code, and pseudo-random projections. Its numbers are
// real attention arithmetic on made-up vectors; they say nothing about a real model.
#include <cmath>
#include <cstring>
#include <string>

#include "content.h"

namespace attn {

namespace {

// FNV-1a, 64 bit: h = (h xor byte) * 1099511628211, starting at 14695981039346656037
std::uint64_t fnv1a(std::uint64_t h, const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}
constexpr std::uint64_t kFnvStart = 14695981039346656037ull;

// splitmix64: a tiny, well-mixed, portable pseudo-random generator (same numbers in every build)
std::uint64_t splitmix64(std::uint64_t* state) {
    std::uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// uniform in [-1, 1): the top 53 bits as a fraction, mapped to [-1, 1)
double uniform(std::uint64_t* state) {
    return static_cast<double>(splitmix64(state) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

Matrix random_matrix(int rows, int cols, double amplitude, std::uint64_t* state) {
    Matrix m = zeros(rows, cols);
    for (double& x : m.data) x = amplitude * uniform(state);
    return m;
}

}  // namespace

// x_p,i = u_i(hash(lower(token_p))) + 0.25 * (i even ? sin : cos)(p / 10000^(2 floor(i/2) / d))
// u_i in [-1, 1): the same word gets the same base vector anywhere; the small sinusoidal
// position code makes repeated words at different positions slightly different.
Matrix illustrative_embeddings(const std::vector<Token>& tokens, int d_model) {
    if (d_model < 1 || d_model > kMaxDimension) return Matrix{};
    Matrix x = zeros(static_cast<int>(tokens.size()), d_model);
    for (int p = 0; p < x.rows; p++) {
        std::string lower = tokens[static_cast<std::size_t>(p)].text;
        for (char& c : lower)
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        std::uint64_t state = fnv1a(kFnvStart, lower.data(), lower.size());
        for (int i = 0; i < d_model; i++) {
            const double angle = p / std::pow(10000.0, (2.0 * (i / 2)) / d_model);
            x.at(p, i) = uniform(&state) + 0.25 * (i % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return x;
}

// Wq, Wk, Wv (d_model x d_k, entries uniform in [-1, 1)) for each head in turn, then Wo
// ((h d_k) x d_model, entries uniform in [-1, 1) / sqrt(d_model)), from one splitmix64 stream.
Result<Projections> illustrative_projections(int d_model, int heads, std::uint32_t seed) {
    if (auto e = check_heads(d_model, heads)) return *e;
    const int d_k = d_model / heads;
    std::uint64_t state = seed;
    Projections p;
    for (int h = 0; h < heads; h++) {
        HeadProjection w;
        w.wq = random_matrix(d_model, d_k, 1.0, &state);
        w.wk = random_matrix(d_model, d_k, 1.0, &state);
        w.wv = random_matrix(d_model, d_k, 1.0, &state);
        p.heads.push_back(std::move(w));
    }
    p.wo =
        random_matrix(heads * d_k, d_model, 1.0 / std::sqrt(static_cast<double>(d_model)), &state);
    return p;
}

// FNV-1a over rows, cols and the bits of every number
std::uint64_t fingerprint(const Matrix& m) {
    std::uint64_t h = kFnvStart;
    const std::int64_t shape[2] = {m.rows, m.cols};
    h = fnv1a(h, shape, sizeof shape);
    for (double x : m.data) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &x, sizeof bits);
        h = fnv1a(h, &bits, sizeof bits);
    }
    return h;
}

std::uint64_t fingerprint(const Projections& p) {
    std::uint64_t h = kFnvStart;
    const auto add = [&](const Matrix& m) {
        const std::uint64_t f = fingerprint(m);
        h = fnv1a(h, &f, sizeof f);
    };
    for (const HeadProjection& w : p.heads) {
        add(w.wq);
        add(w.wk);
        add(w.wv);
    }
    add(p.wo);
    return h;
}

// 16 hex digits, most significant first
std::string fingerprint_hex(std::uint64_t print) {
    const char* digits = "0123456789abcdef";
    std::string hex(16, '0');
    for (int i = 15; i >= 0; i--, print >>= 4)
        hex[static_cast<std::size_t>(i)] = digits[print & 0xF];
    return hex;
}

}  // namespace attn
