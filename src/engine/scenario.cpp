// scenario.cpp - scenarios as data: parse and validate assets/scenarios/*.json, and turn a
// scenario into the input of one focus step (for free text: tokenize, embed, project, head 0).
#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "attention.h"

namespace attn {

using json = nlohmann::json;

namespace {

Error bad(const std::string& field, const std::string& problem) {
    return Error{ErrorCode::BadScenario, "The scenario's field \"" + field + "\" " + problem};
}

// Each reader returns an error for a present-but-wrong field; an absent optional field keeps
// the default. No nlohmann call here can throw: every type is checked before get().
std::optional<Error> read_string(const json& j, const char* field, bool required,
                                 std::string* out) {
    auto it = j.find(field);
    if (it == j.end()) {
        if (required) return bad(field, "is missing.");
        return std::nullopt;
    }
    if (!it->is_string()) return bad(field, "must be text in quotes.");
    *out = it->get<std::string>();
    return std::nullopt;
}

std::optional<Error> read_bool(const json& j, const char* field, bool* out) {
    auto it = j.find(field);
    if (it == j.end()) return std::nullopt;
    if (!it->is_boolean()) return bad(field, "must be true or false.");
    *out = it->get<bool>();
    return std::nullopt;
}

bool as_int(const json& v, int* out) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > 1000000000ull) return false;
        *out = static_cast<int>(u);
        return true;
    }
    if (v.is_number_integer()) {
        const auto i = v.get<std::int64_t>();
        if (i < -1000000000ll || i > 1000000000ll) return false;
        *out = static_cast<int>(i);
        return true;
    }
    return false;
}

std::optional<Error> read_int(const json& j, const char* field, bool required, int* out) {
    auto it = j.find(field);
    if (it == j.end()) {
        if (required) return bad(field, "is missing.");
        return std::nullopt;
    }
    if (!as_int(*it, out)) return bad(field, "must be a whole number.");
    return std::nullopt;
}

std::optional<Error> read_number(const json& j, const char* field, double* out) {
    auto it = j.find(field);
    if (it == j.end()) return std::nullopt;
    if (!it->is_number()) return bad(field, "must be a number.");
    *out = it->get<double>();
    return std::nullopt;
}

std::optional<Error> to_vector(const json& v, const std::string& field, Vector* out) {
    if (!v.is_array()) return bad(field, "must be a list of numbers like [1, 0.5].");
    if (v.size() > static_cast<std::size_t>(kMaxDimension))
        return Error{ErrorCode::BadDimension, "The scenario's field \"" + field + "\" has " +
                                                  std::to_string(v.size()) + " numbers; at most " +
                                                  std::to_string(kMaxDimension) + " are allowed."};
    out->clear();
    for (std::size_t i = 0; i < v.size(); i++) {
        if (!v[i].is_number())
            return bad(field, "must contain only numbers (item " + std::to_string(i + 1) +
                                  " is not a number).");
        out->push_back(v[i].get<double>());
    }
    return std::nullopt;
}

std::optional<Error> read_vector(const json& j, const char* field, bool required, Vector* out) {
    auto it = j.find(field);
    if (it == j.end()) {
        if (required) return bad(field, "is missing.");
        return std::nullopt;
    }
    return to_vector(*it, field, out);
}

std::optional<Error> read_vectors(const json& j, const char* field, std::vector<Vector>* out) {
    auto it = j.find(field);
    if (it == j.end()) return bad(field, "is missing.");
    if (!it->is_array()) return bad(field, "must be a list of lists of numbers.");
    if (it->size() > static_cast<std::size_t>(kMaxCandidates))
        return Error{ErrorCode::TooManyTokens, "The scenario's field \"" + std::string(field) +
                                                   "\" has more than " +
                                                   std::to_string(kMaxCandidates) + " entries."};
    out->clear();
    for (std::size_t k = 0; k < it->size(); k++) {
        Vector v;
        if (auto e = to_vector((*it)[k], std::string(field) + "[" + std::to_string(k) + "]", &v))
            return e;
        out->push_back(std::move(v));
    }
    return std::nullopt;
}

