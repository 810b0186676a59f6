// sentence_panel.cpp - ShowSentencePanel: the reader's own sentence, its focus token, 1..4 heads
// and the causal mask. Tokens come from the engine's tokenizer.
#include <algorithm>
#include <string>

#include "app_model.h"
#include "metrics.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

int ResizeString(ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* str = static_cast<std::string*>(data->UserData);
        str->resize(static_cast<std::size_t>(data->BufTextLen));
        data->Buf = str->data();
    }
    return 0;
}

}  // namespace

Edits ShowSentencePanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##sentence", p);
    const float W = card.inner;
    const attn::Scenario& sent = d.sentence;

    Strong("Your own sentence");
    Caption(t.sentence_note, p);
    std::string draft = s.sentence_draft;  // a copy: the edit is returned, not written back
    const float button_w = FramedWidth("Use sentence");
    const bool stacked = W - button_w - 8 < 160;  // on the narrowest phones the button goes below
    ImGui::SetNextItemWidth(stacked ? W : W - button_w - 8);
    const bool enter =
        ImGui::InputText("##text", draft.data(), draft.capacity() + 1,
                         ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_EnterReturnsTrue,
                         ResizeString, &draft);
    {  // where the field is, so that a tap on it opens the page's real text input
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        const ImVec2 w0 = ImGui::GetMainViewport()->Pos;
        e.sentence_field = FieldRect{a.x - w0.x, a.y - w0.y, b.x - a.x, b.y - a.y};
    }
    if (draft != s.sentence_draft) e.sentence_draft = draft;
    if (!stacked) ImGui::SameLine();
    if (ImGui::Button("Use sentence", ImVec2(button_w, 0)) || enter) e.sentence = draft;

    ImGui::PushFont(font(FontRole::Small));
    ColouredText(s.touch ? "FOCUS TOKEN  (tap one)" : "FOCUS TOKEN  (click one)", p.muted);
    ImGui::PopFont();
    // Many tokens: smaller chips in the small font, so 128 of them wrap into a tidy block.
    const bool dense = sent.tokens.size() > 40;
    const float pad_x = dense ? 5.0f : 7.0f, gap = dense ? 3.0f : 4.0f;
    ImGui::PushFont(font(dense ? FontRole::Small : FontRole::Body));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(pad_x, dense ? 2.0f : 3.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(gap, gap));
    float x = 0;
    for (std::size_t i = 0; i < sent.tokens.size(); ++i) {
        const std::string& tok = sent.tokens[i];
        const float w = std::min(W, ImGui::CalcTextSize(tok.c_str()).x + 2 * pad_x);
        if (i > 0 && x + w <= W)
            ImGui::SameLine(0, gap);
        else if (i > 0)
            x = 0;
        const bool on = static_cast<int>(i) == sent.focus;
        ImGui::PushStyleColor(ImGuiCol_Button, on ? p.accent : p.surface_alt);
        ImGui::PushStyleColor(ImGuiCol_Text, on ? p.bg : p.ink);
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Button(tok.c_str(), ImVec2(w, 0))) {
            e.scenario_id = t.sentence_scenario_id;
            e.focus = static_cast<int>(i);
        }
        ImGui::PopID();
        ImGui::PopStyleColor(2);
        x += w + gap;
    }
    ImGui::PopStyleVar(2);
    ImGui::PopFont();

    ImGui::Dummy(ImVec2(1, 2));
    const char* heads[] = {"1 head", "2 heads", "3 heads", "4 heads"};
    const int h = Segmented("##heads", heads, kMaxShownHeads, s.heads - 1, p, W);
    if (h >= 0) e.heads = h + 1;
    bool causal = s.scenario.options.causal;
    const bool narrow = W < metrics::kNarrowContent;
    if (ImGui::Checkbox(
            narrow ? "Causal mask" : "Causal mask: a token sees only itself and earlier tokens",
            &causal))
        e.causal = causal;
    if (narrow) Caption("A token sees only itself and earlier tokens.", p);
    Caption("d_model = " + std::to_string(sent.d_model) +
                ", so each head compares vectors of d = " +
                std::to_string(sent.d_model / std::max(1, sent.heads)) + " numbers.",
            p);
    if (s.scenario.kind != attn::ScenarioKind::Sentence) {
        if (ImGui::Button("Explain this sentence step by step")) {
            e.scenario_id = t.sentence_scenario_id;
            e.panel = static_cast<int>(Panel::Steps);
        }
    }
    EndCard(card);
    return e;
}

}  // namespace app
