// cli_model.cpp - "attention_cli model": the project's trained transformer on the command line.
//   model --text "<text>" [--json] [--ablate L,H] [--focus P]
//                                    tokens, the 5 likeliest next tokens (after position P, default
//                                    the last; with head H of layer L switched off), every head's
//                                    scores and weights (JSON shape in docs/model.md)
//   model --analyse [--json]         the head table, validation bits/byte and the baselines,
//                                    measured now on the WordNet validation split
#include <algorithm>
#include <cstdio>
#include <string>

#include "cli.h"
#include "json_value.h"
#include "model.h"
#include "model_json.h"

namespace attn::cli {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kTopNext = 5;

int fail(const Error& e, bool json, std::string* out) {
    *out = json ? error_json(e) + "\n" : "Error: " + e.message + "\n";
    return kExitBadInput;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// The likeliest next tokens after `position`: (id, p), highest first (ties: lower id)
std::vector<std::pair<int, double>> top_next(const Activations<float>& a, int vocab, int position) {
    std::vector<std::pair<int, double>> all;
    const std::size_t last = static_cast<std::size_t>(position) * vocab;
    for (int v = 0; v < vocab; v++) all.emplace_back(v, a.probs[last + v]);
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& x, const auto& y) { return x.second > y.second; });
    all.resize(std::min<std::size_t>(kTopNext, all.size()));
    return all;
}

attn::Json text_json(const Model& m, const Activations<float>& a, const ModelCommand& mc,
                     int focus) {
    const ModelConfig& c = m.config;
    const int n = a.n;
    attn::Json tokens = attn::Json::array(), ids = attn::Json::array();
    for (int id : a.tokens) {
        tokens.push_back(token_display(m.bpe, id));
        ids.push_back(id);
    }
    attn::Json next = attn::Json::array();
    for (const auto& [id, p] : top_next(a, c.vocab, focus))
        next.push_back({{"token", token_display(m.bpe, id)}, {"id", id}, {"p", p}});
    attn::Json layers = attn::Json::array();
    for (int l = 0; l < c.layers; l++) {
        attn::Json heads = attn::Json::array();
        const LayerActivations<float>& la = a.layers[static_cast<std::size_t>(l)];
        for (int h = 0; h < c.heads; h++) {
            attn::Json scores = attn::Json::array(), weights = attn::Json::array();
            for (int i = 0; i < n; i++) {
                attn::Json srow = attn::Json::array(), wrow = attn::Json::array();
                for (int j = 0; j < n; j++) {
                    const std::size_t at = head_index(n, h, i, j);
                    if (j <= i)
                        srow.push_back(la.scores[at]);
                    else
                        srow.push_back(nullptr);  // masked: a key after the query
                    wrow.push_back(la.weights[at]);
                }
                scores.push_back(srow);
                weights.push_back(wrow);
            }
            heads.push_back({{"scores", scores}, {"weights", weights}});
        }
        layers.push_back({{"heads", heads}});
    }
    return {{"ok", true},
            {"tokens", tokens},
            {"token_ids", ids},
            {"focus", focus},
            {"ablated", mc.ablate_layer >= 0
                            ? attn::Json{{"layer", mc.ablate_layer}, {"head", mc.ablate_head}}
                            : attn::Json(nullptr)},
            {"next", next},
            {"layers", layers},
            {"model", model_config_json(c)}};
}

