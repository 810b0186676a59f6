// heatmap_panel.cpp - ShowHeatmapPanel: the full attention matrix of every head (rows = queries,
// columns = keys). Each map is one texture (one texel per cell in the log colour scale, uploaded by
// the platform when the weights change) drawn as one quad; causally masked cells are neutral and
// hatched on top. With several heads, a strip of small multiples picks the head drawn large. Each
// row of the large map is a focusable item: pointer or arrow keys pick a cell, its tooltip shows
// the engine's score and weight; the focus row's strongest weights follow as bars (row inspector).
#include <algorithm>
#include <cmath>
#include <string>

#include "app_model.h"
#include "metrics.h"
#include "views.h"
#include "widgets.h"

namespace app {

ImU32 MaskedFill(const Palette& p) { return rgba(mix(p.surface_alt, p.masked, 0.18f)); }

void MaskedHatch(ImDrawList* dl, ImVec2 lo, float size, int n, const Palette& p, Theme theme) {
    if (n < 2) return;
    // Lines x - y = off with off >= one cell lie wholly inside cells with j > i.
    const float c = size / static_cast<float>(n);
    const float gap = std::max(5.0f, std::min(8.0f, size / 24.0f));
    const ImU32 hatch = rgba(p.masked, theme == Theme::Dark ? 0.55f : 0.5f);
    for (float off = std::ceil(c / gap) * gap; off < size; off += gap)
        dl->AddLine(ImVec2(lo.x + off, lo.y), ImVec2(lo.x + size, lo.y + size - off), hatch, 1.0f);
}

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
    if (ImTextureID tex = HeatmapTexture(head, hr.weights, causal, theme, MaskedFill(p)))
        dl->AddImage(tex, g.lo, ImVec2(g.lo.x + g.size, g.lo.y + g.size));
    if (causal) MaskedHatch(dl, g.lo, g.size, g.n, p, theme);
}

// What every part of the panel shares: the sentence, the fonts, the small text size.
struct Heat {
    const AppState& s;
    const Derived& d;
    const Palette& p;
    ImDrawList* dl;
    ImFont* small;
    ImFont* strong;
    float fs;  // small text, CSS pixels
    int n, heads, shown;
    bool causal;
    HeatScale scale;  // the map's colour scale (n tokens)
    float text_w(const std::string& txt) const {
        return small->CalcTextSizeA(fs, 1e9f, 0.0f, txt.c_str()).x;
    }
    const std::string& token(int i) const { return d.sentence.tokens[static_cast<std::size_t>(i)]; }
    const attn::HeadResult& head(int h) const {
        return d.sequence.heads[static_cast<std::size_t>(h)];
    }
};

// The large map's geometry: row labels (position + token) left, token labels above the columns,
// position numbers below.
struct BigMap {
    ImVec2 o;  // top-left of the whole block
    MapGeom g;
    float num_w, tok_w, label_w, band;
};

// Which cell the pointer or the keyboard is on (row -1: none).
struct Hit {
    int row = -1, col = -1;
    bool clicked = false;
};

// Small multiples: every head, the one drawn large outlined; a click or Enter picks it.
void HeadStrip(const Heat& h, float W, const UiText& t, Edits& e) {
    ImGui::Dummy(ImVec2(1, 2));
    const float gap = 12.0f;
    const float mini =
        std::min((W - gap * static_cast<float>(h.heads - 1)) / h.heads, metrics::kHeatmapMiniMax);
    const float title_h = h.fs + 6;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    for (int k = 0; k < h.heads; ++k) {
        const bool on = k == h.shown;
        const MapGeom g{ImVec2(o.x + k * (mini + gap), o.y + title_h), mini, h.n};
        const std::string title = "Head " + std::to_string(k + 1) + (on ? " · large" : "");
        h.dl->AddText(on ? h.strong : h.small, h.fs, ImVec2(g.lo.x, o.y),
                      rgba(on ? h.p.accent : h.p.muted),
                      Ellipsize(on ? h.strong : h.small, h.fs, title, mini).c_str());
        DrawCells(h.dl, g, k, h.head(k), h.causal, h.p, h.s.theme);
        const ImVec2 hi(g.lo.x + mini, g.lo.y + mini);
        if (on)
            h.dl->AddRect(ImVec2(g.lo.x - 3, g.lo.y - 3), ImVec2(hi.x + 3, hi.y + 3),
                          rgba(h.p.accent), 4.0f, 0, 2.0f);
        else
            h.dl->AddRect(g.lo, hi, rgba(h.p.border));
        ImGui::SetCursorScreenPos(ImVec2(g.lo.x - 3, o.y));
        ImGui::PushID(k);
        bool pick = false;
        if (CandidateHit("##mini", ImVec2(mini + 6, title_h + mini + 3), &pick) && !on) {
            ImGui::BeginTooltip();
            ImGui::Text("Head %d: tap, click or press Enter to draw it large.", k + 1);
            ImGui::EndTooltip();
        }
        if (pick) e.shown_head = k;
        ImGui::PopID();
    }
    ImGui::SetCursorScreenPos(o);
    ImGui::Dummy(ImVec2(W, title_h + mini + 6));
    Caption(t.heads_note, h.p);
    ImGui::Dummy(ImVec2(1, 2));
}

