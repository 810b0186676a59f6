// trainer.h - training the model: batches (corpus windows and repeated random sequences),
// AdamW, warm-up + cosine learning rate, gradient clipping. Seeded, with a fixed thread count, so
// a run is repeatable bit for bit on one build. Used by the trainer executable (main.cpp) and by
// tests/model (a tiny run on a toy corpus).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "model.h"
#include "transformer.h"

namespace attn {

// The defaults are the shipped run's first stage. Its second stage starts from those weights with
// the options scripts/train passes (fewer steps, a lower rate, a few percent of synthetic text so
// the grown heads stay); the model card records both stages' figures.
struct TrainOptions {
    int steps = 6000;
    int batch = 32;                // sequences per step (a corpus one is context + 1 tokens)
    double lr = 8e-3;              // peak learning rate (3e-3 and 5e-3 grew a weaker
                                   // previous-token head and a higher loss in 2,000 steps)
    double min_lr_fraction = 0.1;  // cosine decays to lr * this
    int warmup = 100;              // linear warm-up steps
    double beta1 = 0.9, beta2 = 0.95, eps = 1e-8;
    double weight_decay = 0.1;        // decoupled, on weight matrices and embeddings only
    double clip = 1.0;                // global gradient norm limit
    double synthetic_fraction = 0.2;  // share of sequences that are random tokens repeated once
    int synthetic_min = 8, synthetic_max = 24;  // length of the repeated unit
    int prefix_max = 32;             // random tokens before a repeat: 0..this (and the room);
                                     // short repeats are cheap, and the plateau before an
                                     // induction head is said to grow with the length
    double triplet_fraction = 0.15;  // share of sequences "a b a c d c ...": the last token of
                                     // each triplet is the one before the one before, so only a
                                     // head that attends to the previous token predicts it
    double copy_fraction = 0.3;      // share of corpus windows in which a span (synthetic_min..max
                                     // tokens) is copied further on in the same window
    std::uint64_t seed = 1234;
    int threads = 2;                          // the batch is split over this many threads; a run is
                                              // repeatable bit for bit for the same count and build
    int eval_every = 250, eval_windows = 32;  // validation bits/byte on a subset, every N steps
    std::vector<int> random_tokens;  // what repeats and triplets draw from (empty: every id);
                                     // the trainer passes text_tokens(), as analyse_heads uses
};

struct StepReport {
    int step = 0, steps = 0;
    double loss = 0;  // mean train loss of the step (nats per predicted token)
    double lr = 0, grad_norm = 0;
    double seconds = 0;    // since the start of training
    long long tokens = 0;  // tokens processed so far
};
struct TrainCurve {
    std::vector<std::pair<int, double>> loss;     // (step, train loss in nats)
    std::vector<std::pair<int, double>> val_bpb;  // (step, validation bits/byte on the subset)
    int steps_done = 0;
    bool stopped = false;  // stop() said yes before the last step
    double seconds = 0;
    long long tokens = 0;
};
struct TrainHooks {
    std::function<void(const StepReport&)> on_step;               // after every step
    std::function<void(int step, double val_bpb)> on_checkpoint;  // after every evaluation
    std::function<bool()> stop;                                   // checked before every step
};

// lr(step) = lr (step + 1) / warmup during warm-up, then
// lr_min + (lr - lr_min) (1 + cos(pi progress)) / 2
double learning_rate(const TrainOptions& o, int step);
// g *= clip / ||g|| when ||g|| > clip; returns ||g|| before clipping
double clip_gradients(std::vector<float>& grads, double clip);

struct AdamState {
    std::vector<float> m, v;  // first and second moments, like the parameters
    int t = 0;                // updates done
};
// m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2;  w -= lr (m^ / (sqrt(v^) + eps) + wd w [decay])
void adamw_update(std::vector<float>& params, const std::vector<float>& grads, AdamState& s,
                  const std::vector<char>& decay, double lr, const TrainOptions& o);

// One batch: inputs and targets per sequence (target -1 = not scored).
struct Batch {
    std::vector<std::vector<int>> inputs, targets;
    long long scored = 0;  // targets >= 0
};
Batch sample_batch(const ModelConfig& c, const std::vector<int>& train, const TrainOptions& o,
                   std::uint64_t& rng);

// Trains m.params in place on train ids; evaluates on val ids every eval_every steps.
TrainCurve train_model(Model& m, const std::vector<int>& train, const std::vector<int>& val,
                       const TrainOptions& o, const TrainHooks& hooks = {});

}  // namespace attn
