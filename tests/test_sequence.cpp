// test_sequence.cpp - whole-sequence, multi-head self-attention against the naive reference.
#include "test_util.h"

using attn::ErrorCode;
using attn::Matrix;

namespace {

Matrix random_matrix(int rows, int cols, test::Lcg* lcg) {
    Matrix m = attn::zeros(rows, cols);
    for (double& x : m.data) x = lcg->next();
    return m;
}

attn::Projections random_projections(int d_model, int heads, test::Lcg* lcg) {
    attn::Projections p;
    const int dk = d_model / heads;
    for (int h = 0; h < heads; h++)
        p.heads.push_back({random_matrix(d_model, dk, lcg), random_matrix(d_model, dk, lcg),
                           random_matrix(d_model, dk, lcg)});
    p.wo = random_matrix(heads * dk, d_model, lcg);
    return p;
}

std::vector<ref::Head> to_ref(const attn::Projections& p) {
    std::vector<ref::Head> heads;
    for (const auto& h : p.heads)
        heads.push_back({test::to_ref(h.wq), test::to_ref(h.wk), test::to_ref(h.wv)});
    return heads;
}

void expect_matches_reference(const Matrix& x, const attn::Projections& p,
                              const attn::SequenceOptions& o) {
    auto r = attn::self_attention(x, p, o);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ref::Sequence s = ref::self_attention(test::to_ref(x), to_ref(p), test::to_ref(p.wo), o.scale,
                                          o.temperature, o.causal, o.padding);
    const auto& res = r.value();
    ASSERT_EQ(res.heads.size(), p.heads.size());
    for (std::size_t h = 0; h < p.heads.size(); h++) {
        test::expect_near(res.heads[h].q, s.q[h], 1e-10, "Q");
        test::expect_near(res.heads[h].k, s.k[h], 1e-10, "K");
        test::expect_near(res.heads[h].v, s.v[h], 1e-10, "V");
        test::expect_near(res.heads[h].scores, s.scores[h], 1e-10, "scores");
        test::expect_near(res.heads[h].weights, s.weights[h], 1e-10, "weights");
        test::expect_near(res.heads[h].output, s.outputs[h], 1e-10, "head output");
        EXPECT_TRUE(test::AllFinite(res.heads[h].weights));
    }
    test::expect_near(res.concat, s.concat, 1e-10, "concat");
    test::expect_near(res.output, s.output, 1e-10, "output");
}

}  // namespace

TEST(Matrices, MatmulAndTransposeFollowTheTextbook) {
    Matrix a = attn::zeros(2, 3), b = attn::zeros(3, 2);
    a.data = {1, 2, 3, 4, 5, 6};
    b.data = {7, 8, 9, 10, 11, 12};
    Matrix c = attn::matmul(a, b);
    ASSERT_EQ(c.rows, 2);
    ASSERT_EQ(c.cols, 2);
    EXPECT_EQ(c.data, (std::vector<double>{58, 64, 139, 154}));
    Matrix t = attn::transpose(a);
    EXPECT_EQ(t.rows, 3);
    EXPECT_EQ(t.at(2, 1), 6.0);
    EXPECT_EQ(attn::matmul(a, a).rows, 0);  // shape mismatch -> 0 x 0
    EXPECT_EQ(attn::row(a, 1), (attn::Vector{4, 5, 6}));
    EXPECT_TRUE(attn::row(a, 2).empty());
}

TEST(MultiHead, ShapesConcatenationAndWoMatchReferenceForOneToFourHeads) {
    test::Lcg lcg{3};
    for (int heads = 1; heads <= 4; heads++) {
        const int d_model = 8, n = 5;
        Matrix x = random_matrix(n, d_model, &lcg);
        attn::Projections p = random_projections(d_model, heads, &lcg);
        auto r = attn::self_attention(x, p, {});
        ASSERT_TRUE(r.ok()) << r.error().message;
        const int dk = d_model / heads;
        ASSERT_EQ(static_cast<int>(r.value().heads.size()), heads);
        for (const auto& h : r.value().heads) {
            EXPECT_EQ(h.q.rows, n);
            EXPECT_EQ(h.q.cols, dk);
            EXPECT_EQ(h.scores.rows, n);
            EXPECT_EQ(h.scores.cols, n);
            EXPECT_EQ(h.output.cols, dk);
            EXPECT_DOUBLE_EQ(h.scale, 1.0 / std::sqrt(double(dk)));
            for (int i = 0; i < n; i++) {
                double sum = 0;
                for (int j = 0; j < n; j++) sum += h.weights.at(i, j);
                EXPECT_NEAR(sum, 1.0, test::kSumTol);
            }
        }
        EXPECT_EQ(r.value().concat.cols, heads * dk);
        EXPECT_EQ(r.value().output.rows, n);
        EXPECT_EQ(r.value().output.cols, d_model);
        // concatenation: head h's output sits at columns [h dk, (h + 1) dk)
        for (int h = 0; h < heads; h++)
            for (int i = 0; i < n; i++)
                for (int c = 0; c < dk; c++)
                    EXPECT_EQ(r.value().concat.at(i, h * dk + c),
                              r.value().heads[h].output.at(i, c));
        expect_matches_reference(x, p, {});
    }
}

