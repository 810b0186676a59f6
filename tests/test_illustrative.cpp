// test_illustrative.cpp - the illustrative model (heads, projections, embeddings, fingerprints)
// and sentence scenarios: the focus path agrees with the whole-sequence path.
#include "content.h"
#include "test_util.h"

using attn::ErrorCode;
using attn::Matrix;

TEST(Illustrative, HeadsMustDivideDModelAndBeOneToEight) {
    EXPECT_FALSE(attn::check_heads(8, 4).has_value());
    EXPECT_EQ(attn::check_heads(8, 3)->code, ErrorCode::BadHeads);
    EXPECT_EQ(attn::check_heads(8, 0)->code, ErrorCode::BadHeads);
    EXPECT_EQ(attn::check_heads(16, 9)->code, ErrorCode::BadHeads);
    EXPECT_EQ(attn::check_heads(0, 1)->code, ErrorCode::BadDimension);
    EXPECT_EQ(attn::check_heads(513, 1)->code, ErrorCode::BadDimension);
    EXPECT_EQ(attn::illustrative_projections(8, 3, 1).error().code, ErrorCode::BadHeads);
}

TEST(Illustrative, ProjectionsAreDeterministicAndSeeded) {
    auto a = attn::illustrative_projections(8, 2, attn::kIllustrativeSeed);
    auto b = attn::illustrative_projections(8, 2, attn::kIllustrativeSeed);
    auto c = attn::illustrative_projections(8, 2, attn::kIllustrativeSeed + 1);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    EXPECT_EQ(attn::fingerprint(a.value()), attn::fingerprint(b.value()));
    EXPECT_NE(attn::fingerprint(a.value()), attn::fingerprint(c.value()));
    EXPECT_FALSE(attn::check_projections(a.value(), 8).has_value());
    Matrix m = a.value().wo;
    const auto f = attn::fingerprint(m);
    m.data[0] += 1e-12;
    EXPECT_NE(attn::fingerprint(m), f);
}

TEST(Illustrative, SameWordSameBaseVectorDifferentPositionsDiffer) {
    auto t = attn::tokenize("the cat saw The cat");
    ASSERT_TRUE(t.ok());
    Matrix x = attn::illustrative_embeddings(t.value(), 8);
    ASSERT_EQ(x.rows, 5);
    EXPECT_TRUE(test::AllFinite(x));
    EXPECT_NE(attn::row(x, 1), attn::row(x, 4));  // position code
    // "the" and "The" share the hash, so their difference is the position code only (|.| <= 0.5)
    for (int i = 0; i < 8; i++) EXPECT_LE(std::abs(x.at(0, i) - x.at(3, i)), 0.5 + 1e-12);
    auto again = attn::illustrative_embeddings(t.value(), 8);
    EXPECT_EQ(x.data, again.data);
}

TEST(Sentence, FocusPathEqualsHeadZeroOfSelfAttentionAtTheFocusRow) {
    for (int heads : {1, 2, 4}) {
        auto s = attn::sentence_scenario(
            "Because the bridge was blocked, the convoy stopped before it.", 10, 8, heads);
        ASSERT_TRUE(s.ok()) << s.error().message;
        auto focus = attn::run_scenario(s.value());
        auto seq = attn::sentence_self_attention(s.value());
        ASSERT_TRUE(focus.ok() && seq.ok());
        const auto& h0 = seq.value().heads[0];
        const int f = s.value().focus;
        ASSERT_EQ(focus.value().weights.size(), static_cast<std::size_t>(h0.weights.cols));
        for (int j = 0; j < h0.weights.cols; j++) {
            EXPECT_NEAR(focus.value().scores[j], h0.scores.at(f, j), test::kTightTol);
            EXPECT_NEAR(focus.value().weights[j], h0.weights.at(f, j), test::kTightTol);
        }
        for (int c = 0; c < h0.output.cols; c++)
            EXPECT_NEAR(focus.value().output[c], h0.output.at(f, c), test::kTightTol);
        EXPECT_EQ(focus.value().d, 8 / heads);
    }
}

TEST(Sentence, CausalFocusPathEqualsCausalHeadZero) {
    auto s = attn::sentence_scenario("one two three four", 1, 8, 2);
    ASSERT_TRUE(s.ok());
    s.value().options.causal = true;
    auto focus = attn::run_scenario(s.value());
    auto seq = attn::sentence_self_attention(s.value());
    ASSERT_TRUE(focus.ok() && seq.ok());
    for (int j = 0; j < 4; j++)
        EXPECT_NEAR(focus.value().weights[j], seq.value().heads[0].weights.at(1, j),
                    test::kTightTol);
    EXPECT_EQ(focus.value().weights[2], 0.0);
    EXPECT_EQ(focus.value().mask[3], attn::MaskReason::Causal);
}
