// app_model.h - the app's logic, in plain C++ (no SDL, GL or Emscripten), so it runs in tests.
//
//   load_library   read the scenarios and the canvas text (from files, or from the bytes the app
//                  has compiled in: a reader of "scenarios/<id>.json" and "app/ui.json")
//   initial_state  the state a reader first sees
//   compute        run the engine for a state -> Derived (or the engine's error)
//   apply          apply a view's (or the page's) edits; on an engine error keep the old state
//   advance        ease the animated values towards the engine's numbers (snap if reduced motion)
//   state_json     the JSON the page reads (engine's to_json + the app's fields)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app_state.h"
#include "ui_text.h"

namespace app {

struct Library {
    attn::ScenarioIndex index;              // assets/scenarios/index.json: ids, labels, start
    std::vector<attn::Scenario> scenarios;  // as loaded, in the index's order
    UiText text;                            // with text.scenarios = index.scenarios
    // The trained model, once the page has handed its weights over (load_weights); until then
    // the scenario "model" is refused with text.model.not_loaded.
    std::shared_ptr<const LoadedModel> model;
};

// ui_path's folder also holds model.json ("app/model.json"), the trained model view's text.
attn::Result<Library> load_library(const std::string& scenario_dir, const std::string& ui_path);
using ReadContent = attn::Result<std::string> (*)(const std::string& name);
attn::Result<Library> load_library(ReadContent read);  // names as above
const attn::Scenario* find_scenario(const Library& lib, const std::string& id);

AppState initial_state(const Library& lib);
// `previous` (optional): the last result; the trained model's forward passes are reused from it
// when only the head or the focus changed (same text, same ablation).
attn::Result<Derived> compute(const AppState& s, const Library& lib,
                              const Derived* previous = nullptr);

struct Applied {
    bool changed = false;  // the state (and so the page's JSON) changed
    std::string error;     // "" or the readable message of the rejected edit
};
// Applies the edits to `s` and recomputes `d`. If the engine rejects the result, `s` and `d` keep
// their previous values and the message is returned (and kept in s.message for the canvas).
Applied apply(AppState& s, Derived& d, const Edits& e, const Library& lib);

// Moves the eased values one frame (dt seconds) towards their targets. Returns true while moving.
bool advance(AppState& s, const Derived& d, double dt);

std::string state_json(const AppState& s, const Derived& d);
// {"ok": false, "error": {"code": ..., "message": ...}} - the page's error shape (JSON library).
std::string error_json(const std::string& code, const std::string& message);

// The page's edit of one canvas setting by name (attn_set_option): temperature, scale (0/1),
// causal (0/1), d, heads, shown_head, variant, mask (toggle a position), pinned (a position),
// reset; the trained model's model_layer, model_head, model_ablate (0/1), model_example.
// nullopt for an unknown name. Range checks are apply()'s.
std::optional<Edits> option_edit(const std::string& name, double value);
// Frame timings as JSON for scripts/bench: mean, p50, p95, max of `ui_ms`; p50, p95 of `whole_ms`.
std::string frame_stats_json(int tokens, std::vector<double> ui_ms, std::vector<double> whole_ms);

// The engine's tokens of `text` for the page (it never splits text itself), as JSON:
//   {"ok": true, "tokens": [...], "focus": <default focus>, "words": <tokens with a letter or
//    digit>, "unsupported": "<characters the canvas cannot draw, each once>"}
//   or {"ok": false, "error": {...}} with the tokenizer's message.
std::string tokenize_json(const std::string& text);
// The default focus token of a text: the last token with a letter or digit (0 if none).
Position default_focus(const std::string& text);
// The characters of `text` the canvas's font cannot draw (each once, in order of appearance).
std::string unsupported_characters(const std::string& text);
// Whether `text` holds a character whose glyph joins the font atlas only on demand (the ranges
// assets/theme/glyphs.json marks "lazy"), written out in UTF-8 or as a JSON \uXXXX
// escape (the embedded files are JSON).
bool needs_lazy_glyphs(const std::string& text);

// Helpers the views share (read-only, no maths of the engine's).
std::optional<Position> highlighted(const AppState& s);  // hover if any, else the pinned one
bool is_vectors_kind(const AppState& s);                 // the vectors can be edited by hand
std::string focus_label(const attn::Scenario& s);        // the focus token, or "focus" if none
std::string format_number(double v, int decimals = 2);   // "−0.70" with a true minus sign

}  // namespace app