std::string text_table(const Model& m, const Activations<float>& a, int focus) {
    const ModelConfig& c = m.config;
    const int n = a.n;
    std::string out = "tokens (" + std::to_string(n) + "):";
    for (int id : a.tokens) out += " " + quoted(token_display(m.bpe, id));
    out += "\n\nlikeliest next tokens after position " + std::to_string(focus) + ":\n";
    for (const auto& [id, p] : top_next(a, c.vocab, focus))
        out += "  " + fixed(p, 4) + "  " + quoted(token_display(m.bpe, id)) + "\n";
    for (int l = 0; l < c.layers; l++)
        for (int h = 0; h < c.heads; h++) {
            const LayerActivations<float>& la = a.layers[static_cast<std::size_t>(l)];
            out += "\nlayer " + std::to_string(l) + " head " + std::to_string(h) +
                   ": weights (row = query token, column = key token; scores below)\n";
            for (int i = 0; i < n; i++) {
                out += "  " + std::to_string(i) + ":";
                for (int j = 0; j <= i; j++)
                    out += " " + fixed(la.weights[head_index(n, h, i, j)], 2);
                out += "\n";
            }
            out += "  scores (q.k / sqrt(d_k)):\n";
            for (int i = 0; i < n; i++) {
                out += "  " + std::to_string(i) + ":";
                for (int j = 0; j <= i; j++)
                    out += " " + fixed(la.scores[head_index(n, h, i, j)], 2);
                out += "\n";
            }
        }
    return out;
}

int run_text(const Command& c, const Model& m, std::string* out) {
    Result<std::vector<int>> ids = tokenize_for_model(m.bpe, c.text, m.config.context);
    if (!ids.ok()) return fail(ids.error(), c.json, out);
    Activations<float> a;
    const std::vector<int>& t = ids.value();
    const int n = static_cast<int>(t.size());
    const ModelCommand& mc = c.model;
    if (mc.focus >= n)
        return fail(
            Error{ErrorCode::BadFocus, "--focus " + std::to_string(mc.focus) +
                                           " is outside the text: its tokens are numbered 0 to " +
                                           std::to_string(n - 1) + "."},
            c.json, out);
    if (mc.ablate_layer >= m.config.layers || mc.ablate_head >= m.config.heads)
        return fail(Error{ErrorCode::BadArgument,
                          "--ablate names a head the model does not have: it has layers 0 to " +
                              std::to_string(m.config.layers - 1) + " and heads 0 to " +
                              std::to_string(m.config.heads - 1) + "."},
                    c.json, out);
    ForwardOptions options;  // the engine's ablation, exactly as the app runs it
    options.ablate_layer = mc.ablate_layer;
    options.ablate_head = mc.ablate_head;
    model_forward<float>(m.config, view_params(m.config, m.params.data()), t.data(), nullptr, n, a,
                         options);
    const int focus = mc.focus >= 0 ? mc.focus : n - 1;
    *out = c.json ? text_json(m, a, mc, focus).dump() + "\n" : text_table(m, a, focus);
    return kExitOk;
}

int run_analyse(const Command& c, const Model& m, std::string* out) {
    std::string mismatch;
    const std::string dir = c.model.corpus.empty() ? std::string(kCorpusDir) : c.model.corpus;
    Result<CorpusSplit> corpus = load_corpus(dir, true, &mismatch);
    if (!corpus.ok()) return fail(corpus.error(), c.json, out);
    const std::vector<int> train = bpe_encode_corpus(m.bpe, corpus.value().train);
    const std::vector<int> val = bpe_encode_corpus(m.bpe, corpus.value().val);
    const Baselines base = count_baselines(m.bpe, train, val);
    const double bpb = evaluate_bpb(m, m.params, val);
    const std::vector<HeadReport> heads = analyse_heads(m, val);
    if (c.json) {
        attn::Json jh = attn::Json::array();
        for (const HeadReport& h : heads) jh.push_back(head_report_json(h));
        const attn::Json j = {
            {"ok", true},
            {"heads", jh},
            {"val_bpb", bpb},
            {"baselines", {{"unigram_bpb", base.unigram_bpb}, {"bigram_bpb", base.bigram_bpb}}},
            {"corpus_matches_recorded", mismatch.empty()},
            {"thresholds",
             {{"previous_token", kPreviousTokenThreshold},
              {"induction", kInductionThreshold},
              {"first_token", kFirstTokenThreshold},
              {"self", kSelfThreshold}}}};
        *out = j.dump() + "\n";
        return kExitOk;
    }
    std::string s;
    if (!mismatch.empty()) s += "WARNING: the corpus differs from the recorded one:\n" + mismatch;
    s += "layer head  previous  first   self   induction  ablation(bits/byte)  label\n";
    for (const HeadReport& h : heads) {
        char line[160];
        std::snprintf(line, sizeof line, "%5d %4d  %8.3f %6.3f %6.3f %10.3f  %+19.4f  %s\n",
                      h.layer, h.head, h.previous_token, h.first_token, h.self, h.induction,
                      h.ablation_loss_delta, h.label.c_str());
        s += line;
    }
    s += "\nlabels: induction >= " + fixed(kInductionThreshold, 1) +
         ", previous-token >= " + fixed(kPreviousTokenThreshold, 1) +
         ", self >= " + fixed(kSelfThreshold, 1) +
         ", first-token >= " + fixed(kFirstTokenThreshold, 1) + ", else mixed\n";
    s += "validation bits per byte: model " + fixed(bpb, 4) + ", bigram " +
         fixed(base.bigram_bpb, 4) + ", unigram " + fixed(base.unigram_bpb, 4) + " (model " +
         fixed(100.0 * (base.bigram_bpb - bpb) / base.bigram_bpb, 1) + "% below bigram)\n";
    *out = s;
    return kExitOk;
}

}  // namespace

