// heatmap_panel.cpp - ShowHeatmapPanel: the full attention matrix of every head (rows = queries,
// columns = keys), drawn as rectangles in one draw list (one batch), fine at 128 x 128.
#include <algorithm>
#include <cmath>

#include "app_model.h"
#include "views.h"
#include "widgets.h"

namespace app {

Edits ShowHeatmapPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##heatmap", p);
    const float W = card.inner;
    const attn::Scenario& sent = d.sentence;
    const int n = static_cast<int>(sent.tokens.size());
    const int heads = static_cast<int>(d.sequence.heads.size());

    Strong("Attention weights for the whole sentence");
    Caption(t.heatmap_note, p);
    if (!d.sequence_ok || n == 0 || heads == 0) {
        EndCard(card);
        return e;
    }
    // Large map for the chosen head; the others as small multiples beside it.
    if (heads > 1) {
        const char* labels[] = {"Head 1", "Head 2", "Head 3", "Head 4"};
        const int pick = Segmented("##head", labels, heads, s.shown_head, p, W);
        if (pick >= 0) e.shown_head = pick;
    }
    ImFont* small = font(FontRole::Small);
    const float fs_small = ImGui::GetFontSize() * kSmallPx / kBodyPx;
    float label_w = 0;
    for (const std::string& tok : sent.tokens)
        label_w = std::max(label_w, small->CalcTextSizeA(fs_small, 1e9f, 0, tok.c_str()).x + 6);
    const bool wide = W >= 700 && heads > 1;
    const float big = std::min({wide ? W * 0.66f : W, 560.0f, label_w + n * 44.0f});
    const float cell0 = (big - label_w) / n;
    const bool labels = cell0 >= 10.0f;
    const float size = labels ? big - label_w : big;
    const float cell = size / n;

    auto draw_map = [&](int h, ImVec2 o, float sz, bool with_labels) -> std::pair<int, int> {
        const attn::HeadResult& hr = d.sequence.heads[static_cast<std::size_t>(h)];
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const float c = sz / n;
        const ImVec2 lo(o.x + (with_labels ? label_w : 0), o.y);
        dl->AddRectFilled(lo, ImVec2(lo.x + sz, lo.y + sz), rgba(p.surface));
        for (int i = 0; i < n; ++i) {
            const float y0 = lo.y + i * c;
            for (int j = 0; j < n; ++j) {
                if (sent.options.causal &&
                    j > i) {  // masked: one rectangle for the rest of the row
                    dl->AddRectFilled(ImVec2(lo.x + j * c, y0), ImVec2(lo.x + sz, y0 + c),
                                      rgba(mix(p.surface_alt, p.masked, 0.35f)));
                    break;
                }
                const float w = static_cast<float>(hr.weights.at(i, j));
                if (w < 0.004f) continue;  // indistinguishable from the background
                const float tone = std::pow(std::clamp(w, 0.0f, 1.0f), 0.6f);
                dl->AddRectFilled(ImVec2(lo.x + j * c, y0), ImVec2(lo.x + (j + 1) * c, y0 + c),
                                  rgba(mix(p.surface, p.accent, tone)));
                if (c >= 34.0f)  // room for the engine's number in the cell
                    CentredText(dl, ImVec2(lo.x + j * c, y0), ImVec2(lo.x + (j + 1) * c, y0 + c),
                                rgba(tone > 0.55f ? p.surface : p.ink, 0.85f), format_number(w, 2),
                                small);
            }
            if (with_labels)
                dl->AddText(small, fs_small, ImVec2(o.x, y0 + (c - fs_small) * 0.5f),
                            rgba(i == sent.focus ? p.accent : p.muted),
                            sent.tokens[static_cast<std::size_t>(i)].c_str());
        }
        // the focus row
        dl->AddRect(ImVec2(lo.x - 1, lo.y + sent.focus * c - 1),
                    ImVec2(lo.x + sz + 1, lo.y + (sent.focus + 1) * c + 1), rgba(p.highlight), 0, 0,
                    2);
        dl->AddRect(lo, ImVec2(lo.x + sz, lo.y + sz), rgba(p.border));
        // hover: which cell
        const ImVec2 m = ImGui::GetIO().MousePos;
        if (ImGui::IsWindowHovered() && m.x >= lo.x && m.x < lo.x + sz && m.y >= lo.y &&
            m.y < lo.y + sz)
            return {std::clamp(static_cast<int>((m.y - lo.y) / c), 0, n - 1),
                    std::clamp(static_cast<int>((m.x - lo.x) / c), 0, n - 1)};
        return {-1, -1};
    };

