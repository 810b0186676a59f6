// test_model.cpp - the model library: BPE tokenizer, weights file (round trip and every kind
// of bad file), int8 quantisation, baselines, head analysis, and a tiny training run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "model.h"
#include "trainer.h"
#include "transformer.h"

namespace {

const char* kText =
    "dog: a member of the genus Canis; \"the dog barked all night\"\n"
    "cat: feline mammal usually having thick soft fur; \"the cat sat\"\n"
    "run: move fast by using one's feet; \"Don't run--you'll be out of breath\"\n";

attn::ModelConfig tiny_config(int vocab) {
    attn::ModelConfig c;
    c.vocab = vocab;
    c.context = 16;
    c.d_model = 16;
    c.heads = 2;
    c.layers = 2;
    c.d_ff = 32;
    return c;
}

attn::Model tiny_model() {
    attn::Model m;
    m.bpe = attn::bpe_train(kText, 300);
    m.config = tiny_config(m.bpe.vocab());
    m.params = attn::init_params<float>(m.config, 42);
    return m;
}

TEST(Bpe, TrainingLearnsMergesAndEncodingRoundTrips) {
    const attn::Bpe b = attn::bpe_train(kText, 300);
    EXPECT_GT(b.vocab(), 256);
    EXPECT_LE(b.vocab(), 300);
    const std::vector<int> ids = attn::bpe_encode(b, kText);
    EXPECT_LT(ids.size(), std::string(kText).size());  // merges shorten the text
    EXPECT_EQ(attn::bpe_decode(b, ids), kText);
}

TEST(Bpe, TrainingIsDeterministic) {
    EXPECT_EQ(attn::bpe_train(kText, 300).merges, attn::bpe_train(kText, 300).merges);
}

TEST(Bpe, AnyUtf8TextEncodesWithoutUnknownTokens) {
    const attn::Bpe b = attn::bpe_train(kText, 300);
    for (const std::string s : {"naïve café, 3½ euros", "日本語のテキスト",
                                "emoji 🙂 and tabs\t\r\n", "   leading spaces", "x"}) {
        const std::vector<int> ids = attn::bpe_encode(b, s);
        for (int id : ids) EXPECT_TRUE(id >= 0 && id < b.vocab());
        EXPECT_EQ(attn::bpe_decode(b, ids), s);
    }
}

TEST(Bpe, ChunksNeverJoinAWordWithTheSpaceAfterIt) {
    const std::vector<std::string_view> c = attn::bpe_chunks("the dog, 42 x\n");
    const std::vector<std::string_view> want = {"the", " dog", ",", " 42", " x", "\n"};
    EXPECT_EQ(c, want);
}

TEST(Bpe, DisplayShowsSpacesAndBytesThatAreNotText) {
    attn::Bpe b = attn::bpe_train("", 256);
    EXPECT_EQ(attn::token_display(b, ' '), "\u2423");
    EXPECT_EQ(attn::token_display(b, '\n'), "\u21B5");
    EXPECT_EQ(attn::token_display(b, 0xE2), "<0xE2>");  // a lone lead byte
    EXPECT_EQ(attn::token_display(b, 0x01), "<0x01>");
    EXPECT_EQ(attn::token_display(b, 'a'), "a");
    const attn::Bpe t = attn::bpe_train(std::string(50, ' ') + "é é é é é é", 300);
    const std::vector<int> ids = attn::bpe_encode(t, " é");
    ASSERT_EQ(ids.size(), 1u);
    EXPECT_EQ(attn::token_display(t, ids[0]), "\u2423é");
}

TEST(Bpe, TextTokensAreThePrintableAsciiIdsAndCoverPlainEnglish) {
    const attn::Bpe b = attn::bpe_train(kText, 300);
    const std::vector<int> pool = attn::text_tokens(b);
    EXPECT_EQ(std::count_if(pool.begin(), pool.end(), [](int id) { return id < 256; }), 95)
        << "the bytes 0x20..0x7E";
    EXPECT_EQ(std::count(pool.begin(), pool.end(), 0x01), 0);
    EXPECT_EQ(std::count(pool.begin(), pool.end(), 0xC3), 0);  // a lone UTF-8 lead byte
    EXPECT_EQ(std::count(pool.begin(), pool.end(), '\n'), 0);
    for (int id : attn::bpe_encode(b, "the cat sat; a dog ran by the genus Canis"))
        EXPECT_EQ(std::count(pool.begin(), pool.end(), id), 1) << attn::token_display(b, id);
    EXPECT_GT(pool.size(), 95u) << "merges of plain text are in the pool too";
}

TEST(Bpe, ModelInputIsCheckedForEmptinessLengthUtf8AndTokenCount) {
    const attn::Bpe b = attn::bpe_train(kText, 300);
    EXPECT_EQ(attn::tokenize_for_model(b, "", 16).error().code, attn::ErrorCode::EmptyText);
    EXPECT_EQ(attn::tokenize_for_model(b, "bad \xff byte", 16).error().code,
              attn::ErrorCode::InvalidUtf8);
    EXPECT_EQ(attn::tokenize_for_model(b, std::string(5000, 'a'), 4096).error().code,
              attn::ErrorCode::TextTooLong);
    EXPECT_EQ(attn::tokenize_for_model(b, "one two three four five six", 3).error().code,
              attn::ErrorCode::TooManyTokens);
    EXPECT_TRUE(attn::tokenize_for_model(b, "the dog", 16).ok());
}

TEST(Bpe, MergesNamingTokensNotYetMadeAreRefused) {
    EXPECT_FALSE(attn::bpe_from_merges({{97, 98}, {256, 300}}).ok());
    EXPECT_FALSE(attn::bpe_from_merges({{-1, 98}}).ok());
    EXPECT_TRUE(attn::bpe_from_merges({{97, 98}, {256, 99}}).ok());
}

TEST(Wordnet, GlossLinesTakeTheFirstWordAndTheGloss) {
    const std::string file =
        "  1 This software and database is being provided\n"
        "00022316 29 v 05 sedate 0 calm 0 003 @ 00019448 v 0000 01 + 09 00 | cause to be calm; "
        "\"The patient must be sedated\"  \n"
        "00001740 00 a 01 able(a) 0 000 | having the necessary means  \n"
        "00002137 03 n 02 physical_entity 0 000 | an entity that has physical existence  \n";
    const std::vector<std::string> lines = attn::wordnet_gloss_lines(file);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "sedate: cause to be calm; \"The patient must be sedated\"");
    EXPECT_EQ(lines[1], "able: having the necessary means");
    EXPECT_EQ(lines[2], "physical entity: an entity that has physical existence");
}

