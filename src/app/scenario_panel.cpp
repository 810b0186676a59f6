// scenario_panel.cpp - ShowScenarioPanel: the canvas heading, the scenario picker (diagram,
// worked example, own sentence) and the view picker, kept compact: on wide canvases the title
// shares its row with "Reduce motion" and both pickers share one row; on narrow ones the pickers
// become two side-by-side lists. The scenario's description is cut to two lines (full on hover).
#include <algorithm>

#include "app_model.h"
#include "metrics.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

// A small muted label on the current line, vertically centred on a frame.
void InlineLabel(const char* text, const Palette& p) {
    ImGui::PushFont(font(FontRole::Small));
    ImGui::AlignTextToFramePadding();
    ColouredText(text, p.muted);
    ImGui::PopFont();
}

// A list picker (narrow canvases). Returns the picked index or -1.
int Picker(const char* id, const char* const* labels, int count, int selected, float width) {
    int picked = -1;
    ImGui::SetNextItemWidth(width);
    const ImGuiStyle& st = ImGui::GetStyle();
    ImGui::PushStyleColor(ImGuiCol_Button, st.Colors[ImGuiCol_FrameBg]);  // a quiet arrow
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, st.Colors[ImGuiCol_FrameBgHovered]);
    const bool open = ImGui::BeginCombo(id, labels[std::clamp(selected, 0, count - 1)]);
    ImGui::PopStyleColor(2);
    if (open) {
        for (int i = 0; i < count; ++i)
            if (ImGui::Selectable(labels[i], i == selected)) picked = i;
        ImGui::EndCombo();
    }
    return picked;
}

void ReduceMotionToggle(const AppState& s, Edits& e) {
    bool reduced = s.reduced_motion;
    ImGui::PushFont(font(FontRole::Small));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(4, 3));
    if (ImGui::Checkbox("Reduce motion", &reduced)) e.reduced_motion = reduced;
    ImGui::PopStyleVar();
    ImGui::PopFont();
}

// Title row, with "Reduce motion" at its right when there is room. Returns whether it is there.
bool TitleRow(const AppState& s, const UiText& t, const Palette& p, float w, float x0, Edits& e) {
    const ImGuiStyle& st = ImGui::GetStyle();
    ImGui::PushFont(font(FontRole::Heading));
    const float title_w = ImGui::CalcTextSize(t.title.c_str()).x;
    ImGui::PopFont();
    ImGui::PushFont(font(FontRole::Small));
    const float toggle_w =
        ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize("Reduce motion").x;
    ImGui::PopFont();
    const bool toggle_on_title = title_w + 24 + toggle_w <= w;
    Heading(t.title);
    if (toggle_on_title) {
        const float after = ImGui::GetCursorPosY();
        ImGui::SameLine(x0 + w - toggle_w);
        ReduceMotionToggle(s, e);
        ImGui::SetCursorPosY(std::max(after, ImGui::GetCursorPosY()));
    }
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() - 4);
    Caption(t.subtitle, p);
    ImGui::Dummy(ImVec2(1, 0));
    return toggle_on_title;
}

