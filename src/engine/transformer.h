// transformer.h - a small decoder-only transformer (GPT-2 style), forward and backward, read as a
// table of contents. Written like llm.c: plain structs of numbers, one function per step with its
// formula, each backward function right beside its forward twin. No file I/O, no JSON.
//
//   x_0   = wte[token_t] + wpe[t]                                  embedding
//   for each block l = 0..L-1:
//     a   = LN1(x_l);  Q = a Wq + bq,  K = a Wk + bk,  V = a Wv + bv
//     per head h, query i (the engine's own focus-step functions, step.cpp and softmax.cpp):
//         dot_ij = q_i . k_j     score_ij = dot_ij / sqrt(d_k)    mask j > i (causal)
//         w_i = softmax(score_i)                                   o_i = sum_j w_ij v_j
//     m   = x_l + [o_1 | ... | o_H] Wo + bo                        residual
//     x_l+1 = m + GELU(LN2(m) Wfc + bfc) Wproj + bproj             MLP, residual
//   logits = LNf(x_L) wte^T                                        tied unembedding
//   p = softmax(logits),  loss_t = -ln p[target_t]                 cross-entropy (nats)
//
// Every function is a template on the float type F and is compiled for float (training,
// inference) and double (gradient checks); attention itself always runs in double through the
// engine's step functions, so one head's focus row is exactly the glossary example's code path.
// Shapes: n = tokens in the sequence (1..context), C = d_model, H = heads, D = d_k = C / H,
// Ff = d_ff, V = vocab. Matrices are row-major; a weight W is (in x out), y = x W + b.
// Implementation: transformer.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "attention.h"

