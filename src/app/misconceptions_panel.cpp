// misconceptions_panel.cpp - ShowMisconceptionsPanel: the glossary's three misconceptions, each
// disproved with the engine's numbers.
//   1. a score is not a learned parameter: change one word, the projections keep their fingerprint
//   2. a high weight is not an explanation: other heads, and the residual path
//   3. the score is not the output: the output is a vector, shown apart
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "app_model.h"
#include "metrics.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

void MythHeader(const Misconception& m, const Palette& p, int number) {
    ImGui::PushFont(font(FontRole::Small));
    ColouredText("MISCONCEPTION " + std::to_string(number), p.negative);
    ImGui::PopFont();
    Strong("“" + m.myth + "”");
    ImGui::PushStyleColor(ImGuiCol_Text, p.output);
    ImGui::PushFont(font(FontRole::Strong));
    ImGui::TextUnformatted("Correction");
    ImGui::PopFont();
    ImGui::PopStyleColor();
    Paragraph(m.correction);
    Caption(m.demo, p);
}

// A vector as small cells with numbers, wrapped onto as many rows as the width needs.
void VectorCells(const attn::Vector& v, const ImVec4& c, const Palette& p, float width) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const int n = static_cast<int>(v.size());
    ImFont* small = font(FontRole::Small);
    const float need = small->CalcTextSizeA(kSmallPx, 1e9f, 0.0f, "−0.00").x + 8;
    const int per_row = std::clamp(static_cast<int>((width + 2) / (need + 2)), 1, std::max(1, n));
    const float cw = std::min(54.0f, (width - 2 * (per_row - 1)) / per_row);
    const int rows = (n + per_row - 1) / per_row;
    for (int i = 0; i < n; ++i) {
        const ImVec2 a(o.x + (i % per_row) * (cw + 2), o.y + (i / per_row) * 24.0f),
            b(a.x + cw, a.y + 22);
        dl->AddRectFilled(a, b, rgba(mix(p.surface, c, 0.12f)), 4);
        CentredTextFit(dl, a, b, rgba(c), format_number(v[static_cast<std::size_t>(i)]), small);
    }
    ImGui::Dummy(ImVec2(width, 24.0f * std::max(1, rows)));
}

const WordSwap& current_swap(const AppState& s, const UiText& t) {
    return t.swaps[static_cast<std::size_t>(
        std::clamp(s.variant, 0, static_cast<int>(t.swaps.size()) - 1))];
}

// Misconception 1: the one-word swaps the reader picks from.
void SwapPicker(const AppState& s, const UiText& t, const Palette& p, float W, Edits& e) {
    std::vector<std::string> labels;
    for (const WordSwap& w : t.swaps) labels.push_back(w.from + " → " + w.to);
    std::vector<const char*> ptrs;
    for (const std::string& l : labels) ptrs.push_back(l.c_str());
    const int pick =
        Segmented("##swap", ptrs.data(), static_cast<int>(ptrs.size()), s.variant, p, W);
    if (pick >= 0) e.variant = pick;
}

// Misconception 1: paired score bars per token, before (grey) and after the swap.
void SwapScoreBars(const Derived& d, const Palette& p, float W) {
    const attn::FocusResult& a = d.base_focus;
    const attn::FocusResult& b = d.variant_focus;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* small = font(FontRole::Small);
    ImFont* strong = font(FontRole::Strong);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const int n = static_cast<int>(std::min(a.scores.size(), b.scores.size()));
    double ext = 1e-9;
    for (int j = 0; j < n; ++j)
        ext = std::max({ext, std::fabs(a.scores[j]), std::fabs(b.scores[j])});
    const bool wide = W >= metrics::kWideContent;
    const float lw = 70, nw = wide ? 200.0f : 110.0f, row = 22;
    const float bw = std::max(40.0f, W - lw - nw);
    const float zero = o.x + lw + bw * 0.5f;
    const float nx = o.x + lw + bw + 8;  // the numbers' column, under its own header
    const char* title = "scores for “it”: before (grey) / after";
    dl->AddText(small, kSmallPx, ImVec2(o.x, o.y), rgba(p.muted), title);
    if (o.x + small->CalcTextSizeA(kSmallPx, FLT_MAX, 0, title).x + 8 < nx)  // room beside it
        dl->AddText(small, kSmallPx, ImVec2(nx, o.y), rgba(p.muted),
                    wide ? "score  ·  weight" : "score");
    const float top = o.y + 20;
    for (int j = 0; j < n; ++j) {
        const float y = top + j * row;
        const std::string tok = d.variant.tokens[static_cast<std::size_t>(j)];
        const bool changed = tok == d.variant_word_to;
        dl->AddText(changed ? strong : ImGui::GetFont(), kBodyPx, ImVec2(o.x, y + 1),
                    rgba(changed ? p.highlight : p.ink),
                    Ellipsize(ImGui::GetFont(), kBodyPx, tok, lw - 4).c_str());
        const float la = static_cast<float>(a.scores[j] / ext) * bw * 0.5f;
        const float lb = static_cast<float>(b.scores[j] / ext) * bw * 0.5f;
        dl->AddRectFilled(ImVec2(std::min(zero, zero + la), y + 3),
                          ImVec2(std::max(zero, zero + la), y + 9), rgba(p.muted, 0.55f), 2);
        dl->AddRectFilled(ImVec2(std::min(zero, zero + lb), y + 10),
                          ImVec2(std::max(zero, zero + lb), y + 17), rgba(p.score), 2);
        std::string nums = format_number(a.scores[j]) + " / " + format_number(b.scores[j]);
        if (wide)
            nums += "    w " + format_number(a.weights[j]) + " / " + format_number(b.weights[j]);
        dl->AddText(small, kSmallPx, ImVec2(nx, y + 3),
                    rgba(std::fabs(a.scores[j] - b.scores[j]) > 5e-3 ? p.ink : p.muted),
                    nums.c_str());
    }
    dl->AddLine(ImVec2(zero, top), ImVec2(zero, top + n * row), rgba(p.border));
    ImGui::Dummy(ImVec2(W, 20 + n * row + 4));
}

