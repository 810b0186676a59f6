// steps_panel.cpp - ShowStepsPanel: the glossary's four-step diagram with the engine's numbers.
// Focus token + query on the left, candidates (key, value) in the middle, their scores, weights
// and the mixed output on the right. The current step is drawn strongest; Back / Next walk them.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "app_model.h"
#include "metrics.h"
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

const StepText& step_text(const UiText& t, Step step) {
    return t.steps[static_cast<std::size_t>(to_int(step))];
}

// Four numbered pills (the step names when there is room); a click picks the step.
void Stepper(const AppState& s, const UiText& t, const Palette& p, float W, bool narrow, Edits& e) {
    const char* short_names[] = {"Focus", "Compare", "Normalise", "Mix"};
    for (int k = 0; k < kStepCount; ++k) {
        const std::string label =
            std::to_string(k + 1) + (narrow ? "" : std::string("  ") + short_names[k]);
        const float bw = narrow ? 34.0f : (W - 3 * 6.0f) / 4.0f;
        if (k > 0) ImGui::SameLine(0, 6);
        const bool on = to_int(s.step) == k;
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
    if (narrow) {  // the step's name on its own line: never squeezed beside the pills
        ImGui::PushFont(font(FontRole::Strong));
        ImGui::TextUnformatted(step_text(t, s.step).title.c_str());
        ImGui::PopFont();
    }
}

// The diagram's frame: column x positions, row height, the eased emphasis of each step.
struct Diagram {
    ImDrawList* dl;
    ImFont* small;
    ImFont* strong;
    ImVec2 o;
    bool narrow;
    float row_h, top_pad, mid;
    float score_r;      // the score circles' radius: room for the widest printed score
    float weight_half;  // half the width of a weight pill
    float x0a, x0b, x1a, x1b, xs, xw, x4a, x4b;  // focus, candidates, score, weight, output
    float e0, e1, e2, e3;                        // how strongly each step is drawn (0.25..1)
    std::optional<Position> hl;
};

// A score as its circle prints it: one decimal on a phone, two otherwise.
std::string PrintedScore(double score, bool narrow) { return format_number(score, narrow ? 1 : 2); }

Diagram LayOutDiagram(const AppState& s, const Derived& d, float W, bool narrow,
                      const std::vector<CandidateIndex>& shown) {
    const int rows = static_cast<int>(shown.size());
    Diagram g{};
    g.dl = ImGui::GetWindowDrawList();
    g.small = font(FontRole::Small);
    g.strong = font(FontRole::Strong);
    g.o = ImGui::GetCursorScreenPos();
    g.narrow = narrow;
    g.row_h = narrow ? metrics::kStepRowNarrow : metrics::kStepRowWide;
    g.top_pad = 22.0f;
    g.mid = g.o.y + g.top_pad + rows * g.row_h * 0.5f;
    // column x positions (fractions of the width); on a phone the token boxes get more room
    if (narrow) {
        g.x0a = g.o.x, g.x0b = g.o.x + W * 0.19f;
        g.x1a = g.o.x + W * 0.23f, g.x1b = g.o.x + W * 0.52f;
        g.xs = g.o.x + W * 0.61f, g.xw = g.o.x + W * 0.77f;
        g.x4a = g.o.x + W * 0.875f, g.x4b = g.o.x + W;
    } else {
        g.x0a = g.o.x, g.x0b = g.o.x + W * 0.17f;
        g.x1a = g.o.x + W * 0.24f, g.x1b = g.o.x + W * 0.48f;
        g.xs = g.o.x + W * 0.585f, g.xw = g.o.x + W * 0.735f;
        g.x4a = g.o.x + W * 0.84f, g.x4b = g.o.x + W;
    }
    // The circles grow (up to the row's height and the gaps beside them) until the widest score
    // clears the rim by 5 px on either side: a 320 px phone's "−0.7" would touch it at the minimum.
    const float size = g.strong->FontSize * ImGui::GetIO().FontGlobalScale;
    float widest = 0;
    for (const CandidateIndex j : shown) {
        const std::string score = PrintedScore(d.focus.scores[static_cast<std::size_t>(j)], narrow);
        widest = std::max(widest, g.strong->CalcTextSizeA(size, 1e9f, 0.0f, score.c_str()).x);
    }
    const float least = narrow ? metrics::kScoreRadiusNarrow : metrics::kScoreRadiusWide;
    g.weight_half = narrow ? metrics::kWeightHalfNarrow : metrics::kWeightHalfWide;
    const float most =
        std::min({g.row_h * 0.5f - 1, g.xs - g.x1b - 3, g.xw - g.weight_half - g.xs - 3});
    g.score_r = std::clamp(widest * 0.5f + 5, least, std::max(least, most));
    const double at = s.anim_step;
    g.e0 = 0.25f + 0.75f * emphasis(at, 0), g.e1 = 0.25f + 0.75f * emphasis(at, 1);
    g.e2 = 0.25f + 0.75f * emphasis(at, 2), g.e3 = 0.25f + 0.75f * emphasis(at, 3);
    g.hl = highlighted(s);
    return g;
}

// Column headers, the focus token with its query, the output box.
void DrawEnds(const Diagram& g, const AppState& s, const Derived& d, const Palette& p) {
    const char* headers[] = {"focus", "candidates", "score", "weight", "output"};
    const float hx[] = {(g.x0a + g.x0b) / 2, (g.x1a + g.x1b) / 2, g.xs, g.xw, (g.x4a + g.x4b) / 2};
    const float he[] = {g.e0, g.e1, g.e1, g.e2, g.e3};
    // In a wide font the headers meet on a phone ("weightoutput"): all shrink by one factor
    // (down to 0.75) until neighbours clear each other by 4 px and the last ends in the card.
    const float size = g.small->FontSize * ImGui::GetIO().FontGlobalScale;
    float w[5], scale = 1;
    for (int c = 0; c < 5; ++c) w[c] = g.small->CalcTextSizeA(size, 1e9f, 0.0f, headers[c]).x;
    for (int c = 0; c < 4; ++c)
        scale = std::min(scale, (hx[c + 1] - hx[c] - 4) / ((w[c] + w[c + 1]) / 2));
    scale = std::max(0.75f, std::min(scale, 2 * (g.x4b + 8 - hx[4]) / w[4]));
    for (int c = 0; c < 5; ++c)
        g.dl->AddText(g.small, size * scale,
                      ImVec2(hx[c] - w[c] * scale / 2, g.o.y + (16 - size * scale) / 2),
                      rgba(mix(p.muted, p.accent, he[c] > 0.9f ? 1.0f : 0.0f)), headers[c]);
    const float mid = g.mid;
    const ImVec2 fa(g.x0a, mid - 26), fb(g.x0b, mid + 26);
    Box(g.dl, fa, fb, p, p.accent, g.e0, true);
    // The focus token in full: on one line with "q" below it, or, when it does not fit the box,
    // on two lines over the whole box (the query is named in the step's text).
    const std::string focus = focus_label(s.scenario);
    const float room = fb.x - fa.x - 8;
    const float one_line = g.strong
                               ->CalcTextSizeA(g.strong->FontSize * ImGui::GetIO().FontGlobalScale,
                                               1e9f, 0.0f, focus.c_str())
                               .x;
    if (one_line <= room) {
        CentredText(g.dl, ImVec2(fa.x + 2, fa.y + 4), ImVec2(fb.x - 2, mid + 2), rgba(p.ink), focus,
                    g.strong);
        CentredText(g.dl, ImVec2(fa.x, mid + 2), ImVec2(fb.x, fb.y - 4),
                    rgba(p.accent, 0.5f + 0.5f * g.e0), g.narrow ? "q" : "query q", g.small);
    } else {
        CentredTextFit(g.dl, ImVec2(fa.x + 2, fa.y + 2), ImVec2(fb.x - 2, fb.y - 2), rgba(p.ink),
                       focus, g.strong);
    }
    const ImVec2 oa(g.x4a, mid - 26), ob(g.x4b, mid + 26);
    Box(g.dl, oa, ob, p, p.output, g.e3, true);
    CentredText(g.dl, ImVec2(oa.x, oa.y + 4), ImVec2(ob.x, mid + 2), rgba(p.ink),
                g.narrow ? "out" : "new vector", g.strong);
    // the formula under "out": the longest form that fits inside the box (a 320 px phone's is
    // about 27 px wide)
    const auto fits = [&](const std::string& t) {
        return g.small->CalcTextSizeA(size, 1e9f, 0.0f, t.c_str()).x <= ob.x - oa.x - 6;
    };
    std::string formula = g.narrow ? "Σ w·v" : "Σ w·v  (d = " + std::to_string(d.focus.d) + ")";
    for (const char* shorter : {"Σ w·v", "Σw·v", "Σ"}) {
        if (fits(formula)) break;
        formula = shorter;
    }
    CentredText(g.dl, ImVec2(oa.x, mid + 2), ImVec2(ob.x, ob.y - 4),
                rgba(p.output, 0.5f + 0.5f * g.e3), formula, g.small);
}

// A printed score or weight: its chart colour pulled a third of the way to the text colour, so it
// reads at 6:1 or more on its pill in either theme; before its step it rests at kNumberRest
// opacity (3.3:1 or more: readable, plainly not yet computed) while the bars and curves fade
// further.
constexpr float kNumberRest = 0.75f;
ImVec4 NumberInk(const Palette& p, const ImVec4& chart) { return mix(chart, p.ink, 0.33f); }

// One candidate row: query -> key curve, the candidate box, score circle, weight pill, the
// weighted value's curve to the output; the whole row is one hover / tap / keyboard target.
void CandidateRow(const Diagram& g, const AppState& s, const Derived& d, const UiText& t,
                  const Palette& p, int r, CandidateIndex j, Edits& e) {
    ImDrawList* dl = g.dl;
    const auto ju = static_cast<std::size_t>(j);
    const Position pos = d.positions[ju];
    const bool masked = attn::is_masked(d.focus.mask[ju]);
    const bool is_hl = g.hl == pos;
    const float y = g.o.y + g.top_pad + r * g.row_h + g.row_h * 0.5f, mid = g.mid;
    const float fade = (g.hl && !is_hl) ? 0.45f : 1.0f;
    if (is_hl)
        dl->AddRectFilled(ImVec2(g.x1a - 6, y - g.row_h * 0.5f + 2),
                          ImVec2(g.x4a - 8, y + g.row_h * 0.5f - 2), rgba(p.highlight, 0.13f),
                          8.0f);
    dl->AddBezierCubic(ImVec2(g.x0b, mid), ImVec2(g.x0b + (g.x1a - g.x0b) * 0.5f, mid),
                       ImVec2(g.x0b + (g.x1a - g.x0b) * 0.5f, y), ImVec2(g.x1a, y),
                       rgba(mix(p.border, p.accent, g.e1), fade), 1.0f + g.e1);
    const ImVec2 ca(g.x1a, y - g.row_h * 0.5f + 5), cb(g.x1b, y + g.row_h * 0.5f - 5);
    Box(dl, ca, cb, p, is_hl ? p.highlight : p.accent, is_hl ? 1.0f : g.e1 * 0.8f, false);
    const float split = ca.x + (cb.x - ca.x) * (g.narrow ? 1.0f : metrics::kKeyColumnFraction);
    CentredTextFit(dl, ca, ImVec2(split, cb.y), rgba(masked ? p.masked : p.ink, fade),
                   d.candidate_tokens[ju], g.strong);
    if (!g.narrow) {
        CentredText(dl, ImVec2(split, ca.y), ImVec2(cb.x, (ca.y + cb.y) / 2),
                    rgba(p.accent, (0.4f + 0.6f * g.e1) * fade), "key k", g.small);
        CentredText(dl, ImVec2(split, (ca.y + cb.y) / 2), ImVec2(cb.x, cb.y),
                    rgba(p.output, (0.4f + 0.6f * g.e3) * fade), "value v", g.small);
    }
    const float sc_r = g.score_r;
    dl->AddLine(ImVec2(g.x1b, y), ImVec2(g.xs - sc_r, y), rgba(mix(p.border, p.score, g.e1), fade),
                1 + g.e1);
    dl->AddCircleFilled(ImVec2(g.xs, y), sc_r, rgba(mix(p.surface, p.score, 0.12f * g.e1)));
    dl->AddCircle(ImVec2(g.xs, y), sc_r, rgba(mix(p.border, p.score, g.e1), fade), 0, 1 + g.e1);
    // Printed numbers are always the engine's; only bar lengths ease (shown_*).
    const double score = d.focus.scores[ju];
    CentredTextFit(dl, ImVec2(g.xs - sc_r + 1, y - sc_r), ImVec2(g.xs + sc_r - 1, y + sc_r),
                   rgba(NumberInk(p, score < 0 ? p.negative : p.score),
                        (kNumberRest + (1 - kNumberRest) * g.e1) * fade),
                   PrintedScore(score, g.narrow), g.strong);
    const float half = g.weight_half;
    dl->AddLine(ImVec2(g.xs + sc_r, y), ImVec2(g.xw - half, y),
                rgba(mix(p.border, p.weight, g.e2), fade), 1 + g.e2);
    const double wgt = ju < s.shown_weights.size() ? s.shown_weights[ju] : 0.0;
    const ImVec2 wa(g.xw - half, y - 12), wb(g.xw + half, y + 12);
    dl->AddRectFilled(wa, wb, rgba(mix(p.surface, p.weight, 0.10f * g.e2)), 6.0f);
    dl->AddRectFilled(ImVec2(wa.x, wb.y - 3),
                      ImVec2(wa.x + (wb.x - wa.x) * static_cast<float>(wgt), wb.y),
                      rgba(p.weight, g.e2 * fade), 2.0f);
    CentredTextFit(dl, wa, wb,
                   rgba(masked ? p.masked : NumberInk(p, p.weight),
                        (kNumberRest + (1 - kNumberRest) * g.e2) * fade),
                   masked ? t.masked_note : format_number(d.focus.weights[ju], 2), g.strong);
    const float thick = 1.0f + 5.0f * static_cast<float>(wgt) * g.e3;
    dl->AddBezierCubic(ImVec2(wb.x, y), ImVec2(wb.x + (g.x4a - wb.x) * 0.5f, y),
                       ImVec2(wb.x + (g.x4a - wb.x) * 0.5f, mid), ImVec2(g.x4a, mid),
                       rgba(mix(p.border, p.output, g.e3), masked ? 0.3f : fade), thick);
    ImGui::SetCursorScreenPos(ImVec2(g.x1a - 6, y - g.row_h * 0.5f + 2));
    ImGui::PushID(pos);
    bool clicked = false;
    if (CandidateHit("##cand", ImVec2(g.x4a - g.x1a, g.row_h - 4), &clicked))
        e.hover = HoverReport{pos};
    if (clicked) e.pinned = pos;
    ImGui::PopID();
}

// The current step's arithmetic for one candidate, with the engine's numbers.
std::string StepArithmetic(const AppState& s, const Derived& d, CandidateIndex j) {
    const auto ju = static_cast<std::size_t>(j);
    const std::string tok = d.candidate_tokens[ju];
    switch (s.step) {
        case Step::ChooseFocus:
            return "Focus “" + focus_label(s.scenario) + "”: its query q has " +
                   std::to_string(d.focus.d) + " numbers. " +
                   std::to_string(d.focus.scores.size()) + " candidates to compare.";
        case Step::Compare:  // reads as arithmetic: q · k = −1.40, × 0.500 = −0.70
            return "“" + tok + "”: q · k = " + format_number(d.focus.dot_products[ju]) + ", × " +
                   format_number(d.focus.scale, 3) + " = " + format_number(d.focus.scores[ju]) +
                   (s.scenario.options.scale
                        ? "   (the scale is 1/√d = 1/√" + std::to_string(d.focus.d) + ")"
                        : "   (scaling is off: × 1)");
        case Step::Normalise:
            return "score " + format_number(d.focus.scores[ju]) + " / T " +
                   format_number(d.focus.temperature) + "  →  softmax  →  weight " +
                   format_number(d.focus.weights[ju], 3) + "   (all weights sum to " +
                   format_number(d.focus.weight_sum, 3) + ")";
        case Step::Mix: {
            std::string line = "w(" + tok + ") × v(" + tok + ") = [";
            const attn::Vector& c = d.focus.contributions[ju];
            for (std::size_t i = 0; i < c.size(); ++i)
                line += (i ? ", " : "") + format_number(c[i]);
            return line + "]  is its share of the output.";
        }
    }
    return "";
}

// The step's title, summary, arithmetic (for the highlighted or heaviest shown candidate), detail,
// and Back / Next.
void ExplainStep(const AppState& s, const Derived& d, const UiText& t, const Palette& p,
                 const std::vector<CandidateIndex>& shown, Edits& e) {
    const StepText& st = step_text(t, s.step);
    ImGui::Dummy(ImVec2(1, 2));
    ImGui::PushStyleColor(ImGuiCol_Text, p.accent);
    Strong("Step " + std::to_string(to_int(s.step) + 1) + " of 4 · " + st.title);
    ImGui::PopStyleColor();
    Paragraph(st.summary);
    // The worked line is for the highlighted candidate, else the shown one with the largest
    // weight (the one that shapes the output; the first shown may carry none).
    const std::optional<Position> hl = highlighted(s);
    CandidateIndex j = shown.empty() ? -1 : shown.front();
    const auto weight = [&d](CandidateIndex k) {
        const auto at = static_cast<std::size_t>(k);
        return at < d.focus.weights.size() ? d.focus.weights[at] : 0.0;
    };
    for (CandidateIndex k : shown)
        if (weight(k) > weight(j)) j = k;
    for (std::size_t k = 0; k < d.positions.size(); ++k)
        if (d.positions[k] == hl) j = static_cast<CandidateIndex>(k);
    if (j >= 0) {
        ImGui::PushFont(font(FontRole::Strong));
        Paragraph(StepArithmetic(s, d, j));
        ImGui::PopFont();
    }
    if (d.focus.status == attn::RowStatus::AllMasked) {
        ImGui::PushStyleColor(ImGuiCol_Text, p.error);
        Paragraph(t.all_masked_note);
        ImGui::PopStyleColor();
    }
    Caption(st.detail, p);
    ImGui::Dummy(ImVec2(1, 2));
    const int k = to_int(s.step);
    const float bw = std::min(110.0f, (ImGui::GetContentRegionAvail().x - 8) * 0.5f - 4);
    if (StepButton("←  Back", ImVec2(bw, 0), k > 0, false, p)) e.step = k - 1;
    ImGui::SameLine(0, 8);
    if (StepButton("Next  →", ImVec2(bw, 0), k < kStepCount - 1, true, p)) e.step = k + 1;
}

}  // namespace

