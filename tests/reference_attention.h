// reference_attention.h - a deliberately naive attention, for the tests only.
// Triple loops, long double sums, no code shared with src/engine. If the engine and this
// disagree beyond the stated tolerance, one of them is wrong.
#pragma once

#include <vector>

namespace ref {

using Vec = std::vector<double>;
using Mat = std::vector<std::vector<double>>;  // Mat[row][col]

struct Step {
    Vec dot_products, scaled, weights, output;
    bool all_masked = false;
};

// One focus step: dot_j = sum_i q_i k_ji; scaled_j = dot_j / sqrt(d) (if scale);
// weights = softmax(scaled / T) over unmasked j (masked -> 0); output = sum_j w_j v_j.
Step attend(const Vec& q, const Mat& keys, const Mat& values, const std::vector<bool>& masked,
            bool scale, double temperature);

// c = a b, by the textbook triple loop
Mat matmul(const Mat& a, const Mat& b);

struct Head {
    Mat wq, wk, wv;  // d_model x d_k
};
struct Sequence {
    std::vector<Mat> q, k, v, scores, weights, outputs;  // per head
    Mat concat, output;
};
// Multi-head self-attention, every loop written out: scores_ij = (q_i . k_j) / sqrt(d_k),
// masks (causal j > i, padding), softmax per row, O = W V, concat, concat Wo.
Sequence self_attention(const Mat& x, const std::vector<Head>& heads, const Mat& wo, bool scale,
                        double temperature, bool causal, const std::vector<bool>& padding);

}  // namespace ref
