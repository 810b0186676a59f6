// test_transformer.cpp - the transformer's forward pass against a naive long-double reference,
// and its hand-written backward pass against central finite differences, for every tensor.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "attention.h"
#include "reference_transformer.h"
#include "transformer.h"

namespace {

using attn::ModelConfig;

ModelConfig tiny() {  // every dimension different, so a mixed-up shape cannot pass
    ModelConfig c;
    c.vocab = 11;
    c.context = 7;
    c.d_model = 8;
    c.heads = 2;
    c.layers = 2;
    c.d_ff = 12;
    return c;
}

// Parameters large enough that every path carries gradient (the GPT-2 init is too gentle for a
// finite-difference check): N(0, 0.3) everywhere, gains near 1.
std::vector<double> random_params(const ModelConfig& c, unsigned seed) {
    std::vector<double> p = attn::init_params<double>(c, seed);
    unsigned long long s = seed * 2654435761ull + 1;
    for (const attn::TensorInfo& t : attn::parameter_tensors(c))
        for (int e = 0; e < t.rows * t.cols; e++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            const double u = static_cast<double>(s >> 11) / 9007199254740992.0 - 0.5;  // [-.5,.5)
            const bool gain = t.name.find("_g") != std::string::npos;
            p[t.offset + e] = gain ? 1.0 + 0.4 * u : 0.6 * u;
        }
    return p;
}

double loss_of(const ModelConfig& c, const std::vector<double>& p, const std::vector<int>& tok,
               const std::vector<int>& tgt) {
    attn::Activations<double> a;
    attn::model_forward<double>(c, attn::view_params(c, std::as_const(p).data()), tok.data(),
                                tgt.data(), static_cast<int>(tok.size()), a);
    return attn::mean_loss(a);
}

const std::vector<int> kTokens = {3, 0, 7, 3, 10, 7, 1};
const std::vector<int> kTargets = {0, 7, 3, 10, 7, 1, 5};

TEST(TransformerGradient, EveryParameterTensorMatchesCentralFiniteDifferences) {
    const ModelConfig c = tiny();
    std::vector<double> p = random_params(c, 7);
    const int n = static_cast<int>(kTokens.size());
    attn::Activations<double> a;
    attn::model_forward<double>(c, attn::view_params(c, std::as_const(p).data()), kTokens.data(),
                                kTargets.data(), n, a);
    std::vector<double> grads(p.size(), 0.0);
    attn::model_backward<double>(c, attn::view_params(c, std::as_const(p).data()), a,
                                 kTargets.data(), 1.0 / n, grads.data());
    const double h = 1e-5, tol = 1e-4;
    int checked_tensors = 0;
    for (const attn::TensorInfo& t : attn::parameter_tensors(c)) {
        double worst = 0.0, largest = 0.0;
        for (int e = 0; e < t.rows * t.cols; e++) {
            const std::size_t i = t.offset + e;
            const double keep = p[i];
            p[i] = keep + h;
            const double up = loss_of(c, p, kTokens, kTargets);
            p[i] = keep - h;
            const double down = loss_of(c, p, kTokens, kTargets);
            p[i] = keep;
            const double numeric = (up - down) / (2 * h);
            const double scale = std::max(std::abs(numeric), std::abs(grads[i]));
            largest = std::max(largest, scale);
            // relative error where the gradient is not ~0; tiny gradients compare absolutely
            const double err = scale > 1e-6 ? std::abs(numeric - grads[i]) / scale
                                            : std::abs(numeric - grads[i]) / 1e-6;
            worst = std::max(worst, err);
        }
        EXPECT_LT(worst, tol) << t.name;
        // the key bias adds q_i . bk to every score of row i, which softmax cancels: its
        // gradient is exactly 0 (a fact of attention, not a bug), so it is only checked for that
        if (t.name.find(".bk") == std::string::npos) {
            EXPECT_GT(largest, 1e-4) << t.name << " carries no gradient";
        }
        checked_tensors++;
    }
    EXPECT_EQ(checked_tensors, 4 + 16 * c.layers);
}

TEST(TransformerForward, MatchesNaiveLongDoubleReference) {
    const ModelConfig c = tiny();
    const std::vector<double> p = random_params(c, 11);
    const int n = static_cast<int>(kTokens.size());
    attn::Activations<double> a;
    attn::model_forward<double>(c, attn::view_params(c, std::as_const(p).data()), kTokens.data(),
                                kTargets.data(), n, a);
    const ref::TransformerOut r = ref::transformer_forward(c, p, kTokens, kTargets);
    for (int t = 0; t < n; t++)
        for (int u = 0; u < c.vocab; u++)
            EXPECT_NEAR(a.logits[t * c.vocab + u], static_cast<double>(r.logits[t][u]), 1e-10);
    for (int l = 0; l < c.layers; l++)
        for (int h = 0; h < c.heads; h++)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    EXPECT_NEAR(a.layers[l].weights[attn::head_index(n, h, i, j)],
                                static_cast<double>(r.weights[l * c.heads + h][i][j]), 1e-12);
    EXPECT_NEAR(attn::mean_loss(a), static_cast<double>(r.mean_loss), 1e-10);
}

TEST(TransformerForward, FloatBuildAgreesWithReferenceToFloatPrecision) {
    const ModelConfig c = tiny();
    const std::vector<double> p = random_params(c, 5);
    const std::vector<float> pf(p.begin(), p.end());
    const int n = static_cast<int>(kTokens.size());
    attn::Activations<float> a;
    attn::model_forward<float>(c, attn::view_params(c, pf.data()), kTokens.data(), nullptr, n, a);
    const ref::TransformerOut r = ref::transformer_forward(c, p, kTokens, {});
    for (int t = 0; t < n; t++)
        for (int u = 0; u < c.vocab; u++)
            EXPECT_NEAR(a.logits[t * c.vocab + u], static_cast<double>(r.logits[t][u]), 1e-4);
}

TEST(TransformerAttention, HeadRowIsTheGlossaryFocusStep) {
    const ModelConfig c = tiny();
    const std::vector<double> p = random_params(c, 3);
    const int n = static_cast<int>(kTokens.size());
    attn::Activations<double> a;
    attn::model_forward<double>(c, attn::view_params(c, std::as_const(p).data()), kTokens.data(),
                                nullptr, n, a);
    for (int l = 0; l < c.layers; l++)
        for (int h = 0; h < c.heads; h++)
            for (int i = 0; i < n; i++) {
                const attn::FocusInput in =
                    attn::head_focus_input(a.layers[l], n, c.d_model, c.heads, h, i);
                const attn::Result<attn::FocusResult> r = attn::attend(in);
                ASSERT_TRUE(r.ok()) << r.error().message;
                const int D = c.d_model / c.heads;
                for (int j = 0; j < n; j++) {
                    const std::size_t at = attn::head_index(n, h, i, j);
                    if (j <= i) {  // the model never computes masked entries
                        EXPECT_EQ(r.value().dot_products[j], a.layers[l].dots[at]);
                        EXPECT_EQ(r.value().scores[j], a.layers[l].scores[at]);
                    }
                    EXPECT_EQ(r.value().weights[j], a.layers[l].weights[at]);
                    if (j > i) {
                        EXPECT_EQ(r.value().weights[j], 0.0);
                    }
                }
                for (int d = 0; d < D; d++)
                    EXPECT_EQ(r.value().output[d],
                              a.layers[l].heads_out[i * c.d_model + h * D + d]);
            }
}

// The float model at the shipped size (D = 16, 128 tokens): attention_forward's loop nest gives
// the engine's focus step (attend() on head_focus_input()) bit for bit, rounded to float.
TEST(TransformerAttention, FloatHeadRowIsTheGlossaryFocusStepAtFullSize) {
    const ModelConfig c;  // the default (shipped) shape
    const std::vector<float> p = attn::init_params<float>(c, 17);
    std::vector<int> tok(static_cast<std::size_t>(c.context));
    for (std::size_t t = 0; t < tok.size(); t++) tok[t] = static_cast<int>((t * 37 + 5) % 512);
    const int n = c.context;
    attn::Activations<float> a;
    attn::model_forward<float>(c, attn::view_params(c, p.data()), tok.data(), nullptr, n, a);
    const int D = c.d_model / c.heads;
    for (int l = 0; l < c.layers; l++)
        for (int h = 0; h < c.heads; h++)
            for (int i = 0; i < n; i += 9) {
                const attn::Result<attn::FocusResult> r =
                    attn::attend(attn::head_focus_input(a.layers[l], n, c.d_model, c.heads, h, i));
                ASSERT_TRUE(r.ok()) << r.error().message;
                for (int j = 0; j < n; j++) {
                    const std::size_t at = attn::head_index(n, h, i, j);
                    EXPECT_EQ(static_cast<float>(r.value().weights[j]), a.layers[l].weights[at]);
                    if (j <= i) {
                        EXPECT_EQ(static_cast<float>(r.value().scores[j]), a.layers[l].scores[at]);
                    }
                }
                for (int d = 0; d < D; d++)
                    EXPECT_EQ(static_cast<float>(r.value().output[d]),
                              a.layers[l].heads_out[i * c.d_model + h * D + d]);
            }
}

TEST(TransformerAttention, WeightRowsAreCausalAndSumToOne) {
    const ModelConfig c = tiny();
    const std::vector<double> p = random_params(c, 9);
    const int n = static_cast<int>(kTokens.size());
    attn::Activations<double> a;
    attn::model_forward<double>(c, attn::view_params(c, std::as_const(p).data()), kTokens.data(),
                                nullptr, n, a);
    for (const auto& la : a.layers)
        for (int h = 0; h < c.heads; h++)
            for (int i = 0; i < n; i++) {
                double sum = 0;
                for (int j = 0; j < n; j++) {
                    const double w = la.weights[attn::head_index(n, h, i, j)];
                    if (j > i) {
                        EXPECT_EQ(w, 0.0);
                    }
                    sum += w;
                }
                EXPECT_NEAR(sum, 1.0, 1e-12);
            }
}

TEST(TransformerAttention, AblatingAHeadZeroesItsOutputAndChangesTheLoss) {
    const ModelConfig c = tiny();
    const std::vector<double> p = random_params(c, 13);
    const int n = static_cast<int>(kTokens.size());
    attn::Activations<double> full, ablated;
    const auto params = attn::view_params(c, std::as_const(p).data());
    attn::model_forward<double>(c, params, kTokens.data(), kTargets.data(), n, full);
    attn::ForwardOptions o;
    o.ablate_layer = 1;
    o.ablate_head = 0;
    attn::model_forward<double>(c, params, kTokens.data(), kTargets.data(), n, ablated, o);
    const int D = c.d_model / c.heads;
    for (int i = 0; i < n; i++)
        for (int d = 0; d < D; d++) EXPECT_EQ(ablated.layers[1].heads_out[i * c.d_model + d], 0.0);
    EXPECT_EQ(ablated.layers[0].heads_out, full.layers[0].heads_out);
    EXPECT_NE(attn::mean_loss(ablated), attn::mean_loss(full));
}

TEST(TransformerForward, WithoutPredictionsOneRowsNextTokensAreTheFullPassesBitForBit) {
    const ModelConfig c = tiny();
    const std::vector<double> p = random_params(c, 17);
    const std::vector<float> pf(p.begin(), p.end());
    const auto params = attn::view_params(c, pf.data());
    const int n = static_cast<int>(kTokens.size());
    attn::Activations<float> full, lean;
    attn::ForwardOptions o;
    o.predictions = false;
    attn::model_forward<float>(c, params, kTokens.data(), nullptr, n, full);
    attn::model_forward<float>(c, params, kTokens.data(), nullptr, n, lean, o);
    EXPECT_TRUE(lean.probs.empty());
    EXPECT_TRUE(lean.logits.empty());
    EXPECT_EQ(lean.lnf, full.lnf);
    EXPECT_EQ(lean.layers[1].weights, full.layers[1].weights);
    for (int t = 0; t < n; t++) {  // rows in the 4-row tiles and the rows left over
        const std::vector<float> row = attn::next_token_probs(c, params, lean, t);
        ASSERT_EQ(row.size(), static_cast<std::size_t>(c.vocab));
        for (int v = 0; v < c.vocab; v++) EXPECT_EQ(row[v], full.probs[t * c.vocab + v]) << t;
    }
}

TEST(TransformerConfig, RejectsHeadsThatDoNotDivideTheWidthAndOutOfVocabularyTokens) {
    ModelConfig c = tiny();
    EXPECT_FALSE(attn::check_model_config(c).has_value());
    c.heads = 3;
    ASSERT_TRUE(attn::check_model_config(c).has_value());
    EXPECT_EQ(attn::check_model_config(c)->code, attn::ErrorCode::BadHeads);
    c = tiny();
    EXPECT_TRUE(attn::check_model_tokens(c, {}).has_value());
    EXPECT_TRUE(attn::check_model_tokens(c, {1, 11}).has_value());
    EXPECT_TRUE(attn::check_model_tokens(c, std::vector<int>(8, 0)).has_value());
    EXPECT_FALSE(attn::check_model_tokens(c, {0, 10, 5}).has_value());
}

TEST(TransformerConfig, DefaultModelFitsTheParameterBudget) {
    const ModelConfig c;
    EXPECT_LE(attn::parameter_count(c), 250000u);
    EXPECT_FALSE(attn::check_model_config(c).has_value());
}

}  // namespace
