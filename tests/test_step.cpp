// test_step.cpp - one focus step: scores, scaling, masks, softmax, mixing, validation.
#include <limits>
#include <set>

#include "test_util.h"

using attn::ErrorCode;
using attn::FocusInput;
using attn::MaskReason;
using attn::RowStatus;
using attn::Vector;
using test::AllFinite;

namespace {
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<bool> masked_flags(const attn::FocusResult& r) {
    std::vector<bool> m;
    for (MaskReason reason : r.mask) m.push_back(attn::is_masked(reason));
    return m;
}

void expect_matches_reference(const FocusInput& in, const attn::FocusResult& r) {
    std::vector<bool> masked = masked_flags(r);
    ref::Step s =
        ref::attend(in.query, in.keys, in.values, masked, in.options.scale, in.options.temperature);
    test::expect_near(r.dot_products, s.dot_products, 1e-9, "dot_products");
    test::expect_near(r.scores, s.scaled, 1e-9, "scores");
    test::expect_near(r.weights, s.weights, 1e-9, "weights");
    test::expect_near(r.output, s.output, 1e-9, "output");
}
}  // namespace

TEST(Scores, DotProductIsTheSumOfTheElementwiseProducts) {
    FocusInput in = test::small_input();
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok()) << r.error().message;
    for (std::size_t j = 0; j < in.keys.size(); j++) {
        ASSERT_EQ(r.value().products[j].size(), in.query.size());
        EXPECT_DOUBLE_EQ(test::sum(r.value().products[j]), r.value().dot_products[j]);
        for (std::size_t i = 0; i < in.query.size(); i++)
            EXPECT_DOUBLE_EQ(r.value().products[j][i], in.query[i] * in.keys[j][i]);
    }
    EXPECT_DOUBLE_EQ(attn::dot({1, 2, 3}, {4, -5, 6}), 12.0);
}

TEST(Scores, MatchTheNaiveReferenceOnRandomInputs) {
    test::Lcg lcg{7};
    for (int trial = 0; trial < 50; trial++) {
        const std::size_t d = 1 + trial % 17, n = 1 + trial % 9;
        FocusInput in;
        in.query = lcg.vec(d, 3.0);
        for (std::size_t j = 0; j < n; j++) {
            in.keys.push_back(lcg.vec(d, 3.0));
            in.values.push_back(lcg.vec(5));
        }
        in.options.temperature = 0.5 + (trial % 4);
        in.options.scale = trial % 3 != 0;
        auto r = attn::attend(in);
        ASSERT_TRUE(r.ok()) << r.error().message;
        expect_matches_reference(in, r.value());
    }
}

TEST(Scaling, DividesRawScoresBySqrtOfDimension) {
    for (int d : {1, 4, 9, 64, 512}) {
        FocusInput in;
        in.query.assign(d, 1.0);
        in.keys = {Vector(d, 0.5), Vector(d, -1.0)};
        in.values = {{1.0}, {2.0}};
        auto r = attn::attend(in);
        ASSERT_TRUE(r.ok());
        EXPECT_DOUBLE_EQ(r.value().scale, 1.0 / std::sqrt(static_cast<double>(d)));
        for (std::size_t j = 0; j < 2; j++)
            EXPECT_NEAR(r.value().scores[j], r.value().dot_products[j] / std::sqrt(double(d)),
                        1e-12 * std::abs(r.value().dot_products[j]));
    }
}

TEST(Scaling, TurnedOffLeavesScoresEqualToRawAndScaleOne) {
    FocusInput in = test::small_input();
    in.options.scale = false;
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value().scale, 1.0);
    EXPECT_EQ(r.value().scores, r.value().dot_products);
    EXPECT_EQ(attn::scale_factor(16, true), 0.25);
    EXPECT_EQ(attn::scale_factor(16, false), 1.0);
}

TEST(Softmax, WeightsAreNonNegativeAndSumToOne) {
    test::Lcg lcg{11};
    for (int trial = 0; trial < 100; trial++) {
        Vector logits = lcg.vec(1 + trial % 30, 20.0);
        RowStatus status = RowStatus::AllMasked;
        Vector w = attn::softmax(logits, &status);
        EXPECT_EQ(status, RowStatus::Ok);
        ASSERT_TRUE(AllFinite(w));
        for (double x : w) EXPECT_GE(x, 0.0);
        EXPECT_NEAR(test::sum(w), 1.0, test::kSumTol);
    }
}

TEST(Softmax, ShiftingAllScoresLeavesWeightsUnchanged) {
    const Vector logits = {2.1, 0.4, -0.7, 1.3};
    const Vector w = attn::softmax(logits, nullptr);
    for (double c : {-500.0, -3.5, 0.001, 42.0, 900.0}) {
        Vector shifted = logits;
        for (double& x : shifted) x += c;
        const Vector ws = attn::softmax(shifted, nullptr);
        for (std::size_t j = 0; j < w.size(); j++) EXPECT_NEAR(ws[j], w[j], 1e-12);
    }
}

