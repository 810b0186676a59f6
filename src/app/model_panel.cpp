// model_panel.cpp - ShowModelPanel: the project's trained transformer, taken apart. Every layer
// and head as a small causal map labelled with its measured pattern; the chosen head large, its
// rows picking the focus token; that real row through the four-step views (the same views as the
// glossary's example, fed the model's numbers); the five likeliest next tokens, with and without
// the head; and the three misconceptions on the real model. Numbers: Derived::model (the engine).
#include <algorithm>
#include <cmath>
#include <string>

#include "app_model.h"
#include "metrics.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

constexpr int kMiniCells = 32;  // a small map bins its cells to at most this many per side

struct Ctx {
    const AppState& s;
    const Derived& d;
    const UiText& t;
    const Palette& p;
    int n, layers, heads;
    HeatScale scale;  // the maps' colour scale (n tokens)
    float weight(int layer, int head, int i, int j) const {
        const auto& w = d.model.acts.layers[static_cast<std::size_t>(layer)].weights;
        return w[attn::head_index(n, head, i, j)];
    }
};

// A causal map of one head in [lo, lo + size]: its texture (one texel per cell, uploaded by the
// platform when the run changes), else `bins` cells per side, each the largest weight of the
// query/key block it covers; cells after the query are the plain masked colour.
void DrawMap(ImDrawList* dl, const Ctx& c, int layer, int head, ImVec2 lo, float size, int bins) {
    const float cell = size / static_cast<float>(bins);
    const ImU32 masked = MaskedFill(c.p);
    const int at = layer * c.heads + head;
    if (at < static_cast<int>(c.d.model.maps.size()))
        if (ImTextureID tex =
                HeatmapTexture(kModelHeatmapSlot + at, c.d.model.maps[static_cast<std::size_t>(at)],
                               true, c.s.theme, masked)) {
            dl->AddImage(tex, lo, ImVec2(lo.x + size, lo.y + size));
            MaskedHatch(dl, lo, size, c.n, c.p, c.s.theme);
            return;
        }
    dl->AddRectFilled(lo, ImVec2(lo.x + size, lo.y + size), masked);
    for (int bi = 0; bi < bins; ++bi) {
        const int i0 = bi * c.n / bins, i1 = std::max(i0 + 1, (bi + 1) * c.n / bins);
        for (int bj = 0; bj <= bi; ++bj) {
            const int j0 = bj * c.n / bins, j1 = std::max(j0 + 1, (bj + 1) * c.n / bins);
            float w = 0;
            for (int i = i0; i < i1; ++i)
                for (int j = j0; j < std::min(j1, i + 1); ++j)
                    w = std::max(w, c.weight(layer, head, i, j));
            dl->AddRectFilled(ImVec2(lo.x + bj * cell, lo.y + bi * cell),
                              ImVec2(lo.x + (bj + 1) * cell, lo.y + (bi + 1) * cell),
                              rgba(weight_colour(c.scale, w)));
        }
    }
}

// Title, what the model is, its weights' fingerprint, the example texts and what to look for.
void Header(const Ctx& c, Edits& e) {
    const ModelText& mt = c.t.model;
    const Card card = BeginCard("##model-head", c.p, true);
    Heading(mt.title);
    Caption(c.s.scenario.description, c.p);
    const attn::ModelConfig& cfg = c.d.loaded->model.config;
    Caption(std::to_string(cfg.layers) + " layers · " + std::to_string(cfg.heads) +
                " heads · d_model " + std::to_string(cfg.d_model) + " · vocabulary " +
                std::to_string(cfg.vocab) + " · weights " + c.d.loaded->sha256.substr(0, 16),
            c.p);
    ImGui::Dummy(ImVec2(1, 4));
    std::vector<const char*> names;
    for (const ModelExample& x : mt.examples) names.push_back(x.title.c_str());
    const int pick = Segmented("##examples", names.data(), static_cast<int>(names.size()),
                               c.s.model.example, c.p, card.inner);
    if (pick >= 0 && pick != c.s.model.example) e.model_example = pick;
    if (c.s.model.example >= 0 && c.s.model.example < static_cast<int>(mt.examples.size())) {
        const ModelExample& x = mt.examples[static_cast<std::size_t>(c.s.model.example)];
        Paragraph(x.look_for);
        bool labelled = x.pattern.empty();
        for (const HeadLabel& h : c.d.loaded->heads) labelled = labelled || h.label == x.pattern;
        if (!labelled)  // honest about this model: its card found no such head
            Caption("This model has no head labelled “" + mt.pattern(x.pattern).name +
                        "”: none clears the threshold in the model card's analysis. Shown: the "
                        "head that scores highest on it.",
                    c.p);
    } else
        Paragraph(mt.own_text_note);
    EndCard(card);
}

