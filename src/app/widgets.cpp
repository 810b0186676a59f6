// widgets.cpp - see widgets.h.
#include "widgets.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace app {

// ImGui 1.86 also breaks lines after '.' and ',', which splits numbers such as 1.8 or 1.000.
// This breaks at spaces only (a word longer than the width keeps its own line). Each word is
// measured once: ImGui 1.86 has no kerning, so a line's width is the sum of its words' and spaces'
// (within float rounding: a sum within 0.01 px of the width is measured whole, as ImGui would).
std::string WrapAtSpaces(const std::string& text, ImFont* f, float size, float width) {
    const auto width_of = [&](std::size_t b, std::size_t e) {
        return f->CalcTextSizeA(size, 1e9f, 0, text.data() + b, text.data() + e).x;
    };
    const float space = f->CalcTextSizeA(size, 1e9f, 0, " ").x;
    std::string out;
    out.reserve(text.size());
    std::size_t line_len = 0;  // bytes on the current line (the tail of out)
    float line_w = 0;
    const auto too_wide = [&](std::size_t i, std::size_t j, float sum) {
        if (std::fabs(sum - width) > 0.01f) return sum > width;
        const std::string candidate =
            out.substr(out.size() - line_len) + " " + text.substr(i, j - i);
        return f->CalcTextSizeA(size, 1e9f, 0, candidate.c_str()).x > width;
    };
    for (std::size_t i = 0; i <= text.size();) {
        const std::size_t j = std::min(text.find_first_of(" \n", i), text.size());
        const float w = width_of(i, j);
        if (line_len == 0) {
            line_w = w;
        } else if (too_wide(i, j, line_w + space + w)) {
            out += '\n';
            line_len = 0;
            line_w = w;
        } else {
            out += ' ';
            ++line_len;
            line_w += space + w;
        }
        out.append(text, i, j - i);
        line_len += j - i;
        if (j < text.size() && text[j] == '\n') {
            out += '\n';
            line_len = 0;
            line_w = 0;
        }
        i = j + 1;
    }
    return out;
}

namespace {
// Text wrapped at spaces to the current wrap position (as ImGui::TextWrapped would place it).
void TextWrappedAtSpaces(const std::string& text) {
    ImGuiWindow* w = ImGui::GetCurrentWindow();
    const float wrap_x = w->DC.TextWrapPos < 0 ? 0.0f : w->DC.TextWrapPos;
    const float width = ImGui::CalcWrapWidthForPos(ImGui::GetCursorScreenPos(), wrap_x);
    ImGui::TextUnformatted(
        WrapAtSpaces(text, ImGui::GetFont(), ImGui::GetFontSize(), width).c_str());
}
}  // namespace

Card BeginCard(const char* id, const Palette& p, bool emphasised) {
    Card c;
    c.id = ImGui::GetID(id);
    c.min = ImGui::GetCursorScreenPos();
    c.width = ImGui::GetContentRegionAvail().x;
    c.pad = c.width < metrics::kTinyCard ? metrics::kCardPadTiny : metrics::kCardPad;
    c.inner = std::max(40.0f, c.width - 2 * c.pad);
    const float h = ImGui::GetStateStorage()->GetFloat(c.id, 0.0f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (h > 0) {
        const ImVec2 max(c.min.x + c.width, c.min.y + h);
        dl->AddRectFilled(c.min, max, rgba(p.surface), 10.0f);
        dl->AddRect(c.min, max, rgba(emphasised ? p.accent : p.border, emphasised ? 0.7f : 1.0f),
                    10.0f, 0, emphasised ? 1.5f : 1.0f);
    }
    ImGui::PushID(id);
    ImGui::SetCursorScreenPos(ImVec2(c.min.x + c.pad, c.min.y + c.pad - 2));
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + c.inner);
    ImGui::PushItemWidth(c.inner);
    return c;
}

