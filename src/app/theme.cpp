// theme.cpp - palette and ImGui style. The colours are the page's: both come from
// assets/theme/palette.json (attn_theme_data.h here, css/palette.css on the page).
#include "theme.h"

#include "attn_theme_data.h"

#include <algorithm>
#include <cmath>

namespace app {
namespace {

ImVec4 hex(unsigned v, float a = 1.0f) {
    return ImVec4(((v >> 16) & 0xff) / 255.0f, ((v >> 8) & 0xff) / 255.0f, (v & 0xff) / 255.0f, a);
}

}  // namespace

Palette palette_for(Theme theme) {
    const bool dark = theme == Theme::Dark;
    // The one palette (assets/theme/palette.json): every token, for this theme.
    struct Tokens {
#define ATTN_TOKEN_FIELD(name, light, dark) unsigned name;
        ATTN_PALETTE(ATTN_TOKEN_FIELD)
#undef ATTN_TOKEN_FIELD
    };
    const Tokens t = dark ? Tokens{
#define ATTN_TOKEN_DARK(name, light, dark) dark,
                                ATTN_PALETTE(ATTN_TOKEN_DARK)
#undef ATTN_TOKEN_DARK
                            }
                          : Tokens{
#define ATTN_TOKEN_LIGHT(name, light, dark) light,
                                ATTN_PALETTE(ATTN_TOKEN_LIGHT)
#undef ATTN_TOKEN_LIGHT
                            };
    Palette p;
    p.bg = hex(t.bg);
    p.surface = hex(t.surface);
    p.surface_alt = hex(t.surface_2);
    p.border = hex(t.line);
    p.ink = hex(t.text);
    p.muted = hex(t.muted);
    p.accent = hex(t.accent);
    p.accent_soft = hex(t.accent_soft);
    p.score = hex(t.score);
    p.negative = hex(t.negative);
    p.weight = hex(t.weight);
    p.output = hex(t.output);
    p.highlight = hex(t.highlight);
    p.masked = hex(t.masked);
    p.error = hex(t.bad);
    p.heat[0] = hex(t.heat_0);
    p.heat[1] = hex(t.heat_1);
    p.heat[2] = hex(t.heat_2);
    p.heat[3] = hex(t.heat_3);
    p.heat[4] = hex(t.heat_4);
    const unsigned series[] = {t.series_0, t.series_1, t.series_2,
                               t.series_3, t.series_4, t.series_5};
    for (int i = 0; i < kSeriesColours; ++i) p.series[i] = hex(series[i]);
    return p;
}

ImU32 rgba(const ImVec4& c, float alpha) {
    return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, c.w * alpha));
}

ImVec4 mix(const ImVec4& a, const ImVec4& b, float t) {
    return ImVec4(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t,
                  a.w + (b.w - a.w) * t);
}

float heat_floor(int n) { return 1.0f / (4.0f * static_cast<float>(std::max(1, n))); }

HeatScale heat_scale(const Palette& p, int n) {
    HeatScale s;
    s.lo = heat_floor(n);
    s.log_range = std::log(1.0f / s.lo);
    s.zero = p.surface;
    for (int i = 0; i < 5; ++i) s.ramp[i] = p.heat[i];
    return s;
}

float heat_position(const HeatScale& s, float w) {
    if (!(w > s.lo)) return 0.0f;
    return std::min(1.0f, std::log(w / s.lo) / s.log_range);
}

ImVec4 weight_colour(const HeatScale& s, float w) {
    if (!(w > 0.0f)) return s.zero;  // exactly 0 (or not a number)
    const float t = heat_position(s, w) * 4.0f;
    const int i = std::min(3, static_cast<int>(t));
    return mix(s.ramp[i], s.ramp[i + 1], t - static_cast<float>(i));
}

namespace {
float luminance(const ImVec4& c) {
    const auto lin = [](float v) {
        return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f);
    };
    return 0.2126f * lin(c.x) + 0.7152f * lin(c.y) + 0.0722f * lin(c.z);
}
float contrast(const ImVec4& a, const ImVec4& b) {
    const float la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05f) / (std::min(la, lb) + 0.05f);
}
}  // namespace

ImVec4 readable_on(const Palette& p, const ImVec4& bg) {
    return contrast(p.ink, bg) >= contrast(p.surface, bg) ? p.ink : p.surface;
}