TEST(Wordnet, EveryFiftiethLineIsHeldOut) {
    std::vector<std::string> lines;
    for (int i = 0; i < 100; i++) lines.push_back("l" + std::to_string(i));
    const attn::CorpusSplit s = attn::split_corpus(lines);
    EXPECT_EQ(s.val, "l49\nl99\n");
    EXPECT_EQ(s.train.find("l49\n"), std::string::npos);
    EXPECT_NE(s.train.find("l48\n"), std::string::npos);
}

TEST(Sha256, MatchesTheStandardTestVectors) {
    const std::string abc = "abc";
    EXPECT_EQ(attn::sha256_hex(reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size()),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(attn::sha256_hex(nullptr, 0),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";  // 2 blocks
    EXPECT_EQ(attn::sha256_hex(reinterpret_cast<const std::uint8_t*>(two.data()), two.size()),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Weights, Float32FileRoundTripsExactly) {
    const attn::Model m = tiny_model();
    const std::vector<std::uint8_t> bytes =
        attn::serialize_model(m, attn::WeightsEncoding::Float32);
    const attn::Result<attn::Model> back = attn::parse_model(bytes.data(), bytes.size());
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back.value().params, m.params);
    EXPECT_EQ(back.value().bpe.merges, m.bpe.merges);
    EXPECT_EQ(back.value().config.d_ff, m.config.d_ff);
}

TEST(Weights, Int8RowsAreWithinHalfAStepOfTheFloats) {
    attn::Model m = tiny_model();
    const std::vector<float> q = attn::quantised(m);
    ASSERT_EQ(q.size(), m.params.size());
    for (const attn::TensorInfo& t : attn::parameter_tensors(m.config))
        for (int r = 0; r < t.rows; r++) {
            float max_abs = 0;
            for (int i = 0; i < t.cols; i++)
                max_abs = std::max(max_abs, std::abs(m.params[t.offset + r * t.cols + i]));
            for (int i = 0; i < t.cols; i++) {
                const std::size_t at = t.offset + r * t.cols + i;
                if (t.matrix)
                    EXPECT_LE(std::abs(q[at] - m.params[at]), max_abs / 127 * 0.5f + 1e-7f);
                else
                    EXPECT_EQ(q[at], m.params[at]);  // vectors stay float32
            }
        }
    const std::vector<std::uint8_t> f32 = attn::serialize_model(m, attn::WeightsEncoding::Float32);
    const std::vector<std::uint8_t> i8 =
        attn::serialize_model(m, attn::WeightsEncoding::Int8PerRow);
    EXPECT_LT(i8.size() * 2, f32.size());
}

TEST(Weights, BadFilesGiveTypedErrors) {
    const attn::Model m = tiny_model();
    std::vector<std::uint8_t> good = attn::serialize_model(m, attn::WeightsEncoding::Int8PerRow);
    // truncated
    for (std::size_t cut : {std::size_t(0), std::size_t(5), std::size_t(30), good.size() - 1}) {
        const auto r = attn::parse_model(good.data(), cut);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, attn::ErrorCode::BadModelFile) << cut;
        EXPECT_NE(r.error().message.find("truncated"), std::string::npos) << r.error().message;
    }
    // wrong version
    std::vector<std::uint8_t> v2 = good;
    v2[8] = 2;
    EXPECT_EQ(attn::parse_model(v2.data(), v2.size()).error().code, attn::ErrorCode::WrongVersion);
    // a flipped bit in a weight fails the checksum
    std::vector<std::uint8_t> flipped = good;
    flipped[good.size() / 2] ^= 1;
    const auto r = attn::parse_model(flipped.data(), flipped.size());
    EXPECT_EQ(r.error().code, attn::ErrorCode::BadModelFile);
    EXPECT_NE(r.error().message.find("checksum"), std::string::npos);
    // a merge count near INT_MAX (found by fuzz_weights: it overflowed an int sum)
    std::vector<std::uint8_t> huge = good;
    const std::uint8_t count[4] = {0xfe, 0xff, 0xff, 0x7f};
    std::memcpy(huge.data() + 40, count, 4);
    const auto h = attn::parse_model(huge.data(), huge.size());
    ASSERT_FALSE(h.ok());
    EXPECT_NE(h.error().message.find("2147483646 tokenizer merges"), std::string::npos)
        << h.error().message;
    // not a weights file
    std::vector<std::uint8_t> text(good.size(), 'x');
    EXPECT_EQ(attn::parse_model(text.data(), text.size()).error().code,
              attn::ErrorCode::BadModelFile);
    // a NaN written with a valid checksum
    attn::Model nan = m;
    nan.params[nan.params.size() - 1] = std::nanf("");
    const std::vector<std::uint8_t> nb = attn::serialize_model(nan, attn::WeightsEncoding::Float32);
    EXPECT_EQ(attn::parse_model(nb.data(), nb.size()).error().code, attn::ErrorCode::NonFinite);
    // missing
    EXPECT_EQ(attn::load_model("no/such/weights.bin").error().code,
              attn::ErrorCode::FileNotReadable);
}

TEST(Baselines, BigramBeatsUnigramOnStructuredText) {
    const attn::Bpe b = attn::bpe_train(kText, 300);
    std::string train;
    for (int i = 0; i < 20; i++) train += kText;
    const attn::Baselines base =
        attn::count_baselines(b, attn::bpe_encode(b, train), attn::bpe_encode(b, kText));
    EXPECT_GT(base.unigram_bpb, base.bigram_bpb);
    EXPECT_GT(base.bigram_bpb, 0.0);
}

TEST(Analysis, LabelsFollowTheStatedThresholds) {
    attn::HeadReport h;
    EXPECT_EQ(attn::head_label(h), "mixed");
    h.previous_token = 0.5;
    EXPECT_EQ(attn::head_label(h), "previous-token");
    h.induction = 0.4;
    EXPECT_EQ(attn::head_label(h), "induction");
    attn::HeadReport s;
    s.self = 0.49;
    s.first_token = 0.7;
    EXPECT_EQ(attn::head_label(s), "first-token");
}

TEST(Analysis, EveryHeadIsMeasuredWithScoresThatAreProbabilities) {
    const attn::Model m = tiny_model();
    std::string val;
    for (int i = 0; i < 4; i++) val += kText;
    attn::AnalysisOptions o;
    o.windows = 4;
    o.induction_sequences = 3;
    const std::vector<attn::HeadReport> heads =
        attn::analyse_heads(m, attn::bpe_encode(m.bpe, val), o);
    ASSERT_EQ(heads.size(), static_cast<std::size_t>(m.config.layers * m.config.heads));
    for (const attn::HeadReport& h : heads) {
        for (double v : {h.previous_token, h.first_token, h.self, h.induction}) {
            EXPECT_GE(v, 0.0);
            EXPECT_LE(v, 1.0);
        }
        EXPECT_TRUE(std::isfinite(h.ablation_loss_delta));
    }
}

TEST(Analysis, WithoutAblationTheScoresAndLabelsAreTheSameAndNoLossIsMeasured) {
    const attn::Model m = tiny_model();
    std::string val;
    for (int i = 0; i < 4; i++) val += kText;
    attn::AnalysisOptions full, quick;
    full.windows = quick.windows = 4;
    full.induction_sequences = quick.induction_sequences = 3;
    quick.ablation = false;
    const std::vector<int> ids = attn::bpe_encode(m.bpe, val);
    const std::vector<attn::HeadReport> a = attn::analyse_heads(m, ids, full);
    const std::vector<attn::HeadReport> b = attn::analyse_heads(m, ids, quick);
    ASSERT_EQ(a.size(), b.size());
    double deltas = 0;
    for (std::size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].previous_token, b[i].previous_token);
        EXPECT_EQ(a[i].induction, b[i].induction);
        EXPECT_EQ(a[i].label, b[i].label);
        EXPECT_EQ(b[i].ablation_loss_delta, 0.0);
        deltas += std::fabs(a[i].ablation_loss_delta);
    }
    EXPECT_GT(deltas, 0.0) << "with ablation, switching a head off changes the loss";
}