    const int shown = std::clamp(s.shown_head, 0, heads - 1);
    ImGui::BeginGroup();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const auto cellhit = draw_map(shown, o, size, labels);
    ImGui::PushID("map");
    bool clicked = false;
    ImGui::SetCursorScreenPos(ImVec2(o.x + (labels ? label_w : 0), o.y));
    CandidateHit("##map", ImVec2(size, size), &clicked);
    ImGui::PopID();
    ImGui::EndGroup();
    if (cellhit.first >= 0) {
        const attn::HeadResult& hr = d.sequence.heads[static_cast<std::size_t>(shown)];
        const int i = cellhit.first, j = cellhit.second;
        const bool masked = sent.options.causal && j > i;
        ImGui::BeginTooltip();
        ImGui::Text("Head %d:  “%s” (query) → “%s” (key)", shown + 1,
                    sent.tokens[static_cast<std::size_t>(i)].c_str(),
                    sent.tokens[static_cast<std::size_t>(j)].c_str());
        ImGui::Text("score %s   weight %s", format_number(hr.scores.at(i, j)).c_str(),
                    masked ? "0 (masked)" : format_number(hr.weights.at(i, j), 3).c_str());
        Caption("Click to make this row the focus.", p);
        ImGui::EndTooltip();
        if (clicked) {
            e.scenario_id = "sentence";
            e.focus = i;
        }
    }
    // small multiples of the other heads
    if (heads > 1) {
        const float small_sz =
            wide ? std::min((W - big - 16), (big - 8 * (heads - 2)) / std::max(1, heads - 1))
                 : std::min((W - 8 * (heads - 1)) / heads, 160.0f);
        if (wide) ImGui::SameLine(0, 16);
        ImGui::BeginGroup();
        for (int h = 0; h < heads; ++h) {
            if (h == shown) continue;
            ImGui::PushFont(small);
            ImGui::Text("Head %d", h + 1);
            ImGui::PopFont();
            const ImVec2 so = ImGui::GetCursorScreenPos();
            draw_map(h, so, small_sz, false);
            ImGui::PushID(h);
            bool pick = false;
            CandidateHit("##mini", ImVec2(small_sz, small_sz), &pick);
            if (pick) e.shown_head = h;
            ImGui::PopID();
            if (!wide && h + 1 < heads) ImGui::SameLine(0, 8);
        }
        ImGui::EndGroup();
        Caption(t.heads_note, p);
    }
    // colour key
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 k = ImGui::GetCursorScreenPos();
    const float kw = std::min(200.0f, W * 0.5f);
    for (int i = 0; i < 40; ++i) {
        const float a = i / 40.0f, b = (i + 1) / 40.0f;
        dl->AddRectFilled(ImVec2(k.x + 62 + a * kw, k.y + 4),
                          ImVec2(k.x + 62 + b * kw + 0.5f, k.y + 14),
                          rgba(mix(p.surface, p.accent, std::pow(a, 0.6f))));
    }
    dl->AddText(small, fs_small, ImVec2(k.x, k.y + 2), rgba(p.muted), "weight 0");
    dl->AddText(small, fs_small, ImVec2(k.x + 68 + kw, k.y + 2), rgba(p.muted), "1");
    ImGui::Dummy(ImVec2(W, 20));
    (void)cell;
    EndCard(card);
    return e;
}

}  // namespace app