// Every layer and head as a small map with its label and score; a click opens one.
void HeadGrid(const Ctx& c, Edits& e) {
    const Card card = BeginCard("##model-grid", c.p);
    Strong("Every head");
    Caption(c.t.model.grid_note, c.p);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* small = font(FontRole::Small);
    const float gap = metrics::kHeadMapGap;
    const auto fit = [&](int cols) {
        return std::min((card.inner - gap * (cols - 1)) / cols, metrics::kHeadMapMax);
    };
    const int cols = fit(c.heads) >= metrics::kHeadMapMin ? c.heads : std::min(c.heads, 2);
    const float mini = fit(cols), text_h = 2 * (kSmallPx + 2), cell_h = mini + text_h + 10;
    // The columns spread over the card, so a label may run past its map into the room beside it.
    const float pitch = std::max(mini + gap, (card.inner + gap) / cols), label_w = pitch - gap;
    const int bins = std::min(c.n, kMiniCells);
    for (int l = 0; l < c.layers; ++l) {
        Strong("Layer " + std::to_string(l + 1));
        const ImVec2 o = ImGui::GetCursorScreenPos();
        for (int h = 0; h < c.heads; ++h) {
            const HeadLabel& lab = c.d.loaded->label(l, h);
            const ImVec2 lo(o.x + (h % cols) * pitch, o.y + (h / cols) * cell_h);
            const bool on = l == c.s.model.layer && h == c.s.model.head;
            DrawMap(dl, c, l, h, lo, mini, bins);
            dl->AddRect(ImVec2(lo.x - 2, lo.y - 2), ImVec2(lo.x + mini + 2, lo.y + mini + 2),
                        rgba(on ? c.p.accent : c.p.border), 3, 0, on ? 2.5f : 1.0f);
            const std::string l1 =
                "H" + std::to_string(h + 1) + " " + c.t.model.pattern(lab.label).name;
            dl->AddText(on ? font(FontRole::Strong) : small, kSmallPx,
                        ImVec2(lo.x, lo.y + mini + 4), rgba(on ? c.p.accent : c.p.ink),
                        Ellipsize(small, kSmallPx, l1, label_w).c_str());
            dl->AddText(small, kSmallPx, ImVec2(lo.x, lo.y + mini + 4 + kSmallPx + 2),
                        rgba(c.p.muted),
                        Ellipsize(small, kSmallPx,
                                  (lab.label == "mixed" ? lab.score_name() : std::string("score")) +
                                      " " + format_number(lab.score()),
                                  label_w)
                            .c_str());
            ImGui::SetCursorScreenPos(lo);
            ImGui::PushID(l * 64 + h);
            bool clicked = false;
            CandidateHit("##mini", ImVec2(mini, mini + text_h + 4), &clicked);
            if (clicked) {
                e.model_layer = l;
                e.model_head = h;
            }
            ImGui::PopID();
        }
        ImGui::SetCursorScreenPos(ImVec2(o.x, o.y + ((c.heads + cols - 1) / cols) * cell_h));
    }
    EndCard(card);
}

// Which row of the large map the pointer is on (-1: none), from the map's geometry.
int RowUnderPointer(ImVec2 lo, float size, int n) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (m.x < lo.x || m.x > lo.x + size || m.y < lo.y || m.y >= lo.y + size) return -1;
    return std::clamp(static_cast<int>((m.y - lo.y) / size * n), 0, n - 1);
}

