// misconceptions_panel.cpp - ShowMisconceptionsPanel: the glossary's three misconceptions, each
// disproved with the engine's numbers.
//   1. a score is not a learned parameter: change one word, the projections keep their fingerprint
//   2. a high weight is not an explanation: other heads, and the residual path
//   3. the score is not the output: the output is a vector, shown apart
#include <algorithm>
#include <cmath>

#include "app_model.h"
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

// A row of small cells with numbers (a vector).
void VectorCells(const attn::Vector& v, const ImVec4& c, const Palette& p, float width) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const int n = static_cast<int>(v.size());
    const float cw = std::min(54.0f, (width - 2 * (n - 1)) / std::max(1, n));
    ImFont* small = font(FontRole::Small);
    const float fs = ImGui::GetFontSize() * kSmallPx / kBodyPx;
    for (int i = 0; i < n; ++i) {
        const ImVec2 a(o.x + i * (cw + 2), o.y), b(a.x + cw, o.y + 22);
        dl->AddRectFilled(a, b, rgba(mix(p.surface, c, 0.12f)), 4);
        CentredText(dl, a, b, rgba(c), format_number(v[static_cast<std::size_t>(i)]), small);
    }
    (void)fs;
    ImGui::Dummy(ImVec2(width, 24));
}

}  // namespace