TEST(MultiHead, CausalRowsNeverAttendToLaterPositions) {
    test::Lcg lcg{5};
    Matrix x = random_matrix(6, 4, &lcg);
    attn::Projections p = random_projections(4, 2, &lcg);
    attn::SequenceOptions o;
    o.causal = true;
    auto r = attn::self_attention(x, p, o);
    ASSERT_TRUE(r.ok());
    for (const auto& h : r.value().heads)
        for (int i = 0; i < 6; i++)
            for (int j = i + 1; j < 6; j++) EXPECT_EQ(h.weights.at(i, j), 0.0);
    EXPECT_EQ(r.value().heads[0].weights.at(0, 0), 1.0);  // the first token sees only itself
    expect_matches_reference(x, p, o);
}

TEST(MultiHead, PaddedKeysGetZeroWeightInEveryRow) {
    test::Lcg lcg{9};
    Matrix x = random_matrix(5, 4, &lcg);
    attn::Projections p = random_projections(4, 1, &lcg);
    attn::SequenceOptions o;
    o.padding = {false, false, false, true, true};
    o.temperature = 0.7;
    auto r = attn::self_attention(x, p, o);
    ASSERT_TRUE(r.ok());
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(r.value().heads[0].weights.at(i, 3), 0.0);
        EXPECT_EQ(r.value().heads[0].weights.at(i, 4), 0.0);
    }
    expect_matches_reference(x, p, o);
}

TEST(MultiHead, AllPaddedRowsAreAllMaskedWithZeroOutput) {
    test::Lcg lcg{13};
    Matrix x = random_matrix(3, 4, &lcg);
    attn::Projections p = random_projections(4, 2, &lcg);
    attn::SequenceOptions o;
    o.padding = {true, true, true};
    auto r = attn::self_attention(x, p, o);
    ASSERT_TRUE(r.ok());
    for (const auto& h : r.value().heads) {
        for (attn::RowStatus s : h.status) EXPECT_EQ(s, attn::RowStatus::AllMasked);
        for (double v : h.output.data) EXPECT_EQ(v, 0.0);
    }
    EXPECT_TRUE(test::AllFinite(r.value().output));
}

TEST(MultiHead, UnscaledAndTemperatureVariantsMatchReference) {
    test::Lcg lcg{17};
    Matrix x = random_matrix(4, 6, &lcg);
    attn::Projections p = random_projections(6, 3, &lcg);
    attn::SequenceOptions o;
    o.scale = false;
    o.temperature = 2.5;
    expect_matches_reference(x, p, o);
}

TEST(MultiHead, InvalidShapesAndOptionsAreTypedErrors) {
    test::Lcg lcg{19};
    Matrix x = random_matrix(4, 8, &lcg);
    attn::Projections p = random_projections(8, 2, &lcg);
    attn::Projections none;
    none.wo = attn::zeros(8, 8);
    EXPECT_EQ(attn::self_attention(x, none, {}).error().code, ErrorCode::BadHeads);
    attn::Projections bad = p;
    bad.heads[1].wk = attn::zeros(8, 3);
    EXPECT_EQ(attn::self_attention(x, bad, {}).error().code, ErrorCode::DimensionMismatch);
    bad = p;
    bad.wo = attn::zeros(8, 7);
    EXPECT_EQ(attn::self_attention(x, bad, {}).error().code, ErrorCode::DimensionMismatch);
    bad = p;
    bad.heads[0].wq.data[3] = std::nan("");
    EXPECT_EQ(attn::self_attention(x, bad, {}).error().code, ErrorCode::NonFinite);
    Matrix broken = x;
    broken.data.pop_back();
    EXPECT_EQ(attn::self_attention(broken, p, {}).error().code, ErrorCode::DimensionMismatch);
    EXPECT_EQ(attn::self_attention(attn::zeros(0, 8), p, {}).error().code,
              ErrorCode::EmptyCandidates);
    attn::SequenceOptions o;
    o.temperature = 0.0;
    EXPECT_EQ(attn::self_attention(x, p, o).error().code, ErrorCode::BadTemperature);
    o = {};
    o.padding = {true};
    EXPECT_EQ(attn::self_attention(x, p, o).error().code, ErrorCode::DimensionMismatch);
    EXPECT_EQ(
        attn::self_attention(attn::zeros(attn::kMaxSequenceTokens + 1, 8), p, {}).error().code,
        ErrorCode::TooManyTokens);
}

TEST(SelfAttention, AcceptsTheLongestAllowedSequence) {
    test::Lcg lcg{7};
    const attn::Projections p = random_projections(8, 2, &lcg);
    attn::Result<attn::SequenceResult> r =
        attn::self_attention(attn::zeros(attn::kMaxSequenceTokens, 8), p, {});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r.value().output.rows, attn::kMaxSequenceTokens);
    // All-zero inputs give equal scores, so every row is uniform over the allowed positions.
    EXPECT_DOUBLE_EQ(r.value().heads[0].weights.at(7, 0), 1.0 / attn::kMaxSequenceTokens);
}