// Toy language: words w_t = W[(i_{t-1} + 2 i_{t-2}) mod 8], so the next word depends on the two
// before it; a bigram model cannot see that, a transformer with a previous-token head can.
std::string toy_corpus(int words, std::uint64_t seed) {
    const char* w[8] = {"red", "blue", "green", "gold", "pink", "gray", "teal", "rose"};
    std::string s;
    int a = 0, b = 1;
    for (int t = 0; t < words; t++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int c = (b + 2 * a) % 8;
        if ((seed >> 33) % 10 == 0) c = static_cast<int>((seed >> 40) % 8);  // 10% noise
        s += (t ? " " : "") + std::string(w[c]);
        a = b;
        b = c;
    }
    return s;
}

TEST(Training, ATinyModelBeatsTheBigramBaselineOnAToyCorpus) {
    const std::string train_text = toy_corpus(30000, 1), val_text = toy_corpus(3000, 2);
    attn::Model m;
    m.bpe = attn::bpe_train(train_text, 272);
    m.config = tiny_config(m.bpe.vocab());
    m.config.context = 24;
    m.config.d_model = 32;
    m.params = attn::init_params<float>(m.config, 7);
    const std::vector<int> train = attn::bpe_encode(m.bpe, train_text);
    const std::vector<int> val = attn::bpe_encode(m.bpe, val_text);
    attn::TrainOptions o;
    o.steps = 300;
    o.batch = 8;
    o.lr = 1e-2;
    o.warmup = 30;
    o.synthetic_fraction = 0;
    o.eval_every = 100;
    o.eval_windows = 8;
    const attn::TrainCurve curve = attn::train_model(m, train, val, o);
    EXPECT_EQ(curve.steps_done, 300);
    EXPECT_LT(curve.loss.back().second, curve.loss.front().second);
    const attn::Baselines base = attn::count_baselines(m.bpe, train, val);
    const double bpb = attn::evaluate_bpb(m, m.params, val);
    EXPECT_LT(bpb, base.bigram_bpb) << "model " << bpb << " bigram " << base.bigram_bpb;
}

