// trainer.cpp - the training loop. Formulas at each function; see trainer.h.
#include "trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace attn {

namespace {

std::uint64_t next_u64(std::uint64_t& s) {  // splitmix64
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
std::size_t sz(int v) { return static_cast<std::size_t>(v); }
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

// A sequence is, with probability synthetic_fraction, a random prefix then a random unit r of
// synthetic_min..max tokens (at most context / 2) repeated once, p r r (only the second copy's
// predictable tokens r_1.. are scored), like the induction test of analyse_heads(); with
// probability triplet_fraction random triplets a b a c d c ... (only each third token scored);
// otherwise context + 1 tokens of the corpus at a random offset, in which, with probability
// copy_fraction, a span is copied further on.
Batch sample_batch(const ModelConfig& c, const std::vector<int>& train, const TrainOptions& o,
                   std::uint64_t& rng) {
    Batch b;
    const std::size_t len = static_cast<std::size_t>(c.context) + 1;
    for (int s = 0; s < o.batch; s++) {
        std::vector<int> seq;
        std::size_t unscored = 0;  // targets 0..unscored-1 are not scored
        bool triplets = false;     // only each triplet's last token is scored
        auto random_token = [&]() {
            const std::vector<int>& pool = o.random_tokens;
            return pool.empty()
                       ? static_cast<int>(next_u64(rng) % static_cast<std::uint64_t>(c.vocab))
                       : pool[next_u64(rng) % pool.size()];
        };
        auto random_length = [&]() {  // synthetic_min..synthetic_max
            return o.synthetic_min +
                   static_cast<int>(next_u64(rng) % static_cast<std::uint64_t>(
                                                        o.synthetic_max - o.synthetic_min + 1));
        };
        const double kind = next_unit(rng);
        if (kind >= o.synthetic_fraction && kind < o.synthetic_fraction + o.triplet_fraction) {
            // a b a, c d c, ...: random a, b per triplet; only each triplet's last token is
            // scored, and only the token before it (never an earlier one) tells what it is
            seq.resize(static_cast<std::size_t>(c.context + 1) / 3 * 3);
            for (std::size_t t = 0; t + 2 < seq.size(); t += 3) {
                seq[t] = seq[t + 2] = random_token();
                seq[t + 1] = random_token();
            }
            triplets = true;
        } else if (kind < o.synthetic_fraction) {
            const int unit = std::max(2, std::min(c.context / 2, random_length()));
            // a random prefix of 0..context + 1 - 2|unit| tokens first, so the copy's place
            // varies: without it the model learns the position arithmetic of "r r from 0"
            // instead of an induction head
            const int room = c.context + 1 - 2 * unit;
            const int most = std::min(room, o.prefix_max);
            const int prefix =
                static_cast<int>(next_u64(rng) % static_cast<std::uint64_t>(most + 1));
            std::vector<int> r(static_cast<std::size_t>(unit));
            for (int& id : r) id = random_token();
            for (int t = 0; t < prefix; t++) seq.push_back(random_token());
            seq.insert(seq.end(), r.begin(), r.end());
            seq.insert(seq.end(), r.begin(), r.end());
            // targets 0..prefix + unit - 1: the prefix, the first copy, and r_0
            unscored = static_cast<std::size_t>(prefix + unit);
        } else {
            const std::size_t start = next_u64(rng) % (train.size() - len);
            seq.assign(train.begin() + static_cast<std::ptrdiff_t>(start),
                       train.begin() + static_cast<std::ptrdiff_t>(start + len));
            if (next_unit(rng) < o.copy_fraction) {
                // copy a span of the window further on: w[b..b+u) = w[a..a+u), b >= a + u
                const int u = std::min(static_cast<int>(len) / 2, random_length());
                const std::size_t room = len - 2 * static_cast<std::size_t>(u);  // a + gap
                const std::size_t a = next_u64(rng) % (room + 1);
                const std::size_t b =
                    a + static_cast<std::size_t>(u) + next_u64(rng) % (room - a + 1);
                std::copy(seq.begin() + static_cast<std::ptrdiff_t>(a),
                          seq.begin() + static_cast<std::ptrdiff_t>(a) + u,
                          seq.begin() + static_cast<std::ptrdiff_t>(b));
            }
        }
        std::vector<int> in(seq.begin(), seq.end() - 1), tg(seq.begin() + 1, seq.end());
        for (std::size_t t = 0; t < unscored && t < tg.size(); t++) tg[t] = -1;
        if (triplets)  // target t = seq[t + 1]: scored when t + 1 = 2 mod 3
            for (std::size_t t = 0; t < tg.size(); t++)
                if (t % 3 != 1) tg[t] = -1;
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
    struct Worker {
        std::vector<float> grads;
        Activations<float> acts;
        double loss = 0;
    };
    const int threads = std::max(1, std::min(o.threads, o.batch));
    std::vector<Worker> workers(static_cast<std::size_t>(threads));
    for (Worker& k : workers) k.grads.resize(m.params.size());
    AdamState adam;
    std::uint64_t rng = o.seed;
    TrainCurve curve;
    const auto start = std::chrono::steady_clock::now();
    for (int step = 0; step < o.steps; step++) {
        if (hooks.stop && hooks.stop()) {
            curve.stopped = true;
            break;
        }
        const Batch b = sample_batch(c, train, o, rng);
        const ModelParams<const float> p =
            view_params(c, static_cast<const float*>(m.params.data()));
        const float dloss = 1.0f / static_cast<float>(b.scored);
        // Thread w takes sequences [w B / T, (w + 1) B / T) into its own gradient buffer; the
        // buffers and losses are then summed in thread order, so a run with the same T is
        // repeatable bit for bit.
        auto work = [&](int w) {
            Worker& k = workers[static_cast<std::size_t>(w)];
            std::fill(k.grads.begin(), k.grads.end(), 0.0f);
            k.loss = 0;
            const std::size_t B = b.inputs.size();
            for (std::size_t s = B * sz(w) / sz(threads); s < B * sz(w + 1) / sz(threads); s++) {
                model_forward<float>(c, p, b.inputs[s].data(), b.targets[s].data(),
                                     static_cast<int>(b.inputs[s].size()), k.acts);
                for (float x : k.acts.losses) k.loss += x;
                model_backward<float>(c, p, k.acts, b.targets[s].data(), dloss, k.grads.data());
            }
        };
#ifdef __EMSCRIPTEN__  // no threads in the wasm build (the tests): the same workers in turn,
        for (int w = 0; w < threads; w++) work(w);  // so the same sums, bit for bit
#else
        std::vector<std::thread> pool;
        for (int w = 1; w < threads; w++) pool.emplace_back(work, w);
        work(0);
        for (std::thread& t : pool) t.join();
#endif
        std::vector<float>& grads = workers[0].grads;
        double loss = workers[0].loss;
        for (int w = 1; w < threads; w++) {
            const Worker& k = workers[static_cast<std::size_t>(w)];
            for (std::size_t i = 0; i < grads.size(); i++) grads[i] += k.grads[i];
            loss += k.loss;
        }
        loss /= static_cast<double>(b.scored);
        StepReport r;
        r.step = step + 1;
        r.steps = o.steps;
        r.loss = loss;
        r.grad_norm = clip_gradients(grads, o.clip);
        r.lr = learning_rate(o, step);
        adamw_update(m.params, grads, adam, decay, r.lr, o);
        for (const std::vector<int>& in : b.inputs)
            curve.tokens += static_cast<long long>(in.size());
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
