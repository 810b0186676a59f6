// sequence.cpp - multi-head self-attention over a whole sequence, every intermediate kept.
#include <cmath>
#include <string>

#include "attention.h"

namespace attn {

namespace {

Error error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

std::string shape(const Matrix& m) {
    return std::to_string(m.rows) + " x " + std::to_string(m.cols);
}

bool well_formed(const Matrix& m) {
    return m.rows >= 0 && m.cols >= 0 &&
           m.data.size() == static_cast<std::size_t>(m.rows) * static_cast<std::size_t>(m.cols);
}

bool all_finite(const Matrix& m) {
    for (double x : m.data)
        if (!std::isfinite(x)) return false;
    return true;
}

std::optional<Error> check_matrix(const Matrix& m, int rows, int cols, const std::string& name) {
    if (!well_formed(m) || m.rows != rows || m.cols != cols)
        return error(ErrorCode::DimensionMismatch, name + " is " + shape(m) + " but must be " +
                                                       std::to_string(rows) + " x " +
                                                       std::to_string(cols) + ".");
    if (!all_finite(m))
        return error(ErrorCode::NonFinite,
                     name + " contains a number that is not finite (NaN or infinity).");
    return std::nullopt;
}

// d_model in 1..512
std::optional<Error> check_model_width(int d_model) {
    if (d_model < 1 || d_model > kMaxDimension)
        return error(ErrorCode::BadDimension, "The model width d_model is " +
                                                  std::to_string(d_model) + "; it must be 1 to " +
                                                  std::to_string(kMaxDimension) + ".");
    return std::nullopt;
}

}  // namespace

// rows x cols of 0
Matrix zeros(int rows, int cols) {
    if (rows < 0 || cols < 0) return Matrix{};
    Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.data.assign(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), 0.0);
    return m;
}

// row r of m
Vector row(const Matrix& m, int r) {
    if (r < 0 || r >= m.rows || !well_formed(m)) return Vector{};
    return Vector(m.data.begin() + static_cast<std::ptrdiff_t>(r) * m.cols,
                  m.data.begin() + static_cast<std::ptrdiff_t>(r + 1) * m.cols);
}

// (m^T)_ij = m_ji
Matrix transpose(const Matrix& m) {
    if (!well_formed(m)) return Matrix{};
    Matrix t = zeros(m.cols, m.rows);
    for (int i = 0; i < m.rows; i++)
        for (int j = 0; j < m.cols; j++) t.at(j, i) = m.at(i, j);
    return t;
}

// (ab)_ij = sum_k a_ik b_kj   (summed in order of k, like dot(); a shape mismatch gives 0 x 0)
Matrix matmul(const Matrix& a, const Matrix& b) {
    if (!well_formed(a) || !well_formed(b) || a.cols != b.rows) return Matrix{};
    // Loop order i-k-j: the inner loop walks a row of b and a row of c, contiguous in memory,
    // so the compiler can vectorise it (wasm SIMD included). Same sums, added in the same k order.
    Matrix c = zeros(a.rows, b.cols);
    for (int i = 0; i < a.rows; i++)
        for (int k = 0; k < a.cols; k++) {
            const double aik = a.at(i, k);
            const double* brow = &b.data[static_cast<std::size_t>(k) * b.cols];
            double* crow = &c.data[static_cast<std::size_t>(i) * c.cols];
            for (int j = 0; j < b.cols; j++) crow[j] += aik * brow[j];
        }
    return c;
}

// concat = [O_1 | O_2 | ... | O_h]   (n x sum of head widths)
Matrix concat_heads(const std::vector<HeadResult>& heads) {
    if (heads.empty()) return Matrix{};
    int n = heads[0].output.rows, width = 0;
    for (const HeadResult& h : heads) {
        if (h.output.rows != n || !well_formed(h.output)) return Matrix{};
        width += h.output.cols;
    }
    Matrix c = zeros(n, width);
    int offset = 0;
    for (const HeadResult& h : heads) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < h.output.cols; j++) c.at(i, offset + j) = h.output.at(i, j);
        offset += h.output.cols;
    }
    return c;
}

// d_model in 1..512, h in 1..8, and h divides d_model (so every head has d_k = d_model / h)
std::optional<Error> check_heads(int d_model, int heads) {
    if (auto e = check_model_width(d_model)) return e;
    if (heads < 1 || heads > kMaxHeads)
        return error(ErrorCode::BadHeads, "The number of heads is " + std::to_string(heads) +
                                              "; it must be 1 to " + std::to_string(kMaxHeads) +
                                              ".");
    if (d_model % heads != 0)
        return error(ErrorCode::BadHeads, "The model width " + std::to_string(d_model) +
                                              " cannot be split evenly into " +
                                              std::to_string(heads) + " heads.");
    return std::nullopt;
}

