// App model: edits go through the engine; bad input leaves the state as it was.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "app_model.h"

namespace {

app::Library load() {
    auto lib = app::load_library(std::string(ATTN_ASSETS_DIR) + "/scenarios",
                                 std::string(ATTN_ASSETS_DIR) + "/app/ui.json");
    EXPECT_TRUE(lib.ok()) << lib.error().message;
    return lib.value();
}

struct Fixture : ::testing::Test {
    app::Library lib = load();
    app::AppState s = app::initial_state(lib);
    app::Derived d = app::compute(s, lib).value();
};

using AppModel = Fixture;

TEST_F(AppModel, StartsOnWorkedExampleWithTheEnginesWeights) {
    ASSERT_TRUE(d.ok);
    EXPECT_EQ(s.scenario_id, "worked-example");
    auto direct = attn::run_scenario(*app::find_scenario(lib, "worked-example"));
    ASSERT_TRUE(direct.ok());
    ASSERT_EQ(d.focus.weights.size(), direct.value().weights.size());
    for (std::size_t j = 0; j < d.focus.weights.size(); ++j)
        EXPECT_DOUBLE_EQ(d.focus.weights[j], direct.value().weights[j]);
}

TEST_F(AppModel, EmptySentenceIsRejectedAndKeepsThePreviousState) {
    const std::string before = app::state_json(s, d);
    app::Edits e;
    e.sentence = std::string("   ");
    e.focus = 0;
    const app::Applied r = app::apply(s, d, e, lib);
    EXPECT_FALSE(r.error.empty());
    EXPECT_EQ(s.message, r.error);
    EXPECT_EQ(s.scenario_id, "worked-example");
    auto j = nlohmann::json::parse(app::state_json(s, d));
    auto b = nlohmann::json::parse(before);
    EXPECT_EQ(j["candidates"], b["candidates"]);
}

TEST_F(AppModel, DraggingAQueryComponentRecomputesEveryDotProduct) {
    app::Edits e;
    e.vectors.push_back(app::VectorEdit{app::VectorEdit::Query, 0, 0, 2.5});
    ASSERT_TRUE(app::apply(s, d, e, lib).error.empty());
    EXPECT_DOUBLE_EQ(s.scenario.query[0], 2.5);
    for (std::size_t j = 0; j < d.focus.dot_products.size(); ++j)
        EXPECT_NEAR(d.focus.dot_products[j], attn::dot(s.scenario.query, s.scenario.keys[j]),
                    1e-12);
}

TEST_F(AppModel, MaskingAPositionGivesItZeroWeightAndTheRestStillSumToOne) {
    app::Edits e;
    e.toggle_mask = d.positions[0];
    ASSERT_TRUE(app::apply(s, d, e, lib).error.empty());
    EXPECT_EQ(d.focus.weights[0], 0.0);
    EXPECT_NEAR(d.focus.weight_sum, 1.0, 1e-12);
    app::apply(s, d, e, lib);  // toggling again restores it
    EXPECT_GT(d.focus.weights[0], 0.0);
}

TEST_F(AppModel, ChangingDResizesEveryVector) {
    app::Edits e;
    e.d = 7;
    ASSERT_TRUE(app::apply(s, d, e, lib).error.empty());
    EXPECT_EQ(d.focus.d, 7);
    for (const auto& k : s.scenario.keys) EXPECT_EQ(k.size(), 7u);
}

TEST_F(AppModel, OneWordChangedKeepsTheProjectionFingerprintButNotTheScores) {
    ASSERT_TRUE(d.variant_ok);
    EXPECT_EQ(d.base_projection_print, d.variant_projection_print);
    EXPECT_NE(d.base_embedding_print, d.variant_embedding_print);
    bool differs = false;
    for (std::size_t j = 0; j < d.base_focus.scores.size(); ++j)
        differs = differs || std::fabs(d.base_focus.scores[j] - d.variant_focus.scores[j]) > 1e-9;
    EXPECT_TRUE(differs);
}

TEST_F(AppModel, OwnSentenceWithThreeHeadsHasThreeHeadsOfWeights) {
    app::Edits e;
    e.sentence = std::string("The cat sat on the mat because it was warm.");
    e.focus = 7;
    ASSERT_TRUE(app::apply(s, d, e, lib).error.empty());
    app::Edits h;
    h.heads = 3;
    ASSERT_TRUE(app::apply(s, d, h, lib).error.empty());
    ASSERT_EQ(d.sequence.heads.size(), 3u);
    EXPECT_EQ(d.sequence.heads[0].weights.rows, static_cast<int>(s.scenario.tokens.size()));
    auto j = nlohmann::json::parse(app::state_json(s, d));
    EXPECT_EQ(j["heads"], 3);
    EXPECT_EQ(j["sentence"], "The cat sat on the mat because it was warm.");
}

TEST_F(AppModel, ViewOutsideZeroToThreeIsRejectedAndKeepsTheView) {
    app::Edits e;
    e.panel = 2;
    ASSERT_TRUE(app::apply(s, d, e, lib).error.empty());
    e.panel = -1;
    EXPECT_FALSE(app::apply(s, d, e, lib).error.empty());
    e.panel = 4;
    EXPECT_FALSE(app::apply(s, d, e, lib).error.empty());
    EXPECT_EQ(s.panel, app::Panel::Sentence);
    EXPECT_EQ(nlohmann::json::parse(app::state_json(s, d))["panel"], 2);
}

TEST_F(AppModel, StepOutsideZeroToThreeIsRejected) {
    app::Edits e;
    e.step = 4;
    EXPECT_FALSE(app::apply(s, d, e, lib).error.empty());
    EXPECT_EQ(s.step, app::Step::ChooseFocus);
    e.step = 3;
    EXPECT_TRUE(app::apply(s, d, e, lib).error.empty());
    EXPECT_EQ(nlohmann::json::parse(app::state_json(s, d))["step_name"], "mix");
}

TEST_F(AppModel, FocusCannotMoveInAVectorsScenario) {
    app::Edits e;
    e.focus = 2;
    const app::Applied r = app::apply(s, d, e, lib);
    EXPECT_NE(r.error.find("Your sentence"), std::string::npos);
}

TEST_F(AppModel, ReducedMotionSnapsAnimationsOtherwiseTheyEase) {
    app::Edits e;
    e.step = 3;
    app::apply(s, d, e, lib);
    app::AppState eased = s;
    app::advance(eased, d, 0.016);
    EXPECT_GT(eased.anim_step, 0.0);
    EXPECT_LT(eased.anim_step, 3.0);
    s.reduced_motion = true;
    EXPECT_FALSE(app::advance(s, d, 0.016));
    EXPECT_EQ(s.anim_step, 3.0);
}

TEST_F(AppModel, FocusOutsideTheSentenceIsRefusedAndKeepsTheFocus) {
    app::Edits pick;
    pick.scenario_id = lib.text.sentence_scenario_id;
    ASSERT_TRUE(app::apply(s, d, pick, lib).error.empty());
    const int focus = s.scenario.focus;
    app::Edits e;
    e.focus = 9999;
    const app::Applied r = app::apply(s, d, e, lib);
    EXPECT_NE(r.error.find("9999"), std::string::npos) << r.error;
    EXPECT_EQ(s.scenario.focus, focus);
    EXPECT_EQ(s.sentence_focus, focus);
}

TEST_F(AppModel, StateJsonNeverThrowsOnBytesThatAreNotUtf8) {
    s.message = "bad \xFF\xFE bytes";
    s.scenario.title = "T\xC3";  // ends in the middle of a character
    std::string text;
    ASSERT_NO_THROW(text = app::state_json(s, d));
    const auto j = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << text;
    EXPECT_NE(j["message"].get<std::string>().find("bytes"), std::string::npos);
    EXPECT_EQ(j["candidates"].size(), d.focus.weights.size());
}

TEST_F(AppModel, AnUnknownScenarioIdIsRefusedWithoutBeingEchoed) {
    app::Edits e;
    e.scenario_id = std::string("\x1b[2J<img src=x>\xFF");
    const app::Applied r = app::apply(s, d, e, lib);
    EXPECT_FALSE(r.error.empty());
    EXPECT_EQ(r.error.find("<img"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find('\x1b'), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("worked-example"), std::string::npos) << r.error;  // the choices
    EXPECT_EQ(s.scenario_id, "worked-example");
    EXPECT_NO_THROW(app::state_json(s, d));
}

TEST_F(AppModel, FormatNumberUsesATrueMinusAndNeverPrintsMinusZero) {
    EXPECT_EQ(app::format_number(-0.7), "−0.70");
    EXPECT_EQ(app::format_number(-0.001), "0.00");
    EXPECT_EQ(app::format_number(NAN), "–");
}

TEST(AppTokenize, ThePageGetsTheEnginesTokensAndDefaultFocus) {
    auto j = nlohmann::json::parse(app::tokenize_json("use snake_case here"));
    ASSERT_TRUE(j["ok"].get<bool>());
    auto engine = attn::tokenize("use snake_case here");
    ASSERT_TRUE(engine.ok());
    ASSERT_EQ(j["tokens"].size(), engine.value().size());
    for (std::size_t i = 0; i < engine.value().size(); ++i)
        EXPECT_EQ(j["tokens"][i], engine.value()[i].text);
    EXPECT_EQ(j["tokens"][j["focus"].get<int>()], "here");
    auto k = nlohmann::json::parse(app::tokenize_json("it costs 3½ euros"));
    EXPECT_EQ(k["tokens"][k["focus"].get<int>()], "euros");
    auto p = nlohmann::json::parse(app::tokenize_json("the end ."));
    EXPECT_EQ(p["tokens"][p["focus"].get<int>()], "end");  // punctuation is never the default
}

TEST(AppTokenize, NamesTheCharactersTheCanvasCannotDrawOnceEach) {
    EXPECT_EQ(app::unsupported_characters("Zażółć gęślą jaźń, café, αβγ − √2"), "");
    EXPECT_EQ(app::unsupported_characters("猫が猫を見た"), "猫がを見た");
    EXPECT_EQ(app::unsupported_characters("القط نائم"), "القطنئم");
    auto j = nlohmann::json::parse(app::tokenize_json("the 猫 sat"));
    EXPECT_EQ(j["unsupported"], "猫");
}

TEST(AppGlyphs, LazyGlyphsAreFoundWrittenOutOrEscapedAndOnlyThen) {
    // The canvas's own text: Basic Latin plus the eager signs (middle dot, times, capital sigma).
    EXPECT_FALSE(app::needs_lazy_glyphs("q \u00b7 k = \u03a3 q\u00d7k, \\u00"));
    EXPECT_FALSE(app::needs_lazy_glyphs("Σ q·k × 2 √d ≈ 1 → ✓"));
    EXPECT_FALSE(app::needs_lazy_glyphs(""));
    EXPECT_TRUE(app::needs_lazy_glyphs("café"));        // Latin-1, "lazy"
    EXPECT_TRUE(app::needs_lazy_glyphs("łódź"));        // Latin Extended-A, "lazy"
    EXPECT_TRUE(app::needs_lazy_glyphs("ψυχή"));        // Greek, "lazy"
    EXPECT_TRUE(app::needs_lazy_glyphs("caf\\u00e9"));  // as the JSON files write it
    EXPECT_TRUE(app::needs_lazy_glyphs("\\u00C9t\\u00e9"));
    EXPECT_FALSE(app::needs_lazy_glyphs("\\u00zz \\u12"));          // not an escape, cut short
    EXPECT_FALSE(app::needs_lazy_glyphs(std::string("\xff\xfe")));  // invalid UTF-8: U+FFFD
}

TEST(AppTokenize, TooLongTextIsAnErrorWithTheEnginesLimits) {
    auto j = nlohmann::json::parse(app::tokenize_json(std::string(10000, 'a')));
    EXPECT_FALSE(j["ok"].get<bool>());
    EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
    EXPECT_EQ(j["max_bytes"], attn::kMaxSentenceBytes);
    EXPECT_EQ(j["max_tokens"], attn::kMaxSentenceTokens);
}

TEST_F(AppModel, SentenceWithFocusMinusOneUsesTheDefaultFocus) {
    app::Edits e;
    e.sentence = std::string("it costs 3½ euros");
    e.focus = -1;
    ASSERT_TRUE(app::apply(s, d, e, lib).error.empty());
    EXPECT_EQ(s.scenario.tokens[static_cast<std::size_t>(s.scenario.focus)], "euros");
}

TEST(AppEdits, MergeKeepsAHoverThatNamesACandidateAndAccumulatesVectors) {
    app::Edits a, b;
    a.hover = app::HoverReport{2};
    b.hover = app::HoverReport{};
    b.vectors.push_back(app::VectorEdit{});
    a.vectors.push_back(app::VectorEdit{});
    b.step = 3;
    app::merge(a, b);
    ASSERT_TRUE(a.hover && a.hover->position);
    EXPECT_EQ(*a.hover->position, 2);
    EXPECT_EQ(a.vectors.size(), 2u);
    EXPECT_EQ(a.step, 3);
    EXPECT_FALSE(app::changes_model(b) && b.vectors.empty());
    app::Edits c;
    c.step = 1;
    c.hover = app::HoverReport{1};
    EXPECT_FALSE(app::changes_model(c));
    c.temperature = 2.0;
    EXPECT_TRUE(app::changes_model(c));
}

TEST_F(AppModel, TemperatureOutsideTheRangeIsRejected) {
    app::Edits e;
    e.temperature = 0.0;
    EXPECT_FALSE(app::apply(s, d, e, lib).error.empty());
    e.temperature = 2.0;
    EXPECT_TRUE(app::apply(s, d, e, lib).error.empty());
    EXPECT_DOUBLE_EQ(s.scenario.options.temperature, 2.0);
}

TEST_F(AppModel, TheWholeSentenceViewAlwaysNamesTheSentenceItDraws) {
    app::Edits e;
    e.panel = app::to_int(app::Panel::Sentence);
    ASSERT_TRUE(app::apply(s, d, e, lib).error.empty());
    EXPECT_EQ(s.scenario_id, "sentence");  // header and page now name the sentence of the map
    EXPECT_EQ(s.scenario.sentence, d.sentence.sentence);
    app::Edits back;
    back.scenario_id = std::string("diagram");
    ASSERT_TRUE(app::apply(s, d, back, lib).error.empty());
    EXPECT_EQ(s.panel, app::Panel::Steps);  // a vectors example is not shown over a sentence map
}

}  // namespace
