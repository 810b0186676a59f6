// app_state.h - the one explicit state of the visualisation, the reader's edits, and the engine
// results the views read. Plain structs; no SDL, GL or Emscripten.
//
//   AppState  what the reader has chosen (scenario, focus, step, vectors, options, hover, theme...)
//   Derived   what the engine computed from it (recomputed only when the state changes)
//   Edits     what a view asks to change this frame (views return it; the model applies it)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "content.h"
#include "ui_text.h"

namespace app {

enum class Step { ChooseFocus = 0, Compare = 1, Normalise = 2, Mix = 3 };
constexpr int kStepCount = 4;
const char* step_name(int step);  // "choose_focus", "compare", "normalise", "mix"

enum class Panel { Steps = 0, Vectors = 1, Sentence = 2, Misconceptions = 3 };
constexpr int kPanelCount = 4;

enum class Theme { Light, Dark };

constexpr int kMinD = 2, kMaxD = 8;      // the vector editor's range for d
constexpr int kMaxShownHeads = 4;        // the heatmap offers 1..4 heads
constexpr int kSentenceModelWidth = 12;  // d_model of the own sentence: divisible by 1, 2, 3, 4
constexpr double kMinTemperature = 0.1, kMaxTemperature = 5.0;

struct AppState {
    // what is being explained
    std::string scenario_id;  // an id of assets/scenarios/index.json
    attn::Scenario scenario;  // working copy: the reader's edits live here
    int step = 0;             // 0..3, see Step
    int panel = 0;            // see Panel
    int hover = -1;           // highlighted candidate position, -1 none
    int pinned = -1;          // candidate picked by click / tap / Enter
    // the own sentence (Sentence panel, heatmap, misconceptions)
    std::string sentence_draft;  // text being typed in the canvas
    std::string sentence;        // text of the own-sentence scenario
    int sentence_focus = 0;
    int heads = 1;       // 1..4
    int shown_head = 0;  // head drawn large in the heatmap
    int variant = 0;     // misconception 1: which one-word change
    // presentation
    Theme theme = Theme::Light;
    bool reduced_motion = false;
    double anim_step = 0.0;                           // eased step position (follows `step`)
    std::vector<double> shown_scores, shown_weights;  // eased bar values (follow the engine)
    std::string message;                              // last error, shown in the canvas ("" = none)
    std::uint64_t revision = 0;  // bumps on every change that the page must see
};

// Everything the engine computed for the current state. Views only read it.
struct Derived {
    bool ok = false;
    attn::FocusResult focus;                     // the focus step of the current scenario
    std::vector<attn::TokenPosition> positions;  // per candidate j (same order as focus.*)
    std::vector<std::string> candidate_tokens;
    attn::Scenario sentence;  // the own-sentence scenario (tokens, heads)
    bool sequence_ok = false;
    attn::SequenceResult sequence;  // every head of the own sentence
    attn::Matrix embeddings;        // x, the residual path (illustrative)
    // misconception 1: one word changed, the same projections
    attn::Scenario variant;
    bool variant_ok = false;
    attn::FocusResult variant_focus;
    attn::FocusResult base_focus;
    std::uint64_t base_projection_print = 0, variant_projection_print = 0;
    std::uint64_t base_embedding_print = 0, variant_embedding_print = 0;
    std::string variant_word_from, variant_word_to;
};

// What a view asks for. Unset fields change nothing.
struct VectorEdit {
    enum Which { Query, Key, Value } which = Query;
    int candidate = 0;  // index into the candidate list (ignored for Query)
    int component = 0;
    double value = 0.0;
};
struct Edits {
    std::optional<std::string> scenario_id;
    std::optional<int> step, panel, focus, pinned;
    std::optional<int> hover;  // a view reports what is under the pointer / nav focus
    std::optional<std::string> sentence_draft, sentence;  // sentence: commit this text
    std::optional<int> heads, shown_head, variant, d;
    std::vector<VectorEdit> vectors;
    std::optional<double> temperature;
    std::optional<bool> scale, causal, reduced_motion, dark;
    std::optional<int> toggle_mask;  // candidate position to mask / unmask
    bool reset = false;              // restore the scenario as loaded
    bool dismiss_message = false;
};
void merge(Edits& into, const Edits& from);  // later values win; vector edits accumulate

}  // namespace app