TEST(Training, LearningRateWarmsUpThenDecaysToItsFloor) {
    attn::TrainOptions o;
    o.steps = 1000;
    o.warmup = 100;
    o.lr = 1e-3;
    EXPECT_NEAR(attn::learning_rate(o, 0), 1e-5, 1e-12);
    EXPECT_NEAR(attn::learning_rate(o, 99), 1e-3, 1e-12);
    EXPECT_GT(attn::learning_rate(o, 300), attn::learning_rate(o, 600));
    EXPECT_NEAR(attn::learning_rate(o, 1000), 1e-4, 1e-12);
}

TEST(Training, ClippingScalesTheGradientToTheLimit) {
    std::vector<float> g = {3, 4};
    EXPECT_NEAR(attn::clip_gradients(g, 1.0), 5.0, 1e-9);
    EXPECT_NEAR(std::hypot(g[0], g[1]), 1.0, 1e-6);
}

// A tiny untrained model on a toy corpus and that corpus's tokens, for the training tests
struct ToyRun {
    attn::Model model;
    std::vector<int> ids;
};
ToyRun toy_run(std::uint64_t corpus_seed, unsigned long long init_seed) {
    const std::string text = toy_corpus(3000, corpus_seed);
    ToyRun r;
    r.model.bpe = attn::bpe_train(text, 270);
    r.model.config = tiny_config(r.model.bpe.vocab());
    r.model.params = attn::init_params<float>(r.model.config, init_seed);
    r.ids = attn::bpe_encode(r.model.bpe, text);
    return r;
}

