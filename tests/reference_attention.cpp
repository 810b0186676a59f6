// reference_attention.cpp - see reference_attention.h. Written for clarity, not speed.
#include "reference_attention.h"

#include <cmath>

namespace ref {

namespace {

// softmax over the entries with allowed[j]; others 0. Uses long double and the max shift.
Vec softmax_allowed(const Vec& logits, const std::vector<bool>& allowed, bool* none) {
    Vec w(logits.size(), 0.0);
    bool any = false;
    long double max = 0.0L;
    for (std::size_t j = 0; j < logits.size(); j++) {
        if (!allowed[j]) continue;
        if (!any || logits[j] > max) max = logits[j];
        any = true;
    }
    *none = !any;
    if (!any) return w;
    long double total = 0.0L;
    for (std::size_t j = 0; j < logits.size(); j++)
        if (allowed[j]) total += std::exp(static_cast<long double>(logits[j]) - max);
    for (std::size_t j = 0; j < logits.size(); j++)
        if (allowed[j])
            w[j] = static_cast<double>(std::exp(static_cast<long double>(logits[j]) - max) / total);
    return w;
}

}  // namespace

Step attend(const Vec& q, const Mat& keys, const Mat& values, const std::vector<bool>& masked,
            bool scale, double temperature) {
    Step s;
    const std::size_t n = keys.size(), d = q.size();
    std::vector<bool> allowed(n, true);
    for (std::size_t j = 0; j < n; j++) {
        long double sum = 0.0L;
        for (std::size_t i = 0; i < d; i++)
            sum += static_cast<long double>(q[i]) * static_cast<long double>(keys[j][i]);
        s.dot_products.push_back(static_cast<double>(sum));
        s.scaled.push_back(
            static_cast<double>(scale ? sum / std::sqrt(static_cast<long double>(d)) : sum));
        if (j < masked.size() && masked[j]) allowed[j] = false;
    }
    Vec logits;
    for (double x : s.scaled) logits.push_back(x / temperature);
    s.weights = softmax_allowed(logits, allowed, &s.all_masked);
    const std::size_t dv = values.empty() ? 0 : values[0].size();
    for (std::size_t i = 0; i < dv; i++) {
        long double sum = 0.0L;
        for (std::size_t j = 0; j < n; j++) sum += s.weights[j] * values[j][i];
        s.output.push_back(static_cast<double>(sum));
    }
    return s;
}

Mat matmul(const Mat& a, const Mat& b) {
    const std::size_t n = a.size(), m = b.empty() ? 0 : b[0].size(), inner = b.size();
    Mat c(n, Vec(m, 0.0));
    for (std::size_t i = 0; i < n; i++)
        for (std::size_t j = 0; j < m; j++) {
            long double sum = 0.0L;
            for (std::size_t k = 0; k < inner; k++) sum += (long double)a[i][k] * b[k][j];
            c[i][j] = static_cast<double>(sum);
        }
    return c;
}

Sequence self_attention(const Mat& x, const std::vector<Head>& heads, const Mat& wo, bool scale,
                        double temperature, bool causal, const std::vector<bool>& padding) {
    Sequence r;
    const std::size_t n = x.size();
    r.concat.assign(n, Vec{});
    for (const Head& h : heads) {
        Mat q = matmul(x, h.wq), k = matmul(x, h.wk), v = matmul(x, h.wv);
        const std::size_t dk = q.empty() ? 0 : q[0].size();
        Mat scores(n, Vec(n, 0.0)), weights(n, Vec(n, 0.0)), out(n, Vec(dk, 0.0));
        for (std::size_t i = 0; i < n; i++) {
            std::vector<bool> allowed(n, true);
            Vec logits(n, 0.0);
            for (std::size_t j = 0; j < n; j++) {
                long double sum = 0.0L;
                for (std::size_t c = 0; c < dk; c++) sum += (long double)q[i][c] * k[j][c];
                if (scale) sum /= std::sqrt(static_cast<long double>(dk));
                scores[i][j] = static_cast<double>(sum);
                logits[j] = scores[i][j] / temperature;
                if ((causal && j > i) || (j < padding.size() && padding[j])) allowed[j] = false;
            }
            bool none = false;
            weights[i] = softmax_allowed(logits, allowed, &none);
            for (std::size_t c = 0; c < dk; c++) {
                long double sum = 0.0L;
                for (std::size_t j = 0; j < n; j++) sum += (long double)weights[i][j] * v[j][c];
                out[i][c] = static_cast<double>(sum);
            }
            for (std::size_t c = 0; c < dk; c++) r.concat[i].push_back(out[i][c]);
        }
        r.q.push_back(q);
        r.k.push_back(k);
        r.v.push_back(v);
        r.scores.push_back(scores);
        r.weights.push_back(weights);
        r.outputs.push_back(out);
    }
    r.output = matmul(r.concat, wo);
    return r;
}

}  // namespace ref