// Misconception 1: the projections' and the inputs' fingerprints, before and after.
void Fingerprints(const Derived& d) {
    const bool same = d.base_projection_print == d.variant_projection_print;
    ImGui::PushFont(font(FontRole::Strong));
    Paragraph("Projection matrices Wq, Wk, Wv, Wo: fingerprint " +
              attn::fingerprint_hex(d.base_projection_print) + " before, " +
              attn::fingerprint_hex(d.variant_projection_print) + " after " +
              (same ? "(identical)" : "(different)"));
    ImGui::PopFont();
    Paragraph("Input token vectors: fingerprint " + attn::fingerprint_hex(d.base_embedding_print) +
              " before, " + attn::fingerprint_hex(d.variant_embedding_print) + " after " +
              (d.base_embedding_print == d.variant_embedding_print ? "(identical)" : "(changed)"));
}

void NotALearnedParameter(const AppState& s, const Derived& d, const UiText& t, const Palette& p,
                          Edits& e) {
    const Card card = BeginCard("##myth1", p);
    const float W = card.inner;
    MythHeader(t.misconceptions[0], p, 1);
    SwapPicker(s, t, p, W, e);
    if (d.variant_ok) {
        Caption("Before: " + t.variant_base, p);
        Caption("After:  " + current_swap(s, t).sentence, p);
        SwapScoreBars(d, p, W);
        Caption(
            "Only the changed word's own score moves (its key changed); through softmax every "
            "weight shifts a little.",
            p);
        Fingerprints(d);
    }
    EndCard(card);
}

// One head's weights from the focus row: a bar per key token, labelled with its token (every
// k-th when they do not fit, always the strongest).
void HeadWeightStrip(const Derived& d, const Palette& p, float W, std::size_t h, int f) {
    const attn::HeadResult& hr = d.sequence.heads[h];
    const attn::Scenario& sent = d.sentence;
    int best = 0;
    for (int j = 1; j < hr.weights.cols; ++j)
        if (hr.weights.at(f, j) > hr.weights.at(f, best)) best = j;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* small = font(FontRole::Small);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const int n = hr.weights.cols;
    const bool narrow = W < metrics::kNarrowContent;
    const float left = 60, right = narrow ? 0.0f : 160.0f;
    const float strip = std::max(60.0f, W - left - right);
    const float bw = strip / std::max(1, n);
    for (int j = 0; j < n; ++j) {
        const float w = static_cast<float>(hr.weights.at(f, j));
        dl->AddRectFilled(ImVec2(o.x + left + j * bw, o.y + 26 - 24 * w),
                          ImVec2(o.x + left + (j + 1) * bw - 1, o.y + 26),
                          rgba(j == best ? p.highlight : p.weight, 0.85f), 1);
    }
    dl->AddLine(ImVec2(o.x + left, o.y + 26.5f), ImVec2(o.x + left + strip, o.y + 26.5f),
                rgba(p.border));
    dl->AddText(small, kSmallPx, ImVec2(o.x, o.y + 8), rgba(p.muted),
                ("head " + std::to_string(h + 1)).c_str());
    // token labels under the bars
    float widest = 0;
    for (const std::string& tok : sent.tokens)
        widest = std::max(widest, small->CalcTextSizeA(kSmallPx, 1e9f, 0, tok.c_str()).x);
    const int k = std::max(1, static_cast<int>(std::ceil((std::min(widest, 60.0f) + 6) / bw)));
    std::vector<std::pair<float, float>> taken;  // labels drawn so far: the strongest first
    std::vector<int> order{best};
    for (int j = 0; j < n; j += k)
        if (j != best) order.push_back(j);
    for (int j : order) {
        const std::string lab =
            Ellipsize(small, kSmallPx, sent.tokens[static_cast<std::size_t>(j)], 60.0f);
        const float tw = small->CalcTextSizeA(kSmallPx, 1e9f, 0, lab.c_str()).x;
        const float x = std::clamp(o.x + left + (j + 0.5f) * bw - tw * 0.5f, o.x + left,
                                   o.x + left + strip - tw);
        bool clear = true;
        for (const auto& t : taken) clear = clear && (x + tw + 4 < t.first || x > t.second + 4);
        if (!clear) continue;
        dl->AddText(small, kSmallPx, ImVec2(x, o.y + 29), rgba(j == best ? p.ink : p.muted),
                    lab.c_str());
        taken.emplace_back(x, x + tw);
    }
    const std::string top = "top: “" + sent.tokens[static_cast<std::size_t>(best)] + "” " +
                            format_number(hr.weights.at(f, best));
    const ImVec2 at = narrow ? ImVec2(o.x + left, o.y + 29 + kSmallPx + 3)
                             : ImVec2(o.x + left + strip + 8, o.y + 8);
    dl->AddText(small, kSmallPx, at, rgba(p.ink), top.c_str());
    ImGui::Dummy(ImVec2(W, 30 + kSmallPx + (narrow ? kSmallPx + 6 : 0.0f) + 4));
}