TEST(Training, TheSameSeedGivesTheSameWeightsBitForBit) {
    const ToyRun run = toy_run(3, 5);
    attn::Model a = run.model, b = run.model;
    const std::vector<int>& ids = run.ids;
    attn::TrainOptions o;
    o.steps = 20;
    o.batch = 2;
    o.synthetic_fraction = 0.5;
    attn::train_model(a, ids, ids, o);
    attn::train_model(b, ids, ids, o);
    EXPECT_EQ(a.params, b.params);
}

TEST(Training, SplittingTheBatchOverThreadsChangesTheWeightsOnlyByRounding) {
    const ToyRun run = toy_run(4, 9);
    attn::Model one = run.model, two = run.model;
    const std::vector<int>& ids = run.ids;
    attn::TrainOptions o;
    o.steps = 3;
    o.warmup = 1;
    o.lr = 1e-3;
    o.batch = 4;
    o.synthetic_fraction = 0.25;
    o.copy_fraction = 0.5;
    o.threads = 1;
    attn::train_model(one, ids, ids, o);
    o.threads = 2;
    attn::train_model(two, ids, ids, o);
    ASSERT_EQ(one.params.size(), two.params.size());
    double moved = 0, differ = 0;
    const std::vector<float>& start = run.model.params;
    for (std::size_t i = 0; i < start.size(); i++) {
        moved = std::max(moved, std::fabs(static_cast<double>(one.params[i]) - start[i]));
        differ = std::max(differ, std::fabs(static_cast<double>(one.params[i]) - two.params[i]));
    }
    EXPECT_GT(moved, 1e-3);   // the steps did move the weights
    EXPECT_LT(differ, 1e-5);  // the same gradients, summed in another order
}

// sample_batch(): the kinds of sequence a step trains on
attn::TrainOptions only(double synthetic, double copy) {
    attn::TrainOptions o;
    o.batch = 64;
    o.synthetic_fraction = synthetic;
    o.copy_fraction = copy;
    o.triplet_fraction = 0;
    return o;
}

