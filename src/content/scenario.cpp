// scenario.cpp - what a scenario is and how it runs: kinds, token lookups, validation, the
// illustrative model of a sentence (built once), and the input of one focus step. Reading and
// parsing the files is scenario_file.cpp.
#include <string>

#include "content_internal.h"

namespace attn {

namespace {

using detail::bad_field;
using detail::prefixed;

bool inside(const Scenario& s, TokenPosition p) {
    return p >= 0 && p < static_cast<TokenPosition>(s.tokens.size());
}

std::string last_position(const Scenario& s) { return std::to_string(s.tokens.size() - 1); }

// Positions listed in `positions`, as one flag per candidate.
std::vector<bool> flags(const std::vector<TokenPosition>& candidates,
                        const std::vector<TokenPosition>& positions) {
    std::vector<bool> f(candidates.size(), false);
    bool any = false;
    for (CandidateIndex j = 0; j < candidates.size(); j++)
        for (TokenPosition p : positions)
            if (p == candidates[j]) f[j] = any = true;
    return any ? f : std::vector<bool>{};
}

std::vector<Token> tokens_of(const Scenario& s) {
    std::vector<Token> t;
    for (const std::string& text : s.tokens) t.push_back(Token{text, 0, 0});
    return t;
}

std::optional<Error> check_positions(const Scenario& s, const std::vector<TokenPosition>& ps,
                                     const char* field) {
    for (TokenPosition p : ps)
        if (!inside(s, p))
            return bad_field(field, "lists position " + std::to_string(p) +
                                        ", but the tokens are numbered 0 to " + last_position(s) +
                                        ".");
    return std::nullopt;
}

// id, title, description, sentence and every token: plain text, the field named in the error
std::optional<Error> check_text_fields(const Scenario& s) {
    const std::pair<const char*, const std::string*> fields[] = {{"id", &s.id},
                                                                 {"title", &s.title},
                                                                 {"description", &s.description},
                                                                 {"sentence", &s.sentence}};
    for (const auto& [name, text] : fields)
        if (auto e = check_plain_text(*text))
            return prefixed(*e, "The scenario's field \"" + std::string(name) + "\": ");
    for (const std::string& t : s.tokens)
        if (auto e = check_plain_text(t)) return prefixed(*e, "The scenario's field \"tokens\": ");
    return std::nullopt;
}

Error focus_outside(const Scenario& s, TokenPosition focus) {
    return Error{ErrorCode::BadFocus, "The focus position " + std::to_string(focus) +
                                          " is outside the tokens (0 to " + last_position(s) +
                                          ")."};
}

}  // namespace

bool is_scenario_id(std::string_view id) {
    if (id.empty() || id.size() > 64) return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return false;
    return true;
}

const char* scenario_kind_name(ScenarioKind kind) {
    switch (kind) {
        case ScenarioKind::Vectors:
            return "vectors";
        case ScenarioKind::Sentence:
            return "sentence";
        case ScenarioKind::Model:
            return "model";
    }
    return "vectors";
}

std::optional<ScenarioKind> scenario_kind_from_name(std::string_view name) {
    for (ScenarioKind k : {ScenarioKind::Vectors, ScenarioKind::Sentence})
        if (name == scenario_kind_name(k)) return k;
    return std::nullopt;
}

const std::string& token_at(const Scenario& s, TokenPosition position) {
    static const std::string none;
    return inside(s, position) ? s.tokens[static_cast<std::size_t>(position)] : none;
}

const std::string& focus_token(const Scenario& s) { return token_at(s, s.focus); }

TokenPosition candidate_position(const Scenario& s, CandidateIndex j) {
    return j < s.candidates.size() ? s.candidates[j] : static_cast<TokenPosition>(j);
}

// Everything a scenario needs besides JSON syntax: focus and candidates inside the tokens, text
// that can be shown, a sentence's model shape, and an input the engine accepts.
std::optional<Error> check_scenario(const Scenario& s) {
    if (s.tokens.empty()) return bad_field("tokens", "must list at least one token.");
    if (!inside(s, s.focus)) return focus_outside(s, s.focus);
    if (auto e = check_text_fields(s)) return e;
    if (auto e = check_positions(s, s.candidates, "candidates")) return e;
    if (auto e = check_positions(s, s.denied, "denied")) return e;
    if (auto e = check_positions(s, s.padding, "padding")) return e;
    if (s.kind == ScenarioKind::Sentence) {
        if (auto e = check_heads(s.d_model, s.heads)) return e;
        if (s.max_heads < s.heads || s.max_heads > kMaxHeads)
            return bad_field("max_heads",
                             "must be between \"heads\" and " + std::to_string(kMaxHeads) + ".");
    }
    // A Sentence's vectors come from the model, valid by construction: only its options remain.
    // A Vectors scenario's own vectors go through the engine's whole check.
    if (s.kind == ScenarioKind::Sentence) {
        if (auto e = check_temperature(s.options.temperature))
            return prefixed(*e, "In the scenario: ");
        return std::nullopt;
    }
    auto input = focus_input(s);
    if (!input.ok()) return input.error();
    if (auto e = check_focus_input(input.value())) return prefixed(*e, "In the scenario: ");
    return std::nullopt;
}

Result<Scenario> sentence_scenario(std::string_view text, TokenPosition focus, int d_model,
                                   int heads) {
    if (auto e = check_heads(d_model, heads)) return *e;
    auto tokens = tokenize(text);
    if (!tokens.ok()) return tokens.error();
    Scenario s;
    s.id = "sentence";
    s.title = "Your sentence";
    s.description = "Illustrative numbers from a made-up, untrained model.";
    s.kind = ScenarioKind::Sentence;
    s.sentence = std::string(text);
    s.d_model = d_model;
    s.heads = heads;
    s.max_heads = heads > 4 ? heads : 4;
    s.illustrative = true;
    for (const Token& t : tokens.value()) {
        if (auto e = check_plain_text(t.text)) return prefixed(*e, "In the sentence: ");
        s.candidates.push_back(static_cast<TokenPosition>(s.tokens.size()));
        s.tokens.push_back(t.text);
    }
    if (!inside(s, focus))
        return Error{ErrorCode::BadFocus,
                     "The focus position " + std::to_string(focus) +
                         " is outside the sentence: its " + std::to_string(s.tokens.size()) +
                         " tokens are numbered 0 to " + last_position(s) + "."};
    s.focus = focus;
    return s;
}

// X = embeddings(tokens); W = illustrative_projections(d_model, heads, seed); both fingerprinted.
Result<IllustrativeModel> illustrative_model(const Scenario& s) {
    if (s.kind != ScenarioKind::Sentence)
        return Error{ErrorCode::BadArgument,
                     "Only a sentence scenario has an illustrative model; this one gives its own "
                     "vectors."};
    auto p = illustrative_projections(s.d_model, s.heads, s.seed);
    if (!p.ok()) return p.error();
    IllustrativeModel m;
    m.embeddings = illustrative_embeddings(tokens_of(s), s.d_model);
    m.projections = std::move(p.value());
    m.projections_print = fingerprint(m.projections);
    m.embeddings_print = fingerprint(m.embeddings);
    return m;
}

// The mask flags and options of either kind; the vectors of a Vectors scenario.
static FocusInput focus_frame(const Scenario& s) {
    FocusInput in;
    in.focus_position = s.focus;
    in.positions = s.candidates;
    in.options = s.options;
    in.denied = flags(s.candidates, s.denied);
    in.padding = flags(s.candidates, s.padding);
    return in;
}

// q = x_focus Wq_0, k_j = x_j Wk_0, v_j = x_j Wv_0 (head 0). The caller checked the focus.
FocusInput focus_input(const Scenario& s, const IllustrativeModel& model) {
    FocusInput in = focus_frame(s);
    const HeadProjection& w = model.projections.heads[0];
    const Matrix& x = model.embeddings;
    const Matrix q = matmul(x, w.wq), k = matmul(x, w.wk), v = matmul(x, w.wv);
    in.query = row(q, s.focus);
    for (TokenPosition c : s.candidates) {
        in.keys.push_back(row(k, c));
        in.values.push_back(row(v, c));
    }
    return in;
}

Result<FocusInput> focus_input(const Scenario& s) {
    if (s.kind == ScenarioKind::Vectors) {
        FocusInput in = focus_frame(s);
        in.query = s.query;
        in.keys = s.keys;
        in.values = s.values;
        return in;
    }
    if (s.tokens.empty()) return Error{ErrorCode::EmptyText, "The sentence has no tokens."};
    if (!inside(s, s.focus)) return focus_outside(s, s.focus);
    auto model = illustrative_model(s);
    if (!model.ok()) return model.error();
    return focus_input(s, model.value());
}

Result<FocusResult> run_scenario(const Scenario& s) {
    auto in = focus_input(s);
    if (!in.ok()) return in.error();
    return attend(in.value());
}

// Every head of the model over X; padding from the scenario.
Result<SequenceResult> sentence_self_attention(const Scenario& s, const IllustrativeModel& model) {
    SequenceOptions o;
    o.scale = s.options.scale;
    o.temperature = s.options.temperature;
    o.causal = s.options.causal;
    if (!s.padding.empty()) {
        o.padding.assign(s.tokens.size(), false);
        for (TokenPosition q : s.padding)
            if (inside(s, q)) o.padding[static_cast<std::size_t>(q)] = true;
    }
    return self_attention(model.embeddings, model.projections, o);
}

Result<SequenceResult> sentence_self_attention(const Scenario& s) {
    auto model = illustrative_model(s);
    if (!model.ok()) return model.error();
    return sentence_self_attention(s, model.value());
}

}  // namespace attn
