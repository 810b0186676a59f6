// analysis.cpp - what each head does, measured: attention to the previous token, the first
// token, itself; induction on repeated random tokens; the loss it saves (ablation).
#include "model.h"
#include "model_json.h"

namespace attn {

std::string head_label(const HeadReport& h) {
    if (h.induction >= kInductionThreshold) return "induction";
    if (h.previous_token >= kPreviousTokenThreshold) return "previous-token";
    if (h.self >= kSelfThreshold) return "self";
    if (h.first_token >= kFirstTokenThreshold) return "first-token";
    return "mixed";
}

attn::Json model_config_json(const ModelConfig& c) {
    return {{"vocab", c.vocab}, {"context", c.context}, {"d_model", c.d_model},
            {"heads", c.heads}, {"layers", c.layers},   {"d_ff", c.d_ff}};
}

attn::Json head_report_json(const HeadReport& h) {
    return {{"layer", h.layer},
            {"head", h.head},
            {"previous_token", h.previous_token},
            {"first_token", h.first_token},
            {"self", h.self},
            {"induction", h.induction},
            {"ablation_loss_delta", h.ablation_loss_delta},
            {"label", h.label}};
}

std::vector<HeadReport> analyse_heads(const Model& m, const std::vector<int>& val,
                                      const AnalysisOptions& o) {
    const ModelConfig& c = m.config;
    const ModelParams<const float> p = view_params(c, m.params.data());
    const int L = c.layers, H = c.heads, ctx = c.context;
    std::vector<HeadReport> heads(static_cast<std::size_t>(L * H));
    for (int l = 0; l < L; l++)
        for (int h = 0; h < H; h++) {
            heads[static_cast<std::size_t>(l * H + h)].layer = l;
            heads[static_cast<std::size_t>(l * H + h)].head = h;
        }
    Activations<float> a;
    // previous-token, first-token, self: mean over windows and query positions i >= 1
    double rows = 0;
    for (int w = 0; w < o.windows; w++) {
        const std::size_t s = static_cast<std::size_t>(w) * ctx;
        if (s + 2 > val.size()) break;
        const int n = static_cast<int>(std::min<std::size_t>(ctx, val.size() - s));
        model_forward<float>(c, p, val.data() + s, nullptr, n, a);
        for (int l = 0; l < L; l++)
            for (int h = 0; h < H; h++) {
                HeadReport& r = heads[static_cast<std::size_t>(l * H + h)];
                const std::vector<float>& wt = a.layers[static_cast<std::size_t>(l)].weights;
                for (int i = 1; i < n; i++) {
                    r.previous_token += wt[head_index(n, h, i, i - 1)];
                    r.first_token += wt[head_index(n, h, i, 0)];
                    r.self += wt[head_index(n, h, i, i)];
                }
            }
        rows += n - 1;
    }
    // induction: r_0..r_{K-1} r_0..r_{K-1}; query K + k looks at k + 1 (what followed r_k before)
    std::uint64_t state = o.seed;
    auto next = [&state]() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    // r drawn from text_tokens(), as in training (ids the text never uses carry no identity)
    const std::vector<int> pool = text_tokens(m.bpe);
    const int K = std::min(kInductionLength, ctx / 2);
    double pairs = 0;
    for (int sq = 0; sq < o.induction_sequences && !pool.empty(); sq++) {
        std::vector<int> seq(static_cast<std::size_t>(2 * K));
        for (int k = 0; k < K; k++)
            seq[static_cast<std::size_t>(k)] = seq[static_cast<std::size_t>(K + k)] =
                pool[next() % pool.size()];
        model_forward<float>(c, p, seq.data(), nullptr, 2 * K, a);
        for (int l = 0; l < L; l++)
            for (int h = 0; h < H; h++) {
                const std::vector<float>& wt = a.layers[static_cast<std::size_t>(l)].weights;
                for (int k = 0; k + 1 < K; k++)
                    heads[static_cast<std::size_t>(l * H + h)].induction +=
                        wt[head_index(2 * K, h, K + k, k + 1)];
            }
        pairs += K - 1;
    }
    // ablation: bits per byte on the same windows with one head's output zeroed
    const double base = o.ablation ? evaluate_bpb(m, m.params, val, o.windows) : 0.0;
    for (HeadReport& r : heads) {
        if (rows > 0) {
            r.previous_token /= rows;
            r.first_token /= rows;
            r.self /= rows;
        }
        if (pairs > 0) r.induction /= pairs;
        r.label = head_label(r);
        if (!o.ablation) continue;
        ForwardOptions ablate;
        ablate.ablate_layer = r.layer;
        ablate.ablate_head = r.head;
        r.ablation_loss_delta = evaluate_bpb(m, m.params, val, o.windows, ablate) - base;
    }
    return heads;
}

}  // namespace attn