void apply_style(Theme theme) {
    const Palette p = palette_for(theme);
    ImGuiStyle& st = ImGui::GetStyle();
    st.WindowPadding = ImVec2(16, 14);
    st.FramePadding = ImVec2(9, 5);
    st.ItemSpacing = ImVec2(10, 8);
    st.ItemInnerSpacing = ImVec2(7, 5);
    st.ScrollbarSize = 11;
    st.GrabMinSize = 12;
    st.WindowBorderSize = 0;
    st.ChildBorderSize = 1;
    st.FrameBorderSize = 1;
    st.PopupBorderSize = 1;
    st.WindowRounding = 0;
    st.ChildRounding = 8;
    st.FrameRounding = 6;
    st.PopupRounding = 6;
    st.GrabRounding = 6;
    st.ScrollbarRounding = 6;
    st.TabRounding = 6;
    st.AntiAliasedFill = st.AntiAliasedLines = true;

    ImVec4* c = st.Colors;
    c[ImGuiCol_Text] = p.ink;
    c[ImGuiCol_TextDisabled] = p.muted;
    c[ImGuiCol_WindowBg] = p.bg;
    c[ImGuiCol_ChildBg] = p.surface;
    c[ImGuiCol_PopupBg] = p.surface;
    c[ImGuiCol_Border] = p.border;
    c[ImGuiCol_BorderShadow] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_FrameBg] = p.surface_alt;
    c[ImGuiCol_FrameBgHovered] = mix(p.surface_alt, p.accent, 0.12f);
    c[ImGuiCol_FrameBgActive] = mix(p.surface_alt, p.accent, 0.22f);
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = c[ImGuiCol_TitleBgCollapsed] = p.surface;
    c[ImGuiCol_MenuBarBg] = p.surface;
    c[ImGuiCol_ScrollbarBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_ScrollbarGrab] = mix(p.surface_alt, p.muted, 0.35f);
    c[ImGuiCol_ScrollbarGrabHovered] = mix(p.surface_alt, p.muted, 0.55f);
    c[ImGuiCol_ScrollbarGrabActive] = p.muted;
    c[ImGuiCol_CheckMark] = p.accent;
    c[ImGuiCol_SliderGrab] = p.accent;
    c[ImGuiCol_SliderGrabActive] = mix(p.accent, p.ink, 0.2f);
    c[ImGuiCol_Button] = p.surface_alt;
    c[ImGuiCol_ButtonHovered] = mix(p.surface_alt, p.accent, 0.14f);
    c[ImGuiCol_ButtonActive] = mix(p.surface_alt, p.accent, 0.26f);
    c[ImGuiCol_Header] = p.accent_soft;
    c[ImGuiCol_HeaderHovered] = mix(p.surface, p.accent, 0.16f);
    c[ImGuiCol_HeaderActive] = mix(p.surface, p.accent, 0.26f);
    c[ImGuiCol_Separator] = c[ImGuiCol_SeparatorHovered] = c[ImGuiCol_SeparatorActive] = p.border;
    c[ImGuiCol_ResizeGrip] = c[ImGuiCol_ResizeGripHovered] = c[ImGuiCol_ResizeGripActive] =
        ImVec4(0, 0, 0, 0);
    c[ImGuiCol_Tab] = p.surface_alt;
    c[ImGuiCol_TabHovered] = mix(p.surface_alt, p.accent, 0.16f);
    c[ImGuiCol_TabActive] = p.surface;
    c[ImGuiCol_TabUnfocused] = p.surface_alt;
    c[ImGuiCol_TabUnfocusedActive] = p.surface;
    c[ImGuiCol_PlotLines] = c[ImGuiCol_PlotHistogram] = p.accent;
    c[ImGuiCol_PlotLinesHovered] = c[ImGuiCol_PlotHistogramHovered] = p.highlight;
    c[ImGuiCol_TableHeaderBg] = p.surface_alt;
    c[ImGuiCol_TableBorderStrong] = c[ImGuiCol_TableBorderLight] = p.border;
    c[ImGuiCol_TableRowBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_TableRowBgAlt] = p.surface_alt;
    c[ImGuiCol_TextSelectedBg] = mix(p.surface, p.accent, 0.3f);
    c[ImGuiCol_DragDropTarget] = p.highlight;
    c[ImGuiCol_NavHighlight] = p.highlight;  // the visible keyboard focus ring
    c[ImGuiCol_NavWindowingHighlight] = p.highlight;
    c[ImGuiCol_NavWindowingDimBg] = c[ImGuiCol_ModalWindowDimBg] = ImVec4(0, 0, 0, 0.35f);
}

ImFont* font(FontRole role) {
    ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    const int i = static_cast<int>(role);
    if (atlas && i < atlas->Fonts.Size) return atlas->Fonts[i];
    return ImGui::GetFont();
}

}  // namespace app