// model (--text "<text>" | --analyse) [--json] [--weights FILE] [--corpus DIR]
Result<Command> parse_model_args(const std::vector<std::string>& args) {
    Command c;
    c.mode = Mode::Model;
    bool has_text = false;
    const auto bad = [](std::string m) { return Error{ErrorCode::BadArgument, std::move(m)}; };
    for (std::size_t i = 1; i < args.size(); i++) {
        const std::string& a = args[i];
        const bool has_value = i + 1 < args.size();
        if (a == "--json") {
            c.json = true;
        } else if (a == "--analyse" || a == "--analyze") {
            c.model.analyse = true;
        } else if (a == "--ablate" || a == "--focus") {
            if (!has_value) return bad(a + " needs a value after it.");
            const std::string& v = args[++i];
            int x = -1, y = -1;
            char extra = 0;
            const bool ok =
                a == "--ablate"
                    ? std::sscanf(v.c_str(), "%d,%d%c", &x, &y, &extra) == 2 && x >= 0 && y >= 0
                    : std::sscanf(v.c_str(), "%d%c", &x, &extra) == 1 && x >= 0;
            if (!ok)
                return bad(a == "--ablate" ? "--ablate needs LAYER,HEAD counted from 0, like 1,2."
                                           : "--focus needs a token position counted from 0.");
            if (a == "--ablate") {
                c.model.ablate_layer = x;
                c.model.ablate_head = y;
            } else {
                c.model.focus = x;
            }
        } else if (a == "--text" || a == "--weights" || a == "--corpus") {
            if (!has_value) return bad(a + " needs a value after it.");
            const std::string& v = args[++i];
            if (a == "--text") {
                c.text = v;
                has_text = true;
            } else {
                if (v.empty()) return bad(a + " needs a non-empty path.");
                (a == "--weights" ? c.model.weights : c.model.corpus) = v;
            }
        } else {
            return bad("Unknown option \"" + a +
                       "\" for \"model\"; use --text, --analyse, --json, "
                       "--ablate, --focus, --weights or --corpus.");
        }
    }
    if (has_text == c.model.analyse)
        return bad("\"model\" needs exactly one of --text \"<text>\" or --analyse.");
    if (!c.model.corpus.empty() && !c.model.analyse)
        return bad("--corpus only goes with --analyse.");
    if ((c.model.ablate_layer >= 0 || c.model.focus >= 0) && c.model.analyse)
        return bad("--ablate and --focus go with --text.");
    return c;
}

int run_model(const Command& c, std::string* out) {
    const std::string path =
        c.model.weights.empty() ? std::string(kShippedWeights) : c.model.weights;
    Result<Model> m = load_model(path);
    if (!m.ok()) return fail(m.error(), c.json, out);
    return c.model.analyse ? run_analyse(c, m.value(), out) : run_text(c, m.value(), out);
}

}  // namespace attn::cli
