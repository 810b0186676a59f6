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
#include "model_view.h"
#include "ui_text.h"

namespace app {

enum class Step { ChooseFocus = 0, Compare = 1, Normalise = 2, Mix = 3 };
constexpr int kStepCount = 4;
const char* step_name(Step step);  // "choose_focus", "compare", "normalise", "mix"

enum class Panel { Steps = 0, Vectors = 1, Sentence = 2, Misconceptions = 3, Model = 4 };
constexpr int kPanelCount = 5;

// The trained model's scenario id (not a file in assets/scenarios: built from the loaded weights).
constexpr const char* kModelScenarioId = "model";

enum class Theme { Light, Dark };

constexpr int to_int(Step s) { return static_cast<int>(s); }
constexpr int to_int(Panel p) { return static_cast<int>(p); }

// Two kinds of index, never mixed up:
// a token's place in the sentence (focus, masks, hover, pins)
using Position = attn::TokenPosition;
// an index into the candidate list (Derived::positions[j], vectors); signed like ImGui's ids (the
// engine's attn::CandidateIndex is size_t)
using CandidateIndex = int;

constexpr int kMinD = 2, kMaxD = 8;      // the vector editor's range for d
constexpr int kMaxShownHeads = 4;        // the heatmap offers 1..4 heads
constexpr int kSentenceModelWidth = 12;  // d_model of the own sentence: divisible by 1, 2, 3, 4
constexpr double kMinTemperature = 0.1, kMaxTemperature = 5.0;

// Where the canvas's own sentence field is this frame (CSS pixels in the canvas; w = 0: not drawn).
// The platform uses it so that a tap on it hands the text to the page's real text input (which
// opens a phone's keyboard).
struct FieldRect {
    float x = 0, y = 0, w = 0, h = 0;
};

struct AppState {
    // what is being explained
    std::string scenario_id;  // an id of assets/scenarios/index.json
    attn::Scenario scenario;  // working copy: the reader's edits live here
    Step step = Step::ChooseFocus;
    Panel panel = Panel::Steps;
    std::optional<Position> hover;   // candidate under the pointer / keyboard focus
    std::optional<Position> pinned;  // candidate picked by click / tap / Enter
    // the own sentence (Sentence panel, heatmap, misconceptions)
    std::string sentence_draft;  // text being typed in the canvas
    std::string sentence;        // text of the own-sentence scenario
    Position sentence_focus = 0;
    int heads = 1;       // 1..4
    int shown_head = 0;  // head drawn large in the heatmap
    int variant = 0;     // misconception 1: which one-word change
    // the trained model (Model panel; model_view.h)
    ModelChoice model;
    // presentation
    Theme theme = Theme::Light;
    bool reduced_motion = false;
    bool touch = false;  // the last pointer was a finger: hints speak of taps
    FieldRect sentence_field;
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
    std::vector<std::string> swap_labels;  // "blocked → flooded", one per word swap
    // the trained model (scenario "model"): the weights it ran and one run
    std::shared_ptr<const LoadedModel> loaded;
    bool model_ok = false;
    ModelRun model;
    std::vector<std::string> model_heads;  // per head (layer-major): its pattern as a sentence
};

// What a view (or the page) asks for. Unset fields change nothing.
struct VectorEdit {
    enum Which { Query, Key, Value } which = Query;
    CandidateIndex candidate = 0;  // ignored for Query
    int component = 0;
    double value = 0.0;
};
// What is under the pointer / keyboard focus this frame (nullopt: nothing).
struct HoverReport {
    std::optional<Position> position;
};

enum class EditGroup { Model, Presentation };

// Every edit field, listed once. Model edits change what the engine computes (a recompute
// follows); Presentation edits change only what is drawn. Merging (later values win), the
// model/presentation split and the field declarations below are all generated from these lists.
//   X(group, type, name)  an optional value
#define ATTN_EDIT_VALUES(X)                                                          \
    X(Model, std::string, scenario_id)                                               \
    X(Model, std::string, sentence) /* commit this text */                           \
    X(Model, Position, focus)                                                        \
    X(Model, int, heads)                                                             \
    X(Model, int, variant)                                                           \
    X(Model, int, d)                                                                 \
    X(Model, double, temperature)                                                    \
    X(Model, bool, scale)                                                            \
    X(Model, bool, causal)                                                           \
    X(Model, Position, toggle_mask)   /* mask / unmask this position */              \
    X(Model, std::string, model_text) /* run the trained model on this text */       \
    X(Model, int, model_example)      /* ... or on this example text */              \
    X(Model, int, model_layer)                                                       \
    X(Model, int, model_head)                                                        \
    X(Model, bool, model_ablate)      /* switch the chosen head off */               \
    X(Presentation, int, step)        /* a request, checked against Step */          \
    X(Presentation, int, panel)       /* a request, checked against Panel */         \
    X(Presentation, Position, pinned) /* pin (or unpin, if pinned) this candidate */ \
    X(Presentation, HoverReport, hover)                                              \
    X(Presentation, std::string, sentence_draft)                                     \
    X(Presentation, int, shown_head)                                                 \
    X(Presentation, bool, reduced_motion)                                            \
    X(Presentation, bool, dark)                                                      \
    X(Presentation, bool, touch)                                                     \
    X(Presentation, FieldRect, sentence_field)
//   X(group, name)  a flag: set by anyone wins
#define ATTN_EDIT_FLAGS(X) \
    X(Model, reset) /* restore the scenario as loaded */ X(Presentation, dismiss_message)

struct Edits {
#define ATTN_DECLARE_VALUE(group, type, name) std::optional<type> name;
#define ATTN_DECLARE_FLAG(group, name) bool name = false;
    ATTN_EDIT_VALUES(ATTN_DECLARE_VALUE)
    ATTN_EDIT_FLAGS(ATTN_DECLARE_FLAG)
#undef ATTN_DECLARE_VALUE
#undef ATTN_DECLARE_FLAG
    std::vector<VectorEdit> vectors;  // a Model edit; accumulates when merged
};
// Later values win; flags and vector edits accumulate; a hover report naming a candidate is not
// replaced by a later one naming nothing (several views report in one frame).
void merge(Edits& into, const Edits& from);
bool changes_model(const Edits& e);  // any Model field set (the engine must recompute)

}  // namespace app
