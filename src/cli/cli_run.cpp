// cli_run.cpp - run a parsed attention_cli command and format its result as a table or JSON.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "cli.h"
#include "content_json.h"

namespace attn::cli {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;

std::string fmt(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string pad(const std::string& s, std::size_t width) {
    // width in characters, counting a UTF-8 sequence as one
    std::size_t chars = 0;
    for (unsigned char ch : s)
        if ((ch & 0xC0) != 0x80) chars++;
    return chars >= width ? s : s + std::string(width - chars, ' ');
}

std::string vector_text(const Vector& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + fmt("%.4f", v[i]);
    return s + "]";
}

std::string table(const Scenario& s, const FocusResult& r) {
    std::string out;
    if (!s.title.empty()) out += s.title + "\n";
    if (s.illustrative) out += "(illustrative numbers, not from a trained model)\n";
    out += "focus: position " + std::to_string(s.focus) + " \"" + focus_token(s) +
           "\"   d = " + std::to_string(r.d) + "   scale = " +
           (s.options.scale ? "1/sqrt(" + std::to_string(r.d) + ") = " : std::string("off = ")) +
           fmt("%.6g", r.scale) + "   temperature T = " + fmt("%g", r.temperature) + "\n\n";
    std::size_t width = 5;
    for (TokenPosition p : s.candidates) width = std::max(width, token_at(s, p).size());
    out += "position  " + pad("token", width) + "  dot product      score     weight  masked\n";
    for (CandidateIndex j = 0; j < r.weights.size(); j++) {
        const TokenPosition p = candidate_position(s, j);
        const std::string& token = token_at(s, p);
        char pos[16];
        std::snprintf(pos, sizeof pos, "%8d", p);
        out += std::string(pos) + "  " + pad(token, width) + fmt("%13.4f", r.dot_products[j]) +
               fmt("%11.4f", r.scores[j]) + fmt("%11.4f", r.weights[j]) + "  " +
               (is_masked(r.mask[j]) ? std::string("yes (") + mask_reason_name(r.mask[j]) + ")"
                                     : std::string("no")) +
               "\n";
    }
    out += "\nweights sum to " + fmt("%.6f", r.weight_sum);
    if (r.status == RowStatus::AllMasked)
        out += " (every position is masked: no weights, the output is the zero vector)";
    out += "\noutput = sum of weight x value = " + vector_text(r.output) + "\n";
    return out;
}

int fail(const Error& e, bool json, std::string* out) {
    *out = json ? error_json(e) + "\n" : std::string("error: ") + e.message + "\n";
    return kExitBadInput;
}

// Apply the command-line overrides to a scenario: --temperature, --no-scale, --causal, --mask.
void apply_options(const Command& c, Scenario* s) {
    if (c.temperature) s->options.temperature = *c.temperature;
    if (c.no_scale) s->options.scale = false;
    if (c.causal) s->options.causal = true;
    if (!c.mask.empty()) s->denied = c.mask;
}

// The focus step of `s`; a Sentence scenario's model is built once, for the input and the JSON.
int run_step(const Command& c, Scenario s, std::string* out) {
    apply_options(c, &s);
    if (auto e = check_scenario(s))
        return fail(Error{e->code, "With the options given: " + e->message}, c.json, out);
    std::optional<IllustrativeModel> model;
    if (s.kind == ScenarioKind::Sentence) {
        auto m = illustrative_model(s);
        if (!m.ok()) return fail(m.error(), c.json, out);
        model = std::move(m.value());
    }
    Result<FocusInput> in = model ? Result<FocusInput>(focus_input(s, *model)) : focus_input(s);
    if (!in.ok()) return fail(in.error(), c.json, out);
    auto r = attend(in.value());
    if (!r.ok()) return fail(r.error(), c.json, out);
    *out = c.json ? to_json(s, in.value(), r.value(), model ? &*model : nullptr) + "\n"
                  : table(s, r.value());
    return kExitOk;
}

Scenario vectors_scenario(const Command& c) {
    Scenario s;
    s.id = "vectors";
    s.title = "Vectors from the command line";
    s.kind = ScenarioKind::Vectors;
    for (CandidateIndex j = 0; j < c.keys.size(); j++) {
        s.tokens.push_back("k" + std::to_string(j));
        s.candidates.push_back(static_cast<TokenPosition>(j));
    }
    s.tokens.push_back("query");
    s.focus = static_cast<TokenPosition>(c.keys.size());
    s.query = c.query;
    s.keys = c.keys;
    s.values = c.values;
    return s;
}

int list_scenarios(const Command& c, std::string* out) {
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<std::string> files;
    for (fs::directory_iterator it(c.path, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->path().filename() != kScenarioIndexFile)
            files.push_back(it->path().string());
    if (ec)
        return fail(Error{ErrorCode::FileNotReadable,
                          "Cannot list the directory " + shown_input(c.path) + "."},
                    c.json, out);
    std::sort(files.begin(), files.end());
    attn::Json list = attn::Json::array();
    std::string text;
    for (const std::string& f : files) {
        auto s = load_scenario(f);
        if (!s.ok())
            return fail(Error{s.error().code, shown_input(f) + ": " + s.error().message}, c.json,
                        out);
        list.push_back({{"id", s.value().id},
                        {"title", s.value().title},
                        {"kind", scenario_kind_name(s.value().kind)},
                        {"illustrative", s.value().illustrative},
                        {"file", fs::path(f).filename().string()}});
        text += pad(s.value().id, 16) + "  " + s.value().title + "\n";
    }
    attn::Json j = {{"ok", true}, {"scenarios", list}};
    *out = c.json ? j.dump() + "\n" : text;
    return kExitOk;
}

}  // namespace

int run(const Command& c, std::string* out) {
    switch (c.mode) {
        case Mode::Help:
            *out = usage_text();
            return kExitOk;
        case Mode::Scenario: {
            auto s = load_scenario(c.path);
            if (!s.ok()) return fail(s.error(), c.json, out);
            return run_step(c, s.value(), out);
        }
        case Mode::Sentence: {
            auto s = sentence_scenario(c.text, c.focus, c.d_model, c.heads);
            if (!s.ok()) return fail(s.error(), c.json, out);
            return run_step(c, s.value(), out);
        }
        case Mode::Vectors:
            return run_step(c, vectors_scenario(c), out);
        case Mode::ListScenarios:
            return list_scenarios(c, out);
        case Mode::Model:
            return run_model(c, out);
    }
    return kExitBadInput;
}

int cli_main(const std::vector<std::string>& args, std::string* out) {
    auto c = parse_args(args);
    if (!c.ok()) {
        const bool json = std::find(args.begin(), args.end(), "--json") != args.end();
        return fail(c.error(), json, out);
    }
    return run(c.value(), out);
}

// By length, never as a C string: a NUL inside `out` does not cut it.
void write_output(const std::string& out, std::FILE* f) {
    std::fwrite(out.data(), 1, out.size(), f);
}

}  // namespace attn::cli
