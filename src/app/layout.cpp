// layout.cpp - ShowAppLayout: the one full-canvas window, the header, and the panels arranged
// side by side when wide or stacked when narrow (from about 340 CSS pixels). The window never
// scrolls: the platform reports its content height and the page sizes the canvas to fit, so the
// page's own scrolling (wheel and touch) moves through it.
#include <algorithm>

#include "metrics.h"
#include "theme.h"
#include "views.h"
#include "widgets.h"

namespace app {

ImVec4 candidate_colour(const AppState& s, int j) {
    return palette_for(s.theme).series[((j % kSeriesColours) + kSeriesColours) % kSeriesColours];
}

namespace {

// Two columns when there is room, else one after the other.
void Columns(const AppState& s, const Derived& d, const UiText& t, Edits& e,
             Edits (*left)(const AppState&, const Derived&, const UiText&),
             Edits (*right_a)(const AppState&, const Derived&, const UiText&),
             Edits (*right_b)(const AppState&, const Derived&, const UiText&)) {
    const float w = ImGui::GetContentRegionAvail().x;
    if (w >= metrics::kTwoColumnCanvas &&
        ImGui::BeginTable("##cols", 2,
                          ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_NoPadOuterX)) {
        ImGui::TableSetupColumn("a", ImGuiTableColumnFlags_WidthStretch,
                                metrics::kLeftColumnWeight);
        ImGui::TableSetupColumn("b", ImGuiTableColumnFlags_WidthStretch,
                                metrics::kRightColumnWeight);
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        merge(e, left(s, d, t));
        ImGui::TableSetColumnIndex(1);
        merge(e, right_a(s, d, t));
        if (right_b) merge(e, right_b(s, d, t));
        ImGui::EndTable();
    } else {
        merge(e, left(s, d, t));
        merge(e, right_a(s, d, t));
        if (right_b) merge(e, right_b(s, d, t));
    }
}

}  // namespace

Edits ShowAppLayout(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->Pos);
    ImGui::SetNextWindowSize(vp->Size);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse |
        ImGuiWindowFlags_NoScrollbar;  // never scrolls: the page sizes the canvas to its content
    const bool narrow = vp->Size.x < metrics::kNarrowCanvas;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding,
                        narrow ? ImVec2(metrics::kWindowPadNarrowX, metrics::kWindowPadNarrowY)
                               : ImVec2(metrics::kWindowPadWideX, metrics::kWindowPadWideY));
    ImGui::Begin("Attention score", nullptr, flags);
    ImGui::PopStyleVar();

    e.sentence_field = FieldRect{};  // none unless the sentence panel draws its field
    merge(e, ShowScenarioPanel(s, d, t));

    if (!s.message.empty()) {  // the engine's message, never a NaN
        const Card c = BeginCard("##message", p, true);
        ImGui::PushStyleColor(ImGuiCol_Text, p.error);
        Strong("That input could not be used");
        ImGui::PopStyleColor();
        Paragraph(s.message);
        Caption("Everything else keeps the last valid numbers.", p);
        if (ImGui::SmallButton("Dismiss")) e.dismiss_message = true;
        EndCard(c);
    }

    if (d.ok) {
        switch (s.panel) {
            case Panel::Steps:
                Columns(s, d, t, e, ShowStepsPanel, ShowScoresWeightsPanel, ShowOutputPanel);
                break;
            case Panel::Vectors:
                Columns(s, d, t, e, ShowVectorsPanel, ShowScoresWeightsPanel, ShowOutputPanel);
                break;
            case Panel::Sentence:
                merge(e, ShowSentencePanel(s, d, t));
                merge(e, ShowHeatmapPanel(s, d, t));
                break;
            case Panel::Misconceptions:
                merge(e, ShowMisconceptionsPanel(s, d, t));
                break;
            case Panel::Model:
                merge(e, ShowModelPanel(s, d, t));
                break;
        }
        ImGui::Dummy(ImVec2(1, 6));
        Caption(s.touch ? t.touch_hint : t.keyboard_hint, p);
    }

    // Page Up / Page Down walk the steps while the canvas has the keyboard.
    if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) &&
        !ImGui::GetIO().WantTextInput) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown)))
            e.step = std::min(to_int(s.step) + 1, kStepCount - 1);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp)))
            e.step = std::max(to_int(s.step) - 1, 0);
    }
    ImGui::End();
    return e;
}

}  // namespace app