TEST(Softmax, PermutingCandidatesPermutesWeights) {
    FocusInput in = test::small_input();
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    const std::vector<std::size_t> perm = {2, 0, 1};
    FocusInput p = in;
    for (std::size_t j = 0; j < perm.size(); j++) {
        p.keys[j] = in.keys[perm[j]];
        p.values[j] = in.values[perm[j]];
    }
    auto rp = attn::attend(p);
    ASSERT_TRUE(rp.ok());
    for (std::size_t j = 0; j < perm.size(); j++)
        EXPECT_NEAR(rp.value().weights[j], r.value().weights[perm[j]], 1e-15);
    for (std::size_t i = 0; i < r.value().output.size(); i++)
        EXPECT_NEAR(rp.value().output[i], r.value().output[i], 1e-12);
}

TEST(Softmax, SmallTemperatureTendsToArgmax) {
    FocusInput in = test::small_input();
    auto base = attn::attend(in);
    ASSERT_TRUE(base.ok());
    const auto& s = base.value().scores;
    std::size_t argmax = 0;
    for (std::size_t j = 1; j < s.size(); j++)
        if (s[j] > s[argmax]) argmax = j;
    double previous = 0.0;
    for (double t : {1.0, 0.3, 0.1, 0.01, 0.001}) {
        in.options.temperature = t;
        auto r = attn::attend(in);
        ASSERT_TRUE(r.ok());
        EXPECT_GE(r.value().weights[argmax], previous);
        previous = r.value().weights[argmax];
    }
    EXPECT_GT(previous, 1.0 - 1e-9);
}

TEST(Softmax, LargeTemperatureTendsToUniform) {
    FocusInput in = test::small_input();
    in.options.temperature = 1e6;
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    for (double w : r.value().weights) EXPECT_NEAR(w, 1.0 / 3.0, 1e-5);
    EXPECT_EQ(r.value().temperature, 1e6);
}

TEST(Softmax, ExtremeScoresDoNotOverflow) {
    for (const Vector& logits :
         {Vector{1000.0, -1000.0, 999.0}, Vector{-1000.0, -1000.0, -1000.0}, Vector{1e300, 0.0},
          Vector{-1e300, -1e300}, Vector{710.0, 709.0}}) {
        RowStatus status = RowStatus::AllMasked;
        const Vector w = attn::softmax(logits, &status);
        ASSERT_TRUE(AllFinite(w));
        EXPECT_EQ(status, RowStatus::Ok);
        EXPECT_NEAR(test::sum(w), 1.0, test::kSumTol);
    }
    const Vector w = attn::softmax({1000.0, -1000.0, 999.0}, nullptr);
    EXPECT_NEAR(w[0], 1.0 / (1.0 + std::exp(-1.0)), 1e-12);
    EXPECT_EQ(w[1], 0.0);
}

TEST(Softmax, ExtremeQueryKeyScoresThroughAttendStayFinite) {
    FocusInput in;
    in.query = {100.0, 10.0};
    in.keys = {{10.0, 0.0}, {-10.0, 0.0}, {9.99, 0.0}};  // dot products 1000, -1000, 999
    in.values = {{1.0}, {2.0}, {3.0}};
    in.options.scale = false;
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(AllFinite(r.value().weights));
    EXPECT_TRUE(AllFinite(r.value().output));
    EXPECT_NEAR(r.value().weight_sum, 1.0, test::kSumTol);
    expect_matches_reference(in, r.value());
}

TEST(Softmax, AllMinusInfinityRowGivesZerosAndAllMaskedStatus) {
    RowStatus status = RowStatus::Ok;
    const Vector w = attn::softmax({-kInf, -kInf}, &status);
    EXPECT_EQ(status, RowStatus::AllMasked);
    EXPECT_EQ(w, (Vector{0.0, 0.0}));
    EXPECT_EQ(attn::softmax({}, &status).size(), 0u);
    EXPECT_EQ(status, RowStatus::AllMasked);
}

TEST(Softmax, DefensiveInputsNeverGiveNaN) {
    RowStatus status = RowStatus::Ok;
    Vector w = attn::softmax({kNaN, 1.0}, &status);
    EXPECT_TRUE(AllFinite(w));
    EXPECT_EQ(w[0], 0.0);
    EXPECT_EQ(w[1], 1.0);
    w = attn::softmax({kInf, 1.0, kInf}, &status);
    EXPECT_TRUE(AllFinite(w));
    EXPECT_EQ(w, (Vector{0.5, 0.0, 0.5}));
}

