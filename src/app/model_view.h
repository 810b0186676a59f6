// model_view.h - the project's trained transformer in the app (no SDL, GL or Emscripten):
//
//   LoadedModel    the weights (parsed and checksum-checked) and the head table of the model card
//   ModelText      the examples and notes of the model view (assets/app/model.json)
//   ModelChoice    what the reader chose: the text, the layer and head, the focus, the ablation
//   ModelRun       one forward pass of the engine's transformer for the views and the page
//
// The weights load only when the reader asks for the trained model: the page fetches the file
// (or, from file://, reads a script-wrapped copy) and hands the bytes to load_weights().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "attention.h"
#include "model.h"
#include "transformer.h"

namespace app {

// ---- the model and its head table -----------------------------------------------------------
struct HeadLabel {
    int layer = 0, head = 0;
    // "previous-token" | "induction" | "first-token" | "self" | "mixed"
    std::string label = "mixed";
    double previous_token = 0, first_token = 0, self = 0, induction = 0;
    double ablation_loss_delta = 0;  // rise in validation bits/byte with this head switched off
    double score() const;            // the measured score behind the label (mixed: the largest)
    std::string score_name() const;  // which score that is: "induction", "previous token", ...
};
struct LoadedModel {
    attn::Model model;
    std::string sha256;            // of the weights file (checked against the page's record)
    std::size_t bytes = 0;         // size of the weights file
    std::vector<HeadLabel> heads;  // layers x heads, layer-major
    const HeadLabel& label(int layer, int head) const;
};
// Parses the weights file (attn::parse_model: magic, version, sizes, trailer, finite numbers),
// checks its SHA-256 against `expected_sha256` (64 hex digits; required) and reads the head table
// from `heads_json` (the model card's {"heads": [{"layer", "head", "label", ...}]}; a head it does
// not name is "mixed" with scores 0). Errors are readable messages.
attn::Result<LoadedModel> load_weights(const std::uint8_t* data, std::size_t size,
                                       const std::string& expected_sha256,
                                       const std::string& heads_json);

// ---- the view's text (assets/app/model.json) ------------------------------------------------
struct ModelExample {
    std::string id, title, text, look_for;  // look_for: one line on what to see
    std::string pattern;                    // the head label it shows best ("" = none)
    int focus = -1;                         // focus position (-1: the last token)
    std::string swap_from, swap_to;         // misconception 1: this word -> that word
};
struct PatternText {
    std::string label, name, description;  // "induction", "induction", "attends to the token ..."
};
struct ModelText {
    std::vector<ModelExample> examples;  // at least one
    std::vector<PatternText> patterns;   // one per label
    std::string title, about, own_text_note, grid_note, next_note, ablate_note, output_note,
        fingerprint_note, loading, not_loaded;
    const PatternText& pattern(const std::string& label) const;  // unknown: the "mixed" entry
};
attn::Result<ModelText> parse_model_text(const std::string& json_text);  // every field checked

// ---- what the reader chose -------------------------------------------------------------------
struct ModelChoice {
    std::string text;  // what runs through the model
    int example = 0;   // the example it came from (-1: the reader's own text)
    int layer = 0, head = 0;
    int focus = 0;        // query position (row) of the head shown large
    bool ablate = false;  // the chosen head's output zeroed (ForwardOptions)
};

// ---- one run of the model ---------------------------------------------------------------------
struct NextToken {
    int id = 0;
    std::string token;  // readable (attn::token_display)
    double p = 0;
};
constexpr int kTopNext = 5;
struct ModelRun {
    std::vector<int> ids;
    std::vector<std::string> tokens;      // readable
    attn::Activations<float> acts;        // every intermediate of the plain forward pass
    std::vector<attn::Matrix> maps;       // every head's weights (layer-major), n x n, 0 after the
                                          // query: what the views upload as textures
    attn::FocusInput focus_input;         // the chosen head's focus row: q, keys, values (causal)
    attn::FocusResult focus;              // attend(focus_input): the glossary's code path
    std::vector<double> head_output;      // o_focus of the chosen head (d_k numbers)
    std::vector<NextToken> next;          // after the focus token, plain model
    std::vector<NextToken> next_ablated;  // the same with the chosen head switched off (only
                                          // while ModelChoice::ablate; else empty)
    attn::Activations<float> ablated_acts;  // that run (reused while text and head stay)
    int ablated_layer = -1, ablated_head = -1;
    // misconception 1: one word changed, the same weights
    bool variant_ok = false;
    std::string variant_text, swap_from, swap_to;
    std::vector<std::string> variant_tokens;
    attn::FocusResult variant_focus;  // the same head and focus position on the changed text
    attn::Activations<float> variant_acts;
};
// The likeliest next tokens after `position`: (id, p), highest first, ties to the lower id
// (std::stable_sort, as attention_cli model does).
std::vector<NextToken> top_next(const LoadedModel& m, const attn::Activations<float>& a,
                                int position, int k = kTopNext);
// Tokenizes c.text, runs the forward pass (and, while c.ablate, the one with the chosen head
// off), and takes the chosen head's focus row through attn::attend. `reuse`: a previous run whose
// forward passes are kept when its tokens are the same (a change of head or focus costs no new
// pass). Errors: the tokenizer's, a bad layer / head / focus.
attn::Result<ModelRun> run_model(const LoadedModel& m, const ModelChoice& c,
                                 const ModelExample* example, const ModelRun* reuse = nullptr);
// The readable tokens of a text under the model's tokenizer (for the page's focus select).
attn::Result<std::vector<std::string>> model_tokens(const LoadedModel& m, const std::string& text);

// "Layer 1, head 2 mostly attends to the token just before the current one; score 0.83."
std::string head_sentence(const LoadedModel& m, const ModelText& t, int layer, int head);

}  // namespace app