BigMap LayOutBigMap(const Heat& h, float W) {
    BigMap m;
    const bool narrow = W < metrics::kNarrowContent;
    m.num_w = h.text_w(std::to_string(h.n)) + 2;
    m.tok_w = 0;
    for (const std::string& tok : h.d.sentence.tokens) m.tok_w = std::max(m.tok_w, h.text_w(tok));
    m.tok_w = std::min(m.tok_w, narrow ? metrics::kHeatmapTokenNarrow : metrics::kHeatmapTokenWide);
    m.label_w = m.num_w + 6 + m.tok_w + 8;
    const float cap = h.n > 24 ? 720.0f : 560.0f;
    const float size = std::max(40.0f, std::min({W - m.label_w, cap, h.n * 44.0f}));
    m.band = h.fs + 6;
    m.o = ImGui::GetCursorScreenPos();
    m.g = MapGeom{ImVec2(m.o.x + m.label_w, m.o.y + m.band + (h.heads > 1 ? m.band : 0.0f)), size,
                  h.n};
    return m;
}

// Numbers in every allowed cell when they fit, in none otherwise.
void DrawCellNumbers(const Heat& h, const MapGeom& g, const attn::HeadResult& hr) {
    const float c = g.cell();
    if (c < h.text_w("0.00") + 6 || c < h.fs + 6) return;
    for (int i = 0; i < h.n; ++i)
        for (int j = 0; j < h.n && !(h.causal && j > i); ++j) {
            const double w = hr.weights.at(i, j);
            const ImVec4 bg = weight_colour(h.scale, static_cast<float>(w));
            const ImVec2 a(g.lo.x + j * c, g.lo.y + i * c);
            CentredText(h.dl, a, ImVec2(a.x + c, a.y + c), rgba(readable_on(h.p, bg)),
                        format_number(w, 2), h.small);
        }
}

// One focusable item per row: Up / Down move between rows, Left / Right pick the column.
Hit RowHits(const Heat& h, const MapGeom& g) {
    const float c = g.cell();
    const ImGuiID col_key = ImGui::GetID("##kbcol");
    ImGuiStorage* store = ImGui::GetStateStorage();
    Hit hit;
    for (int i = 0; i < h.n; ++i) {
        ImGui::SetCursorScreenPos(ImVec2(g.lo.x, g.lo.y + i * c));
        ImGui::PushID(i);
        bool clicked = false;
        const bool active = CandidateHit("##row", ImVec2(g.size, std::max(1.0f, c)), &clicked);
        const bool mouse = ImGui::IsItemHovered();
        const bool focused = ImGui::IsItemFocused();
        ImGui::PopID();
        if (!active) continue;
        int col = std::clamp(store->GetInt(col_key, i), 0, h.n - 1);
        if (mouse) {
            col =
                std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - g.lo.x) / c), 0, h.n - 1);
        } else if (focused) {
            if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
                col = std::max(0, col - 1);
            if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
                col = std::min(h.n - 1, col + 1);
            if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) col = 0;
            if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) col = h.n - 1;
        }
        store->SetInt(col_key, col);
        if (mouse || hit.row < 0) {  // the pointer wins over the keyboard
            hit.row = i;
            hit.col = col;
        }
        hit.clicked = hit.clicked || clicked;
    }
    return hit;
}

