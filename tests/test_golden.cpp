// test_golden.cpp - the scenarios in assets/scenarios give the glossary's numbers.
#include "content.h"
#include "test_util.h"

namespace {

struct Golden {
    attn::Scenario scenario;
    attn::FocusInput input;
    attn::FocusResult result;
};

Golden run(const std::string& file) {
    Golden g;
    auto s = attn::load_scenario(test::asset("scenarios/" + file));
    EXPECT_TRUE(s.ok()) << s.error().message;
    if (!s.ok()) return g;
    g.scenario = s.value();
    auto in = attn::focus_input(g.scenario);
    EXPECT_TRUE(in.ok()) << in.error().message;
    g.input = in.value();
    auto r = attn::attend(g.input);
    EXPECT_TRUE(r.ok()) << r.error().message;
    g.result = r.value();
    return g;
}

double round2(double x) { return std::round(x * 100.0) / 100.0; }

void expect_reference(const Golden& g) {
    ref::Step s = ref::attend(g.input.query, g.input.keys, g.input.values, {}, true, 1.0);
    test::expect_near(g.result.scores, s.scaled, test::kRefTol, "scores vs reference");
    test::expect_near(g.result.weights, s.weights, test::kRefTol, "weights vs reference");
    test::expect_near(g.result.output, s.output, test::kRefTol, "output vs reference");
}

}  // namespace

TEST(Golden, DiagramScaledScoresAreExactly2Point1_0Point4_Minus0Point7) {
    Golden g = run("diagram.json");
    ASSERT_EQ(g.result.scores.size(), 3u);
    EXPECT_EQ(g.result.d, 4);
    EXPECT_EQ(g.result.scale, 0.5);
    EXPECT_EQ(g.result.scores[0], 2.1);  // exact in binary floating point, by choice of vectors
    EXPECT_EQ(g.result.scores[1], 0.4);
    EXPECT_EQ(g.result.scores[2], -0.7);
}

TEST(Golden, DiagramWeightsAre0Point80_0Point15_0Point05) {
    Golden g = run("diagram.json");
    ASSERT_EQ(g.result.weights.size(), 3u);
    EXPECT_EQ(round2(g.result.weights[0]), 0.80);
    EXPECT_EQ(round2(g.result.weights[1]), 0.15);
    EXPECT_EQ(round2(g.result.weights[2]), 0.05);
    // and to 1e-4 against the closed form e^s / sum e^s
    const double z = std::exp(2.1) + std::exp(0.4) + std::exp(-0.7);
    EXPECT_NEAR(g.result.weights[0], std::exp(2.1) / z, test::kRefTol);
    EXPECT_NEAR(g.result.weights[1], std::exp(0.4) / z, test::kRefTol);
    EXPECT_NEAR(g.result.weights[2], std::exp(-0.7) / z, test::kRefTol);
    EXPECT_NEAR(g.result.weight_sum, 1.0, test::kSumTol);
    expect_reference(g);
}

TEST(Golden, WorkedExampleScaledScoresAre1Point8_0Point2_1Point1) {
    Golden g = run("worked-example.json");
    ASSERT_EQ(g.result.scores.size(), 3u);
    EXPECT_EQ(g.result.scores[0], 1.8);
    EXPECT_EQ(g.result.scores[1], 0.2);
    EXPECT_EQ(g.result.scores[2], 1.1);
    EXPECT_EQ(g.scenario.tokens[g.scenario.focus], "it");
    EXPECT_EQ(g.scenario.tokens[g.scenario.candidates[0]], "bridge");
    EXPECT_EQ(g.scenario.tokens[g.scenario.candidates[1]], "convoy");
    EXPECT_EQ(g.scenario.tokens[g.scenario.candidates[2]], "stopped");
}

TEST(Golden, WorkedExampleWeightsAre0Point59_0Point12_0Point29) {
    Golden g = run("worked-example.json");
    ASSERT_EQ(g.result.weights.size(), 3u);
    EXPECT_EQ(round2(g.result.weights[0]), 0.59);
    EXPECT_EQ(round2(g.result.weights[1]), 0.12);
    EXPECT_EQ(round2(g.result.weights[2]), 0.29);
    const double z = std::exp(1.8) + std::exp(0.2) + std::exp(1.1);
    EXPECT_NEAR(g.result.weights[0], std::exp(1.8) / z, test::kRefTol);
    EXPECT_NEAR(g.result.weights[1], std::exp(0.2) / z, test::kRefTol);
    EXPECT_NEAR(g.result.weights[2], std::exp(1.1) / z, test::kRefTol);
    expect_reference(g);
}

TEST(Golden, WorkedExampleTokensMatchTheTokenizerOnTheSentence) {
    Golden g = run("worked-example.json");
    auto t = attn::tokenize("Because the bridge was blocked, the convoy stopped before it.");
    ASSERT_TRUE(t.ok());
    ASSERT_EQ(t.value().size(), g.scenario.tokens.size());
    for (std::size_t i = 0; i < t.value().size(); i++)
        EXPECT_EQ(t.value()[i].text, g.scenario.tokens[i]);
}

TEST(Golden, ScenarioValueVectorsPointInDistinctDirections) {
    for (const char* file : {"diagram.json", "worked-example.json"}) {
        Golden g = run(file);
        for (std::size_t a = 0; a < g.input.values.size(); a++)
            for (std::size_t b = a + 1; b < g.input.values.size(); b++) {
                const double cos = attn::dot(g.input.values[a], g.input.values[b]) /
                                   std::sqrt(attn::dot(g.input.values[a], g.input.values[a]) *
                                             attn::dot(g.input.values[b], g.input.values[b]));
                EXPECT_LT(cos, 0.5) << file << " values " << a << " and " << b;
            }
    }
}

TEST(Golden, SentenceScenarioIsFlaggedIllustrativeAndRuns) {
    Golden g = run("sentence.json");
    EXPECT_TRUE(g.scenario.illustrative);
    EXPECT_EQ(g.scenario.kind, attn::ScenarioKind::Sentence);
    EXPECT_EQ(g.scenario.d_model, 8);
    EXPECT_LE(g.scenario.heads, g.scenario.max_heads);
    EXPECT_EQ(g.scenario.max_heads, 4);
    EXPECT_EQ(g.scenario.tokens[g.scenario.focus], "it");
    EXPECT_EQ(g.result.weights.size(), g.scenario.tokens.size());
    EXPECT_NEAR(g.result.weight_sum, 1.0, test::kSumTol);
    EXPECT_TRUE(test::AllFinite(g.result.output));
}
