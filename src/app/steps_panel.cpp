// steps_panel.cpp - ShowStepsPanel: the glossary's four-step diagram with the engine's numbers.
// Focus token + query on the left, candidates (key, value) in the middle, their scores, weights
// and the mixed output on the right. The current step is drawn strongest; Back / Next walk them.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "app_model.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

// How strongly column `k` (a step) is drawn when the eased step position is `at`.
float emphasis(double at, int k) {
    const double dist = std::fabs(at - k);
    return static_cast<float>(std::clamp(1.0 - dist, 0.0, 1.0));
}

// Candidates shown in the diagram: all if few, else the highest weights (the rest are listed).
std::vector<int> shown_candidates(const Derived& d, int limit) {
    std::vector<int> order(d.focus.weights.size());
    std::iota(order.begin(), order.end(), 0);
    if (static_cast<int>(order.size()) <= limit) return order;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return d.focus.weights[a] > d.focus.weights[b]; });
    order.resize(static_cast<std::size_t>(limit));
    std::sort(order.begin(), order.end());
    return order;
}

void Box(ImDrawList* dl, ImVec2 a, ImVec2 b, const Palette& p, const ImVec4& edge, float strength,
         bool filled) {
    dl->AddRectFilled(a, b, rgba(filled ? mix(p.surface, edge, 0.14f * strength) : p.surface),
                      7.0f);
    dl->AddRect(a, b, rgba(mix(p.border, edge, strength)), 7.0f, 0, 1.0f + strength);
}

}  // namespace

