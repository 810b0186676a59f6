// scores_weights_panel.cpp - ShowScoresWeightsPanel: raw (scaled) scores and softmax weights as two
// bar charts side by side, so "any sign, no total" and "0..1, sum 1" can be seen at once.
#include <algorithm>
#include <cmath>

#include "app_model.h"
#include "metrics.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

// What both charts share.
struct Chart {
    const AppState& s;
    const Derived& d;
    const UiText& t;
    const Palette& p;
    float cw, label_w, row_h;
    float label_h;   // > 0: a label too long to sit beside its bar goes on its own line above it
    double max_abs;  // the score chart's scale: symmetric around 0, from the largest |score|
    std::optional<Position> hl;
};

// One candidate's bar: the eased score (any sign) or weight (0..1), and the engine's number.
void BarRow(const Chart& c, int chart, CandidateIndex j, Edits& e) {
    const auto ju = static_cast<std::size_t>(j);
    const Position pos = c.d.positions[ju];
    const bool masked = attn::is_masked(c.d.focus.mask[ju]);
    const Palette& p = c.p;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* strong = font(FontRole::Strong);
    ImFont* small = font(FontRole::Small);
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const bool is_hl = pos == c.hl;
    const float alpha = is_hl || !c.hl ? 0.9f : 0.45f;
    if (is_hl)
        dl->AddRectFilled(a, ImVec2(a.x + c.cw, a.y + c.row_h - 2), rgba(p.highlight, 0.16f), 5);
    const float label_room = c.label_h > 0 ? c.cw - 8 : c.label_w - 8;
    dl->AddText(ImGui::GetFont(), kBodyPx, ImVec2(a.x + 4, a.y + 3),
                rgba(masked ? p.masked : p.ink),
                Ellipsize(ImGui::GetFont(), kBodyPx, c.d.candidate_tokens[ju], label_room).c_str());
    const ImVec2 r(a.x, a.y + c.label_h);  // the bar's line: beside the label, or below it
    const float label_w = c.label_h > 0 ? 4.0f : c.label_w;
    const float bx = r.x + label_w, bw = c.cw - label_w - 52;
    const float by = r.y + 4, bh = c.row_h - c.label_h - 10;
    if (chart == 0) {
        const double v = ju < c.s.shown_scores.size() ? c.s.shown_scores[ju] : 0.0;
        const float zero = bx + bw * 0.5f;
        const float len = static_cast<float>(v / c.max_abs) * bw * 0.5f;
        dl->AddLine(ImVec2(zero, r.y), ImVec2(zero, r.y + c.row_h - c.label_h), rgba(p.border), 1);
        const ImVec4 col = masked ? p.masked : (v < 0 ? p.negative : p.score);
        dl->AddRectFilled(ImVec2(std::min(zero, zero + len), by),
                          ImVec2(std::max(zero, zero + len), by + bh), rgba(col, alpha), 3);
        dl->AddText(strong, kBodyPx, ImVec2(bx + bw + 6, r.y + 3),
                    rgba(v < 0 ? p.negative : p.score),
                    format_number(c.d.focus.scores[ju]).c_str());
    } else {
        const double v = ju < c.s.shown_weights.size() ? c.s.shown_weights[ju] : 0.0;
        dl->AddRectFilled(ImVec2(bx, by), ImVec2(bx + bw, by + bh), rgba(p.surface_alt), 3);
        dl->AddRectFilled(ImVec2(bx, by), ImVec2(bx + bw * static_cast<float>(v), by + bh),
                          rgba(p.weight, alpha), 3);
        const std::string num = masked ? c.t.masked_note : format_number(c.d.focus.weights[ju]);
        dl->AddText(masked ? small : strong, masked ? kSmallPx : kBodyPx,
                    ImVec2(bx + bw + 6, r.y + 3 + (masked ? 2.0f : 0.0f)),
                    rgba(masked ? p.masked : p.weight), num.c_str());
    }
    ImGui::PushID(j);
    bool clicked = false;
    if (CandidateHit("##row", ImVec2(c.cw, c.row_h), &clicked)) e.hover = HoverReport{pos};
    if (clicked) e.pinned = pos;
    ImGui::PopID();
}

// One chart: title, note, a row per candidate (all of them: the canvas grows), its footnote.
void BarChart(const Chart& c, int chart, Edits& e) {
    const Palette& p = c.p;
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + c.cw);
    ImGui::PushStyleColor(ImGuiCol_Text, chart == 0 ? p.score : p.weight);
    Strong(chart == 0 ? "Scores (scaled dot products)" : "Attention weights");
    ImGui::PopStyleColor();
    Caption(chart == 0 ? c.t.scores_note : c.t.weights_note, p);
    ImGui::PopTextWrapPos();
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));
    for (CandidateIndex j = 0; j < static_cast<int>(c.d.focus.scores.size()); ++j)
        BarRow(c, chart, j, e);
    ImGui::PopStyleVar();
    ImGui::Dummy(ImVec2(1, 4));
    if (chart == 0) {
        Caption("No fixed total; the largest |score| sets the scale.", p);
    } else {
        ImGui::PushFont(font(FontRole::Small));
        ColouredText("Σ weights = " + format_number(c.d.focus.weight_sum, 3), p.weight);
        ImGui::PopFont();
    }
    ImGui::EndGroup();
}

}  // namespace

Edits ShowScoresWeightsPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##scores_weights", p);
    const float W = card.inner;
    const bool side = W >= metrics::kNarrowContent;
    Strong("Score and weight are not the same number");
    const float gap = 18.0f;
    const float cw = side ? (W - gap) * 0.5f : W;
    double max_abs = 1e-9;
    for (double v : s.shown_scores) max_abs = std::max(max_abs, std::fabs(v));
    float label_w = 40;
    for (const std::string& tok : d.candidate_tokens)
        label_w = std::max(label_w, ImGui::CalcTextSize(tok.c_str()).x + 8);
    // A label that does not fit in 36% of the chart gets its own line, so no token is cut short.
    const float label_h = label_w > cw * 0.36f ? kBodyPx + 6 : 0.0f;
    label_w = std::min(label_w, cw * 0.36f);
    const Chart c{s, d, t, p, cw, label_w, 24.0f + label_h, label_h, max_abs, highlighted(s)};
    BarChart(c, 0, e);
    if (side) ImGui::SameLine(0, gap);
    BarChart(c, 1, e);
    if (!e.hover) e.hover = HoverReport{};
    EndCard(card);
    return e;
}

}  // namespace app
