// attention_train - trains the project's transformer on WordNet glosses and writes the weights
// and a run report (run.json) that scripts/train turns into the model card. Steps are printed;
// Ctrl-C stops cleanly after the current step and keeps the last checkpoint.
// Usage: attention_train --out DIR [--corpus DIR] [--steps N] [--batch B] [--threads T] [--lr R]
// [--warmup W]
//                        [--synthetic F] [--copy F] [--triplets F] [--unit-min N] [--unit-max N]
//                        [--prefix-max N] [--seed S] [--package-version V]
//                        [--allow-corpus-mismatch]
// Defaults are the shipped run's (trainer.h); scripts/train passes only --out and the version.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <string>
#include "json_value.h"

#include "model.h"
#include "model_json.h"
#include "trainer.h"

namespace {

// The one piece of process state: set by the SIGINT handler, read between steps.
volatile std::sig_atomic_t g_stop = 0;
void on_sigint(int) { g_stop = 1; }

void say(const std::string& s) {
    std::printf("==> %s\n", s.c_str());
    std::fflush(stdout);
}

int fail(const std::string& s) {
    std::fprintf(stderr, "attention_train: %s\n", s.c_str());
    return 2;
}

bool write_bytes(const std::string& path, const std::string& bytes) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        if (!out) return false;
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) return false;
    }
    return std::rename(tmp.c_str(), path.c_str()) == 0;  // atomic: never a half-written file
}

bool write_model(const std::string& path, const attn::Model& m, attn::WeightsEncoding e,
                 std::string* sha) {
    const std::vector<std::uint8_t> bytes = attn::serialize_model(m, e);
    if (sha) *sha = attn::file_sha256(bytes);
    return write_bytes(path, std::string(bytes.begin(), bytes.end()));
}

std::string clock_text(double seconds) {
    char buf[32];
    const int s = static_cast<int>(seconds + 0.5);
    std::snprintf(buf, sizeof buf, "%d:%02d", s / 60, s % 60);
    return buf;
}

}  // namespace