// The scenario and view pickers: two lists side by side on a phone, else segmented rows.
void Pickers(const AppState& s, const UiText& t, const Palette& p, float w, Edits& e) {
    const ImGuiStyle& st = ImGui::GetStyle();
    // The scenario list is assets/scenarios/index.json (labels and ids, in its order), then the
    // trained model (built from its weights, not a scenario file).
    std::vector<const char*> scenarios;
    std::vector<std::string> ids;
    int current = 0;
    for (const attn::ScenarioEntry& entry : t.scenarios) {
        if (s.scenario_id == entry.id) current = static_cast<int>(scenarios.size());
        scenarios.push_back(entry.label.c_str());
        ids.push_back(entry.id);
    }
    if (s.scenario_id == kModelScenarioId) current = static_cast<int>(scenarios.size());
    scenarios.push_back("A trained model");
    ids.push_back(kModelScenarioId);
    const int n_scenarios = static_cast<int>(scenarios.size());
    const char* panels[kPanelCount] = {"Four steps", "Vectors", "Whole sentence", "Misconceptions",
                                       "Trained model"};
    ImGui::PushFont(font(FontRole::Small));
    const float lab_sc = ImGui::CalcTextSize("Example").x + 8;
    const float lab_vw = ImGui::CalcTextSize("View").x + 8;
    ImGui::PopFont();
    const float seg_sc = SegmentedWidth(scenarios.data(), n_scenarios),
                seg_vw = SegmentedWidth(panels, kPanelCount);
    const float gap = 28.0f;
    if (w < metrics::kNarrowCanvas) {
        // two lists side by side, or one under the other when their labels would not fit
        float longest = 0;
        for (const char* l : scenarios) longest = std::max(longest, ImGui::CalcTextSize(l).x);
        for (const char* l : panels) longest = std::max(longest, ImGui::CalcTextSize(l).x);
        const float half = (w - st.ItemSpacing.x) * 0.5f;
        const bool stacked = longest + ImGui::GetFrameHeight() + 2 * st.FramePadding.x > half;
        const float pw = stacked ? w : half;
        const float cx = ImGui::GetCursorPosX();
        InlineLabel("Example", p);
        if (!stacked) {
            ImGui::SameLine(cx + half + st.ItemSpacing.x);
            InlineLabel("View", p);
        }
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() - 6);
        const int picked = Picker("##scenario", scenarios.data(), n_scenarios, current, pw);
        if (picked >= 0) e.scenario_id = ids[static_cast<std::size_t>(picked)];
        if (stacked) {
            InlineLabel("View", p);
            ImGui::SetCursorPosY(ImGui::GetCursorPosY() - 6);
        } else {
            ImGui::SameLine(0, st.ItemSpacing.x);
        }
        const int view = Picker("##panel", panels, kPanelCount, to_int(s.panel), pw);
        if (view >= 0) e.panel = view;
        return;
    }
    const bool one_row = lab_sc + seg_sc + gap + lab_vw + seg_vw <= w;
    InlineLabel("Example", p);
    ImGui::SameLine(0, 8);
    const int picked =
        Segmented("##scenario", scenarios.data(), n_scenarios, current, p, w - lab_sc);
    if (picked >= 0) e.scenario_id = ids[static_cast<std::size_t>(picked)];
    if (one_row) {
        ImGui::SameLine(0, gap * 0.5f);
        const ImVec2 a = ImGui::GetCursorScreenPos();
        const float fh = ImGui::GetFrameHeight();
        ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, a.y + 4), ImVec2(a.x, a.y + fh + 2),
                                            rgba(p.border), 1.0f);
        ImGui::SameLine(0, gap * 0.5f);
    }
    InlineLabel("View", p);
    ImGui::SameLine(0, 8);
    const int view = Segmented("##panel", panels, kPanelCount, to_int(s.panel), p,
                               one_row ? seg_vw : w - lab_vw);
    if (view >= 0) e.panel = view;
}

// "a, b and c" of numbers, formatted by `f`.
template <typename F>
std::string number_list(const std::vector<double>& v, F f, const char* sep) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + f(v[i]);
    return out;
}

// The seed figure printed other weights than the softmax of its own scores gives: say so, with
// the engine's numbers.
std::string diagram_note(const Derived& d, const UiText& t) {
    auto two = [](double v) { return format_number(v, 2); };
    auto one = [](double v) { return format_number(v, 1); };
    std::string note = t.diagram_note;
    const auto put = [&note](const std::string& key, const std::string& value) {
        const std::size_t at = note.find(key);
        if (at != std::string::npos) note.replace(at, key.size(), value);
    };
    put("{printed}", number_list(t.printed_weights, two, " / "));
    put("{scores}", number_list(d.focus.scores, one, ", "));
    put("{weights}", number_list(d.focus.weights, two, " / "));
    return note;
}

// Scenario line: title, sentence and focus, d, then the whole description (never cut).
void ScenarioLine(const AppState& s, const Derived& d, const UiText& t, const Palette& p, float w,
                  float x0) {
    ImGui::Dummy(ImVec2(1, 0));
    const attn::Scenario& sc = s.scenario;
    std::string line = sc.title;
    if (sc.kind == attn::ScenarioKind::Sentence)  // in full in the sentence panel below
        line += "  ·  “" + Ellipsize(font(FontRole::Strong), kBodyPx, sc.sentence, w * 1.5f) + "”";
    if (!attn::focus_token(sc).empty()) line += "  ·  focus “" + attn::focus_token(sc) + "”";
    line +=
        "  ·  d\u00a0=\u00a0" + std::to_string(d.focus.d);  // no-break spaces: never "d =" / "4"
    ImGui::PushTextWrapPos(x0 + w);
    Strong(line);
    ImGui::PopTextWrapPos();
    std::string about = sc.description;
    if (sc.illustrative && about.find("llustrative") == std::string::npos)  // said once
        about += (about.empty() ? "" : " ") + t.illustrative_note;
    if (!about.empty()) {
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() - 4);
        Caption(about, p);
    }
    if (s.scenario_id == t.printed_scenario) Caption(diagram_note(d, t), p);
    if (sc.kind == attn::ScenarioKind::Sentence) Caption(t.model_note, p);
}

}  // namespace

Edits ShowScenarioPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const float w = ImGui::GetContentRegionAvail().x;
    const float x0 = ImGui::GetCursorPosX();
    const bool toggle_shown = TitleRow(s, t, p, w, x0, e);
    Pickers(s, t, p, w, e);
    if (d.ok) ScenarioLine(s, d, t, p, w, x0);
    if (!toggle_shown) ReduceMotionToggle(s, e);
    ImGui::Dummy(ImVec2(1, 0));
    return e;
}

}  // namespace app