void EndCard(const Card& c) {
    ImGui::PopItemWidth();
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    const float bottom = ImGui::GetItemRectMax().y + c.pad - 2;
    ImGui::GetStateStorage()->SetFloat(c.id, bottom - c.min.y);
    ImGui::PopID();
    ImGui::SetCursorScreenPos(ImVec2(c.min.x, bottom));
    ImGui::Dummy(ImVec2(c.width, 4.0f));
}

namespace {
// A segment's room beside its label: the frame padding, widened by 4 on each side.
float SegmentPad() { return ImGui::GetStyle().FramePadding.x * 2 + 8; }
}  // namespace

int Segmented(const char* id, const char* const* labels, int count, int selected, const Palette& p,
              float max_width) {
    int clicked = -1;
    ImGui::PushID(id);
    const ImGuiStyle& st = ImGui::GetStyle();
    const float left = ImGui::GetCursorPosX();
    float x = 0;
    for (int i = 0; i < count; ++i) {
        const float pad = SegmentPad();
        float w = ImGui::CalcTextSize(labels[i]).x + pad;
        // A label wider than the row wraps onto lines inside its button (the same id: "###").
        std::string shown = labels[i];
        if (w > max_width && max_width > pad) {
            const std::string lines =
                WrapAtSpaces(shown, ImGui::GetFont(), ImGui::GetFontSize(), max_width - pad);
            w = std::min(max_width, ImGui::CalcTextSize(lines.c_str()).x + pad);
            shown = lines + "###" + shown;
        }
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
        if (ImGui::Button(shown.c_str(), ImVec2(w, 0))) clicked = i;
        ImGui::PopStyleVar(2);
        ImGui::PopStyleColor(5);
        x += w;
    }
    ImGui::PopID();
    return clicked;
}

void Heading(const std::string& text) {
    ImGui::PushFont(font(FontRole::Heading));
    TextWrappedAtSpaces(text);
    ImGui::PopFont();
}

void Strong(const std::string& text) {
    ImGui::PushFont(font(FontRole::Strong));
    TextWrappedAtSpaces(text);
    ImGui::PopFont();
}

