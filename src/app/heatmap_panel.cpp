// heatmap_panel.cpp - ShowHeatmapPanel: the full attention matrix of every head (rows = queries,
// columns = keys). Each map is one texture (one texel per cell, uploaded by the platform when the
// weights change) drawn as one quad; causally masked cells are neutral and hatched on top. With
// several heads, a strip of small multiples picks the head drawn large. Each row of the large map
// is a focusable item: pointer or arrow keys pick a cell, its tooltip shows the engine's score and
// weight.
#include <algorithm>
#include <cmath>
#include <string>

#include "app_model.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

// Smallest step from `steps` so that `step * cell` is at least `need` pixels.
int label_step(float cell, float need) {
    const int steps[] = {1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 50, 64, 100, 128};
    for (int k : steps)
        if (k * cell >= need) return k;
    return 128;
}

struct MapGeom {
    ImVec2 lo;   // top-left of the cells
    float size;  // side of the square
    int n;       // tokens
    float cell() const { return size / n; }
};

// The cells of head `hr`: one textured quad (one texel per cell, masked cells neutral), then
// the hatching of the masked half on top.
void DrawCells(ImDrawList* dl, const MapGeom& g, int head, const attn::HeadResult& hr, bool causal,
               const Palette& p, Theme theme) {
    const float c = g.cell();
    const ImVec2 lo = g.lo;
    const ImU32 masked_fill = rgba(mix(p.surface_alt, p.masked, 0.18f));
    if (ImTextureID tex = HeatmapTexture(head, hr.weights, causal, theme, masked_fill))
        dl->AddImage(tex, lo, ImVec2(lo.x + g.size, lo.y + g.size));
    if (causal && g.n > 1) {
        // Lines x - y = off with off >= one cell lie wholly inside cells with j > i.
        const float gap = std::max(5.0f, std::min(8.0f, g.size / 24.0f));
        const ImU32 hatch = rgba(p.masked, theme == Theme::Dark ? 0.55f : 0.5f);
        for (float off = std::ceil(c / gap) * gap; off < g.size; off += gap)
            dl->AddLine(ImVec2(lo.x + off, lo.y), ImVec2(lo.x + g.size, lo.y + g.size - off), hatch,
                        1.0f);
    }
}

}  // namespace