// The chosen head large, token labels on the rows, the focus row outlined; a click or the
// arrow keys pick the focus token.
void BigHead(const Ctx& c, Edits& e) {
    const ModelChoice& m = c.s.model;
    const Card card = BeginCard("##model-big", c.p);
    Strong(c.d.model_heads[static_cast<std::size_t>(m.layer * c.heads + m.head)]);
    ImFont* small = font(FontRole::Small);
    float label_w = 0;
    for (const std::string& tok : c.d.model.tokens)
        label_w = std::max(label_w, small->CalcTextSizeA(kSmallPx, 1e9f, 0, tok.c_str()).x);
    label_w = std::min(label_w + 8, card.inner * 0.3f);
    const float size = std::min(card.inner - label_w, 460.0f);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImVec2 lo(o.x + label_w, o.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    DrawMap(dl, c, m.layer, m.head, lo, size, c.n);
    const float cell = size / static_cast<float>(c.n);
    const int every = std::max(1, static_cast<int>(std::ceil((kSmallPx + 1) / cell)));
    for (int i = 0; i < c.n; ++i) {
        if (i % every != 0 && i != m.focus) continue;
        const auto& tok = c.d.model.tokens[static_cast<std::size_t>(i)];
        dl->AddText(i == m.focus ? font(FontRole::Strong) : small, kSmallPx,
                    ImVec2(o.x, lo.y + i * cell + (cell - kSmallPx) * 0.5f),
                    rgba(i == m.focus ? c.p.accent : c.p.muted),
                    Ellipsize(small, kSmallPx, tok, label_w - 6).c_str());
    }
    dl->AddRect(ImVec2(lo.x - 1, lo.y + m.focus * cell - 1),
                ImVec2(lo.x + (m.focus + 1) * cell + 1, lo.y + (m.focus + 1) * cell + 1),
                rgba(c.p.accent), 2, 0, 2.0f);
    ImGui::SetCursorScreenPos(lo);
    ImGui::InvisibleButton("##bigmap", ImVec2(size, size));
    const int row = RowUnderPointer(lo, size, c.n);
    if (ImGui::IsItemClicked() && row >= 0 && row != m.focus) e.focus = row;
    if (ImGui::IsItemFocused()) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)) && m.focus > 0)
            e.focus = m.focus - 1;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)) && m.focus < c.n - 1)
            e.focus = m.focus + 1;
    }
    Caption("Focus row: “" + c.d.model.tokens[static_cast<std::size_t>(m.focus)] + "” (token " +
                std::to_string(m.focus + 1) + " of " + std::to_string(c.n) +
                "). Click or tap a row, use the arrow keys, or the buttons, to move the focus.",
            c.p);
    // rows of a long text are a few pixels tall on a phone: one step at a time, in reach
    const float bw = std::min(150.0f, (ImGui::GetContentRegionAvail().x - 8) * 0.5f - 4);
    if (StepButton("←  Token before", ImVec2(bw, 0), m.focus > 0, false, c.p))
        e.focus = m.focus - 1;
    ImGui::SameLine(0, 8);
    if (StepButton("Token after  →", ImVec2(bw, 0), m.focus < c.n - 1, false, c.p))
        e.focus = m.focus + 1;
    EndCard(card);
}