std::optional<Error> read_ints(const json& j, const char* field, std::vector<int>* out) {
    auto it = j.find(field);
    if (it == j.end()) return std::nullopt;
    if (!it->is_array()) return bad(field, "must be a list of whole numbers like [2, 7].");
    if (it->size() > static_cast<std::size_t>(kMaxCandidates))
        return bad(field, "has more than " + std::to_string(kMaxCandidates) + " entries.");
    out->clear();
    for (std::size_t k = 0; k < it->size(); k++) {
        int v = 0;
        if (!as_int((*it)[k], &v))
            return bad(field, "must contain only whole numbers (item " + std::to_string(k + 1) +
                                  " is not).");
        out->push_back(v);
    }
    return std::nullopt;
}

std::optional<Error> read_strings(const json& j, const char* field, std::vector<std::string>* out) {
    auto it = j.find(field);
    if (it == j.end()) return bad(field, "is missing.");
    if (!it->is_array()) return bad(field, "must be a list of words in quotes.");
    if (it->size() > static_cast<std::size_t>(kMaxSentenceTokens))
        return Error{ErrorCode::TooManyTokens, "The scenario has more than " +
                                                   std::to_string(kMaxSentenceTokens) + " tokens."};
    out->clear();
    for (std::size_t k = 0; k < it->size(); k++) {
        if (!(*it)[k].is_string())
            return bad(field,
                       "must contain only text (item " + std::to_string(k + 1) + " is not text).");
        out->push_back((*it)[k].get<std::string>());
    }
    return std::nullopt;
}

// Positions listed in `positions`, as one flag per candidate.
std::vector<bool> flags(const std::vector<int>& candidates, const std::vector<int>& positions) {
    std::vector<bool> f(candidates.size(), false);
    bool any = false;
    for (std::size_t j = 0; j < candidates.size(); j++)
        for (int p : positions)
            if (p == candidates[j]) f[j] = any = true;
    return any ? f : std::vector<bool>{};
}

std::vector<Token> tokens_of(const Scenario& s) {
    std::vector<Token> t;
    for (const std::string& text : s.tokens) t.push_back(Token{text, 0, 0});
    return t;
}

// "field \"scale\"" -> "field \"options.scale\"" for errors inside the options object
Error in_options(Error e) {
    const std::string marker = "field \"";
    const std::size_t at = e.message.find(marker);
    if (at != std::string::npos) e.message.insert(at + marker.size(), "options.");
    return e;
}

Error prefixed(const Error& e, const std::string& prefix) {
    return Error{e.code, prefix + e.message};
}

std::optional<Error> check_positions(const Scenario& s, const std::vector<int>& ps,
                                     const char* field) {
    for (int p : ps)
        if (p < 0 || p >= static_cast<int>(s.tokens.size()))
            return bad(field, "lists position " + std::to_string(p) + ", but the tokens are " +
                                  "numbered 0 to " + std::to_string(s.tokens.size() - 1) + ".");
    return std::nullopt;
}

// Everything a scenario needs besides its vectors: focus and candidates inside the tokens.
std::optional<Error> check_scenario(const Scenario& s) {
    if (s.tokens.empty()) return bad("tokens", "must list at least one token.");
    if (s.focus < 0 || s.focus >= static_cast<int>(s.tokens.size()))
        return Error{ErrorCode::BadFocus, "The focus position " + std::to_string(s.focus) +
                                              " is outside the tokens (0 to " +
                                              std::to_string(s.tokens.size() - 1) + ")."};
    if (auto e = check_utf8(s.title)) return prefixed(*e, "In the title: ");
    for (const std::string& t : s.tokens)
        if (auto e = check_utf8(t)) return prefixed(*e, "In a token: ");
    if (auto e = check_positions(s, s.candidates, "candidates")) return e;
    if (auto e = check_positions(s, s.denied, "denied")) return e;
    if (auto e = check_positions(s, s.padding, "padding")) return e;
    if (s.kind == "sentence") {
        if (auto e = check_heads(s.d_model, s.heads)) return e;
        if (s.max_heads < s.heads || s.max_heads > kMaxHeads)
            return bad("max_heads",
                       "must be between \"heads\" and " + std::to_string(kMaxHeads) + ".");
    }
    auto input = focus_input(s);
    if (!input.ok()) return input.error();
    if (auto e = check_focus_input(input.value())) return prefixed(*e, "In the scenario: ");
    return std::nullopt;
}

}  // namespace