void Caption(const std::string& text, const Palette& p) {
    ImGui::PushFont(font(FontRole::Small));
    ImGui::PushStyleColor(ImGuiCol_Text, p.muted);
    TextWrappedAtSpaces(text);
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void ClampedCaption(const std::string& text, const Palette& p, int lines, float width) {
    ImFont* f = font(FontRole::Small);
    ImGui::PushFont(f);
    const float size = ImGui::GetFontSize();
    const float line_h = ImGui::GetTextLineHeight();
    const auto fits = [&](const std::string& s) {
        return f->CalcTextSizeA(size, 1e9f, 0, WrapAtSpaces(s, f, size, width).c_str()).y <=
               line_h * lines + 0.5f;
    };
    std::string shown = text;
    if (!fits(text)) {
        std::vector<std::size_t> cuts;  // word ends
        for (std::size_t i = 1; i < text.size(); ++i)
            if (text[i] == ' ' && text[i - 1] != ' ') cuts.push_back(i);
        std::size_t lo = 0, hi = cuts.size();  // largest prefix that fits with the ellipsis
        while (lo < hi) {
            const std::size_t mid = (lo + hi + 1) / 2;
            if (fits(text.substr(0, cuts[mid - 1]) + "…"))
                lo = mid;
            else
                hi = mid - 1;
        }
        shown = (lo > 0 ? text.substr(0, cuts[lo - 1]) : std::string()) + "…";
    }
    ImGui::PushStyleColor(ImGuiCol_Text, p.muted);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextUnformatted(WrapAtSpaces(shown, f, size, width).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
    if (shown != text && ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

float SegmentedWidth(const char* const* labels, int count) {
    const ImGuiStyle& st = ImGui::GetStyle();
    float w = 0;
    for (int i = 0; i < count; ++i)
        w += ImGui::CalcTextSize(labels[i]).x + SegmentPad() + (i ? st.ItemSpacing.x * 0.5f : 0.0f);
    return w;
}

void Paragraph(const std::string& text) { TextWrappedAtSpaces(text); }

void ColouredText(const std::string& text, const ImVec4& c) {
    ImGui::PushStyleColor(ImGuiCol_Text, c);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
}

float FramedWidth(const char* text) {
    return ImGui::CalcTextSize(text).x + 2 * ImGui::GetStyle().FramePadding.x;
}

// The slider just drawn: its value again, centred on a plate of the frame's own colour, so the
// grab (as wide as a step for a small integer range) never covers the number. Not while the
// slider is a text field (Ctrl+click, double-click or Enter): the plate would cover the typing.
void SliderValuePlate(float frame_w, const char* value) {
    if (ImGui::TempInputIsActive(ImGui::GetItemID())) return;
    const ImVec2 lo = ImGui::GetItemRectMin();
    const float h = ImGui::GetFrameHeight();
    const ImVec2 size = ImGui::CalcTextSize(value);
    const float cx = lo.x + frame_w / 2, pad = 4;
    const ImGuiCol bg = ImGui::IsItemActive()    ? ImGuiCol_FrameBgActive
                        : ImGui::IsItemHovered() ? ImGuiCol_FrameBgHovered
                                                 : ImGuiCol_FrameBg;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(cx - size.x / 2 - pad, lo.y + 2),
                      ImVec2(cx + size.x / 2 + pad, lo.y + h - 2), ImGui::GetColorU32(bg), 3);
    dl->AddText(ImVec2(cx - size.x / 2, lo.y + (h - size.y) / 2), ImGui::GetColorU32(ImGuiCol_Text),
                value);
}

void SameLineIfRoom(float width, float right) {
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::GetItemRectMax().x + gap + width <= right) ImGui::SameLine(0, gap);
}

float SliderWidth(const char* label, float W, float fraction, float most) {
    const float beside = W - ImGui::CalcTextSize(label).x - ImGui::GetStyle().ItemInnerSpacing.x;
    return std::max(metrics::kSliderMin, std::min({most, W * fraction, beside}));
}

void Rule(float width, const Palette& p) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float y = at.y + ImGui::GetStyle().ItemSpacing.y * 0.5f;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(at.x, y), ImVec2(at.x + width, y), rgba(p.border));
    ImGui::Dummy(ImVec2(width, ImGui::GetStyle().ItemSpacing.y));
}

namespace {
constexpr ImWchar kHyphen = '-', kMinus = 0x2212;  // printf's sign, and the one drawn for it
}  // namespace

MinusSigns::MinusSigns() {
    ImFont* f = ImGui::GetFont();
    if (!f || f->IndexLookup.Size <= kMinus || f->IndexLookup[kMinus] == static_cast<ImWchar>(-1))
        return;
    font_ = f;
    glyph_ = f->IndexLookup[kHyphen];
    advance_ = f->IndexAdvanceX[kHyphen];
    f->IndexLookup[kHyphen] = f->IndexLookup[kMinus];
    f->IndexAdvanceX[kHyphen] = f->IndexAdvanceX[kMinus];
}

MinusSigns::~MinusSigns() {
    if (!font_) return;
    font_->IndexLookup[kHyphen] = glyph_;
    font_->IndexAdvanceX[kHyphen] = advance_;
}

bool CandidateHit(const char* id, ImVec2 size, bool* clicked) {
    *clicked = ImGui::InvisibleButton(id, size);
    // Focus counts only when the keyboard moved it: a press (a finger that then swipes the page)
    // also focuses the row, but must not leave it highlighted once the finger has gone.
    const bool keyboard_focus =
        ImGui::IsItemFocused() && !ImGui::GetCurrentContext()->NavDisableHighlight;
    return ImGui::IsItemHovered() || keyboard_focus || ImGui::IsItemActive();
}

