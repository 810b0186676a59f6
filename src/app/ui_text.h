// ui_text.h - the canvas's explanatory text, read from assets/app/ui.json at start-up.
// Short labels stay in code; sentences a reader reads live in the data file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "content.h"
#include "model_view.h"

namespace app {

struct StepText {
    std::string title;    // "Choose a focus token"
    std::string summary;  // one sentence: what this step computes
    std::string detail;   // a longer note shown under the diagram
};

struct WordSwap {          // misconception 1: the same sentence with one word changed
    std::string sentence;  // the changed sentence
    std::string from, to;  // the word that changed
};

struct Misconception {
    std::string myth, correction,
        demo;  // "Common misconception: ..." / "Correction: ..." / how to read the demo
};

struct UiText {
    std::string title;  // canvas heading
    std::string subtitle;
    std::vector<StepText> steps;  // exactly 4
    std::string scores_note, weights_note, output_note, masked_note, all_masked_note;
    std::string vectors_note, sentence_note, heatmap_note, illustrative_note, keyboard_hint;
    std::vector<Misconception> misconceptions;  // exactly 3
    std::string variant_base;                   // the sentence misconception 1 starts from
    int variant_focus = 0;                      // its focus position
    std::vector<WordSwap> swaps;
    std::string residual_note, heads_note;
    std::string touch_hint;        // the canvas hint on touch screens (keyboard_hint elsewhere)
    std::string diagram_note;      // the seed figure's printed weights against the engine's
    std::string printed_scenario;  // the scenario of the original figure (a scenario id)
    std::vector<double> printed_weights;  // what the original figure printed (a fact of the source)
    std::string model_note;  // why the own sentence's numbers differ from the worked example
    // Not from ui.json: the scenario picker's entries, from assets/scenarios/index.json (set by
    // load_library), and the id of the reader's own-sentence scenario (the index's Sentence kind).
    std::vector<attn::ScenarioEntry> scenarios;
    std::string sentence_scenario_id;
    ModelText model;  // the trained model's view: assets/app/model.json (read by load_library)
};

attn::Result<UiText> parse_ui_text(std::string_view json_text);  // every field checked

}  // namespace app