Result<Scenario> parse_scenario(std::string_view json_text) {
    if (json_text.size() > kMaxScenarioBytes)
        return Error{ErrorCode::BadScenario, "The scenario file is larger than 1 MiB."};
    const json j = json::parse(json_text.begin(), json_text.end(), nullptr, false);
    if (j.is_discarded()) return Error{ErrorCode::BadScenario, "The scenario is not valid JSON."};
    if (!j.is_object())
        return Error{ErrorCode::BadScenario, "The scenario must be a JSON object { ... }."};
    Scenario s;
    if (auto e = read_string(j, "id", true, &s.id)) return *e;
    if (s.id.empty()) return bad("id", "must not be empty.");
    if (auto e = read_string(j, "title", false, &s.title)) return *e;
    if (auto e = read_string(j, "description", false, &s.description)) return *e;
    if (auto e = read_string(j, "kind", false, &s.kind)) return *e;
    if (auto e = read_int(j, "focus", true, &s.focus)) return *e;
    if (auto e = read_ints(j, "denied", &s.denied)) return *e;
    if (auto e = read_ints(j, "padding", &s.padding)) return *e;
    if (auto e = read_bool(j, "illustrative", &s.illustrative)) return *e;
    auto opt = j.find("options");
    if (opt != j.end()) {
        if (!opt->is_object()) return bad("options", "must be an object { ... }.");
        if (auto e = read_bool(*opt, "scale", &s.options.scale)) return in_options(*e);
        if (auto e = read_number(*opt, "temperature", &s.options.temperature))
            return in_options(*e);
        if (auto e = read_bool(*opt, "causal", &s.options.causal)) return in_options(*e);
    }
    if (s.kind == "vectors") {
        if (auto e = read_strings(j, "tokens", &s.tokens)) return *e;
        if (auto e = read_ints(j, "candidates", &s.candidates)) return *e;
        if (j.find("candidates") == j.end()) return bad("candidates", "is missing.");
        if (auto e = read_vector(j, "query", true, &s.query)) return *e;
        if (auto e = read_vectors(j, "keys", &s.keys)) return *e;
        if (auto e = read_vectors(j, "values", &s.values)) return *e;
        if (s.keys.size() != s.candidates.size())
            return Error{ErrorCode::DimensionMismatch,
                         "The scenario lists " + std::to_string(s.candidates.size()) +
                             " candidates but " + std::to_string(s.keys.size()) + " keys."};
    } else if (s.kind == "sentence") {
        if (auto e = read_string(j, "sentence", true, &s.sentence)) return *e;
        if (auto e = read_int(j, "d_model", false, &s.d_model)) return *e;
        if (auto e = read_int(j, "heads", false, &s.heads)) return *e;
        s.max_heads = s.heads > 4 ? s.heads : 4;
        if (auto e = read_int(j, "max_heads", false, &s.max_heads)) return *e;
        int seed = static_cast<int>(kIllustrativeSeed);
        if (auto e = read_int(j, "seed", false, &seed)) return *e;
        if (seed < 0) return bad("seed", "must not be negative.");
        s.seed = static_cast<std::uint32_t>(seed);
        auto tokens = tokenize(s.sentence);
        if (!tokens.ok()) return prefixed(tokens.error(), "In the scenario's sentence: ");
        s.tokens.clear();
        s.candidates.clear();
        for (const Token& t : tokens.value()) {
            s.candidates.push_back(static_cast<int>(s.tokens.size()));
            s.tokens.push_back(t.text);
        }
    } else {
        return bad("kind", "must be \"vectors\" or \"sentence\".");
    }
    if (auto e = check_scenario(s)) return *e;
    return s;
}

Result<std::string> read_text_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return Error{ErrorCode::FileNotReadable, "Cannot open the file " + path + "."};
    std::string text;
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        text.append(buf, n);
        if (text.size() > kMaxScenarioBytes) {
            std::fclose(f);
            return Error{ErrorCode::BadScenario, "The file " + path + " is larger than 1 MiB."};
        }
    }
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) return Error{ErrorCode::FileNotReadable, "Cannot read the file " + path + "."};
    return text;
}

Result<Scenario> load_scenario(const std::string& path) {
    auto text = read_text_file(path);
    if (!text.ok()) {
        if (text.error().code == ErrorCode::FileNotReadable)
            return Error{ErrorCode::UnknownScenario, "There is no scenario file " + path + "."};
        return text.error();
    }
    return parse_scenario(text.value());
}

