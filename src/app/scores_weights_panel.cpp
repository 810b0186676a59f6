// scores_weights_panel.cpp - ShowScoresWeightsPanel: raw (scaled) scores and softmax weights as two
// bar charts side by side, so "any sign, no total" and "0..1, sum 1" can be seen at once.
#include <algorithm>
#include <cmath>

#include "app_model.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

struct Chart {
    float x, y, w, row_h, label_w;
};

}  // namespace

Edits ShowScoresWeightsPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##scores_weights", p);
    const float W = card.inner;
    const bool side = W >= 430;
    const int n = static_cast<int>(d.focus.scores.size());
    const float row_h = 24.0f;
    const std::optional<Position> hl = highlighted(s);
    ImFont* strong = font(FontRole::Strong);
    ImFont* small = font(FontRole::Small);

    Strong("Score and weight are not the same number");
    const float gap = 18.0f;
    const float cw = side ? (W - gap) * 0.5f : W;
    const int visible = std::min(n, 12);
    const bool scroll = n > visible;
    const float chart_h = visible * row_h + 4;

    // Scale of the score chart: symmetric around 0, from the largest |score|.
    double max_abs = 1e-9;
    for (double v : s.shown_scores) max_abs = std::max(max_abs, std::fabs(v));
    float label_w = 40;
    for (const std::string& tok : d.candidate_tokens)
        label_w = std::max(label_w, ImGui::CalcTextSize(tok.c_str()).x + 8);
    label_w = std::min(label_w, cw * 0.36f);

    for (int chart = 0; chart < 2; ++chart) {
        if (chart == 1 && side) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + cw);
        ImGui::PushStyleColor(ImGuiCol_Text, chart == 0 ? p.score : p.weight);
        Strong(chart == 0 ? "Raw scores (scaled)" : "Attention weights");
        ImGui::PopStyleColor();
        Caption(chart == 0 ? t.scores_note : t.weights_note, p);
        ImGui::PopTextWrapPos();
        // both charts start at the same height
        ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0, 0, 0, 0));
        ImGui::BeginChild(chart == 0 ? "##score_rows" : "##weight_rows", ImVec2(cw, chart_h), false,
                          scroll ? 0 : ImGuiWindowFlags_NoScrollbar);
        ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const float inner_w = ImGui::GetContentRegionAvail().x;
        ImGuiListClipper clip;
        clip.Begin(n, row_h);
        while (clip.Step()) {
            for (int j = clip.DisplayStart; j < clip.DisplayEnd; ++j) {
                const auto ju = static_cast<std::size_t>(j);
                const int pos = d.positions[ju];
                const bool masked = attn::is_masked(d.focus.mask[ju]);
                const ImVec2 a = ImGui::GetCursorScreenPos();
                const bool is_hl = pos == hl;
                if (is_hl)
                    dl->AddRectFilled(a, ImVec2(a.x + inner_w, a.y + row_h - 2),
                                      rgba(p.highlight, 0.16f), 5);
                dl->AddText(ImVec2(a.x + 4, a.y + 3), rgba(masked ? p.masked : p.ink),
                            d.candidate_tokens[ju].c_str());
                const float bx = a.x + label_w, bw = inner_w - label_w - 48;
                const float by = a.y + 4, bh = row_h - 10;
                if (chart == 0) {
                    const double v = ju < s.shown_scores.size() ? s.shown_scores[ju] : 0.0;
                    const float zero = bx + bw * 0.5f;
                    const float len = static_cast<float>(v / max_abs) * bw * 0.5f;
                    dl->AddLine(ImVec2(zero, a.y), ImVec2(zero, a.y + row_h), rgba(p.border), 1);
                    const ImVec4 c = masked ? p.masked : (v < 0 ? p.negative : p.score);
                    dl->AddRectFilled(ImVec2(std::min(zero, zero + len), by),
                                      ImVec2(std::max(zero, zero + len), by + bh),
                                      rgba(c, is_hl || !hl ? 0.9f : 0.45f), 3);
                    const std::string num = format_number(d.focus.scores[ju]);
                    dl->AddText(strong, ImGui::GetFontSize(), ImVec2(bx + bw + 6, a.y + 3),
                                rgba(v < 0 ? p.negative : p.score), num.c_str());
                } else {
                    const double v = ju < s.shown_weights.size() ? s.shown_weights[ju] : 0.0;
                    dl->AddRectFilled(ImVec2(bx, by), ImVec2(bx + bw, by + bh), rgba(p.surface_alt),
                                      3);
                    dl->AddRectFilled(ImVec2(bx, by),
                                      ImVec2(bx + bw * static_cast<float>(v), by + bh),
                                      rgba(p.weight, is_hl || !hl ? 0.9f : 0.45f), 3);
                    const std::string num =
                        masked ? t.masked_note : format_number(d.focus.weights[ju]);
                    dl->AddText(masked ? small : strong, ImGui::GetFontSize(),
                                ImVec2(bx + bw + 6, a.y + 3), rgba(masked ? p.masked : p.weight),
                                num.c_str());
                }
                ImGui::PushID(j);
                bool clicked = false;
                if (CandidateHit("##row", ImVec2(inner_w, row_h), &clicked)) e.hover = HoverReport{pos};
                if (clicked) e.pinned = pos;
                ImGui::PopID();
            }
        }
        ImGui::PopStyleVar();
        ImGui::EndChild();
        ImGui::PopStyleColor();
        if (chart == 0) {
            Caption("No fixed total; the largest |score| sets the scale.", p);
        } else {
            ImGui::PushFont(small);
            ColouredText("Σ weights = " + format_number(d.focus.weight_sum, 3), p.weight);
            ImGui::PopFont();
        }
        ImGui::EndGroup();
    }
    if (!e.hover) e.hover = HoverReport{};
    EndCard(card);
    return e;
}

}  // namespace app