// Focus row, then the cell under the pointer / keyboard.
void DrawMarks(const Heat& h, const MapGeom& g, int focus, const Hit& hit) {
    const float c = g.cell();
    h.dl->AddRect(ImVec2(g.lo.x - 1.5f, g.lo.y + focus * c - 1.5f),
                  ImVec2(g.lo.x + g.size + 1.5f, g.lo.y + (focus + 1) * c + 1.5f),
                  rgba(h.p.highlight), 0, 0, 2.0f);
    if (hit.row < 0) return;
    const ImVec2 a(g.lo.x + hit.col * c, g.lo.y + hit.row * c);
    h.dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + c + 1, a.y + c + 1), rgba(h.p.ink), 0, 0,
                  2.0f);
}

// Row labels: every row when they fit, else every k-th, always the focus row.
void DrawRowLabels(const Heat& h, const BigMap& m, int focus, const Hit& hit) {
    const float c = m.g.cell(), fs = h.fs;
    const int kr = label_step(c, fs + 1);
    for (int i = 0; i < h.n; ++i) {
        const bool is_focus = i == focus, is_hit = i == hit.row;
        if (!is_focus && !is_hit &&
            (i % kr != 0 || std::fabs(static_cast<float>(i - focus)) * c < fs + 1 ||
             (hit.row >= 0 && std::fabs(static_cast<float>(i - hit.row)) * c < fs + 1)))
            continue;
        const float y = m.g.lo.y + (i + 0.5f) * c - fs * 0.5f;
        const std::string num = std::to_string(i + 1);
        h.dl->AddText(h.small, fs, ImVec2(m.o.x + m.num_w - h.text_w(num), y), rgba(h.p.muted),
                      num.c_str());
        h.dl->AddText(is_focus || is_hit ? h.strong : h.small, fs, ImVec2(m.o.x + m.num_w + 6, y),
                      rgba(is_focus ? h.p.accent : h.p.ink),
                      Ellipsize(h.small, fs, h.token(i), m.tok_w).c_str());
    }
}

// Column labels: tokens above (every k-th when narrow), positions below.
void DrawColumnLabels(const Heat& h, const BigMap& m, int focus, const Hit& hit) {
    const MapGeom& g = m.g;
    const float c = g.cell(), fs = h.fs;
    const float tok_need = std::min(34.0f, m.tok_w);
    const int kt = label_step(c, tok_need);
    for (int j = 0; j < h.n; j += kt) {
        if (hit.col >= 0 && j != hit.col &&
            std::fabs(static_cast<float>(j - hit.col)) * c < tok_need)
            continue;
        const std::string lab = Ellipsize(h.small, fs, h.token(j), kt * c - 4);
        const float x = g.lo.x + (j + 0.5f) * c - h.text_w(lab) * 0.5f;
        h.dl->AddText(j == hit.col ? h.strong : h.small, fs,
                      ImVec2(std::max(g.lo.x - 2, x), g.lo.y - m.band + 1),
                      rgba(j == focus ? h.p.accent : h.p.ink), lab.c_str());
    }
    if (hit.col >= 0 && hit.col % kt != 0) {  // the hovered column's label, over the gap
        const std::string lab = Ellipsize(h.small, fs, h.token(hit.col), std::max(tok_need, c) - 4);
        const float x = g.lo.x + (hit.col + 0.5f) * c - h.text_w(lab) * 0.5f;
        h.dl->AddText(h.strong, fs, ImVec2(x, g.lo.y - m.band + 1), rgba(h.p.ink), lab.c_str());
    }
    const int kn = label_step(c, m.num_w + 6);
    for (int j = 0; j < h.n; j += kn) {
        const std::string num = std::to_string(j + 1);
        const float x = g.lo.x + (j + 0.5f) * c - h.text_w(num) * 0.5f;
        h.dl->AddText(h.small, fs, ImVec2(x, g.lo.y + g.size + 3), rgba(h.p.muted), num.c_str());
    }
}