Result<Scenario> find_scenario(const std::string& dir, const std::string& id) {
    bool plain = !id.empty() && id.size() <= 64;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            plain = false;
    if (!plain)
        return Error{ErrorCode::UnknownScenario,
                     "There is no scenario called \"" + id + "\" (ids use a-z, 0-9 and -)."};
    auto s = load_scenario(dir + "/" + id + ".json");
    if (!s.ok() && s.error().code == ErrorCode::UnknownScenario)
        return Error{ErrorCode::UnknownScenario, "There is no scenario called \"" + id + "\"."};
    return s;
}

// "vectors": the scenario's own q, k_j, v_j.  "sentence": X = embeddings(tokens),
// q = x_focus Wq_0, k_j = x_j Wk_0, v_j = x_j Wv_0 (head 0 of illustrative_projections).
Result<FocusInput> focus_input(const Scenario& s) {
    FocusInput in;
    in.focus_position = s.focus;
    in.positions = s.candidates;
    in.options = s.options;
    in.denied = flags(s.candidates, s.denied);
    in.padding = flags(s.candidates, s.padding);
    if (s.kind == "vectors") {
        in.query = s.query;
        in.keys = s.keys;
        in.values = s.values;
        return in;
    }
    if (s.kind != "sentence") return bad("kind", "must be \"vectors\" or \"sentence\".");
    if (s.tokens.empty()) return Error{ErrorCode::EmptyText, "The sentence has no tokens."};
    if (s.focus < 0 || s.focus >= static_cast<int>(s.tokens.size()))
        return Error{ErrorCode::BadFocus, "The focus position " + std::to_string(s.focus) +
                                              " is outside the sentence (0 to " +
                                              std::to_string(s.tokens.size() - 1) + ")."};
    auto p = illustrative_projections(s.d_model, s.heads, s.seed);
    if (!p.ok()) return p.error();
    const Matrix x = illustrative_embeddings(tokens_of(s), s.d_model);
    const HeadProjection& w = p.value().heads[0];
    const Matrix q = matmul(x, w.wq), k = matmul(x, w.wk), v = matmul(x, w.wv);
    in.query = row(q, s.focus);
    for (int c : s.candidates) {
        in.keys.push_back(row(k, c));
        in.values.push_back(row(v, c));
    }
    return in;
}

Result<Scenario> sentence_scenario(std::string_view text, int focus, int d_model, int heads) {
    if (auto e = check_heads(d_model, heads)) return *e;
    auto tokens = tokenize(text);
    if (!tokens.ok()) return tokens.error();
    Scenario s;
    s.id = "sentence";
    s.title = "Your sentence";
    s.description = "Illustrative numbers from a made-up, untrained model.";
    s.kind = "sentence";
    s.sentence = std::string(text);
    s.d_model = d_model;
    s.heads = heads;
    s.max_heads = heads > 4 ? heads : 4;
    s.illustrative = true;
    for (const Token& t : tokens.value()) {
        s.candidates.push_back(static_cast<int>(s.tokens.size()));
        s.tokens.push_back(t.text);
    }
    if (focus < 0 || focus >= static_cast<int>(s.tokens.size()))
        return Error{ErrorCode::BadFocus,
                     "The focus position " + std::to_string(focus) +
                         " is outside the sentence: its " + std::to_string(s.tokens.size()) +
                         " tokens are numbered 0 to " + std::to_string(s.tokens.size() - 1) + "."};
    s.focus = focus;
    return s;
}

Result<FocusResult> run_scenario(const Scenario& s) {
    auto in = focus_input(s);
    if (!in.ok()) return in.error();
    return attend(in.value());
}

// X = embeddings(tokens); every head of illustrative_projections; padding from the scenario.
Result<SequenceResult> sentence_self_attention(const Scenario& s) {
    if (s.kind != "sentence")
        return Error{ErrorCode::BadArgument,
                     "Only a sentence scenario has illustrative projections for the whole "
                     "sequence."};
    auto p = illustrative_projections(s.d_model, s.heads, s.seed);
    if (!p.ok()) return p.error();
    SequenceOptions o;
    o.scale = s.options.scale;
    o.temperature = s.options.temperature;
    o.causal = s.options.causal;
    if (!s.padding.empty()) {
        o.padding.assign(s.tokens.size(), false);
        for (int q : s.padding)
            if (q >= 0 && q < static_cast<int>(s.tokens.size()))
                o.padding[static_cast<std::size_t>(q)] = true;
    }
    return self_attention(illustrative_embeddings(tokens_of(s), s.d_model), p.value(), o);
}

}  // namespace attn
