// scenario_panel.cpp - ShowScenarioPanel: the canvas heading, the scenario picker (diagram,
// worked example, own sentence) and the view picker.
#include "views.h"
#include "widgets.h"

namespace app {

Edits ShowScenarioPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const float w = ImGui::GetContentRegionAvail().x;

    Heading(t.title);
    // Reduce motion sits at the right of the title row when there is room.
    const float toggle_w = ImGui::CalcTextSize("Reduce motion").x + 40;
    bool reduced = s.reduced_motion;
    if (w >= 520) {
        ImGui::SameLine(ImGui::GetCursorPosX() + w - toggle_w);
        if (ImGui::Checkbox("Reduce motion", &reduced)) e.reduced_motion = reduced;
    }
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
    Caption(t.subtitle, p);
    ImGui::PopTextWrapPos();
    ImGui::Dummy(ImVec2(1, 2));

    const char* scenarios[] = {"Diagram", "Worked example", "Your sentence"};
    const char* ids[] = {"diagram", "worked-example", "sentence"};
    int current = 0;
    for (int i = 0; i < 3; ++i)
        if (s.scenario_id == ids[i]) current = i;
    const char* panels[] = {"Four steps", "Vectors", "Whole sentence", "Misconceptions"};
    const bool one_row = w >= 900;
    if (!one_row) {
        ImGui::PushFont(font(FontRole::Small));
        ColouredText("SCENARIO", p.muted);
        ImGui::PopFont();
    }
    const int picked = Segmented("##scenario", scenarios, 3, current, p, one_row ? w * 0.45f : w);
    if (picked >= 0) e.scenario_id = ids[picked];
    if (one_row) {
        ImGui::SameLine(0, 14);
        const ImVec2 a = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, a.y + 4), ImVec2(a.x, a.y + 26),
                                            rgba(p.border), 1.0f);
        ImGui::SameLine(0, 15);
    } else {
        ImGui::PushFont(font(FontRole::Small));
        ColouredText("VIEW", p.muted);
        ImGui::PopFont();
    }
    const int view = Segmented("##panel", panels, kPanelCount, s.panel, p, one_row ? w * 0.55f : w);
    if (view >= 0) e.panel = view;

    // Scenario line: title and, for the illustrative model, a clear note.
    ImGui::Dummy(ImVec2(1, 2));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
    if (d.ok) {
        const attn::Scenario& sc = s.scenario;
        std::string line = sc.title;
        if (sc.focus >= 0 && sc.focus < static_cast<int>(sc.tokens.size()))
            line += "  ·  focus “" + sc.tokens[static_cast<std::size_t>(sc.focus)] + "”";
        line += "  ·  d = " + std::to_string(d.focus.d);
        Strong(line);
        if (!sc.description.empty()) Caption(sc.description, p);
        if (sc.illustrative) Caption(t.illustrative_note, p);
    }
    ImGui::PopTextWrapPos();

    if (w < 520 && ImGui::Checkbox("Reduce motion", &reduced)) e.reduced_motion = reduced;
    ImGui::Dummy(ImVec2(1, 2));
    return e;
}

}  // namespace app
