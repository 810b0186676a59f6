// output_panel.cpp - ShowOutputPanel: the output vector out = Σ_j w_j v_j, element by element, as
// stacked contributions c_j = w_j v_j; the highlighted candidate's share stands out.
#include <algorithm>
#include <cmath>

#include "app_model.h"
#include "views.h"
#include "widgets.h"

namespace app {

Edits ShowOutputPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##output", p);
    const float W = card.inner;
    const attn::FocusResult& r = d.focus;
    const std::optional<Position> hl = highlighted(s);
    const std::string focus_token =
        s.scenario.focus >= 0 && s.scenario.focus < static_cast<int>(s.scenario.tokens.size())
            ? s.scenario.tokens[static_cast<std::size_t>(s.scenario.focus)]
            : "focus";

    ImGui::PushStyleColor(ImGuiCol_Text, p.output);
    Strong("Output for “" + focus_token + "” = Σ weight × value");
    ImGui::PopStyleColor();
    Caption(t.output_note, p);

    // Geometry only: the widest positive / negative stack sets the scale.
    double extent = 1e-9;
    for (int i = 0; i < r.d; ++i) {
        double pos = 0, neg = 0;
        for (const attn::Vector& c : r.contributions) (c[i] >= 0 ? pos : neg) += c[i];
        extent = std::max({extent, pos, -neg});
    }
    const float row_h = 20.0f, label_w = 34.0f, num_w = 56.0f;
    const float bw = std::max(60.0f, W - label_w - num_w);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float zero = o.x + label_w + bw * 0.5f;
    ImFont* small = font(FontRole::Small);
    ImFont* strong = font(FontRole::Strong);
    const float fs = ImGui::GetFontSize();
    dl->AddLine(ImVec2(zero, o.y), ImVec2(zero, o.y + r.d * row_h), rgba(p.border));
    for (int i = 0; i < r.d; ++i) {
        const float y = o.y + i * row_h;
        const std::string lab = "o" + std::to_string(i + 1);
        dl->AddText(small, fs * kSmallPx / kBodyPx, ImVec2(o.x, y + 3), rgba(p.muted), lab.c_str());
        float right = zero, left = zero;
        for (std::size_t j = 0; j < r.contributions.size(); ++j) {
            const double c = r.contributions[j][static_cast<std::size_t>(i)];
            const float len = static_cast<float>(std::fabs(c) / extent) * bw * 0.5f;
            if (len < 0.2f) continue;
            const bool is_hl = d.positions[j] == hl;
            const ImVec4 col = candidate_colour(s, static_cast<int>(j));
            const float a = !hl ? 0.8f : (is_hl ? 1.0f : 0.22f);
            float x0, x1;
            if (c >= 0) {
                x0 = right;
                x1 = right + len;
                right = x1;
            } else {
                x1 = left;
                x0 = left - len;
                left = x0;
            }
            dl->AddRectFilled(ImVec2(x0, y + 3), ImVec2(x1, y + row_h - 3), rgba(col, a), 2);
        }
        const std::string num = format_number(r.output[static_cast<std::size_t>(i)]);
        dl->AddText(strong, fs, ImVec2(o.x + label_w + bw + 8, y + 1), rgba(p.output), num.c_str());
    }
    ImGui::Dummy(ImVec2(W, r.d * row_h + 4));

    // Legend: one swatch per candidate (also a hover / focus target).
    float x = 0;
    for (std::size_t j = 0; j < r.contributions.size() && j < 12; ++j) {
        const std::string& tok = d.candidate_tokens[j];
        const float w = ImGui::CalcTextSize(tok.c_str()).x + 22;
        if (j > 0 && x + w < W)
            ImGui::SameLine(0, 4);
        else if (j > 0)
            x = 0;
        const ImVec2 a = ImGui::GetCursorScreenPos();
        ImGui::PushID(static_cast<int>(j));
        bool clicked = false;
        const bool hit = CandidateHit("##legend", ImVec2(w, 20), &clicked);
        ImGui::PopID();
        if (hit) e.hover = HoverReport{d.positions[j]};
        if (clicked) e.pinned = d.positions[j];
        dl->AddRectFilled(ImVec2(a.x + 2, a.y + 5), ImVec2(a.x + 12, a.y + 15),
                          rgba(candidate_colour(s, static_cast<int>(j))), 2);
        dl->AddText(ImVec2(a.x + 17, a.y + 2), rgba(d.positions[j] == hl ? p.ink : p.muted),
                    tok.c_str());
        x += w + 4;
    }
    if (r.contributions.size() > 12) Caption("(legend shows the first 12 candidates)", p);
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