int main(int argc, char** argv) {
    std::string out_dir, corpus_dir = attn::kCorpusDir, package_version;
    bool allow_mismatch = false;
    int vocab = attn::ModelConfig{}.vocab;
    std::string init_dir;
    for (int i = 1; i + 1 < argc; i++)
        if (std::string(argv[i]) == "--init") init_dir = argv[i + 1];
    attn::TrainOptions o;  // the shipped run's (trainer.h); --init starts from other weights
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--out")
            out_dir = value();
        else if (a == "--corpus")
            corpus_dir = value();
        else if (a == "--init")
            value();  // read above
        else if (a == "--steps")
            o.steps = std::atoi(value().c_str());
        else if (a == "--seed")
            o.seed = std::strtoull(value().c_str(), nullptr, 10);
        else if (a == "--batch")
            o.batch = std::atoi(value().c_str());
        else if (a == "--threads")
            o.threads = std::atoi(value().c_str());
        else if (a == "--vocab")
            vocab = std::atoi(value().c_str());
        else if (a == "--lr")
            o.lr = std::atof(value().c_str());
        else if (a == "--warmup")
            o.warmup = std::atoi(value().c_str());
        else if (a == "--synthetic")
            o.synthetic_fraction = std::atof(value().c_str());
        else if (a == "--copy")
            o.copy_fraction = std::atof(value().c_str());
        else if (a == "--triplets")
            o.triplet_fraction = std::atof(value().c_str());
        else if (a == "--unit-min")
            o.synthetic_min = std::atoi(value().c_str());
        else if (a == "--unit-max")
            o.synthetic_max = std::atoi(value().c_str());
        else if (a == "--prefix-max")
            o.prefix_max = std::atoi(value().c_str());
        else if (a == "--package-version")
            package_version = value();
        else if (a == "--allow-corpus-mismatch")
            allow_mismatch = true;
        else
            return fail("unknown argument " + a + " (see the usage at the top of main.cpp)");
    }
    if (out_dir.empty()) return fail("--out DIR is required");
    if (o.steps < 1 || o.steps > 1000000) return fail("--steps must be 1 to 1000000");
    if (o.batch < 1 || o.batch > 1024) return fail("--batch must be 1 to 1024");
    if (o.threads < 1 || o.threads > 64) return fail("--threads must be 1 to 64");
    if (!(o.lr > 0 && o.lr < 1)) return fail("--lr must be between 0 and 1");
    if (o.warmup < 1) return fail("--warmup must be at least 1");
    if (!(o.synthetic_fraction >= 0 && o.triplet_fraction >= 0 &&
          o.synthetic_fraction + o.triplet_fraction <= 1))
        return fail("--synthetic and --triplets must be 0 to 1 together");
    if (!(o.copy_fraction >= 0 && o.copy_fraction <= 1)) return fail("--copy must be 0 to 1");
    if (o.synthetic_min < 2 || o.synthetic_max < o.synthetic_min)
        return fail("--unit-min must be at least 2 and --unit-max at least --unit-min");
    std::signal(SIGINT, on_sigint);

    say("[1/6] corpus: " + std::string(attn::kCorpusPackage) + " in " + corpus_dir);
    if (!package_version.empty() && package_version != attn::kCorpusPackageVersion)
        std::printf("    WARNING: installed %s is version %s; the model card records %s\n",
                    attn::kCorpusPackage, package_version.c_str(), attn::kCorpusPackageVersion);
    std::string mismatch;
    attn::Result<attn::CorpusSplit> corpus =
        attn::load_corpus(corpus_dir, allow_mismatch, &mismatch);
    if (!corpus.ok()) return fail(corpus.error().message);
    if (!mismatch.empty())
        std::printf("    WARNING: the corpus differs from the recorded one:\n%s", mismatch.c_str());
    else
        std::printf("    SHA-256 of every file matches the recorded corpus\n");
    const attn::CorpusSplit& text = corpus.value();
    std::printf("    train %zu bytes, validation %zu bytes (every %dth line)\n", text.train.size(),
                text.val.size(), attn::kValEvery);

    attn::Model m;
    attn::Json first_stage;
    if (!init_dir.empty()) {
        say("[2/6] tokenizer and starting weights: " + init_dir);
        attn::Result<attn::Model> init = attn::load_model(init_dir + "/model-f32.bin");
        if (!init.ok()) return fail(init.error().message);
        m = init.value();
        attn::Result<std::string> report = attn::read_file_bytes(init_dir + "/run.json", 1 << 26);
        if (!report.ok()) return fail(report.error().message);
        std::optional<attn::Json> parsed = attn::Json::parse(report.value());
        if (!parsed) return fail(init_dir + "/run.json is not JSON");
        first_stage = std::move(*parsed);
    } else {
        if (vocab < 257 || vocab > attn::kMaxBpeVocab) return fail("--vocab must be 257 to 1024");
        m.config.vocab = vocab;
        say("[2/6] tokenizer: byte-level BPE, " + std::to_string(m.config.vocab) + " tokens");
        m.bpe = attn::bpe_train(text.train, m.config.vocab);
        m.config.vocab = m.bpe.vocab();
    }
    const std::vector<int> train = attn::bpe_encode_corpus(m.bpe, text.train);
    const std::vector<int> val = attn::bpe_encode_corpus(m.bpe, text.val);
    std::printf("    train %zu tokens, validation %zu tokens (%.2f bytes per token)\n",
                train.size(), val.size(),
                static_cast<double>(text.val.size()) / static_cast<double>(val.size()));

    say("[3/6] baselines on the validation split");
    attn::Baselines base = attn::count_baselines(m.bpe, train, val);
    attn::count_byte_baselines(text.train, text.val, &base);
    std::printf("    over the model's tokens: unigram %.4f, bigram %.4f bits/byte (prior %.0f)\n",
                base.unigram_bpb, base.bigram_bpb, base.bigram_prior);
    std::printf("    over bytes:              unigram %.4f, bigram %.4f bits/byte\n",
                base.byte_unigram_bpb, base.byte_bigram_bpb);

    if (init_dir.empty()) m.params = attn::init_params<float>(m.config, o.seed);
    o.random_tokens = attn::text_tokens(m.bpe);
    std::printf("    repeats and triplets draw from the %zu tokens of printable ASCII text\n",
                o.random_tokens.size());
    const std::size_t params = attn::parameter_count(m.config);
    say("[4/6] training " + std::to_string(params) + " parameters for " + std::to_string(o.steps) +
        " steps of " + std::to_string(o.batch) + " x " + std::to_string(m.config.context) +
        " tokens (" + std::to_string(o.threads) + " threads, seed " + std::to_string(o.seed) +
        "; Ctrl-C stops and keeps the "
        "last checkpoint)");
    const std::string checkpoint = out_dir + "/checkpoint.bin";
    attn::TrainHooks hooks;
    hooks.stop = []() { return g_stop != 0; };
    hooks.on_step = [](const attn::StepReport& r) {
        if (r.step % 25 != 0 && r.step != 1 && r.step != r.steps) return;
        const double rate = static_cast<double>(r.tokens) / r.seconds;
        const double left = r.seconds / r.step * (r.steps - r.step);
        std::printf(
            "    step %5d/%d  loss %.4f  lr %.2e  |g| %.3f  %6.0f tokens/s  elapsed %s  left %s\n",
            r.step, r.steps, r.loss, r.lr, r.grad_norm, rate, clock_text(r.seconds).c_str(),
            clock_text(left).c_str());
        std::fflush(stdout);
    };
    hooks.on_checkpoint = [&](int step, double val_bpb) {
        if (!write_model(checkpoint, m, attn::WeightsEncoding::Float32, nullptr))
            std::printf("    WARNING: cannot write %s\n", checkpoint.c_str());
        else if (val_bpb >= 0) {
            attn::AnalysisOptions quick;  // the head scores without the ablation: a second
            quick.windows = 8;
            quick.ablation = false;
            double prev = 0, induction = 0;
            for (const attn::HeadReport& h : attn::analyse_heads(m, val, quick)) {
                prev = std::max(prev, h.previous_token);
                induction = std::max(induction, h.induction);
            }
            std::printf(
                "    step %d: validation %.4f bits/byte (first %d windows), best "
                "previous-token %.3f, best induction %.3f; checkpoint %s\n",
                step, val_bpb, o.eval_windows, prev, induction, checkpoint.c_str());
        }
    };
    const attn::TrainCurve curve = attn::train_model(m, train, val, o, hooks);
    if (curve.stopped) {
        hooks.on_checkpoint(curve.steps_done, -1.0);
        std::printf("stopped by Ctrl-C after %d steps; the last checkpoint is %s\n",
                    curve.steps_done, checkpoint.c_str());
        return 130;
    }

    say("[5/6] quantising (int8, a scale per row) and evaluating on the whole validation split");
    const double float_bpb = attn::evaluate_bpb(m, m.params, val);
    std::string f32_sha, int8_sha;
    if (!write_model(out_dir + "/model-f32.bin", m, attn::WeightsEncoding::Float32, &f32_sha) ||
        !write_model(out_dir + "/model.bin", m, attn::WeightsEncoding::Int8PerRow, &int8_sha))
        return fail("cannot write the weights into " + out_dir);
    attn::Result<attn::Model> shipped = attn::load_model(out_dir + "/model.bin");
    if (!shipped.ok()) return fail("the written weights do not load: " + shipped.error().message);
    const double int8_bpb = attn::evaluate_bpb(shipped.value(), shipped.value().params, val);
    std::printf("    float %.4f bits/byte, int8 %.4f bits/byte (%+.3f%%)\n", float_bpb, int8_bpb,
                100.0 * (int8_bpb - float_bpb) / float_bpb);

    say("[6/6] analysing the heads of the shipped (int8) model");
    const std::vector<attn::HeadReport> heads = attn::analyse_heads(shipped.value(), val);
    attn::Json jh = attn::Json::array();
    for (const attn::HeadReport& h : heads) {
        std::printf(
            "    layer %d head %d: previous %.3f first %.3f self %.3f induction %.3f "
            "ablation %+.4f -> %s\n",
            h.layer, h.head, h.previous_token, h.first_token, h.self, h.induction,
            h.ablation_loss_delta, h.label.c_str());
        jh.push_back(head_report_json(h));
    }

    attn::Json files = attn::Json::array();
    for (const attn::CorpusFile& f : attn::corpus_files())
        files.push_back({{"name", f.name}, {"sha256", f.sha256}});
    attn::Json loss = attn::Json::array(), valc = attn::Json::array();
    int offset = 0;
    double seconds = curve.seconds;
    long long tokens = curve.tokens;
    if (!first_stage.is_null()) {  // the curves and totals of both stages, steps counted on
        loss = first_stage["loss_curve"];
        valc = first_stage["val_curve"];
        offset = first_stage["training"]["steps"].get<int>();
        seconds += first_stage["training"]["seconds"].get<double>();
        tokens += first_stage["training"]["tokens"].get<long long>();
    }
    for (const auto& [s, l] : curve.loss) loss.push_back({s + offset, l});
    for (const auto& [s, b] : curve.val_bpb) valc.push_back({s + offset, b});
    const std::string sample = "abandon: forsake, leave behind; \"we abandoned the old car\"";
    attn::Json sample_tokens = attn::Json::array();
    for (int id : attn::bpe_encode(m.bpe, sample))
        sample_tokens.push_back(attn::token_display(m.bpe, id));
    const attn::ModelConfig& c = m.config;
    // Logits of the shipped weights on the sample at three positions: tests/model compares its
    // own forward pass (native and wasm) with these, within 1e-5
    const std::vector<int> sample_ids = attn::bpe_encode(m.bpe, sample);
    attn::Activations<float> ref;
    const int sn = static_cast<int>(sample_ids.size());
    attn::model_forward<float>(
        c, attn::view_params(c, static_cast<const float*>(shipped.value().params.data())),
        sample_ids.data(), nullptr, sn, ref);
    attn::Json ref_logits = attn::Json::array(), ref_positions = attn::Json::array();
    for (int pos : {0, sn / 2, sn - 1}) {
        ref_positions.push_back(pos);
        attn::Json row = attn::Json::array();
        for (int v = 0; v < c.vocab; v++)
            row.push_back(ref.logits[static_cast<std::size_t>(pos) * c.vocab + v]);
        ref_logits.push_back(row);
    }
    attn::Json run = {
        {"corpus",
         {{"package", attn::kCorpusPackage},
          {"version", attn::kCorpusPackageVersion},
          {"installed_version", package_version},
          {"files", files},
          {"matches_recorded", mismatch.empty()},
          {"licence", text.licence},
          {"train_bytes", text.train.size()},
          {"val_bytes", text.val.size()},
          {"train_tokens", train.size()},
          {"val_tokens", val.size()},
          {"val_every", attn::kValEvery}}},
        {"tokenizer",
         {{"kind", "byte-level BPE"},
          {"vocab", m.bpe.vocab()},
          {"merges", m.bpe.merges.size()},
          {"sample", sample},
          {"sample_tokens", sample_tokens}}},
        {"config", model_config_json(c)},
        {"parameters", params},
        {"first_stage", first_stage.is_null() ? attn::Json(nullptr) : first_stage["training"]},
        {"training",
         {{"steps", curve.steps_done + offset},
          {"stage_steps", curve.steps_done},
          {"total_seconds", seconds},
          {"total_tokens", tokens},
          {"batch", o.batch},
          {"lr", o.lr},
          {"warmup", o.warmup},
          {"min_lr_fraction", o.min_lr_fraction},
          {"weight_decay", o.weight_decay},
          {"beta1", o.beta1},
          {"beta2", o.beta2},
          {"clip", o.clip},
          {"seed", o.seed},
          {"threads", o.threads},
          {"synthetic_fraction", o.synthetic_fraction},
          {"triplet_fraction", o.triplet_fraction},
          {"copy_fraction", o.copy_fraction},
          {"synthetic_min", o.synthetic_min},
          {"synthetic_max", o.synthetic_max},
          {"prefix_max", o.prefix_max},
          {"random_tokens", o.random_tokens.size()},
          {"seconds", curve.seconds},
          {"tokens", curve.tokens},
          {"tokens_per_second", static_cast<double>(curve.tokens) / curve.seconds},
          {"eval_windows", o.eval_windows}}},
        {"loss_curve", loss},
        {"val_curve", valc},
        {"val_bpb_float", float_bpb},
        {"val_bpb", int8_bpb},
        {"quantisation_delta_percent", 100.0 * (int8_bpb - float_bpb) / float_bpb},
        {"baselines",
         {{"unigram_bpb", base.unigram_bpb},
          {"bigram_bpb", base.bigram_bpb},
          {"bigram_prior", base.bigram_prior},
          {"byte_unigram_bpb", base.byte_unigram_bpb},
          {"byte_bigram_bpb", base.byte_bigram_bpb}}},
        {"analysis",
         {{"windows", attn::AnalysisOptions{}.windows},
          {"induction_sequences", attn::AnalysisOptions{}.induction_sequences},
          {"induction_length", attn::kInductionLength},
          {"thresholds",
           {{"previous_token", attn::kPreviousTokenThreshold},
            {"induction", attn::kInductionThreshold},
            {"first_token", attn::kFirstTokenThreshold},
            {"self", attn::kSelfThreshold}}}}},
        {"heads", jh},
        {"weights",
         {{"file", "model.bin"},
          {"encoding", "int8 per row"},
          {"version", attn::kWeightsVersion},
          {"sha256", int8_sha}}},
        {"float_weights_sha256", f32_sha},
        {"reference", {{"text", sample}, {"positions", ref_positions}, {"logits", ref_logits}}},
    };
    if (!write_bytes(out_dir + "/run.json", run.dump(1) + "\n"))
        return fail("cannot write " + out_dir + "/run.json");
    std::printf("wrote %s/model.bin, model-f32.bin, run.json in %s\n", out_dir.c_str(),
                clock_text(curve.seconds).c_str());
    return 0;
}