namespace attn {

// ---------------------------------------------------------------------------------------------
// Configuration and parameters
// ---------------------------------------------------------------------------------------------
struct ModelConfig {
    int vocab = 512;    // V: token ids 0..V-1
    int context = 128;  // longest sequence (rows of wpe)
    int d_model = 64;   // C
    int heads = 4;      // H, divides C
    int layers = 2;     // L
    int d_ff = 256;     // Ff: MLP hidden width
};
constexpr int kMaxModelVocab = 4096;
constexpr int kMaxModelContext = 1024;
constexpr int kMaxModelLayers = 16;
std::optional<Error> check_model_config(const ModelConfig& c);  // ranges, H divides C
// tokens: 1..context ids, each 0..V-1
std::optional<Error> check_model_tokens(const ModelConfig& c, const std::vector<int>& tokens);

// One parameter tensor inside the flat parameter array. Order (and file order):
// wte (V x C), wpe (context x C); per layer: ln1_g (C), ln1_b (C), wq, wk, wv (C x C each),
// bq, bk, bv (C), wo (C x C), bo (C), ln2_g (C), ln2_b (C), wfc (C x Ff), bfc (Ff),
// wproj (Ff x C), bproj (C); lnf_g (C), lnf_b (C). A vector is stored as 1 x cols.
struct TensorInfo {
    std::string name;        // "wte", "l0.wq", ..., "lnf_b"
    std::size_t offset = 0;  // first element in the flat array
    int rows = 1, cols = 0;  // rows x cols elements
    bool matrix = false;     // a weight matrix (rows > 1 or an embedding): quantised per row
};
std::vector<TensorInfo> parameter_tensors(const ModelConfig& c);  // in the order above
std::size_t parameter_count(const ModelConfig& c);                // total elements

template <class F>
struct LayerParams {  // pointers into the flat array (F may be const)
    F *ln1_g, *ln1_b, *wq, *wk, *wv, *bq, *bk, *bv, *wo, *bo;
    F *ln2_g, *ln2_b, *wfc, *bfc, *wproj, *bproj;
};
template <class F>
struct ModelParams {
    F *wte, *wpe;  // V x C, context x C
    std::vector<LayerParams<F>> layers;
    F *lnf_g, *lnf_b;  // C
};
// Names every tensor inside flat (which holds parameter_count(c) elements). Gradients use the
// same layout, so view_params(c, grads.data()) names the gradient of every tensor.
template <class F>
ModelParams<F> view_params(const ModelConfig& c, F* flat);

// GPT-2 initialisation: weights N(0, 0.02) (residual projections wo, wproj scaled by
// 1/sqrt(2L)), biases 0, LayerNorm gains 1; except Wq, Wk: N(0, 1/C), so that scores start
// near unit spread at this small width (at 0.02 they start ~0.03 and attention stays uniform
// for thousands of steps), and wpe, which starts as sinusoids of the same
// spread (so 'the token before' is a linear function of position from step 0, and
// previous-token heads form early). Deterministic for a seed (own generator).
template <class F>
std::vector<F> init_params(const ModelConfig& c, unsigned long long seed);

// ---------------------------------------------------------------------------------------------
// Activations: every intermediate of one forward pass over one sequence
// ---------------------------------------------------------------------------------------------
template <class F>
struct LayerActivations {
    std::vector<F> x_in;                     // n x C: residual stream before the block
    std::vector<F> ln1, ln1_mean, ln1_rstd;  // n x C, n, n
    std::vector<F> q, k, v;                  // n x C: head h in columns h*D .. h*D+D-1
    std::vector<F> dots;                     // H x n x n: q_i . k_j (before the scale)
    std::vector<F> scores;                   // H x n x n: dot / sqrt(D)
    std::vector<F> weights;                  // H x n x n: softmax over j <= i
                                             // (all three: 0 for j > i, masked)
    std::vector<F> heads_out;                // n x C: [o_1 | ... | o_H]
    std::vector<F> attn_out;                 // n x C: heads_out Wo + bo
    std::vector<F> x_mid;                    // n x C: x_in + attn_out
    std::vector<F> ln2, ln2_mean, ln2_rstd;  // n x C, n, n
    std::vector<F> fc, gelu;                 // n x Ff: before and after GELU
    std::vector<F> mlp_out;                  // n x C: gelu Wproj + bproj
    std::vector<F> x_out;                    // n x C: x_mid + mlp_out (next block's x_in)
};
template <class F>
struct Activations {
    int n = 0;
    std::vector<int> tokens;                  // n
    std::vector<LayerActivations<F>> layers;  // L
    std::vector<F> lnf, lnf_mean, lnf_rstd;   // n x C, n, n
    std::vector<F> logits, probs;             // n x V (probs: softmax of logits)
    std::vector<F> losses;                    // n: -ln p[target] (empty without targets)
};
struct ForwardOptions {
    int ablate_layer = -1, ablate_head = -1;  // zero this head's output (both >= 0), else none
    bool predictions = true;  // false: no logits, probs or losses (a view that needs one row's
                              // next tokens asks next_token_probs(); a quarter of the work saved)
};
// Index of head h's (i, j) entry in dots/scores/weights
inline std::size_t head_index(int n, int h, int i, int j) {
    return (static_cast<std::size_t>(h) * n + i) * n + j;
}

// ---------------------------------------------------------------------------------------------
// Layer steps (forward, then backward; d* are gradients, backward functions ADD into d-weights)
// ---------------------------------------------------------------------------------------------
// x_t = wte[tok_t] + wpe[t]                                                   out: n x C
template <class F>
void embedding_forward(F* out, const int* tokens, int n, const F* wte, const F* wpe, int C);
// dwte[tok_t] += dout_t,  dwpe[t] += dout_t
template <class F>
void embedding_backward(F* dwte, F* dwpe, const F* dout, const int* tokens, int n, int C);

// y = (x - mean) * rstd * g + b,  rstd = 1 / sqrt(var + 1e-5)  (biased variance, per row)
template <class F>
void layernorm_forward(F* out, F* mean, F* rstd, const F* in, const F* g, const F* b, int n, int C);
// dx = rstd (dy g - mean(dy g) - xhat mean(dy g xhat)),  dg += dy xhat,  db += dy
template <class F>
void layernorm_backward(F* din, F* dg, F* db, const F* dout, const F* in, const F* mean,
                        const F* rstd, const F* g, int n, int C);

// out = in W + b   (in: n x IC, W: IC x OC, b: OC or null, out: n x OC)
template <class F>
void matmul_forward(F* out, const F* in, const F* w, const F* b, int n, int IC, int OC);
// din += dout W^T,  dW += in^T dout,  db += sum_t dout_t   (din, db may be null)
template <class F>
void matmul_backward(F* din, F* dw, F* db, const F* dout, const F* in, const F* w, int n, int IC,
                     int OC);

// Causal multi-head attention on Q, K, V (n x C): per head h and query i over candidates 0..i,
// with the engine's dot_products(), scale_factor(), scale_scores(), apply_temperature(T = 1),
// build_mask(causal), apply_mask(), softmax(), mix(). Fills dots, scores, weights (H x n x n;
// 0 for j > i) and out (n x C).
// ablate_head >= 0: that head's output is zero (its weights are still computed).
template <class F>
void attention_forward(F* out, F* dots, F* scores, F* weights, const F* q, const F* k, const F* v,
                       int n, int C, int H, int ablate_head);
// dv_j += sum_i w_ij do_i;  dw_ij = do_i . v_j;  ds_ij = w_ij (dw_ij - sum_k w_ik dw_ik);
// dq_i += sum_j ds_ij k_j / sqrt(D);  dk_j += sum_i ds_ij q_i / sqrt(D)
template <class F>
void attention_backward(F* dq, F* dk, F* dv, const F* dout, const F* weights, const F* q,
                        const F* k, const F* v, int n, int C, int H, int ablate_head);
// The FocusInput of head h's query row i: q_i, keys k_0..k_{n-1}, values, causal, scaled.
// attend() on it reproduces row i of that head's scores and weights (the glossary's code path).
template <class F>
FocusInput head_focus_input(const LayerActivations<F>& a, int n, int C, int H, int h, int i);

// y = x / 2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   (GPT-2's tanh approximation)
template <class F>
void gelu_forward(F* out, const F* in, std::size_t count);
// dx += dy y'(x)
template <class F>
void gelu_backward(F* din, const F* in, const F* dout, std::size_t count);

// out = a + b
template <class F>
void residual_forward(F* out, const F* a, const F* b, std::size_t count);
// da += dout, db += dout
template <class F>
void residual_backward(F* da, F* db, const F* dout, std::size_t count);

// logits_tv = sum_c x_tc wte_vc   (unembedding tied to the token embedding; x: n x C)
template <class F>
void unembed_forward(F* logits, const F* x, const F* wte, int n, int C, int V);
// dx_tc += sum_v dlogits_tv wte_vc,  dwte_vc += sum_t dlogits_tv x_tc
template <class F>
void unembed_backward(F* dx, F* dwte, const F* dlogits, const F* x, const F* wte, int n, int C,
                      int V);

// p_tv = exp(l_tv - max_v l_tv) / sum_u exp(l_tu - max_v l_tv)   (max subtracted: no overflow)
template <class F>
void softmax_forward(F* probs, const F* logits, int n, int V);
// loss_t = -ln p_t[target_t]   (p clamped at the smallest normal number, so never infinite;
// a target < 0 is ignored: loss 0, no gradient)
template <class F>
void crossentropy_forward(F* losses, const F* probs, const int* targets, int n, int V);
// dlogits_tv = dloss * (p_tv - [v == target_t])   (softmax and cross-entropy together)
template <class F>
void crossentropy_softmax_backward(F* dlogits, const F* probs, const int* targets, F dloss, int n,
                                   int V);

// ---------------------------------------------------------------------------------------------
// The whole model
// ---------------------------------------------------------------------------------------------
// Forward over tokens (1..context ids, caller checks); targets (n ids, or null for none) give
// acts.losses. acts is resized as needed, so one Activations can be reused between calls.
template <class F>
void model_forward(const ModelConfig& c, const ModelParams<const F>& p, const int* tokens,
                   const int* targets, int n, Activations<F>& acts,
                   const ForwardOptions& options = {});
// p_v = softmax_v(lnf_t wte^T) at position t of a forward pass (predictions or not): V numbers,
// bit for bit row t of acts.probs
template <class F>
std::vector<F> next_token_probs(const ModelConfig& c, const ModelParams<const F>& p,
                                const Activations<F>& acts, int t);
// Mean loss over the positions of the last forward (needs targets; ignored ones count as 0)
template <class F>
double mean_loss(const Activations<F>& acts);
// Backward of loss_total = dloss * sum_t loss_t through every step; ADDS into grads (same
// layout as the parameters; parameter_count(c) elements). Needs the forward's activations.
template <class F>
void model_backward(const ModelConfig& c, const ModelParams<const F>& p, const Activations<F>& acts,
                    const int* targets, F dloss, F* grads);

}  // namespace attn