Edits ShowStepsPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##steps", p);
    const float W = card.inner;
    const bool narrow = W < metrics::kNarrowContent;
    Stepper(s, t, p, W, narrow, e);
    const std::vector<CandidateIndex> shown =
        shown_candidates(d, narrow ? metrics::kStepCandidatesNarrow : metrics::kStepCandidatesWide);
    const int n = static_cast<int>(shown.size());
    ImGui::Dummy(ImVec2(1, 4));
    const Diagram g = LayOutDiagram(s, d, W, narrow, shown);
    DrawEnds(g, s, d, p);
    for (int r = 0; r < n; ++r)
        CandidateRow(g, s, d, t, p, r, shown[static_cast<std::size_t>(r)], e);
    if (!e.hover) e.hover = HoverReport{};
    ImGui::SetCursorScreenPos(ImVec2(g.o.x, g.o.y + std::max(150.0f, g.top_pad + n * g.row_h + 8)));
    if (static_cast<int>(d.focus.weights.size()) > n)
        Caption("Showing the " + std::to_string(n) + " highest weights of " +
                    std::to_string(d.focus.weights.size()) +
                    " candidates; the charts list all of them.",
                p);
    ExplainStep(s, d, t, p, shown, e);
    EndCard(card);
    return e;
}

}  // namespace app
