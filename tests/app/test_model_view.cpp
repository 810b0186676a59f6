// The trained model in the app: loading checks the checksum and the head table; a run's focus row
// is the forward pass's own row; the ablated predictions are model_forward's with the head off;
// the app's edits open the model, move the focus and refuse what the model does not have.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "app_model.h"
#include "model_view.h"

namespace {

// A tiny model with random (seeded) weights and a BPE learnt from a short text: enough to run
// every code path; its heads show no pattern, so the test's head table names them.
struct TinyModel {
    attn::Model m;
    std::vector<std::uint8_t> bytes;
    std::string sha;
    TinyModel() {
        const std::string text =
            "the red fox saw an old dog by a river. the red fox saw an old dog.";
        m.bpe = attn::bpe_train(text, 270);
        m.config.vocab = m.bpe.vocab();
        m.config.context = 128;  // the examples of assets/app/model.json fit
        m.config.d_model = 8;
        m.config.heads = 2;
        m.config.layers = 2;
        m.config.d_ff = 16;
        m.params = attn::init_params<float>(m.config, 7);
        bytes = attn::serialize_model(m, attn::WeightsEncoding::Float32);
        sha = attn::sha256_hex(bytes.data(), bytes.size());
    }
};
const std::string kHeads =
    R"({"heads": [{"layer": 1, "head": 0, "label": "induction", "induction": 0.62, "previous_token": 0.1}]})";

app::Library library_with(const TinyModel& t) {
    auto lib = app::load_library(std::string(ATTN_ASSETS_DIR) + "/scenarios",
                                 std::string(ATTN_ASSETS_DIR) + "/app/ui.json");
    EXPECT_TRUE(lib.ok()) << lib.error().message;
    auto loaded = app::load_weights(t.bytes.data(), t.bytes.size(), t.sha, kHeads);
    EXPECT_TRUE(loaded.ok()) << loaded.error().message;
    lib.value().model = std::make_shared<const app::LoadedModel>(loaded.value());
    return lib.value();
}

TEST(ModelView, LoadingChecksTheChecksumAndReadsTheHeadTable) {
    const TinyModel t;
    auto ok = app::load_weights(t.bytes.data(), t.bytes.size(), t.sha, kHeads);
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    const app::HeadLabel& h = ok.value().label(1, 0);
    EXPECT_EQ(h.label, "induction");
    EXPECT_DOUBLE_EQ(h.score(), 0.62);
    EXPECT_EQ(ok.value().label(0, 1).label, "mixed");  // not named: mixed
    std::string other = t.sha;
    other[0] = other[0] == 'a' ? 'b' : 'a';
    auto bad_sum = app::load_weights(t.bytes.data(), t.bytes.size(), other, kHeads);
    ASSERT_FALSE(bad_sum.ok());
    EXPECT_NE(bad_sum.error().message.find("checksum"), std::string::npos);
    std::vector<std::uint8_t> cut(t.bytes.begin(), t.bytes.begin() + 100);
    EXPECT_FALSE(
        app::load_weights(cut.data(), cut.size(), attn::sha256_hex(cut.data(), cut.size()), "")
            .ok());
    auto bad_head = app::load_weights(t.bytes.data(), t.bytes.size(), t.sha,
                                      R"({"heads": [{"layer": 9, "head": 0}]})");
    ASSERT_FALSE(bad_head.ok());
    EXPECT_NE(bad_head.error().message.find("layer 9"), std::string::npos);
}

TEST(ModelView, FocusRowIsTheForwardPassRowAndAblationIsModelForwardsWithTheHeadOff) {
    const TinyModel t;
    auto loaded = app::load_weights(t.bytes.data(), t.bytes.size(), t.sha, kHeads);
    ASSERT_TRUE(loaded.ok());
    app::ModelChoice c;
    c.text = "the red fox saw an old dog";
    c.layer = 1;
    c.head = 1;
    c.focus = 4;
    c.ablate = true;
    auto r = app::run_model(loaded.value(), c, nullptr);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto& w = r.value().acts.layers[1].weights;
    const int n = r.value().acts.n;
    ASSERT_EQ(r.value().focus.weights.size(), 5u);  // candidates 0..focus
    for (int j = 0; j <= 4; ++j)
        EXPECT_FLOAT_EQ(static_cast<float>(r.value().focus.weights[j]),
                        w[attn::head_index(n, 1, 4, j)]);
    attn::Activations<float> off;
    attn::ForwardOptions o;
    o.ablate_layer = 1;
    o.ablate_head = 1;
    const attn::ModelConfig& cfg = t.m.config;
    const std::vector<float>& params = loaded.value().model.params;
    attn::model_forward<float>(cfg, attn::view_params(cfg, params.data()), r.value().ids.data(),
                               nullptr, n, off, o);
    const auto want = app::top_next(loaded.value(), off, 4);
    ASSERT_EQ(r.value().next_ablated.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(r.value().next_ablated[k].id, want[k].id);
        EXPECT_DOUBLE_EQ(r.value().next_ablated[k].p, want[k].p);
    }
    EXPECT_EQ(r.value().head_output.size(), 4u);  // d_k = 8 / 2
    // another focus on the same text reuses the passes and gives the same numbers as a fresh run
    c.focus = 2;
    auto again = app::run_model(loaded.value(), c, nullptr, &r.value());
    auto fresh = app::run_model(loaded.value(), c, nullptr);
    ASSERT_TRUE(again.ok() && fresh.ok());
    EXPECT_EQ(again.value().focus.weights, fresh.value().focus.weights);
    ASSERT_EQ(again.value().next_ablated.size(), fresh.value().next_ablated.size());
    for (std::size_t k = 0; k < fresh.value().next_ablated.size(); ++k)
        EXPECT_EQ(again.value().next_ablated[k].id, fresh.value().next_ablated[k].id);
    c.focus = 99;
    EXPECT_FALSE(app::run_model(loaded.value(), c, nullptr).ok());
}

TEST(ModelView, EditsOpenTheModelMoveTheFocusAndRefuseWhatItDoesNotHave) {
    const TinyModel t;
    app::Library lib = library_with(t);
    app::AppState s = app::initial_state(lib);
    app::Derived d = app::compute(s, lib).value();
    app::Edits open;
    open.scenario_id = std::string(app::kModelScenarioId);
    ASSERT_EQ(app::apply(s, d, open, lib).error, "");
    EXPECT_EQ(s.panel, app::Panel::Model);
    ASSERT_TRUE(d.model_ok);
    EXPECT_EQ(s.scenario.tokens, d.model.tokens);
    EXPECT_EQ(static_cast<int>(d.focus.weights.size()), s.model.focus + 1);
    app::Edits focus;
    focus.focus = 2;
    ASSERT_EQ(app::apply(s, d, focus, lib).error, "");
    EXPECT_EQ(s.model.focus, 2);
    EXPECT_EQ(d.focus.weights.size(), 3u);
    app::Edits temp;
    temp.temperature = 2.0;
    EXPECT_NE(app::apply(s, d, temp, lib).error, "");
    app::Edits head;
    head.model_head = 5;
    EXPECT_NE(app::apply(s, d, head, lib).error, "");
    EXPECT_EQ(s.model.head, 0);
    const auto j = nlohmann::json::parse(app::state_json(s, d));
    EXPECT_TRUE(j["model"]["active"].get<bool>());
    EXPECT_EQ(j["model"]["heads"][2]["label"], "induction");  // layer 1, head 0
    // before the weights arrive the model is refused with the readable message
    app::Library none = library_with(t);
    none.model.reset();
    app::AppState s2 = app::initial_state(none);
    app::Derived d2 = app::compute(s2, none).value();
    EXPECT_EQ(app::apply(s2, d2, open, none).error, none.text.model.not_loaded);
}

}  // namespace