TEST(Masking, MaskedCandidatesWeighExactlyZeroAndAreReportedMasked) {
    FocusInput in = test::small_input();
    in.denied = {false, true, false};
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value().mask[1], MaskReason::Denied);
    EXPECT_EQ(r.value().weights[1], 0.0);
    EXPECT_EQ(r.value().logits[1], -kInf);
    for (double c : r.value().contributions[1]) EXPECT_EQ(c, 0.0);
    EXPECT_NEAR(r.value().weights[0] + r.value().weights[2], 1.0, test::kSumTol);
    expect_matches_reference(in, r.value());
}

TEST(Masking, MaskingRenormalisesOverTheAllowedCandidates) {
    FocusInput in = test::small_input();
    in.denied = {false, true, false};
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    const double a = r.value().scores[0], c = r.value().scores[2];
    EXPECT_NEAR(r.value().weights[0], std::exp(a) / (std::exp(a) + std::exp(c)), 1e-12);
}

TEST(Masking, CausalMasksPositionsAfterTheFocus) {
    FocusInput in = test::small_input();
    in.positions = {3, 5, 6};
    in.focus_position = 5;
    in.options.causal = true;
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value().mask[0], MaskReason::Allowed);
    EXPECT_EQ(r.value().mask[1], MaskReason::Allowed);  // the focus may attend to itself
    EXPECT_EQ(r.value().mask[2], MaskReason::Causal);
    EXPECT_EQ(r.value().weights[2], 0.0);
    EXPECT_NEAR(r.value().weight_sum, 1.0, test::kSumTol);
}

TEST(Masking, CausalOffMasksNothing) {
    FocusInput in = test::small_input();
    in.positions = {3, 5, 6};
    in.focus_position = 0;
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    for (MaskReason m : r.value().mask) EXPECT_EQ(m, MaskReason::Allowed);
}

TEST(Masking, PaddingIsMaskedWithItsOwnReason) {
    FocusInput in = test::small_input();
    in.padding = {false, false, true};
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value().mask[2], MaskReason::Padding);
    EXPECT_EQ(r.value().weights[2], 0.0);
    EXPECT_STREQ(attn::mask_reason_name(MaskReason::Padding), "padding");
}

TEST(Masking, FullyMaskedRowIsDefinedWithZeroOutputAndNoNaN) {
    FocusInput in = test::small_input();
    in.denied = {true, true, true};
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value().status, RowStatus::AllMasked);
    EXPECT_EQ(r.value().weight_sum, 0.0);
    for (double w : r.value().weights) EXPECT_EQ(w, 0.0);
    EXPECT_EQ(r.value().output, Vector(3, 0.0));
    EXPECT_TRUE(AllFinite(r.value().output));
    EXPECT_STREQ(attn::row_status_name(r.value().status), "all_masked");
}

TEST(Mixing, OutputIsTheWeightedSumOfValuesAndOfContributions) {
    FocusInput in = test::small_input();
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    const auto& res = r.value();
    for (std::size_t i = 0; i < res.output.size(); i++) {
        double from_contributions = 0.0;
        for (std::size_t j = 0; j < in.values.size(); j++) {
            EXPECT_DOUBLE_EQ(res.contributions[j][i], res.weights[j] * in.values[j][i]);
            from_contributions += res.contributions[j][i];
        }
        EXPECT_NEAR(res.output[i], from_contributions, 1e-15);
    }
    // one-hot values: the output is the weight vector itself
    for (std::size_t j = 0; j < 3; j++) EXPECT_NEAR(res.output[j], res.weights[j], 1e-15);
}

TEST(Mixing, ValuesMayHaveADifferentLengthThanKeys) {
    FocusInput in = test::small_input();
    in.values = {{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}};
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value().output.size(), 2u);
    expect_matches_reference(in, r.value());
}

// ----- validation: every error code of a focus step -----
namespace {
ErrorCode code_of(const FocusInput& in) {
    auto r = attn::attend(in);
    EXPECT_FALSE(r.ok());
    EXPECT_FALSE(r.error().message.empty());
    return r.error().code;
}
}  // namespace

TEST(Validation, KeyOfDifferentLengthIsDimensionMismatch) {
    FocusInput in = test::small_input();
    in.keys[1].pop_back();
    EXPECT_EQ(code_of(in), ErrorCode::DimensionMismatch);
    auto r = attn::attend(in);
    EXPECT_NE(r.error().message.find("Key 2"), std::string::npos) << r.error().message;
}

TEST(Validation, MissingValueIsDimensionMismatch) {
    FocusInput in = test::small_input();
    in.values.pop_back();
    EXPECT_EQ(code_of(in), ErrorCode::DimensionMismatch);
    in = test::small_input();
    in.values[2] = {1.0};
    EXPECT_EQ(code_of(in), ErrorCode::DimensionMismatch);
}