Edits ShowHeatmapPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##heatmap", p);
    const float W = card.inner;
    const attn::Scenario& sent = d.sentence;
    const int n = static_cast<int>(sent.tokens.size());
    const int heads = static_cast<int>(d.sequence.heads.size());
    const bool causal = sent.options.causal;

    Strong("Attention weights for the whole sentence");
    Caption(t.heatmap_note, p);
    if (!d.sequence_ok || n == 0 || heads == 0) {
        EndCard(card);
        return e;
    }
    const int shown = std::clamp(s.shown_head, 0, heads - 1);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* small = font(FontRole::Small);
    ImFont* strong = font(FontRole::Strong);
    const float fs = ImGui::GetFontSize() * kSmallPx / kBodyPx;  // small text, in pixels
    const auto text_w = [&](const std::string& txt) {
        return small->CalcTextSizeA(fs, 1e9f, 0.0f, txt.c_str()).x;
    };
    const auto token = [&](int i) -> const std::string& {
        return sent.tokens[static_cast<std::size_t>(i)];
    };

    // Small multiples: every head, the one drawn large outlined; a click or Enter picks it.
    if (heads > 1) {
        ImGui::Dummy(ImVec2(1, 2));
        const float gap = 12.0f;
        const float mini = std::min((W - gap * (heads - 1)) / heads, 150.0f);
        const float title_h = fs + 6;
        const ImVec2 o = ImGui::GetCursorScreenPos();
        for (int h = 0; h < heads; ++h) {
            const bool on = h == shown;
            const MapGeom g{ImVec2(o.x + h * (mini + gap), o.y + title_h), mini, n};
            const std::string title = "Head " + std::to_string(h + 1) + (on ? "  · shown" : "");
            dl->AddText(on ? strong : small, fs, ImVec2(g.lo.x, o.y), rgba(on ? p.accent : p.muted),
                        title.c_str());
            DrawCells(dl, g, h, d.sequence.heads[static_cast<std::size_t>(h)], causal, p, s.theme);
            const ImVec2 hi(g.lo.x + mini, g.lo.y + mini);
            if (on)
                dl->AddRect(ImVec2(g.lo.x - 3, g.lo.y - 3), ImVec2(hi.x + 3, hi.y + 3),
                            rgba(p.accent), 4.0f, 0, 2.0f);
            else
                dl->AddRect(g.lo, hi, rgba(p.border));
            ImGui::SetCursorScreenPos(ImVec2(g.lo.x - 3, o.y));
            ImGui::PushID(h);
            bool pick = false;
            if (CandidateHit("##mini", ImVec2(mini + 6, title_h + mini + 3), &pick) && !on) {
                ImGui::BeginTooltip();
                ImGui::Text("Head %d: click or press Enter to draw it large.", h + 1);
                ImGui::EndTooltip();
            }
            if (pick) e.shown_head = h;
            ImGui::PopID();
        }
        ImGui::SetCursorScreenPos(o);
        ImGui::Dummy(ImVec2(W, title_h + mini + 6));
        Caption(t.heads_note, p);
        ImGui::Dummy(ImVec2(1, 2));
    }

    // Geometry of the large map: row labels (position + token) on the left, token labels above
    // the columns, position numbers below.
    const bool narrow = W < 480;
    const float num_w = text_w(std::to_string(n)) + 2;
    float tok_w = 0;
    for (const std::string& tok : sent.tokens) tok_w = std::max(tok_w, text_w(tok));
    tok_w = std::min(tok_w, narrow ? 58.0f : 96.0f);
    const float label_w = num_w + 6 + tok_w + 8;
    const float cap = n > 24 ? 720.0f : 560.0f;
    const float size = std::max(40.0f, std::min({W - label_w, cap, n * 44.0f}));
    const float c = size / n;
    const float band = fs + 6;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const MapGeom g{ImVec2(o.x + label_w, o.y + band), size, n};
    const attn::HeadResult& hr = d.sequence.heads[static_cast<std::size_t>(shown)];
    if (heads > 1) {
        dl->AddText(strong, fs, o, rgba(p.accent),
                    ("Head " + std::to_string(shown + 1) + " of " + std::to_string(heads)).c_str());
    }
    DrawCells(dl, g, shown, hr, causal, p, s.theme);

    // Numbers in every allowed cell when they fit, in none otherwise.
    const float num_need = text_w("0.00") + 6;
    if (c >= num_need && c >= fs + 6) {
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n && !(causal && j > i); ++j) {
                const double w = hr.weights.at(i, j);
                const ImVec4 bg = weight_colour(s.theme, static_cast<float>(w));
                const ImVec2 a(g.lo.x + j * c, g.lo.y + i * c);
                CentredText(dl, a, ImVec2(a.x + c, a.y + c), rgba(readable_on(p, bg)),
                            format_number(w, 2), small);
            }
    }
    dl->AddRect(ImVec2(g.lo.x - 0.5f, g.lo.y - 0.5f),
                ImVec2(g.lo.x + size + 0.5f, g.lo.y + size + 0.5f), rgba(p.border));

    // One focusable item per row: Up / Down move between rows, Left / Right pick the column.
    const ImGuiID col_key = ImGui::GetID("##kbcol");
    ImGuiStorage* store = ImGui::GetStateStorage();
    int hit_row = -1, hit_col = -1;
    bool hit_click = false;
    for (int i = 0; i < n; ++i) {
        ImGui::SetCursorScreenPos(ImVec2(g.lo.x, g.lo.y + i * c));
        ImGui::PushID(i);
        bool clicked = false;
        const bool active = CandidateHit("##row", ImVec2(size, std::max(1.0f, c)), &clicked);
        const bool mouse = ImGui::IsItemHovered();
        const bool focused = ImGui::IsItemFocused();
        ImGui::PopID();
        if (!active) continue;
        int col = std::clamp(store->GetInt(col_key, i), 0, n - 1);
        if (mouse) {
            col = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - g.lo.x) / c), 0, n - 1);
        } else if (focused) {
            if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
                col = std::max(0, col - 1);
            if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
                col = std::min(n - 1, col + 1);
            if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) col = 0;
            if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) col = n - 1;
        }
        store->SetInt(col_key, col);
        if (mouse || hit_row < 0) {  // the pointer wins over the keyboard
            hit_row = i;
            hit_col = col;
        }
        hit_click = hit_click || clicked;
    }

    // Focus row, then the cell under the pointer / keyboard.
    const int focus = std::clamp(sent.focus, 0, n - 1);
    dl->AddRect(ImVec2(g.lo.x - 1.5f, g.lo.y + focus * c - 1.5f),
                ImVec2(g.lo.x + size + 1.5f, g.lo.y + (focus + 1) * c + 1.5f), rgba(p.highlight), 0,
                0, 2.0f);
    if (hit_row >= 0) {
        const ImVec2 a(g.lo.x + hit_col * c, g.lo.y + hit_row * c);
        dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + c + 1, a.y + c + 1), rgba(p.ink), 0, 0,
                    2.0f);
    }

    // Row labels: every row when they fit, else every k-th, always the focus row.
    const int kr = label_step(c, fs + 1);
    for (int i = 0; i < n; ++i) {
        const bool is_focus = i == focus, is_hit = i == hit_row;
        if (!is_focus && !is_hit &&
            (i % kr != 0 || std::fabs(static_cast<float>(i - focus)) * c < fs + 1 ||
             (hit_row >= 0 && std::fabs(static_cast<float>(i - hit_row)) * c < fs + 1)))
            continue;
        const float y = g.lo.y + (i + 0.5f) * c - fs * 0.5f;
        const std::string num = std::to_string(i + 1);
        dl->AddText(small, fs, ImVec2(o.x + num_w - text_w(num), y), rgba(p.muted), num.c_str());
        dl->AddText(is_focus || is_hit ? strong : small, fs, ImVec2(o.x + num_w + 6, y),
                    rgba(is_focus ? p.accent : p.ink),
                    Ellipsize(small, fs, token(i), tok_w).c_str());
    }
    // Column labels: tokens above (every k-th when narrow), positions below.
    const float tok_need = std::min(34.0f, tok_w);
    const int kt = label_step(c, tok_need);
    for (int j = 0; j < n; j += kt) {
        if (hit_col >= 0 && j != hit_col &&
            std::fabs(static_cast<float>(j - hit_col)) * c < tok_need)
            continue;
        const std::string lab = Ellipsize(small, fs, token(j), kt * c - 4);
        const float x = g.lo.x + (j + 0.5f) * c - text_w(lab) * 0.5f;
        dl->AddText(j == hit_col ? strong : small, fs,
                    ImVec2(std::max(g.lo.x - 2, x), g.lo.y - band + 1),
                    rgba(j == focus ? p.accent : p.ink), lab.c_str());
    }
    if (hit_col >= 0 && hit_col % kt != 0) {  // the hovered column's label, over the gap
        const std::string lab = Ellipsize(small, fs, token(hit_col), std::max(tok_need, c) - 4);
        const float x = g.lo.x + (hit_col + 0.5f) * c - text_w(lab) * 0.5f;
        dl->AddText(strong, fs, ImVec2(x, g.lo.y - band + 1), rgba(p.ink), lab.c_str());
    }
    const int kn = label_step(c, num_w + 6);
    for (int j = 0; j < n; j += kn) {
        const std::string num = std::to_string(j + 1);
        const float x = g.lo.x + (j + 0.5f) * c - text_w(num) * 0.5f;
        dl->AddText(small, fs, ImVec2(x, g.lo.y + size + 3), rgba(p.muted), num.c_str());
    }
    ImGui::SetCursorScreenPos(o);
    ImGui::Dummy(ImVec2(label_w + size, band + size + band));

    if (hit_row >= 0) {
        const bool masked = causal && hit_col > hit_row;
        ImGui::BeginTooltip();
        if (heads > 1) Caption("Head " + std::to_string(shown + 1), p);
        ImGui::Text("query “%s” (row %d) → key “%s” (col %d)", token(hit_row).c_str(), hit_row + 1,
                    token(hit_col).c_str(), hit_col + 1);
        const std::string score = format_number(hr.scores.at(hit_row, hit_col), 2);
        if (masked) {
            ImGui::Text("weight masked (0), score %s", score.c_str());
            Caption("The causal mask hides later tokens from this query.", p);
        } else {
            ImGui::Text("weight %s, score %s",
                        format_number(hr.weights.at(hit_row, hit_col), 2).c_str(), score.c_str());
        }
        Caption("Click or press Enter to make row " + std::to_string(hit_row + 1) + " the focus.",
                p);
        ImGui::EndTooltip();
        if (hit_click) {
            e.scenario_id = t.sentence_scenario_id;
            e.focus = hit_row;
        }
    }

    // Key: the colour ramp, the masked hatch, the focus row.
    ImGui::Dummy(ImVec2(1, 2));
    const ImVec2 k = ImGui::GetCursorScreenPos();
    const float ramp_w = std::min(180.0f, W * 0.4f);
    const float lab0 = text_w("weight 0") + 6;
    dl->AddText(small, fs, ImVec2(k.x, k.y + 1), rgba(p.muted), "weight 0");
    for (int i = 0; i < 48; ++i) {
        const float a = i / 48.0f, b = (i + 1) / 48.0f;
        dl->AddRectFilled(ImVec2(k.x + lab0 + a * ramp_w, k.y + 3),
                          ImVec2(k.x + lab0 + b * ramp_w + 0.5f, k.y + 3 + fs - 2),
                          rgba(weight_colour(s.theme, (a + b) * 0.5f)));
    }
    dl->AddRect(ImVec2(k.x + lab0, k.y + 3), ImVec2(k.x + lab0 + ramp_w, k.y + 1 + fs),
                rgba(p.border));
    float x = k.x + lab0 + ramp_w + 6;
    dl->AddText(small, fs, ImVec2(x, k.y + 1), rgba(p.muted), "1");
    x += text_w("1") + 18;
    const float row2 = (x + 150 > k.x + W) ? fs + 8 : 0.0f;  // wrap the other keys when narrow
    if (row2 > 0) x = k.x;
    const float ky = k.y + row2;
    if (causal) {
        const ImVec2 a(x, ky + 2), b(x + fs + 4, ky + fs);
        dl->AddRectFilled(a, b, rgba(mix(p.surface_alt, p.masked, 0.18f)));
        for (float off = 0; off < b.x - a.x; off += 4)
            dl->AddLine(ImVec2(a.x + off, a.y),
                        ImVec2(std::min(b.x, a.x + off + (b.y - a.y)),
                               a.y + std::min(b.y - a.y, b.x - a.x - off)),
                        rgba(p.masked, 0.7f));
        dl->AddRect(a, b, rgba(p.border));
        dl->AddText(small, fs, ImVec2(b.x + 6, ky + 1), rgba(p.muted), "masked (causal)");
        x = b.x + 6 + text_w("masked (causal)") + 18;
    }
    dl->AddRect(ImVec2(x, ky + 3), ImVec2(x + fs + 4, ky + fs - 1), rgba(p.highlight), 0, 0, 2.0f);
    dl->AddText(small, fs, ImVec2(x + fs + 10, ky + 1), rgba(p.muted), "focus row");
    ImGui::Dummy(ImVec2(W, row2 + fs + 4));
    EndCard(card);
    return e;
}

}  // namespace app
