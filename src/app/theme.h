// theme.h - the calm palette shared with the page (light and dark; one source:
// assets/theme/palette.json) and the ImGui style built on it.
#pragma once

#include <imgui.h>

#include "app_state.h"

namespace app {

struct Palette {
    ImVec4 bg, surface, surface_alt, border, ink, muted, accent, accent_soft;
    ImVec4 score, negative, weight, output, highlight, masked, error;
    ImVec4 heat[5];    // the heatmap's colour scale, weight 0 -> 1
    ImVec4 series[6];  // candidate colours in the charts (repeat after kSeriesColours)
};
constexpr int kSeriesColours = 6;

Palette palette_for(Theme theme);                 // colours (sRGB, 0..1)
void apply_style(Theme theme);                    // ImGui colours, rounding, spacing for the theme
ImU32 rgba(const ImVec4& c, float alpha = 1.0f);  // packed colour, with extra alpha
ImVec4 mix(const ImVec4& a, const ImVec4& b, float t);  // a + (b - a) t
// The heatmap's colour scale for a map of n tokens: logarithmic from heat_floor(n) = 1/(4n) (a
// quarter of a uniform row's weight 1/n) to 1, so a 128-token map shows structure rather than a
// pale wash. heat_position maps a weight to 0..1 on that scale (0 at or below the floor).
// A map's scale is worked out once (heat_scale), not for every cell: a 128-token map has 16,384.
struct HeatScale {
    float lo = 1;         // heat_floor(n)
    float log_range = 1;  // log(1 / lo): the scale's length in log units
    ImVec4 zero;          // exactly 0: the plain surface
    ImVec4 ramp[5];       // the palette's heat-0..4
};
float heat_floor(int n);
HeatScale heat_scale(const Palette& p, int n);
float heat_position(const HeatScale& s, float w);  // log(w / lo) / log(1 / lo), clamped to 0..1
// Heatmap colour of an attention weight: the heat-0..4 ramp of steadily changing lightness along
// heat_position (exactly 0 is the plain surface).
ImVec4 weight_colour(const HeatScale& s, float w);
// The palette's ink or surface colour, whichever contrasts more with `bg` (WCAG luminance).
ImVec4 readable_on(const Palette& p, const ImVec4& bg);

// Fonts, loaded by the platform in this order into the atlas.
enum class FontRole { Body = 0, Strong = 1, Heading = 2, Small = 3 };
constexpr float kBodyPx = 15.0f, kHeadingPx = 20.0f, kSmallPx = 12.5f;  // CSS pixels
ImFont* font(FontRole role);  // nullptr-safe: falls back to the default font

}  // namespace app
