// reference_transformer.h - a deliberately naive transformer forward pass, for the tests only.
// Long double, textbook loops, every formula written out again; it shares no maths with
// src/engine (only the parameter layout, read by tensor name). If the engine and this disagree
// beyond the stated tolerance, one of them is wrong.
#pragma once

#include <vector>

#include "transformer.h"

namespace ref {

struct TransformerOut {
    std::vector<std::vector<long double>> logits;                // n x V
    std::vector<std::vector<std::vector<long double>>> weights;  // (L*H) x n x n, causal
    long double mean_loss = 0;                                   // if targets given
};

// flat: the parameters in the engine's layout (attn::parameter_tensors)
TransformerOut transformer_forward(const attn::ModelConfig& c, const std::vector<double>& flat,
                                   const std::vector<int>& tokens, const std::vector<int>& targets);

}  // namespace ref
