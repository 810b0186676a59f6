// content.h - the attention engine's content, read as a table of contents: the text a reader
// types, the illustrative model that turns it into vectors, the scenario files, and the JSON the
// page and the CLI read. The maths itself is in src/engine/attention.h (this header includes it).
//
//   text          check_utf8, check_plain_text, tokenize        (tokenizer.cpp)
//   model         illustrative embeddings and projections, once  (illustrative.cpp)
//   scenarios     kinds, fields, validation, loading, the index  (scenario.cpp, scenario_file.cpp)
//   run           scenario -> FocusInput -> attend, and the whole sentence (scenario.cpp)
//   JSON          to_json, error_json (json.cpp; Json values in content_json.h, json_value.h)
//
// Every format here (scenario file, scenario index, focus-step JSON, error JSON) is written down
// in docs/contract.md. Errors are values (Result / Error from attention.h); nothing throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention.h"

namespace attn {

// ---------------------------------------------------------------------------------------------
// Limits of the content
// ---------------------------------------------------------------------------------------------
constexpr int kMaxSentenceTokens = 128;             // tokenizer cap on tokens
constexpr std::size_t kMaxSentenceBytes = 4096;     // tokenizer cap on UTF-8 bytes
constexpr std::size_t kMaxScenarioBytes = 1 << 20;  // scenario files larger than 1 MiB are refused

// ---------------------------------------------------------------------------------------------
// Text: UTF-8 checks and the tokenizer
// ---------------------------------------------------------------------------------------------
struct Token {
    std::string text;
    int begin = 0, end = 0;  // byte offsets [begin, end) in the input
};
std::optional<Error> check_utf8(std::string_view text);  // nullopt if valid UTF-8 (else offset)
// Valid UTF-8 with no C0/C1 control character (tab and newline included) and no bidi control
// (U+061C, U+200E/F, U+202A..202E, U+2066..2069): text that shows as it reads. InvalidText names
// the character and its byte offset.
std::optional<Error> check_plain_text(std::string_view text);
// Input a message may repeat: `text` itself if it is plain and short, else a shortened copy or
// "(text that cannot be shown)". Messages never echo input that did not pass through here.
std::string shown_input(std::string_view text);
// Words (letters, digits, any non-ASCII letter; inner apostrophes/hyphens kept) and single
// punctuation marks; whitespace separates. Errors: EmptyText, TextTooLong, InvalidUtf8 (with the
// byte offset), TooManyTokens.
Result<std::vector<Token>> tokenize(std::string_view utf8);

// ---------------------------------------------------------------------------------------------
// The illustrative (NOT trained) model for free text
// ---------------------------------------------------------------------------------------------
// Deterministic embedding: a hash of the lower-cased token text -> numbers in [-1, 1], plus a
// small sinusoidal position code. n x d_model. Illustrative only.
Matrix illustrative_embeddings(const std::vector<Token>& tokens, int d_model);
// Deterministic pseudo-random projections for h heads (d_k = d_model / h). Illustrative only.
Result<Projections> illustrative_projections(int d_model, int heads, std::uint32_t seed);
std::uint64_t fingerprint(const Matrix& m);             // FNV-1a over shape and bits
std::uint64_t fingerprint(const Projections& p);        // over every matrix, in order
std::string fingerprint_hex(std::uint64_t print);       // 16 lower-case hex digits
constexpr std::uint32_t kIllustrativeSeed = 20240601u;  // default seed for the projections

// ---------------------------------------------------------------------------------------------
// Scenarios (assets/scenarios/*.json; format in docs/contract.md)
// ---------------------------------------------------------------------------------------------
enum class ScenarioKind {
    Vectors,   // the file gives q, k_j and v_j
    Sentence,  // the file gives a sentence; the illustrative model gives q, k_j, v_j
    Model,     // never a file: the app's trained-model view (q, k_j, v_j from its forward pass)
};
const char* scenario_kind_name(ScenarioKind kind);  // "vectors", "sentence", "model"
// Only the kinds a scenario file may have (vectors, sentence).
std::optional<ScenarioKind> scenario_kind_from_name(std::string_view name);

struct Scenario {
    std::string id, title, description;
    ScenarioKind kind = ScenarioKind::Vectors;
    std::vector<std::string> tokens;        // whole sequence (Sentence: filled by the tokenizer)
    TokenPosition focus = 0;                // focus position in tokens
    std::vector<TokenPosition> candidates;  // per candidate j: its position (Sentence: all)
    Vector query;                           // Vectors only
    std::vector<Vector> keys, values;       // Vectors only, one per candidate
    std::vector<TokenPosition> denied;      // positions masked by the reader
    std::vector<TokenPosition> padding;     // positions that are padding
    StepOptions options;
    std::string sentence;                    // Sentence only
    int d_model = 8, heads = 1;              // Sentence only
    int max_heads = 4;                       // Sentence only: the most heads the views offer
    std::uint32_t seed = kIllustrativeSeed;  // Sentence only
    bool illustrative = false;               // true: numbers come from the illustrative model
};
// The token at a position, or "" outside the tokens (the one focus-token / token lookup).
const std::string& token_at(const Scenario& s, TokenPosition position);
const std::string& focus_token(const Scenario& s);  // token_at(s, s.focus)
// Candidate j's position (j itself when the scenario lists no candidates).
TokenPosition candidate_position(const Scenario& s, CandidateIndex j);

// Every rule a scenario obeys besides JSON syntax: focus, candidates, denied and padding inside
// the tokens; id, title, description, tokens and sentence plain text (check_plain_text); a
// Sentence's d_model / heads / max_heads; and the focus input the engine would get
// (check_focus_input). nullopt if valid.
std::optional<Error> check_scenario(const Scenario& s);
Result<Scenario> parse_scenario(std::string_view json_text);  // fields + check_scenario
Result<std::string> read_text_file(const std::string& path);  // whole file (<= kMaxScenarioBytes)
Result<Scenario> load_scenario(const std::string& path);      // read_text_file + parse_scenario
Result<Scenario> find_scenario(const std::string& dir, const std::string& id);  // dir/id.json
bool is_scenario_id(std::string_view id);  // 1..64 of a-z, 0-9, '-', '_' (dir/id.json stays in dir)
// A Sentence scenario for free text: tokenized, every token a candidate, illustrative model.
// A token with a bidi control is refused (InvalidText); control characters only separate.
Result<Scenario> sentence_scenario(std::string_view text, TokenPosition focus, int d_model,
                                   int heads);

// The scenario index (dir/index.json): the one list of scenario ids, in the order readers see
// them, with the short label of each and the scenario shown first.
struct ScenarioEntry {
    std::string id, label;
};
struct ScenarioIndex {
    std::vector<ScenarioEntry> scenarios;
    std::string start;  // id of the scenario a reader first sees
};
Result<ScenarioIndex> parse_scenario_index(std::string_view json_text);
constexpr const char* kScenarioIndexFile = "index.json";            // in the scenario folder
Result<ScenarioIndex> load_scenario_index(const std::string& dir);  // dir/index.json
// Every scenario of the index, in its order (find_scenario for each id).
Result<std::vector<Scenario>> load_scenarios(const std::string& dir, const ScenarioIndex& index);

// ---------------------------------------------------------------------------------------------
// Running a scenario
// ---------------------------------------------------------------------------------------------
struct IllustrativeModel {                // a Sentence scenario's made-up model, built once
    Matrix embeddings;                    // X: n x d_model
    Projections projections;              // every head, then Wo
    std::uint64_t projections_print = 0;  // fingerprint(projections)
    std::uint64_t embeddings_print = 0;   // fingerprint(embeddings)
};
Result<IllustrativeModel> illustrative_model(const Scenario& s);  // Sentence kind only
// Vectors: the scenario's own q, k_j, v_j. Sentence: q = x_focus Wq_0, k_j = x_j Wk_0,
// v_j = x_j Wv_0 (head 0 of the model). The mask flags come from denied / padding.
Result<FocusInput> focus_input(const Scenario& s);  // builds the model when it needs one
FocusInput focus_input(const Scenario& s, const IllustrativeModel& model);  // Sentence kind
Result<FocusResult> run_scenario(const Scenario& s);                        // focus_input + attend
// Sequence view of a Sentence scenario: every head of its model over the whole sentence.
Result<SequenceResult> sentence_self_attention(const Scenario& s);
Result<SequenceResult> sentence_self_attention(const Scenario& s, const IllustrativeModel& model);

// ---------------------------------------------------------------------------------------------
// JSON (formats in docs/contract.md). Text that is not UTF-8 is replaced (U+FFFD), never thrown.
// ---------------------------------------------------------------------------------------------
std::string to_json(const Scenario& s, const FocusResult& r);  // {"ok": true, ... one focus step}
// The same, plus "query" and per-candidate "key" and "value" vectors (and for a Sentence scenario
// "sentence", "d_model", "heads", "max_heads", and "projections_fingerprint" when the model is
// given).
std::string to_json(const Scenario& s, const FocusInput& in, const FocusResult& r,
                    const IllustrativeModel* model = nullptr);
std::string error_json(const Error& e);  // {"ok": false, "error": {"code": ..., "message": ...}}

}  // namespace attn