Edits ShowMisconceptionsPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    ImFont* strong = font(FontRole::Strong);
    ImFont* small = font(FontRole::Small);
    const float fs = ImGui::GetFontSize();

    // 1. Not a learned parameter.
    {
        const Card card = BeginCard("##myth1", p);
        const float W = card.inner;
        MythHeader(t.misconceptions[0], p, 1);
        std::vector<std::string> labels;
        for (const WordSwap& w : t.swaps) labels.push_back(w.from + " → " + w.to);
        std::vector<const char*> ptrs;
        for (const std::string& l : labels) ptrs.push_back(l.c_str());
        const int pick =
            Segmented("##swap", ptrs.data(), static_cast<int>(ptrs.size()), s.variant, p, W);
        if (pick >= 0) e.variant = pick;
        if (d.variant_ok) {
            const attn::FocusResult& a = d.base_focus;
            const attn::FocusResult& b = d.variant_focus;
            Caption("Before: " + t.variant_base, p);
            Caption("After:  " + t.swaps[static_cast<std::size_t>(std::clamp(
                                             s.variant, 0, static_cast<int>(t.swaps.size()) - 1))]
                                     .sentence,
                    p);
            // paired score bars per token
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const ImVec2 o = ImGui::GetCursorScreenPos();
            const int n = static_cast<int>(std::min(a.scores.size(), b.scores.size()));
            double ext = 1e-9;
            for (int j = 0; j < n; ++j)
                ext = std::max({ext, std::fabs(a.scores[j]), std::fabs(b.scores[j])});
            const float lw = 70, nw = W >= 560 ? 200.0f : 110.0f, row = 20;
            const float bw = std::max(40.0f, W - lw - nw);
            const float zero = o.x + lw + bw * 0.5f;
            dl->AddText(small, fs * kSmallPx / kBodyPx, ImVec2(o.x, o.y), rgba(p.muted),
                        W >= 560
                            ? "scores for “it”: before (grey) / after          score  ·  weight"
                            : "scores for “it”: before (grey) / after");
            const float top = o.y + 18;
            for (int j = 0; j < n; ++j) {
                const float y = top + j * row;
                const std::string tok = d.variant.tokens[static_cast<std::size_t>(j)];
                const bool changed = tok == d.variant_word_to;
                dl->AddText(changed ? strong : ImGui::GetFont(), fs, ImVec2(o.x, y + 1),
                            rgba(changed ? p.highlight : p.ink), tok.c_str());
                const float la = static_cast<float>(a.scores[j] / ext) * bw * 0.5f;
                const float lb = static_cast<float>(b.scores[j] / ext) * bw * 0.5f;
                dl->AddRectFilled(ImVec2(std::min(zero, zero + la), y + 3),
                                  ImVec2(std::max(zero, zero + la), y + 9), rgba(p.muted, 0.55f),
                                  2);
                dl->AddRectFilled(ImVec2(std::min(zero, zero + lb), y + 10),
                                  ImVec2(std::max(zero, zero + lb), y + 17), rgba(p.score), 2);
                std::string nums = format_number(a.scores[j]) + " / " + format_number(b.scores[j]);
                if (W >= 560)
                    nums += "    w " + format_number(a.weights[j]) + " / " +
                            format_number(b.weights[j]);
                dl->AddText(small, fs * kSmallPx / kBodyPx, ImVec2(o.x + lw + bw + 8, y + 3),
                            rgba(std::fabs(a.scores[j] - b.scores[j]) > 5e-3 ? p.ink : p.muted),
                            nums.c_str());
            }
            dl->AddLine(ImVec2(zero, top), ImVec2(zero, top + n * row), rgba(p.border));
            ImGui::Dummy(ImVec2(W, 18 + n * row + 4));
            Caption(
                "Only the changed word's own score moves (its key changed); through softmax every "
                "weight shifts a little.",
                p);
            const bool same = d.base_projection_print == d.variant_projection_print;
            ImGui::PushFont(strong);
            ImGui::TextWrapped(
                "Projection matrices Wq, Wk, Wv, Wo: fingerprint %s before, %s after  %s",
                attn::fingerprint_hex(d.base_projection_print).c_str(),
                attn::fingerprint_hex(d.variant_projection_print).c_str(),
                same ? "(identical)" : "(different)");
            ImGui::PopFont();
            ImGui::TextWrapped(
                "Input token vectors: fingerprint %s before, %s after  %s",
                attn::fingerprint_hex(d.base_embedding_print).c_str(),
                attn::fingerprint_hex(d.variant_embedding_print).c_str(),
                d.base_embedding_print == d.variant_embedding_print ? "(identical)" : "(changed)");
        }
        EndCard(card);
    }

    const attn::Scenario& sent = d.sentence;
    const int f = sent.focus;
    const std::string ftok = focus_label(sent);
    // 2. A high weight is not an explanation.
    {
        const Card card = BeginCard("##myth2", p);
        const float W = card.inner;
        MythHeader(t.misconceptions[1], p, 2);
        ImGui::PushFont(strong);
        ImGui::TextWrapped("“%s” in “%s”, %d head%s", ftok.c_str(), sent.sentence.c_str(),
                           sent.heads, sent.heads == 1 ? "" : "s");
        ImGui::PopFont();
        if (sent.heads < 2) {
            if (ImGui::SmallButton("Show 4 heads")) e.heads = 4;
        }
        for (std::size_t h = 0; h < d.sequence.heads.size(); ++h) {
            const attn::HeadResult& hr = d.sequence.heads[h];
            int best = 0;
            for (int j = 1; j < hr.weights.cols; ++j)
                if (hr.weights.at(f, j) > hr.weights.at(f, best)) best = j;
            // mini weight strip: one bar per key token
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const ImVec2 o = ImGui::GetCursorScreenPos();
            const int n = hr.weights.cols;
            const float strip = std::max(60.0f, W - 200);
            const float bw = strip / std::max(1, n);
            for (int j = 0; j < n; ++j) {
                const float w = static_cast<float>(hr.weights.at(f, j));
                dl->AddRectFilled(ImVec2(o.x + 64 + j * bw, o.y + 26 - 24 * w),
                                  ImVec2(o.x + 64 + (j + 1) * bw - 1, o.y + 26),
                                  rgba(j == best ? p.highlight : p.weight, 0.85f), 1);
            }
            dl->AddText(small, fs * kSmallPx / kBodyPx, ImVec2(o.x, o.y + 4), rgba(p.muted),
                        ("head " + std::to_string(h + 1)).c_str());
            const std::string top = "top: “" + sent.tokens[static_cast<std::size_t>(best)] + "” " +
                                    format_number(hr.weights.at(f, best));
            dl->AddText(small, fs * kSmallPx / kBodyPx, ImVec2(o.x + 70 + strip, o.y + 4),
                        rgba(p.ink), top.c_str());
            ImGui::Dummy(ImVec2(W, 30));
        }
        Caption(t.residual_note, p);
        if (d.embeddings.rows > f && f >= 0 && d.sequence.output.rows > f) {
            ImGui::PushFont(strong);
            ImGui::TextUnformatted("x, the token's own vector (goes around attention):");
            ImGui::PopFont();
            VectorCells(attn::row(d.embeddings, f), p.muted, p, W);
            ImGui::PushFont(strong);
            ImGui::TextUnformatted("attention output for it (added to x):");
            ImGui::PopFont();
            VectorCells(attn::row(d.sequence.output, f), p.output, p, W);
        }
        EndCard(card);
    }

    // 3. The score is not the output.
    {
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
        if (r.scores.size() > n) scores += ", …";
        if (r.scores.size() > n) weights += ", …";
        ImGui::PushStyleColor(ImGuiCol_Text, p.score);
        Paragraph(scores);
        ImGui::PopStyleColor();
        ImGui::PushStyleColor(ImGuiCol_Text, p.weight);
        Paragraph(weights);
        ImGui::PopStyleColor();
        ImGui::PushFont(strong);
        ImGui::Text("Output (one vector of d = %d numbers):", r.d);
        ImGui::PopFont();
        VectorCells(r.output, p.output, p, W);
        EndCard(card);
    }
    return e;
}

}  // namespace app
