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

#include <string>
#include <vector>

#include "app_state.h"
#include "ui_text.h"

namespace app {

struct Library {
    attn::ScenarioIndex index;              // assets/scenarios/index.json: ids, labels, start
    std::vector<attn::Scenario> scenarios;  // as loaded, in the index's order
    UiText text;                            // with text.scenarios = index.scenarios
};

attn::Result<Library> load_library(const std::string& scenario_dir, const std::string& ui_path);
using ReadContent = attn::Result<std::string> (*)(const std::string& name);
attn::Result<Library> load_library(ReadContent read);  // names as above
const attn::Scenario* find_scenario(const Library& lib, const std::string& id);

AppState initial_state(const Library& lib);
attn::Result<Derived> compute(const AppState& s, const Library& lib);

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

// Helpers the views share (read-only, no maths of the engine's).
int highlighted(const AppState& s);       // hover if any, else the pinned candidate, else -1
bool is_vectors_kind(const AppState& s);  // the vectors can be edited by hand
std::string focus_label(const attn::Scenario& s);       // the focus token, or "focus" if none
std::string format_number(double v, int decimals = 2);  // "−0.70" with a true minus sign

}  // namespace app
