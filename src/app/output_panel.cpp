// output_panel.cpp - ShowOutputPanel: the output vector out = Σ_j w_j v_j, element by element, as
// stacked contributions c_j = w_j v_j; the highlighted candidate's share stands out.
#include <algorithm>
#include <cmath>

#include "app_model.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

// Colour slot of each candidate in the output bars: with at most kSeriesColours candidates each
// has its own colour; with more, the kSeriesColours - 1 highest weights keep theirs and the rest
// share one neutral "other" colour (slot -1), so the legend never names two tokens with one colour.
std::vector<int> colour_slots(const Derived& d) {
    const int n = static_cast<int>(d.focus.weights.size());
    std::vector<int> slot(static_cast<std::size_t>(n), -1);
    if (n <= kSeriesColours) {
        for (int j = 0; j < n; ++j) slot[static_cast<std::size_t>(j)] = j;
        return slot;
    }
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) order[static_cast<std::size_t>(j)] = j;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return d.focus.weights[static_cast<std::size_t>(a)] >
               d.focus.weights[static_cast<std::size_t>(b)];
    });
    for (int k = 0; k < kSeriesColours - 1; ++k)
        slot[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;
    return slot;
}

ImVec4 slot_colour(const AppState& s, const Palette& p, int slot) {
    return slot >= 0 ? candidate_colour(s, slot) : mix(p.masked, p.muted, 0.35f);
}

// out_i as stacked contributions c_ij = w_j v_ij, positive right of zero, negative left.
void StackedBars(const AppState& s, const Derived& d, const Palette& p, float W,
                 const std::vector<int>& slots) {
    const attn::FocusResult& r = d.focus;
    const std::optional<Position> hl = highlighted(s);
    double extent = 1e-9;  // geometry only: the widest positive / negative stack sets the scale
    for (int i = 0; i < r.d; ++i) {
        double pos = 0, neg = 0;
        for (const attn::Vector& c : r.contributions) (c[i] >= 0 ? pos : neg) += c[i];
        extent = std::max({extent, pos, -neg});
    }
    const float row_h = 22.0f, label_w = 34.0f, num_w = 56.0f;
    const float bw = std::max(60.0f, W - label_w - num_w);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float zero = o.x + label_w + bw * 0.5f;
    dl->AddLine(ImVec2(zero, o.y), ImVec2(zero, o.y + r.d * row_h), rgba(p.border));
    for (int i = 0; i < r.d; ++i) {
        const float y = o.y + i * row_h;
        const std::string lab = "o" + std::to_string(i + 1);
        dl->AddText(font(FontRole::Small), kSmallPx, ImVec2(o.x, y + 4), rgba(p.muted),
                    lab.c_str());
        float right = zero, left = zero;
        for (std::size_t j = 0; j < r.contributions.size(); ++j) {
            const double c = r.contributions[j][static_cast<std::size_t>(i)];
            const float len = static_cast<float>(std::fabs(c) / extent) * bw * 0.5f;
            if (len < 0.2f) continue;
            const bool is_hl = d.positions[j] == hl;
            const float a = !hl ? 0.8f : (is_hl ? 1.0f : 0.22f);
            const float x0 = c >= 0 ? right : left - len, x1 = c >= 0 ? right + len : left;
            (c >= 0 ? right : left) = c >= 0 ? x1 : x0;
            dl->AddRectFilled(ImVec2(x0, y + 3), ImVec2(x1, y + row_h - 3),
                              rgba(slot_colour(s, p, slots[j]), a), 2);
        }
        dl->AddText(font(FontRole::Strong), kBodyPx, ImVec2(o.x + label_w + bw + 8, y + 2),
                    rgba(p.output), format_number(r.output[static_cast<std::size_t>(i)]).c_str());
    }
    ImGui::Dummy(ImVec2(W, r.d * row_h + 4));
}

// One legend entry: a swatch and a label; a hover / focus / tap target when it names one token.
void LegendEntry(const AppState& s, const Palette& p, const std::string& label, int slot,
                 std::optional<Position> pos, float W, float& x, Edits& e) {
    const float w = ImGui::CalcTextSize(label.c_str()).x + 22;
    if (x > 0 && x + w < W)
        ImGui::SameLine(0, 4);
    else
        x = 0;
    const ImVec2 a = ImGui::GetCursorScreenPos();
    ImGui::PushID(label.c_str());
    bool clicked = false;
    const bool hit = CandidateHit("##legend", ImVec2(w, 22), &clicked);
    ImGui::PopID();
    if (hit && pos) e.hover = HoverReport{pos};
    if (clicked && pos) e.pinned = *pos;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(a.x + 2, a.y + 6), ImVec2(a.x + 12, a.y + 16),
                      rgba(slot_colour(s, p, slot)), 2);
    dl->AddText(ImVec2(a.x + 17, a.y + 3), rgba(pos && highlighted(s) == pos ? p.ink : p.muted),
                label.c_str());
    x += w + 4;
}

void Legend(const AppState& s, const Derived& d, const Palette& p, float W,
            const std::vector<int>& slots, Edits& e) {
    float x = 0;
    int others = 0;
    for (int k = 0; k < kSeriesColours; ++k)
        for (std::size_t j = 0; j < slots.size(); ++j)
            if (slots[j] == k) LegendEntry(s, p, d.candidate_tokens[j], k, d.positions[j], W, x, e);
    for (int v : slots) others += v < 0 ? 1 : 0;
    if (others > 0)
        LegendEntry(s, p, std::to_string(others) + " other candidates", -1, std::nullopt, W, x, e);
}

}  // namespace

Edits ShowOutputPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##output", p);
    const float W = card.inner;
    const attn::FocusResult& r = d.focus;
    const std::optional<Position> hl = highlighted(s);
    const std::string focus_token = focus_label(s.scenario);
    ImGui::PushStyleColor(ImGuiCol_Text, p.output);
    Strong("Output for “" + focus_token + "” = Σ weight × value");
    ImGui::PopStyleColor();
    Caption(t.output_note, p);
    const std::vector<int> slots = colour_slots(d);
    StackedBars(s, d, p, W, slots);
    Legend(s, d, p, W, slots, e);
    if (!e.hover) e.hover = HoverReport{};
    for (std::size_t j = 0; j < d.positions.size(); ++j) {
        if (d.positions[j] != hl) continue;
        std::string line = "“" + d.candidate_tokens[j] + "” adds  " +
                           format_number(r.weights[j], 2) + " × v  =  [";
        for (std::size_t i = 0; i < r.contributions[j].size(); ++i)
            line += (i ? ", " : "") + format_number(r.contributions[j][i]);
        Paragraph(line + "]");
    }
    if (r.status == attn::RowStatus::AllMasked) {
        ImGui::PushStyleColor(ImGuiCol_Text, p.error);
        Paragraph(t.all_masked_note);
        ImGui::PopStyleColor();
    }
    EndCard(card);
    return e;
}

}  // namespace app
