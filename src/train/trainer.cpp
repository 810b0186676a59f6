// trainer.cpp - the training loop. Formulas at each function; see trainer.h.
#include "trainer.h"

#include <chrono>
#include <algorithm>
#include <cmath>

namespace attn {

namespace {

std::uint64_t next_u64(std::uint64_t& s) {  // splitmix64
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
double next_unit(std::uint64_t& s) {
    return static_cast<double>(next_u64(s) >> 11) / 9007199254740992.0;
}

}  // namespace

double learning_rate(const TrainOptions& o, int step) {
    if (step < o.warmup) return o.lr * (step + 1) / o.warmup;
    const double progress =
        o.steps > o.warmup ? static_cast<double>(step - o.warmup) / (o.steps - o.warmup) : 1.0;
    const double lo = o.lr * o.min_lr_fraction;
    return lo + (o.lr - lo) * 0.5 * (1.0 + std::cos(3.141592653589793 * std::min(1.0, progress)));
}

double clip_gradients(std::vector<float>& g, double clip) {
    double sq = 0;
    for (float x : g) sq += static_cast<double>(x) * x;
    const double norm = std::sqrt(sq);
    if (norm > clip) {
        const float k = static_cast<float>(clip / norm);
        for (float& x : g) x *= k;
    }
    return norm;
}

void adamw_update(std::vector<float>& w, const std::vector<float>& g, AdamState& s,
                  const std::vector<char>& decay, double lr, const TrainOptions& o) {
    if (s.m.size() != w.size()) {
        s.m.assign(w.size(), 0.0f);
        s.v.assign(w.size(), 0.0f);
    }
    s.t++;
    const float b1 = static_cast<float>(o.beta1), b2 = static_cast<float>(o.beta2);
    const float c1 = static_cast<float>(1.0 - std::pow(o.beta1, s.t));
    const float c2 = static_cast<float>(1.0 - std::pow(o.beta2, s.t));
    const float rate = static_cast<float>(lr), wd = static_cast<float>(o.weight_decay);
    const float eps = static_cast<float>(o.eps);
    for (std::size_t i = 0; i < w.size(); i++) {
        s.m[i] = b1 * s.m[i] + (1 - b1) * g[i];
        s.v[i] = b2 * s.v[i] + (1 - b2) * g[i] * g[i];
        const float mhat = s.m[i] / c1, vhat = s.v[i] / c2;
        w[i] -= rate * (mhat / (std::sqrt(vhat) + eps) + (decay[i] ? wd * w[i] : 0.0f));
    }
}

// A sequence is, with probability synthetic_fraction, a random unit r of synthetic_min..max
// tokens (at most context / 2) repeated once, r r (2|r| tokens; only the second copy's
// predictable tokens r_1.. are scored), like the induction test of analyse_heads(); with
// probability alternating_fraction two random tokens alternating, a b a b ... (33 tokens);
// otherwise context + 1 tokens of the corpus at a random offset.
Batch sample_batch(const ModelConfig& c, const std::vector<int>& train, const TrainOptions& o,
                   std::uint64_t& rng) {
    Batch b;
    const std::size_t len = static_cast<std::size_t>(c.context) + 1;
    for (int s = 0; s < o.batch; s++) {
        std::vector<int> seq;
        std::size_t unscored = 0;
        const double kind = next_unit(rng);
        if (kind >= o.synthetic_fraction && kind < o.synthetic_fraction + o.alternating_fraction) {
            const int a = static_cast<int>(next_u64(rng) % static_cast<std::uint64_t>(c.vocab));
            const int z = static_cast<int>(next_u64(rng) % static_cast<std::uint64_t>(c.vocab));
            seq.resize(static_cast<std::size_t>(std::min(33, c.context + 1)));
            for (std::size_t t = 0; t < seq.size(); t++) seq[t] = t % 2 ? z : a;
            unscored = 1;  // target 0 (the first b) cannot be predicted
        } else if (kind < o.synthetic_fraction) {
            const int span = o.synthetic_max - o.synthetic_min + 1;
            const int unit = std::max(2, std::min(c.context / 2, o.synthetic_min + static_cast<int>(
                                                                     next_u64(rng) % span)));
            std::vector<int> r(static_cast<std::size_t>(unit));
            for (int& id : r) id = static_cast<int>(next_u64(rng) % static_cast<std::uint64_t>(c.vocab));
            seq = r;
            seq.insert(seq.end(), r.begin(), r.end());
            unscored = static_cast<std::size_t>(unit);  // targets 0..unit-1: first copy, and r_0
        } else {
            const std::size_t start = next_u64(rng) % (train.size() - len);
            seq.assign(train.begin() + static_cast<std::ptrdiff_t>(start),
                       train.begin() + static_cast<std::ptrdiff_t>(start + len));
        }
        std::vector<int> in(seq.begin(), seq.end() - 1), tg(seq.begin() + 1, seq.end());
        for (std::size_t t = 0; t < unscored && t < tg.size(); t++) tg[t] = -1;
        for (int id : tg) b.scored += id >= 0;
        b.inputs.push_back(std::move(in));
        b.targets.push_back(std::move(tg));
    }
    return b;
}

TrainCurve train_model(Model& m, const std::vector<int>& train, const std::vector<int>& val,
                       const TrainOptions& o, const TrainHooks& hooks) {
    const ModelConfig& c = m.config;
    std::vector<char> decay(m.params.size(), 0);
    for (const TensorInfo& t : parameter_tensors(c))
        if (t.matrix)
            std::fill(decay.begin() + static_cast<std::ptrdiff_t>(t.offset),
                      decay.begin() + static_cast<std::ptrdiff_t>(t.offset) + t.rows * t.cols, 1);
    std::vector<float> grads(m.params.size());
    AdamState adam;
    Activations<float> acts;
    std::uint64_t rng = o.seed;
    TrainCurve curve;
    const auto start = std::chrono::steady_clock::now();
    for (int step = 0; step < o.steps; step++) {
        if (hooks.stop && hooks.stop()) {
            curve.stopped = true;
            break;
        }
        const Batch b = sample_batch(c, train, o, rng);
        std::fill(grads.begin(), grads.end(), 0.0f);
        const ModelParams<const float> p = view_params(c, static_cast<const float*>(m.params.data()));
        const float dloss = 1.0f / static_cast<float>(b.scored);
        double loss = 0;
        for (std::size_t s = 0; s < b.inputs.size(); s++) {
            model_forward<float>(c, p, b.inputs[s].data(), b.targets[s].data(),
                                 static_cast<int>(b.inputs[s].size()), acts);
            for (float x : acts.losses) loss += x;
            model_backward<float>(c, p, acts, b.targets[s].data(), dloss, grads.data());
        }
        loss /= static_cast<double>(b.scored);
        StepReport r;
        r.step = step + 1;
        r.steps = o.steps;
        r.loss = loss;
        r.grad_norm = clip_gradients(grads, o.clip);
        r.lr = learning_rate(o, step);
        adamw_update(m.params, grads, adam, decay, r.lr, o);
        for (const std::vector<int>& in : b.inputs) curve.tokens += static_cast<long long>(in.size());
        r.tokens = curve.tokens;
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        curve.loss.emplace_back(r.step, loss);
        curve.steps_done = r.step;
        if (hooks.on_step) hooks.on_step(r);
        if (r.step % o.eval_every == 0 || r.step == o.steps) {
            curve.val_bpb.emplace_back(r.step, evaluate_bpb(m, m.params, val, o.eval_windows));
            if (hooks.on_checkpoint) hooks.on_checkpoint(r.step, curve.val_bpb.back().second);
        }
    }
    curve.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return curve;
}

}  // namespace attn
