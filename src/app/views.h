// views.h - the canvas's views. Each view is one file with one draw function: it reads the state
// and the engine's results and returns the reader's edits. Views never mutate state, never call
// SDL / GL / Emscripten and keep no static state.
#pragma once

#include <imgui.h>

#include "app_state.h"
#include "theme.h"
#include "ui_text.h"

namespace app {

Edits ShowAppLayout(const AppState& s, const Derived& d, const UiText& t);      // layout.cpp
Edits ShowScenarioPanel(const AppState& s, const Derived& d, const UiText& t);  // header, pickers
Edits ShowStepsPanel(const AppState& s, const Derived& d, const UiText& t);     // the four steps
Edits ShowVectorsPanel(const AppState& s, const Derived& d, const UiText& t);   // q, k, v editor
Edits ShowScoresWeightsPanel(const AppState& s, const Derived& d,
                             const UiText& t);                                  // two bar charts
Edits ShowOutputPanel(const AppState& s, const Derived& d, const UiText& t);    // sum_j w_j v_j
Edits ShowSentencePanel(const AppState& s, const Derived& d, const UiText& t);  // own sentence
Edits ShowHeatmapPanel(const AppState& s, const Derived& d, const UiText& t);   // every head
Edits ShowMisconceptionsPanel(const AppState& s, const Derived& d, const UiText& t);  // three myths
Edits ShowModelPanel(const AppState& s, const Derived& d, const UiText& t);  // the trained model

// The heatmap of one head as an image: an n x n texture (one texel per cell, weight_colour, masked
// cells in `masked`), owned and uploaded by the platform layer when the matrix or the colours
// change (platform_gl.cpp). `slot` names the head: 0..7 the sentence's heads, from
// kModelHeatmapSlot the trained model's (layer-major). nullptr if there is no GL context or slot.
constexpr int kModelHeatmapSlot = 8, kHeatmapSlots = 24;
ImTextureID HeatmapTexture(int slot, const attn::Matrix& weights, bool causal, Theme theme,
                           ImU32 masked);
// The masked (causal) cells of every map: a neutral fill, and a hatch over the half above the
// diagonal of an n-cell map at [lo, lo + size], so the masked half reads as such in either theme.
ImU32 MaskedFill(const Palette& p);
void MaskedHatch(ImDrawList* dl, ImVec2 lo, float size, int n, const Palette& p, Theme theme);

// Colour of candidate j among n (calm, distinct tones), shared by the charts and the output.
ImVec4 candidate_colour(const AppState& s, int j);

}  // namespace app