std::string Ellipsize(ImFont* f, float size, const std::string& text, float max_w) {
    if (!f) f = ImGui::GetFont();
    const auto width = [&](const std::string& s) {
        return f->CalcTextSizeA(size, 1e9f, 0.0f, s.c_str()).x;
    };
    if (width(text) <= max_w) return text;
    // The longest prefix (whole UTF-8 characters) whose width with "…" fits: widths grow with the
    // prefix, so a binary search over the character starts (log n measurements, not n: a whole
    // sentence is ellipsized every frame).
    std::vector<std::size_t> starts;  // byte offsets where a character begins, after the first
    for (std::size_t i = 1; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
    std::size_t lo = 0, hi = starts.size();  // how many characters' prefix fits: 0 .. size
    while (lo < hi) {
        const std::size_t mid = (lo + hi + 1) / 2;
        if (width(text.substr(0, starts[mid - 1]) + "…") <= max_w)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo == 0 ? std::string() : text.substr(0, starts[lo - 1]) + "…";
}

bool StepButton(const char* label, ImVec2 size, bool enabled, bool primary, const Palette& p) {
    ImVec4 fill = primary ? p.accent : p.surface_alt, text = primary ? p.bg : p.ink;
    ImVec4 hover = primary ? mix(p.accent, p.ink, 0.15f) : mix(p.surface_alt, p.accent, 0.14f);
    ImVec4 edge = primary ? p.accent : p.border;
    if (!enabled) fill = hover = p.surface, text = p.muted, edge = p.border;
    ImGui::PushStyleColor(ImGuiCol_Button, fill);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, hover);
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, enabled ? mix(hover, p.ink, 0.1f) : fill);
    ImGui::PushStyleColor(ImGuiCol_Text, text);
    ImGui::PushStyleColor(ImGuiCol_Border, edge);
    ImGui::PushStyleVar(ImGuiStyleVar_DisabledAlpha, 1.0f);  // the colours above say "disabled"
    ImGui::BeginDisabled(!enabled);
    const bool clicked = ImGui::Button(label, size);
    ImGui::EndDisabled();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(5);
    return clicked && enabled;
}

void CentredTextFit(ImDrawList* dl, ImVec2 min, ImVec2 max, ImU32 col, const std::string& text,
                    ImFont* f) {
    if (!f) f = ImGui::GetFont();
    const float room = max.x - min.x - 4;
    const float size = f->FontSize * ImGui::GetIO().FontGlobalScale;
    if (f->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str()).x <= room) {
        CentredText(dl, min, max, col, text, f);
        return;
    }
    ImFont* small = font(FontRole::Small);
    const float ssize = small->FontSize * ImGui::GetIO().FontGlobalScale;
    const auto width = [&](const std::string& s) {
        return small->CalcTextSizeA(ssize, 1e9f, 0.0f, s.c_str()).x;
    };
    if (width(text) <= room) {
        CentredText(dl, min, max, col, text, small);
        return;
    }
    // Two lines, split at the space nearest the middle, when the box is tall enough.
    std::size_t best = std::string::npos;
    for (std::size_t i = text.find(' '); i != std::string::npos; i = text.find(' ', i + 1))
        if (best == std::string::npos ||
            std::abs(static_cast<long>(i) - static_cast<long>(text.size() / 2)) <
                std::abs(static_cast<long>(best) - static_cast<long>(text.size() / 2)))
            best = i;
    if (best != std::string::npos && max.y - min.y >= 2 * ssize) {
        const float mid = (min.y + max.y) * 0.5f;
        CentredText(dl, ImVec2(min.x, mid - ssize), ImVec2(max.x, mid), col,
                    Ellipsize(small, ssize, text.substr(0, best), room), small);
        CentredText(dl, ImVec2(min.x, mid), ImVec2(max.x, mid + ssize), col,
                    Ellipsize(small, ssize, text.substr(best + 1), room), small);
        return;
    }
    CentredText(dl, min, max, col, Ellipsize(small, ssize, text, room), small);
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
