// widgets.cpp - see widgets.h.
#include "widgets.h"

#include <algorithm>

namespace app {

Card BeginCard(const char* id, const Palette& p, bool emphasised) {
    Card c;
    c.id = ImGui::GetID(id);
    c.min = ImGui::GetCursorScreenPos();
    c.width = ImGui::GetContentRegionAvail().x;
    c.inner = std::max(40.0f, c.width - 2 * kCardPad);
    const float h = ImGui::GetStateStorage()->GetFloat(c.id, 0.0f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (h > 0) {
        const ImVec2 max(c.min.x + c.width, c.min.y + h);
        dl->AddRectFilled(c.min, max, rgba(p.surface), 10.0f);
        dl->AddRect(c.min, max, rgba(emphasised ? p.accent : p.border, emphasised ? 0.7f : 1.0f),
                    10.0f, 0, emphasised ? 1.5f : 1.0f);
    }
    ImGui::PushID(id);
    ImGui::SetCursorScreenPos(ImVec2(c.min.x + kCardPad, c.min.y + kCardPad - 2));
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + c.inner);
    ImGui::PushItemWidth(c.inner);
    return c;
}

void EndCard(const Card& c) {
    ImGui::PopItemWidth();
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    const float bottom = ImGui::GetItemRectMax().y + kCardPad - 2;
    ImGui::GetStateStorage()->SetFloat(c.id, bottom - c.min.y);
    ImGui::PopID();
    ImGui::SetCursorScreenPos(ImVec2(c.min.x, bottom));
    ImGui::Dummy(ImVec2(c.width, 4.0f));
}

int Segmented(const char* id, const char* const* labels, int count, int selected, const Palette& p,
              float max_width) {
    int clicked = -1;
    ImGui::PushID(id);
    const ImGuiStyle& st = ImGui::GetStyle();
    const float left = ImGui::GetCursorPosX();
    float x = 0;
    for (int i = 0; i < count; ++i) {
        const float w = ImGui::CalcTextSize(labels[i]).x + st.FramePadding.x * 2 + 8;
        if (i > 0) {
            if (x + st.ItemSpacing.x * 0.5f + w <= max_width) {
                ImGui::SameLine(0, st.ItemSpacing.x * 0.5f);
                x += st.ItemSpacing.x * 0.5f;
            } else {
                ImGui::SetCursorPosX(left);
                x = 0;
            }
        }
        const bool on = i == selected;
        ImGui::PushStyleColor(ImGuiCol_Button, on ? p.accent : p.surface);
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered,
                              on ? p.accent : mix(p.surface, p.accent, 0.12f));
        ImGui::PushStyleColor(ImGuiCol_ButtonActive,
                              on ? p.accent : mix(p.surface, p.accent, 0.24f));
        ImGui::PushStyleColor(ImGuiCol_Text, on ? p.bg : p.ink);
        ImGui::PushStyleColor(ImGuiCol_Border, on ? p.accent : p.border);
        ImGui::PushStyleVar(ImGuiStyleVar_FrameRounding, 14.0f);
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(st.FramePadding.x + 4, 6));
        if (ImGui::Button(labels[i], ImVec2(w, 0))) clicked = i;
        ImGui::PopStyleVar(2);
        ImGui::PopStyleColor(5);
        x += w;
    }
    ImGui::PopID();
    return clicked;
}

void Heading(const std::string& text) {
    ImGui::PushFont(font(FontRole::Heading));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopFont();
}

void Strong(const std::string& text) {
    ImGui::PushFont(font(FontRole::Strong));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopFont();
}

void Caption(const std::string& text, const Palette& p) {
    ImGui::PushFont(font(FontRole::Small));
    ImGui::PushStyleColor(ImGuiCol_Text, p.muted);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void Paragraph(const std::string& text) {
    ImGui::TextWrapped("%s", text.c_str());
}

void ColouredText(const std::string& text, const ImVec4& c) {
    ImGui::PushStyleColor(ImGuiCol_Text, c);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
}

bool CandidateHit(const char* id, ImVec2 size, bool* clicked) {
    *clicked = ImGui::InvisibleButton(id, size);
    return ImGui::IsItemHovered() || ImGui::IsItemFocused() || ImGui::IsItemActive();
}

void CentredText(ImDrawList* dl, ImVec2 min, ImVec2 max, ImU32 col, const std::string& text,
                 ImFont* f) {
    if (!f) f = ImGui::GetFont();
    const float size = f->FontSize * ImGui::GetIO().FontGlobalScale;
    const ImVec2 t = f->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str());
    dl->AddText(f, size, ImVec2((min.x + max.x - t.x) * 0.5f, (min.y + max.y - t.y) * 0.5f), col,
                text.c_str());
}

}  // namespace app
