// softmax.cpp - the numerically stable softmax of one row of logits.
#include <cmath>
#include <limits>

#include "attention.h"

namespace attn {

// w_j = exp(l_j - m) / sum_k exp(l_k - m),  m = max_k l_k
// Numerical choices:
//  - subtracting the max m leaves the weights unchanged (the factor exp(-m) cancels) and makes
//    every exponent <= 0, so exp never overflows, even for scores like +-1000;
//  - a masked logit is -infinity, and exp(-infinity) = 0 exactly, so masked weights are exactly 0;
//  - the largest term is exp(0) = 1, so the sum is >= 1 and the division is safe;
//  - a row with no finite logit (every position masked) has no defined softmax: we return all
//    weights 0 and set *status = AllMasked (the output is then the zero vector);
//  - defensive: NaN counts as masked; +infinity entries (limit of a huge logit) share the weight
//    equally. attend() never passes either.
Vector softmax(const Vector& logits, RowStatus* status) {
    const double inf = std::numeric_limits<double>::infinity();
    Vector w(logits.size(), 0.0);
    double m = -inf;
    int plus_inf = 0;
    for (double l : logits) {
        if (l == inf)
            plus_inf++;
        else if (std::isfinite(l) && l > m)
            m = l;
    }
    if (status) *status = RowStatus::Ok;
    if (plus_inf > 0) {
        for (std::size_t j = 0; j < logits.size(); j++)
            if (logits[j] == inf) w[j] = 1.0 / plus_inf;
        return w;
    }
    if (m == -inf) {
        if (status) *status = RowStatus::AllMasked;
        return w;
    }
    double sum = 0.0;
    for (std::size_t j = 0; j < logits.size(); j++) {
        if (std::isfinite(logits[j])) w[j] = std::exp(logits[j] - m);
        sum += w[j];
    }
    for (double& x : w) x /= sum;
    return w;
}

}  // namespace attn