void NotAnExplanation(const Derived& d, const UiText& t, const Palette& p, Edits& e) {
    const attn::Scenario& sent = d.sentence;
    const int f = sent.focus;
    const std::string ftok = f >= 0 && f < static_cast<int>(sent.tokens.size())
                                 ? sent.tokens[static_cast<std::size_t>(f)]
                                 : "focus";
    const Card card = BeginCard("##myth2", p);
    const float W = card.inner;
    MythHeader(t.misconceptions[1], p, 2);
    ImGui::PushFont(font(FontRole::Strong));
    Paragraph("“" + ftok + "” in “" + sent.sentence + "”, " + std::to_string(sent.heads) +
              (sent.heads == 1 ? " head" : " heads"));
    ImGui::PopFont();
    if (sent.heads < 2 && ImGui::SmallButton("Show 4 heads")) e.heads = 4;
    for (std::size_t h = 0; h < d.sequence.heads.size(); ++h) HeadWeightStrip(d, p, W, h, f);
    Caption(t.residual_note, p);
    if (d.embeddings.rows > f && f >= 0 && d.sequence.output.rows > f) {
        Strong("x, the token's own vector (goes around attention):");
        VectorCells(attn::row(d.embeddings, f), p.muted, p, W);
        Strong("attention output for it (added to x):");
        VectorCells(attn::row(d.sequence.output, f), p.output, p, W);
    }
    EndCard(card);
}

void NotTheOutput(const Derived& d, const UiText& t, const Palette& p) {
    const Card card = BeginCard("##myth3", p);
    const float W = card.inner;
    MythHeader(t.misconceptions[2], p, 3);
    const attn::FocusResult& r = d.focus;
    const std::size_t n = std::min<std::size_t>(r.scores.size(), 8);
    std::string scores = "Scores (one number per candidate): ";
    std::string weights = "Weights: ";
    for (std::size_t j = 0; j < n; ++j) {
        scores += (j ? ",  " : "") + d.candidate_tokens[j] + " " + format_number(r.scores[j]);
        weights += (j ? ",  " : "") + d.candidate_tokens[j] + " " + format_number(r.weights[j]);
    }
    if (r.scores.size() > n) scores += ", … (" + std::to_string(r.scores.size()) + " in all)";
    if (r.scores.size() > n) weights += ", …";
    ImGui::PushStyleColor(ImGuiCol_Text, p.score);
    Paragraph(scores);
    ImGui::PopStyleColor();
    ImGui::PushStyleColor(ImGuiCol_Text, p.weight);
    Paragraph(weights);
    ImGui::PopStyleColor();
    Strong("Output (one vector of d = " + std::to_string(r.d) + " numbers):");
    VectorCells(r.output, p.output, p, W);
    EndCard(card);
}

}  // namespace

Edits ShowMisconceptionsPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    NotALearnedParameter(s, d, t, p, e);
    NotAnExplanation(d, t, p, e);
    NotTheOutput(d, t, p);
    return e;
}

}  // namespace app