// The cell's score and weight, and a click that makes its row the focus.
void CellTooltip(const Heat& h, const UiText& t, const attn::HeadResult& hr, const Hit& hit,
                 Edits& e) {
    if (hit.row < 0) return;
    const bool masked = h.causal && hit.col > hit.row;
    ImGui::BeginTooltip();
    if (h.heads > 1) Caption("Head " + std::to_string(h.shown + 1), h.p);
    ImGui::Text("query “%s” (row %d) → key “%s” (col %d)", h.token(hit.row).c_str(), hit.row + 1,
                h.token(hit.col).c_str(), hit.col + 1);
    const std::string score = format_number(hr.scores.at(hit.row, hit.col), 2);
    if (masked) {
        ImGui::Text("weight masked (0), score %s", score.c_str());
        Caption("The causal mask hides later tokens from this query.", h.p);
    } else {
        ImGui::Text("weight %s, score %s",
                    format_number(hr.weights.at(hit.row, hit.col), 2).c_str(), score.c_str());
    }
    Caption("Tap, click or press Enter to make row " + std::to_string(hit.row + 1) + " the focus.",
            h.p);
    ImGui::EndTooltip();
    if (hit.clicked) {
        e.scenario_id = t.sentence_scenario_id;
        e.focus = hit.row;
    }
}

// Key: the colour scale (named, with its end values), the masked hatch, the focus row.
void DrawKey(const Heat& h, float W) {
    ImGui::Dummy(ImVec2(1, 2));
    const float fs = h.fs;
    const std::string lo = "≤ " + format_number(h.scale.lo, 3);
    const std::string title = "Colour = weight, log scale: ";
    h.dl->AddText(h.small, fs, ImGui::GetCursorScreenPos(), rgba(h.p.muted), title.c_str());
    const float title_w = h.text_w(title);
    const bool wrap = title_w + h.text_w(lo) + 120 > W;
    if (wrap) ImGui::Dummy(ImVec2(W, fs + 4));
    const ImVec2 k = ImGui::GetCursorScreenPos();
    const float x0 = k.x + (wrap ? 0.0f : title_w);
    const float ramp_w = std::min(metrics::kRampMax, (W - (x0 - k.x)) * 0.5f);
    const float lab0 = h.text_w(lo) + 6;
    h.dl->AddText(h.small, fs, ImVec2(x0, k.y + 1), rgba(h.p.muted), lo.c_str());
    for (int i = 0; i < 48; ++i) {
        const float a = i / 48.0f, b = (i + 1) / 48.0f;
        const float w = h.scale.lo * std::pow(1.0f / h.scale.lo, (a + b) * 0.5f);
        h.dl->AddRectFilled(ImVec2(x0 + lab0 + a * ramp_w, k.y + 3),
                            ImVec2(x0 + lab0 + b * ramp_w + 0.5f, k.y + 3 + fs - 2),
                            rgba(weight_colour(h.scale, w)));
    }
    h.dl->AddRect(ImVec2(x0 + lab0, k.y + 3), ImVec2(x0 + lab0 + ramp_w, k.y + 1 + fs),
                  rgba(h.p.border));
    float x = x0 + lab0 + ramp_w + 6;
    h.dl->AddText(h.small, fs, ImVec2(x, k.y + 1), rgba(h.p.muted), "1");
    x += h.text_w("1") + 18;
    const float need =
        (h.causal ? h.text_w("masked (causal)") + fs + 28 : 0.0f) + h.text_w("focus row") + fs + 16;
    const float row2 = (x + need > k.x + W) ? fs + 8 : 0.0f;  // wrap the other keys when narrow
    if (row2 > 0) x = k.x;
    const float ky = k.y + row2;
    if (h.causal) {
        const ImVec2 a(x, ky + 2), b(x + fs + 4, ky + fs);
        h.dl->AddRectFilled(a, b, MaskedFill(h.p));
        for (float off = 0; off < b.x - a.x; off += 4)
            h.dl->AddLine(ImVec2(a.x + off, a.y),
                          ImVec2(std::min(b.x, a.x + off + (b.y - a.y)),
                                 a.y + std::min(b.y - a.y, b.x - a.x - off)),
                          rgba(h.p.masked, 0.7f));
        h.dl->AddRect(a, b, rgba(h.p.border));
        h.dl->AddText(h.small, fs, ImVec2(b.x + 6, ky + 1), rgba(h.p.muted), "masked (causal)");
        x = b.x + 6 + h.text_w("masked (causal)") + 18;
    }
    h.dl->AddRect(ImVec2(x, ky + 3), ImVec2(x + fs + 4, ky + fs - 1), rgba(h.p.highlight), 0, 0,
                  2.0f);
    h.dl->AddText(h.small, fs, ImVec2(x + fs + 10, ky + 1), rgba(h.p.muted), "focus row");
    ImGui::Dummy(ImVec2(W, row2 + fs + 4));
}