TEST(Batches, ARepeatedSequenceStartsAtVaryingPlacesAndScoresOnlyItsSecondCopy) {
    attn::ModelConfig c = tiny_config(300);
    c.context = 64;
    std::vector<int> corpus(1000, 7);
    std::uint64_t rng = 11;
    const attn::Batch b = attn::sample_batch(c, corpus, only(1.0, 0), rng);
    std::vector<std::size_t> starts;
    for (std::size_t s = 0; s < b.inputs.size(); s++) {
        std::vector<int> seq = b.inputs[s];
        seq.push_back(b.targets[s].back());
        ASSERT_LE(seq.size(), static_cast<std::size_t>(c.context) + 1);
        // the first scored target is r_1 of the second copy: the unit is what follows
        std::size_t first = 0;
        while (b.targets[s][first] < 0) first++;
        // targets 0..first-1 are unscored, so seq[first] is r_0 of the second copy
        const std::size_t second = first, u = seq.size() - second;
        ASSERT_GT(u, 1u);
        ASSERT_GE(second, u);
        for (std::size_t t = 0; t < u; t++) EXPECT_EQ(seq[second + t], seq[second - u + t]);
        for (std::size_t t = first; t < b.targets[s].size(); t++) EXPECT_GE(b.targets[s][t], 0);
        starts.push_back(second - u);
    }
    std::sort(starts.begin(), starts.end());
    EXPECT_GT(std::unique(starts.begin(), starts.end()) - starts.begin(), 10)
        << "the repeats should not all start at the same place";
}

TEST(Batches, RandomTokensComeFromThePoolAndRepeatsStartWithinThePrefixLimit) {
    attn::ModelConfig c = tiny_config(300);
    c.context = 64;
    std::vector<int> corpus(1000, 7);
    attn::TrainOptions o = only(0.5, 0);
    o.triplet_fraction = 0.5;
    o.prefix_max = 5;
    o.random_tokens = {3, 40, 41, 299};
    std::uint64_t rng = 13;
    const attn::Batch b = attn::sample_batch(c, corpus, o, rng);
    int repeats = 0, triplets = 0;
    for (std::size_t s = 0; s < b.inputs.size(); s++) {
        std::vector<int> seq = b.inputs[s];
        seq.push_back(b.targets[s].back());
        for (int id : seq)
            EXPECT_EQ(std::count(o.random_tokens.begin(), o.random_tokens.end(), id), 1) << id;
        // a triplet sequence scores target 1 (a b a: a); a repeat leaves its first copy unscored
        const bool triplet = b.targets[s][1] >= 0;
        if (triplet) {
            triplets++;
            continue;
        }
        repeats++;
        std::size_t first = 0;  // seq[first] is r_0 of the second copy
        while (b.targets[s][first] < 0) first++;
        const std::size_t u = seq.size() - first;
        EXPECT_LE(first - u, 5u) << "the prefix is at most prefix_max tokens";
    }
    EXPECT_GT(repeats, 10);
    EXPECT_GT(triplets, 10);
}

TEST(Batches, ACopiedSpanRepeatsEarlierTokensOfTheSameWindowAndEveryTargetIsScored) {
    attn::ModelConfig c = tiny_config(1000);
    c.context = 64;
    std::vector<int> corpus(5000);
    for (std::size_t i = 0; i < corpus.size(); i++) corpus[i] = static_cast<int>(i % 1000);
    std::uint64_t rng = 12;
    const attn::Batch b = attn::sample_batch(c, corpus, only(0, 1.0), rng);
    for (std::size_t s = 0; s < b.inputs.size(); s++) {
        std::vector<int> seq = b.inputs[s];
        seq.push_back(b.targets[s].back());
        ASSERT_EQ(seq.size(), static_cast<std::size_t>(c.context) + 1);
        for (int t : b.targets[s]) EXPECT_GE(t, 0);
        // the corpus counts up by one; a copied span is where that breaks: find where the
        // sequence jumps back, then the span there equals tokens seen before in the window
        std::size_t jump = 1;
        while (jump < seq.size() && seq[jump] == (seq[jump - 1] + 1) % 1000) jump++;
        ASSERT_LT(jump, seq.size()) << "sequence " << s << " has no copied span";
        const auto source =
            std::find(seq.begin(), seq.begin() + static_cast<std::ptrdiff_t>(jump), seq[jump]);
        ASSERT_NE(source, seq.begin() + static_cast<std::ptrdiff_t>(jump)) << "sequence " << s;
        std::size_t same = 0;
        for (auto a = source, z = seq.begin() + static_cast<std::ptrdiff_t>(jump);
             z != seq.end() && *a == *z; ++a, ++z)
            same++;
        EXPECT_GE(same, static_cast<std::size_t>(only(0, 1).synthetic_min)) << "sequence " << s;
    }
}

}  // namespace