// Five bars of next-token probabilities.
void NextList(const Ctx& c, const std::vector<NextToken>& list, float w) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float row = kBodyPx + 8, label_w = std::min(110.0f, w * 0.35f);
    for (const NextToken& t : list) {
        const ImVec2 a = ImGui::GetCursorScreenPos();
        dl->AddText(ImGui::GetFont(), kBodyPx, ImVec2(a.x, a.y + 2), rgba(c.p.ink),
                    Ellipsize(ImGui::GetFont(), kBodyPx, t.token, label_w - 6).c_str());
        const float bw = w - label_w - 56;
        dl->AddRectFilled(ImVec2(a.x + label_w, a.y + 4), ImVec2(a.x + label_w + bw, a.y + row - 4),
                          rgba(c.p.surface_alt), 3);
        dl->AddRectFilled(ImVec2(a.x + label_w, a.y + 4),
                          ImVec2(a.x + label_w + bw * static_cast<float>(t.p), a.y + row - 4),
                          rgba(c.p.weight), 3);
        dl->AddText(font(FontRole::Strong), kBodyPx, ImVec2(a.x + label_w + bw + 6, a.y + 2),
                    rgba(c.p.ink), format_number(t.p).c_str());
        ImGui::Dummy(ImVec2(w, row));
    }
}

// The likeliest next tokens, and the same with the chosen head switched off (misconception 2).
void NextTokens(const Ctx& c, Edits& e) {
    const ModelChoice& m = c.s.model;
    const Card card = BeginCard("##model-next", c.p);
    Strong("What the model predicts after “" + c.d.model.tokens[static_cast<std::size_t>(m.focus)] +
           "”");
    Caption(c.t.model.next_note, c.p);
    NextList(c, c.d.model.next, card.inner);
    ImGui::Dummy(ImVec2(1, 4));
    bool off = m.ablate;
    const std::string label =
        "Switch off layer " + std::to_string(m.layer + 1) + ", head " + std::to_string(m.head + 1);
    if (ImGui::Checkbox(label.c_str(), &off)) e.model_ablate = off;
    if (m.ablate) {
        Strong("With the head switched off");
        NextList(c, c.d.model.next_ablated, card.inner);
    }
    Caption(c.t.model.ablate_note, c.p);
    EndCard(card);
}

// Misconceptions 1 and 3 on the real model: the same weights with one word changed, and the
// head's output vector apart from its scores.
void Myths(const Ctx& c) {
    const ModelRun& r = c.d.model;
    const Card card = BeginCard("##model-myths", c.p);
    Strong("A score is not a parameter");
    if (r.variant_ok) {
        Caption(c.t.model.fingerprint_note, c.p);
        Paragraph("“" + r.swap_from + "” → “" + r.swap_to + "”: weights " +
                  c.d.loaded->sha256.substr(0, 16) + " in both runs.");
        std::string a = "Scores now:", b = "Scores with “" + r.swap_to + "”:";
        for (std::size_t j = 0; j < r.focus.scores.size() && j < r.variant_focus.scores.size();
             ++j) {
            a += " " + format_number(r.focus.scores[j]);
            b += " " + format_number(r.variant_focus.scores[j]);
        }
        Caption(a, c.p);
        Caption(b, c.p);
    } else {
        Caption("Pick an example text to compare it with a one-word change.", c.p);
    }
    ImGui::Dummy(ImVec2(1, 4));
    Strong("The score is not the output");
    Caption(c.t.model.output_note, c.p);
    std::string v;
    for (std::size_t i = 0; i < r.head_output.size(); ++i)
        v += (i ? "  " : "") + format_number(r.head_output[i]);
    Paragraph("o = [" + v + "]");
    EndCard(card);
}

}  // namespace

Edits ShowModelPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    if (!d.model_ok || !d.loaded || d.model.tokens.empty()) {
        const Card card = BeginCard("##model-none", p);
        Paragraph(t.model.not_loaded);
        EndCard(card);
        return e;
    }
    const attn::ModelConfig& cfg = d.loaded->model.config;
    const int n = static_cast<int>(d.model.tokens.size());
    const Ctx c{s, d, t, p, n, cfg.layers, cfg.heads, heat_scale(p, n)};
    Header(c, e);
    HeadGrid(c, e);
    BigHead(c, e);
    // The focus row's four steps: the glossary example's own views, with the model's numbers.
    merge(e, ShowStepsPanel(s, d, t));
    merge(e, ShowScoresWeightsPanel(s, d, t));
    NextTokens(c, e);
    merge(e, ShowOutputPanel(s, d, t));
    Myths(c);
    return e;
}

}  // namespace app