TEST(Validation, WrongLengthMaskListsAreDimensionMismatch) {
    FocusInput in = test::small_input();
    in.denied = {true};
    EXPECT_EQ(code_of(in), ErrorCode::DimensionMismatch);
    in = test::small_input();
    in.padding = {true, false};
    EXPECT_EQ(code_of(in), ErrorCode::DimensionMismatch);
    in = test::small_input();
    in.positions = {1, 2};
    EXPECT_EQ(code_of(in), ErrorCode::DimensionMismatch);
}

TEST(Validation, NoCandidatesIsEmptyCandidates) {
    FocusInput in = test::small_input();
    in.keys.clear();
    in.values.clear();
    EXPECT_EQ(code_of(in), ErrorCode::EmptyCandidates);
}

TEST(Validation, NaNOrInfinityAnywhereIsNonFinite) {
    for (int where = 0; where < 3; where++)
        for (double bad : {kNaN, kInf, -kInf}) {
            FocusInput in = test::small_input();
            (where == 0 ? in.query[1] : where == 1 ? in.keys[2][3] : in.values[0][0]) = bad;
            EXPECT_EQ(code_of(in), ErrorCode::NonFinite);
        }
}

TEST(Validation, OverflowingScoresAreNonFiniteNotNaN) {
    FocusInput in = test::small_input();
    in.query = {1e200, 1e200, 0, 0};
    in.keys[0] = {1e200, 1e200, 0, 0};
    EXPECT_EQ(code_of(in), ErrorCode::NonFinite);
    in = test::small_input();
    in.values[0] = {1e308, 0, 0};
    in.values[1] = {1e308, 0, 0};
    in.values[2] = {1e308, 0, 0};
    in.query = {0, 0, 0, 0};  // uniform weights: a mixture of huge values stays finite
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(AllFinite(r.value().output));
    EXPECT_NEAR(r.value().output[0] / 1e308, 1.0, 1e-12);
}

TEST(Validation, TemperatureMustBePositiveAndFinite) {
    for (double t : {0.0, -1.0, kNaN, kInf, -0.0}) {
        FocusInput in = test::small_input();
        in.options.temperature = t;
        EXPECT_EQ(code_of(in), ErrorCode::BadTemperature) << t;
    }
    FocusInput in = test::small_input();
    in.options.temperature = 1e-320;  // scores / T overflow
    EXPECT_EQ(code_of(in), ErrorCode::BadTemperature);
}

TEST(Validation, DimensionMustBeOneTo512) {
    FocusInput in = test::small_input();
    in.query.clear();
    EXPECT_EQ(code_of(in), ErrorCode::BadDimension);
    in.query.assign(513, 0.1);
    in.keys = {Vector(513, 0.1)};
    in.values = {Vector(513, 0.1)};
    EXPECT_EQ(code_of(in), ErrorCode::BadDimension);
    in.query.assign(512, 0.1);
    in.keys = {Vector(512, 0.1)};
    in.values = {Vector(512, 0.1)};
    EXPECT_TRUE(attn::attend(in).ok());
}

TEST(Validation, TooManyCandidatesIsTooManyTokens) {
    FocusInput in;
    in.query = {1.0};
    in.keys.assign(attn::kMaxCandidates + 1, Vector{1.0});
    in.values.assign(attn::kMaxCandidates + 1, Vector{1.0});
    EXPECT_EQ(code_of(in), ErrorCode::TooManyTokens);
}

TEST(Validation, NegativeFocusIsBadFocusAndNegativePositionIsBadArgument) {
    FocusInput in = test::small_input();
    in.focus_position = -1;
    EXPECT_EQ(code_of(in), ErrorCode::BadFocus);
    in = test::small_input();
    in.positions = {0, -2, 1};
    EXPECT_EQ(code_of(in), ErrorCode::BadArgument);
}

TEST(Validation, EveryErrorCodeHasADistinctSnakeCaseName) {
    std::set<std::string> names;
    for (int c = 0; c <= static_cast<int>(ErrorCode::FileNotReadable); c++) {
        std::string name = attn::error_code_name(static_cast<ErrorCode>(c));
        EXPECT_NE(name, "unknown_error");
        for (char ch : name)
            EXPECT_TRUE((ch >= 'a' && ch <= 'z') || ch == '_' || (ch >= '0' && ch <= '9')) << name;
        names.insert(name);
    }
    EXPECT_EQ(names.size(), static_cast<std::size_t>(ErrorCode::FileNotReadable) + 1);
    EXPECT_STREQ(attn::error_code_name(ErrorCode::DimensionMismatch), "dimension_mismatch");
}
