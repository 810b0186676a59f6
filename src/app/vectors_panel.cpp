// vectors_panel.cpp - ShowVectorsPanel: edit q, k_j, v_j (d = 2..8), see each dot product as its
// per-element products and their sum, the 1/√d scale, temperature, per-position and causal masks.
#include <algorithm>
#include <cmath>

#include "app_model.h"
#include "metrics.h"
#include "views.h"
#include "widgets.h"

namespace app {
namespace {

// One row of drag fields; returns the edits for changed components.
void VectorRow(const char* id, const attn::Vector& v, VectorEdit::Which which, int candidate,
               float width, bool editable, std::vector<VectorEdit>* out) {
    const int d = std::max(1, static_cast<int>(v.size()));
    const float sp = metrics::kVectorCellGap;
    const MinusSigns minus;  // "−0.50", as everywhere else, not printf's "-0.50"
    // Each field holds "−9.99" and its padding; a vector that does not fit one line at that width
    // wraps onto balanced lines (d = 8 at 320 px: two lines of 4), each under the first field.
    const float least = std::max(metrics::kVectorCellMin, FramedWidth("−9.99"));
    const int fit = std::max(1, static_cast<int>((width + sp) / (least + sp)));
    const int lines = (d + fit - 1) / fit;
    const int per_line = (d + lines - 1) / lines;
    const float cell = std::max(least, (width - sp * (per_line - 1)) / per_line);
    const float x0 = ImGui::GetCursorPosX();
    ImGui::PushID(id);
    ImGui::PushID(candidate);
    for (int i = 0; i < static_cast<int>(v.size()); ++i) {
        if (i % per_line != 0)
            ImGui::SameLine(0, sp);
        else if (i > 0)
            ImGui::SetCursorPosX(x0);
        ImGui::PushID(i);
        ImGui::SetNextItemWidth(cell);
        float f = static_cast<float>(v[static_cast<std::size_t>(i)]);
        if (editable) {
            if (ImGui::DragFloat("##c", &f, 0.02f, -9.99f, 9.99f, "%.2f",
                                 ImGuiSliderFlags_AlwaysClamp))
                out->push_back(VectorEdit{which, candidate, i, static_cast<double>(f)});
        } else {
            ImGui::BeginDisabled();
            ImGui::DragFloat("##c", &f, 0.0f, 0.0f, 0.0f, "%.2f");
            ImGui::EndDisabled();
        }
        ImGui::PopID();
    }
    ImGui::PopID();
    ImGui::PopID();
}

void Label(const char* text, const ImVec4& c, float w) {
    ImGui::PushStyleColor(ImGuiCol_Text, c);
    ImGui::AlignTextToFramePadding();
    ImGui::PushFont(font(FontRole::Strong));
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
    ImGui::PopStyleColor();
    ImGui::SameLine(w);
}

// d, Reset, the 1/√d switch, the causal mask, the temperature.
void VectorOptions(const AppState& s, const Derived& d, float W, bool editable, Edits& e) {
    const attn::Scenario& sc = s.scenario;
    if (editable) {
        int dd = d.focus.d;
        const float left = ImGui::GetCursorScreenPos().x;
        const char* d_label = "d (numbers per vector)";
        const float d_w = SliderWidth(d_label, W, metrics::kPickerFraction, metrics::kPickerMax);
        ImGui::SetNextItemWidth(d_w);
        if (ImGui::SliderInt(d_label, &dd, kMinD, kMaxD)) e.d = dd;
        SliderValuePlate(d_w, std::to_string(dd).c_str());
        // beside the slider's label where it fits; on a phone, under it
        SameLineIfRoom(FramedWidth("Reset"), left + W);
        if (ImGui::SmallButton("Reset")) e.reset = true;
    }
    bool scale = sc.options.scale;
    const std::string scale_label = "Divide by √d  (scale " + format_number(d.focus.scale, 3) + ")";
    if (ImGui::Checkbox(scale_label.c_str(), &scale)) e.scale = scale;
    bool causal = sc.options.causal;
    if (W >= metrics::kNarrowContent) ImGui::SameLine();
    if (ImGui::Checkbox("Causal mask (no later tokens)", &causal)) e.causal = causal;
    float temp = static_cast<float>(sc.options.temperature);
    const char* t_label = "Temperature T";
    const float t_w = SliderWidth(t_label, W, metrics::kSliderFraction, metrics::kSliderMax);
    ImGui::SetNextItemWidth(t_w);
    if (ImGui::SliderFloat(t_label, &temp, static_cast<float>(kMinTemperature),
                           static_cast<float>(kMaxTemperature), "%.2f",
                           ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        e.temperature = static_cast<double>(temp);
    SliderValuePlate(t_w, format_number(temp, 2).c_str());
}

// The dot product as its products and their sum, then the score and the weight.
std::string ProductLine(const Derived& d, CandidateIndex j, bool masked) {
    const attn::FocusResult& r = d.focus;
    const auto ju = static_cast<std::size_t>(j);
    std::string line = "q·k = ";
    const attn::Vector& prod = r.products[ju];
    for (std::size_t i = 0; i < prod.size(); ++i) {
        if (i) line += prod[i] < 0 ? " − " : " + ";
        line += format_number(i ? std::fabs(prod[i]) : prod[i]);
    }
    line += " = " + format_number(r.dot_products[ju]);
    line += ", × " + format_number(r.scale, 3) + " = score " + format_number(r.scores[ju]) +
            ",  weight " + (masked ? std::string("0 (masked)") : format_number(r.weights[ju], 3));
    return line;
}

// One candidate: its token, the attend switch (a per-candidate mask), k and v, the products.
void CandidateVectors(const AppState& s, const Derived& d, const Palette& p, float W, bool editable,
                      CandidateIndex j, Edits& e) {
    const attn::Scenario& sc = s.scenario;
    const attn::FocusResult& r = d.focus;
    const float label_w = 34.0f, field_w = W - label_w;
    const auto ju = static_cast<std::size_t>(j);
    const Position pos = d.positions[ju];
    const bool masked = attn::is_masked(r.mask[ju]);
    const bool is_hl = highlighted(s) == pos;
    ImGui::PushID(j);
    ImGui::Dummy(ImVec2(1, 2));
    const ImVec2 top = ImGui::GetCursorScreenPos();
    bool use = std::find(sc.denied.begin(), sc.denied.end(), pos) == sc.denied.end();
    ImGui::PushStyleColor(ImGuiCol_Text, is_hl ? p.highlight : (masked ? p.masked : p.ink));
    ImGui::PushFont(font(FontRole::Strong));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(d.candidate_tokens[ju].c_str());
    ImGui::PopFont();
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) e.hover = HoverReport{pos};
    ImGui::SameLine();
    if (ImGui::Checkbox("attend", &use)) e.toggle_mask = pos;
    if (ImGui::IsItemHovered() || ImGui::IsItemFocused()) e.hover = HoverReport{pos};
    if (masked) {
        const char* why = r.mask[ju] == attn::MaskReason::Causal    ? "masked: after the focus"
                          : r.mask[ju] == attn::MaskReason::Padding ? "masked: padding"
                                                                    : "masked by you";
        const float need = ImGui::CalcTextSize(why).x + ImGui::GetStyle().ItemSpacing.x;
        if (ImGui::GetContentRegionAvail().x - ImGui::GetItemRectSize().x > need + 8)
            ImGui::SameLine();
        ImGui::AlignTextToFramePadding();
        ColouredText(why, p.masked);
    }
    if (editable) {
        Label("k", p.score, label_w);
        VectorRow("k", sc.keys[ju], VectorEdit::Key, j, field_w, true, &e.vectors);
        if (ImGui::IsItemHovered() || ImGui::IsItemActive()) e.hover = HoverReport{pos};
        Label("v", p.output, label_w);
        VectorRow("v", sc.values[ju], VectorEdit::Value, j, field_w, true, &e.vectors);
        if (ImGui::IsItemHovered() || ImGui::IsItemActive()) e.hover = HoverReport{pos};
    }
    ImGui::PushFont(font(FontRole::Small));
    ImGui::PushStyleColor(ImGuiCol_Text, masked ? p.masked : p.ink);
    Paragraph(ProductLine(d, j, masked));
    ImGui::PopStyleColor();
    ImGui::PopFont();
    const ImVec2 bottom = ImGui::GetItemRectMax();
    if (is_hl)
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(top.x - 6, top.y - 2),
                                                  ImVec2(top.x + W - 2, bottom.y + 3),
                                                  rgba(p.highlight, 0.10f), 6);
    if (ImGui::IsMouseHoveringRect(ImVec2(top.x, top.y), ImVec2(top.x + W, bottom.y)) &&
        ImGui::IsWindowHovered())
        e.hover = HoverReport{pos};
    ImGui::PopID();
}

}  // namespace

Edits ShowVectorsPanel(const AppState& s, const Derived& d, const UiText& t) {
    Edits e;
    const Palette p = palette_for(s.theme);
    const Card card = BeginCard("##vectors", p);
    const float W = card.inner;
    const attn::Scenario& sc = s.scenario;
    const bool editable = is_vectors_kind(s);
    Strong("Query, keys and values");
    Caption(editable ? t.vectors_note : t.illustrative_note, p);
    VectorOptions(s, d, W, editable, e);
    Rule(W, p);
    const std::string focus_token = focus_label(sc);
    ImGui::PushStyleColor(ImGuiCol_Text, p.accent);
    Strong("Focus “" + focus_token + "”");
    ImGui::PopStyleColor();
    Label("q", p.accent, 34.0f);
    if (editable)
        VectorRow("q", sc.query, VectorEdit::Query, 0, W - 34.0f, true, &e.vectors);
    else
        Paragraph("(from the illustrative model, head 1)");
    // Every candidate, one after the other: the canvas grows (no inner list to scroll).
    for (CandidateIndex j = 0; j < static_cast<int>(d.focus.scores.size()); ++j)
        CandidateVectors(s, d, p, W, editable, j, e);
    if (!e.hover) e.hover = HoverReport{};
    EndCard(card);
    return e;
}

}  // namespace app
