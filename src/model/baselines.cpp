// baselines.cpp - bits per byte of the model and of count-based unigram and bigram baselines,
// all on the same predicted tokens (val ids 1..N-1).
#include <algorithm>
#include <cmath>

#include "model.h"

namespace attn {

namespace {

double predicted_bytes(const Bpe& bpe, const std::vector<int>& ids) {
    double bytes = 0;
    for (std::size_t t = 1; t < ids.size(); t++)
        bytes += static_cast<double>(bpe.token_bytes[static_cast<std::size_t>(ids[t])].size());
    return bytes;
}

}  // namespace

// unigram: p(b) = (c(b) + 1) / (N + V); bigram: p(b|a) = (c(a,b) + mu p(b)) / (c(a) + mu)
Baselines count_baselines(const Bpe& bpe, const std::vector<int>& train,
                          const std::vector<int>& val) {
    const std::size_t V = static_cast<std::size_t>(bpe.vocab());
    std::vector<double> uni(V, 0.0), from(V, 0.0), bi(V * V, 0.0);
    for (int id : train) uni[static_cast<std::size_t>(id)] += 1;
    for (std::size_t t = 1; t < train.size(); t++) {
        from[static_cast<std::size_t>(train[t - 1])] += 1;
        bi[static_cast<std::size_t>(train[t - 1]) * V + static_cast<std::size_t>(train[t])] += 1;
    }
    std::vector<double> p_uni(V);
    for (std::size_t b = 0; b < V; b++)
        p_uni[b] = (uni[b] + 1.0) / (static_cast<double>(train.size()) + static_cast<double>(V));
    const double bytes = predicted_bytes(bpe, val), ln2 = std::log(2.0);
    Baselines out;
    double nats = 0;
    for (std::size_t t = 1; t < val.size(); t++)
        nats -= std::log(p_uni[static_cast<std::size_t>(val[t])]);
    out.unigram_bpb = nats / ln2 / bytes;
    out.bigram_bpb = INFINITY;
    for (double mu : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0}) {
        nats = 0;
        for (std::size_t t = 1; t < val.size(); t++) {
            const std::size_t a = static_cast<std::size_t>(val[t - 1]);
            const std::size_t b = static_cast<std::size_t>(val[t]);
            nats -= std::log((bi[a * V + b] + mu * p_uni[b]) / (from[a] + mu));
        }
        const double bpb = nats / ln2 / bytes;
        if (bpb < out.bigram_bpb) {
            out.bigram_bpb = bpb;
            out.bigram_prior = mu;
        }
    }
    return out;
}

void count_byte_baselines(std::string_view train, std::string_view val, Baselines* out) {
    const Bpe bytes = bpe_train("", kByteTokens);  // ids = bytes, one byte per token
    std::vector<int> t(train.begin(), train.end()), v(val.begin(), val.end());
    for (int& x : t) x = static_cast<unsigned char>(x);
    for (int& x : v) x = static_cast<unsigned char>(x);
    const Baselines b = count_baselines(bytes, t, v);
    out->byte_unigram_bpb = b.unigram_bpb;
    out->byte_bigram_bpb = b.bigram_bpb;
}

double evaluate_bpb(const Model& m, const std::vector<float>& params, const std::vector<int>& ids,
                    int max_windows, const ForwardOptions& options) {
    const int ctx = m.config.context;
    const ModelParams<const float> p = view_params(m.config, params.data());
    Activations<float> acts;
    double nats = 0, bytes = 0;
    int windows = 0;
    for (std::size_t s = 0; s + 1 < ids.size(); s += static_cast<std::size_t>(ctx)) {
        if (max_windows > 0 && windows == max_windows) break;
        const int n = static_cast<int>(std::min<std::size_t>(ctx, ids.size() - 1 - s));
        model_forward<float>(m.config, p, ids.data() + s, ids.data() + s + 1, n, acts, options);
        for (int t = 0; t < n; t++) {
            nats += static_cast<double>(acts.losses[static_cast<std::size_t>(t)]);
            bytes += static_cast<double>(
                m.bpe
                    .token_bytes[static_cast<std::size_t>(ids[s + 1 + static_cast<std::size_t>(t)])]
                    .size());
        }
        windows++;
    }
    return bytes > 0 ? nats / std::log(2.0) / bytes : 0.0;
}

}  // namespace attn