// The focus row's strongest weights as bars with their tokens: a row a phone can read (tap a
// row of the map to make it the focus).
void RowInspector(const Heat& h, const attn::HeadResult& hr, int focus, float W) {
    std::vector<int> order;
    for (int j = 0; j < h.n; ++j) order.push_back(j);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return hr.weights.at(focus, a) > hr.weights.at(focus, b);
    });
    const int shown = std::min(h.n, 6);
    ImGui::Dummy(ImVec2(1, 4));
    Strong("Row " + std::to_string(focus + 1) + " “" + h.token(focus) + "”" +
           (h.heads > 1 ? " in head " + std::to_string(h.shown + 1) : "") + ": its " +
           std::to_string(shown) + " strongest weights");
    const float row = kBodyPx + 8, label_w = std::min(120.0f, W * 0.34f), num_w = 48;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float bw = std::max(40.0f, W - label_w - num_w);
    for (int k = 0; k < shown; ++k) {
        const int j = order[static_cast<std::size_t>(k)];
        const float y = o.y + k * row;
        const double w = hr.weights.at(focus, j);
        h.dl->AddText(ImGui::GetFont(), kBodyPx, ImVec2(o.x, y + 2), rgba(h.p.ink),
                      Ellipsize(ImGui::GetFont(), kBodyPx, std::to_string(j + 1) + " " + h.token(j),
                                label_w - 6)
                          .c_str());
        h.dl->AddRectFilled(ImVec2(o.x + label_w, y + 5), ImVec2(o.x + label_w + bw, y + row - 5),
                            rgba(h.p.surface_alt), 3);
        h.dl->AddRectFilled(ImVec2(o.x + label_w, y + 5),
                            ImVec2(o.x + label_w + bw * static_cast<float>(w), y + row - 5),
                            rgba(h.p.weight), 3);
        h.dl->AddText(h.strong, kBodyPx, ImVec2(o.x + label_w + bw + 6, y + 2), rgba(h.p.weight),
                      format_number(w, 2).c_str());
    }
    ImGui::Dummy(ImVec2(W, shown * row + 2));
}

}  // namespace

Edits ShowHeatmapPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##heatmap", p);
    const float W = card.inner;
    const int n = static_cast<int>(d.sentence.tokens.size());
    const int heads = static_cast<int>(d.sequence.heads.size());
    Strong("Attention weights for the whole sentence");
    Caption(t.heatmap_note, p);
    if (!d.sequence_ok || n == 0 || heads == 0) {
        EndCard(card);
        return e;
    }
    const Heat h{s,
                 d,
                 p,
                 ImGui::GetWindowDrawList(),
                 font(FontRole::Small),
                 font(FontRole::Strong),
                 kSmallPx,
                 n,
                 heads,
                 std::clamp(s.shown_head, 0, heads - 1),
                 d.sentence.options.causal,
                 heat_scale(p, n)};
    if (heads > 1) HeadStrip(h, W, t, e);
    const BigMap m = LayOutBigMap(h, W);
    const attn::HeadResult& hr = h.head(h.shown);
    if (heads > 1)
        h.dl->AddText(
            h.strong, h.fs, m.o, rgba(p.accent),
            ("Head " + std::to_string(h.shown + 1) + " of " + std::to_string(heads)).c_str());
    DrawCells(h.dl, m.g, h.shown, hr, h.causal, p, s.theme);
    DrawCellNumbers(h, m.g, hr);
    h.dl->AddRect(ImVec2(m.g.lo.x - 0.5f, m.g.lo.y - 0.5f),
                  ImVec2(m.g.lo.x + m.g.size + 0.5f, m.g.lo.y + m.g.size + 0.5f), rgba(p.border));
    const Hit hit = RowHits(h, m.g);
    const int focus = std::clamp(d.sentence.focus, 0, n - 1);
    DrawMarks(h, m.g, focus, hit);
    DrawRowLabels(h, m, focus, hit);
    DrawColumnLabels(h, m, focus, hit);
    ImGui::SetCursorScreenPos(m.o);
    ImGui::Dummy(ImVec2(m.label_w + m.g.size, (m.g.lo.y - m.o.y) + m.g.size + m.band));
    CellTooltip(h, t, hr, hit, e);
    DrawKey(h, W);
    RowInspector(h, hr, focus, W);
    EndCard(card);
    return e;
}

}  // namespace app