Edits ShowStepsPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##steps", p);
    const float W = card.inner;
    const bool narrow = W < 470;

    // Stepper: four numbered pills, Back / Next.
    for (int k = 0; k < kStepCount; ++k) {
        const char* short_names[] = {"Focus", "Compare", "Normalise", "Mix"};
        const std::string label =
            std::to_string(k + 1) + (narrow ? "" : std::string("  ") + short_names[k]);
        const float bw = narrow ? 34.0f : (W - 3 * 6.0f) / 4.0f;
        if (k > 0) ImGui::SameLine(0, 6);
        const bool on = s.step == k;
        ImGui::PushStyleColor(ImGuiCol_Button, on ? p.accent : p.surface_alt);
        ImGui::PushStyleColor(ImGuiCol_Text, on ? p.bg : p.ink);
        ImGui::PushStyleVar(ImGuiStyleVar_FrameRounding, 14.0f);
        ImGui::PushID(k);
        ImGui::PushFont(font(FontRole::Small));
        if (ImGui::Button(label.c_str(), ImVec2(bw, 0))) e.step = k;
        ImGui::PopFont();
        ImGui::PopID();
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(2);
    }
    if (narrow) {
        ImGui::SameLine();
        ImGui::PushFont(font(FontRole::Strong));
        ImGui::TextUnformatted(t.steps[s.step].title.c_str());
        ImGui::PopFont();
    }

    // The diagram.
    const std::vector<int> shown = shown_candidates(d, narrow ? 5 : 6);
    const int n = static_cast<int>(shown.size());
    const float row_h = narrow ? 40.0f : 46.0f;
    const float top_pad = 22.0f;
    const float H = std::max(150.0f, top_pad + n * row_h + 8);
    ImGui::Dummy(ImVec2(1, 4));
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* small = font(FontRole::Small);
    ImFont* strong = font(FontRole::Strong);
    const float fs_small = ImGui::GetFontSize() * kSmallPx / kBodyPx;
    const double at = s.anim_step;
    const float e0 = 0.25f + 0.75f * emphasis(at, 0), e1 = 0.25f + 0.75f * emphasis(at, 1),
                e2 = 0.25f + 0.75f * emphasis(at, 2), e3 = 0.25f + 0.75f * emphasis(at, 3);
    const int hl = highlighted(s);

    // column x positions (fractions of the width)
    const float x0a = o.x, x0b = o.x + W * 0.17f;
    const float x1a = o.x + W * 0.25f, x1b = o.x + W * 0.47f;
    const float xs = o.x + W * 0.57f, xw = o.x + W * 0.72f;
    const float x4a = o.x + W * 0.83f, x4b = o.x + W;
    const char* headers[] = {"focus", "candidates", "score", "weight", "output"};
    const float hx[] = {(x0a + x0b) / 2, (x1a + x1b) / 2, xs, xw, (x4a + x4b) / 2};
    const float he[] = {e0, e1, e1, e2, e3};
    for (int c = 0; c < 5; ++c)
        CentredText(dl, ImVec2(hx[c] - 40, o.y), ImVec2(hx[c] + 40, o.y + 16),
                    rgba(mix(p.muted, p.accent, he[c] > 0.9f ? 1.0f : 0.0f)), headers[c], small);

    const float mid = o.y + top_pad + n * row_h * 0.5f;
    // focus token + query chip
    const attn::Scenario& sc = s.scenario;
    const std::string focus_token = focus_label(sc);
    const ImVec2 fa(x0a, mid - 26), fb(x0b, mid + 26);
    Box(dl, fa, fb, p, p.accent, e0, true);
    CentredTextFit(dl, ImVec2(fa.x, fa.y + 4), ImVec2(fb.x, mid + 2), rgba(p.ink), focus_token,
                   strong);
    CentredText(dl, ImVec2(fa.x, mid + 2), ImVec2(fb.x, fb.y - 4), rgba(p.accent, 0.5f + 0.5f * e0),
                "query q", small);

    // output box
    const ImVec2 oa(x4a, mid - 26), ob(x4b, mid + 26);
    Box(dl, oa, ob, p, p.output, e3, true);
    CentredText(dl, ImVec2(oa.x, oa.y + 4), ImVec2(ob.x, mid + 2), rgba(p.ink),
                narrow ? "out" : "new vector", strong);
    CentredText(dl, ImVec2(oa.x, mid + 2), ImVec2(ob.x, ob.y - 4), rgba(p.output, 0.5f + 0.5f * e3),
                narrow ? "Σ w·v" : "Σ w·v  (d = " + std::to_string(d.focus.d) + ")", small);

    for (int r = 0; r < n; ++r) {
        const int j = shown[static_cast<std::size_t>(r)];
        const int pos = d.positions[static_cast<std::size_t>(j)];
        const bool masked = attn::is_masked(d.focus.mask[static_cast<std::size_t>(j)]);
        const bool is_hl = hl == pos;
        const float y = o.y + top_pad + r * row_h + row_h * 0.5f;
        const float fade = (hl >= 0 && !is_hl) ? 0.45f : 1.0f;
        if (is_hl)
            dl->AddRectFilled(ImVec2(x1a - 6, y - row_h * 0.5f + 2),
                              ImVec2(x4a - 8, y + row_h * 0.5f - 2), rgba(p.highlight, 0.13f),
                              8.0f);
        // query -> key
        dl->AddBezierCubic(ImVec2(x0b, mid), ImVec2(x0b + (x1a - x0b) * 0.5f, mid),
                           ImVec2(x0b + (x1a - x0b) * 0.5f, y), ImVec2(x1a, y),
                           rgba(mix(p.border, p.accent, e1), fade), 1.0f + e1);
        // candidate box: token, k and v chips
        const ImVec2 ca(x1a, y - row_h * 0.5f + 5), cb(x1b, y + row_h * 0.5f - 5);
        Box(dl, ca, cb, p, is_hl ? p.highlight : p.accent, is_hl ? 1.0f : e1 * 0.8f, false);
        const std::string tok = d.candidate_tokens[static_cast<std::size_t>(j)];
        const float split = ca.x + (cb.x - ca.x) * (narrow ? 1.0f : 0.58f);
        CentredTextFit(dl, ca, ImVec2(split, cb.y), rgba(masked ? p.masked : p.ink, fade), tok,
                       strong);
        if (!narrow) {
            CentredText(dl, ImVec2(split, ca.y), ImVec2(cb.x, (ca.y + cb.y) / 2),
                        rgba(p.accent, (0.4f + 0.6f * e1) * fade), "key k", small);
            CentredText(dl, ImVec2(split, (ca.y + cb.y) / 2), ImVec2(cb.x, cb.y),
                        rgba(p.output, (0.4f + 0.6f * e3) * fade), "value v", small);
        }
        // comparison circle + score
        const float sc_r = narrow ? 15.0f : 19.0f;
        dl->AddLine(ImVec2(x1b, y), ImVec2(xs - sc_r, y), rgba(mix(p.border, p.score, e1), fade),
                    1 + e1);
        dl->AddCircleFilled(ImVec2(xs, y), sc_r, rgba(mix(p.surface, p.score, 0.12f * e1)));
        dl->AddCircle(ImVec2(xs, y), sc_r, rgba(mix(p.border, p.score, e1), fade), 0, 1 + e1);
        // Printed numbers are always the engine's; only bar lengths ease (shown_*).
        const double score = d.focus.scores[static_cast<std::size_t>(j)];
        CentredText(dl, ImVec2(xs - sc_r, y - sc_r), ImVec2(xs + sc_r, y + sc_r),
                    rgba(score < 0 ? p.negative : p.score, (0.45f + 0.55f * e1) * fade),
                    format_number(score, narrow ? 1 : 2), strong);
        // weight
        dl->AddLine(ImVec2(xs + sc_r, y), ImVec2(xw - (narrow ? 19.0f : 26.0f), y),
                    rgba(mix(p.border, p.weight, e2), fade), 1 + e2);
        const double wgt = j < static_cast<int>(s.shown_weights.size()) ? s.shown_weights[j] : 0.0;
        const float half = narrow ? 19.0f : 26.0f;
        const ImVec2 wa(xw - half, y - 12), wb(xw + half, y + 12);
        dl->AddRectFilled(wa, wb, rgba(mix(p.surface, p.weight, 0.10f * e2)), 6.0f);
        dl->AddRectFilled(ImVec2(wa.x, wb.y - 3),
                          ImVec2(wa.x + (wb.x - wa.x) * static_cast<float>(wgt), wb.y),
                          rgba(p.weight, e2 * fade), 2.0f);
        CentredText(
            dl, wa, wb, rgba(masked ? p.masked : p.weight, (0.45f + 0.55f * e2) * fade),
            masked ? t.masked_note : format_number(d.focus.weights[static_cast<std::size_t>(j)], 2),
            strong);
        // weighted value -> output
        const float thick = 1.0f + 5.0f * static_cast<float>(wgt) * e3;
        dl->AddBezierCubic(ImVec2(wb.x, y), ImVec2(wb.x + (x4a - wb.x) * 0.5f, y),
                           ImVec2(wb.x + (x4a - wb.x) * 0.5f, mid), ImVec2(x4a, mid),
                           rgba(mix(p.border, p.output, e3), masked ? 0.3f : fade), thick);
        (void)fs_small;
        // hover / tap / keyboard focus over the whole row
        ImGui::SetCursorScreenPos(ImVec2(x1a - 6, y - row_h * 0.5f + 2));
        ImGui::PushID(pos);
        bool clicked = false;
        if (CandidateHit("##cand", ImVec2(x4a - x1a, row_h - 4), &clicked)) e.hover = pos;
        if (clicked) e.pinned = pos;
        ImGui::PopID();
    }
    if (!e.hover) e.hover = -1;
    ImGui::SetCursorScreenPos(ImVec2(o.x, o.y + H));
    if (static_cast<int>(d.focus.weights.size()) > n)
        Caption("Showing the " + std::to_string(n) + " highest weights of " +
                    std::to_string(d.focus.weights.size()) +
                    " candidates; the charts list all of them.",
                p);

    // Step text and the engine's numbers for it.
    ImGui::Dummy(ImVec2(1, 2));
    ImGui::PushStyleColor(ImGuiCol_Text, p.accent);
    Strong("Step " + std::to_string(s.step + 1) + " of 4 · " + t.steps[s.step].title);
    ImGui::PopStyleColor();
    Paragraph(t.steps[s.step].summary);
    const int j = [&] {
        for (std::size_t k = 0; k < d.positions.size(); ++k)
            if (d.positions[k] == hl) return static_cast<int>(k);
        return shown.empty() ? -1 : shown.front();
    }();
    if (j >= 0) {
        const auto ju = static_cast<std::size_t>(j);
        const std::string tok = d.candidate_tokens[ju];
        std::string line;
        if (s.step == 0) {
            line = "Focus “" + focus_token + "”: its query q has " + std::to_string(d.focus.d) +
                   " numbers. " + std::to_string(d.focus.scores.size()) + " candidates to compare.";
        } else if (s.step == 1) {
            line = "q · k(" + tok + ") = " + format_number(d.focus.dot_products[ju]) + ",  × " +
                   (sc.options.scale ? "1/√" + std::to_string(d.focus.d) + " = " : "") +
                   format_number(d.focus.scale, 3) + "  →  score " +
                   format_number(d.focus.scores[ju]);
        } else if (s.step == 2) {
            line = "score " + format_number(d.focus.scores[ju]) + " / T " +
                   format_number(d.focus.temperature) + "  →  softmax  →  weight " +
                   format_number(d.focus.weights[ju], 3) + "   (all weights sum to " +
                   format_number(d.focus.weight_sum, 3) + ")";
        } else {
            line = "w(" + tok + ") × v(" + tok + ") = [";
            const attn::Vector& c = d.focus.contributions[ju];
            for (std::size_t i = 0; i < c.size(); ++i)
                line += (i ? ", " : "") + format_number(c[i]);
            line += "]  is its share of the output.";
        }
        ImGui::PushFont(strong);
        Paragraph(line);
        ImGui::PopFont();
    }
    if (d.focus.status == attn::RowStatus::AllMasked) {
        ImGui::PushStyleColor(ImGuiCol_Text, p.error);
        Paragraph(t.all_masked_note);
        ImGui::PopStyleColor();
    }
    Caption(t.steps[s.step].detail, p);

    ImGui::Dummy(ImVec2(1, 2));
    if (StepButton("←  Back", ImVec2(110, 0), s.step > 0, false, p)) e.step = s.step - 1;
    ImGui::SameLine();
    if (StepButton("Next  →", ImVec2(110, 0), s.step < kStepCount - 1, true, p))
        e.step = s.step + 1;
    EndCard(card);
    return e;
}

}  // namespace app