// Wq, Wk, Wv of each head are d_model x d_k (the same d_k for every head, 1..512);
// Wo is (h * d_k) x d_model; 1..8 heads; every number finite.
std::optional<Error> check_projections(const Projections& p, int d_model) {
    if (auto e = check_model_width(d_model)) return e;
    const int h = static_cast<int>(p.heads.size());
    if (h < 1 || h > kMaxHeads)
        return error(ErrorCode::BadHeads, "There are " + std::to_string(h) +
                                              " heads; there must be 1 to " +
                                              std::to_string(kMaxHeads) + ".");
    const int d_k = p.heads[0].wq.cols;
    if (d_k < 1 || d_k > kMaxDimension)
        return error(ErrorCode::BadDimension,
                     "Each head's width d_k must be 1 to " + std::to_string(kMaxDimension) + ".");
    for (int i = 0; i < h; i++) {
        const std::string head = "Head " + std::to_string(i + 1) + "'s ";
        if (auto e = check_matrix(p.heads[i].wq, d_model, d_k, head + "Wq")) return e;
        if (auto e = check_matrix(p.heads[i].wk, d_model, d_k, head + "Wk")) return e;
        if (auto e = check_matrix(p.heads[i].wv, d_model, d_k, head + "Wv")) return e;
    }
    if (auto e = check_matrix(p.wo, h * d_k, d_model, "Wo")) return e;
    return std::nullopt;
}

// One head: Q = X Wq, K = X Wk, V = X Wv; S = Q K^T * scale;
// row i: w_i = softmax(mask_i(S_i / T)) with the same step functions as attend(); O = W V.
// Mask of row i: padding keys, and (causal) keys j > i.
static HeadResult attend_head(const Matrix& x, const HeadProjection& w, const SequenceOptions& o) {
    HeadResult r;
    r.q = matmul(x, w.wq);
    r.k = matmul(x, w.wk);
    r.v = matmul(x, w.wv);
    const int n = x.rows;
    r.scale = scale_factor(r.q.cols, o.scale);
    r.scores = matmul(r.q, transpose(r.k));
    for (double& s : r.scores.data) s *= r.scale;
    r.weights = zeros(n, n);
    r.status.assign(static_cast<std::size_t>(n), RowStatus::Ok);
    FocusInput mask_input;  // only the mask fields: build_mask() reads positions and flags
    mask_input.keys.resize(static_cast<std::size_t>(n));
    mask_input.padding = o.padding;
    mask_input.options.causal = o.causal;
    for (int i = 0; i < n; i++) {
        mask_input.focus_position = i;
        Vector logits =
            apply_mask(apply_temperature(row(r.scores, i), o.temperature), build_mask(mask_input));
        Vector weights = softmax(logits, &r.status[static_cast<std::size_t>(i)]);
        for (int j = 0; j < n; j++) r.weights.at(i, j) = weights[static_cast<std::size_t>(j)];
    }
    r.output = matmul(r.weights, r.v);
    return r;
}

// MultiHead(X) = [head_1 | ... | head_h] Wo
Result<SequenceResult> self_attention(const Matrix& x, const Projections& p,
                                      const SequenceOptions& options) {
    if (!well_formed(x))
        return error(ErrorCode::DimensionMismatch,
                     "The input matrix has the wrong number of "
                     "entries for its shape.");
    if (x.rows < 1) return error(ErrorCode::EmptyCandidates, "The sequence has no tokens.");
    if (x.rows > kMaxSequenceTokens)
        return error(ErrorCode::TooManyTokens,
                     "The sequence has " + std::to_string(x.rows) + " tokens; at most " +
                         std::to_string(kMaxSequenceTokens) + " are allowed.");
    if (auto e = check_matrix(x, x.rows, x.cols, "The input matrix")) return *e;
    if (auto e = check_projections(p, x.cols)) return *e;
    if (auto e = check_temperature(options.temperature)) return *e;
    if (!options.padding.empty() && options.padding.size() != static_cast<std::size_t>(x.rows))
        return error(ErrorCode::DimensionMismatch,
                     "The padding list has " + std::to_string(options.padding.size()) +
                         " entries but the sequence has " + std::to_string(x.rows) + " tokens.");
    SequenceResult r;
    for (const HeadProjection& w : p.heads) {
        r.heads.push_back(attend_head(x, w, options));
        const HeadResult& h = r.heads.back();
        if (!all_finite(h.scores) || !all_finite(h.output))
            return error(ErrorCode::NonFinite,
                         "The scores are too large to represent; use smaller numbers.");
        for (double s : h.scores.data)
            if (!std::isfinite(s / options.temperature))
                return error(ErrorCode::BadTemperature,
                             "Dividing the scores by this temperature gives numbers too large to "
                             "represent; use a larger temperature.");
    }
    r.concat = concat_heads(r.heads);
    r.output = matmul(r.concat, p.wo);
    if (!all_finite(r.output))
        return error(ErrorCode::NonFinite,
                     "The output is too large to represent; use smaller numbers.");
    return r;
}

}  // namespace attn
