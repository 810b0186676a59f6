// platform_fonts.h - the canvas's text in the page's own font: the font-family the page's CSS gives
// the canvas (the reader's system UI font, as the glossary text around it), each glyph drawn by
// the browser (a 2D canvas) into ImGui's font atlas. So the wasm carries no font file and no
// rasteriser, and the canvas reads like the page. Part of the platform layer (Emscripten calls).
#pragma once

#include <imgui.h>

namespace platform_fonts {

// A face of the page's font, by CSS font-weight (ImFontConfig::FontData holds a copy of one).
struct Face {
    int weight = 400;
};
constexpr Face kRegular{400};
constexpr Face kSemiBold{600};

// Whether the browser can draw text for the atlas (a 2D canvas context with measureText).
bool available();

// Adds one font of `face`, `px` device pixels tall, with the glyphs of `ranges` (pairs, 0 at the
// end), to `atlas`, and makes the browser the atlas's glyph source. Natively (the compile check of
// the platform layer) it adds ImGui's own default font at that size instead.
ImFont* add_font(ImFontAtlas* atlas, const Face& face, float px, const ImWchar* ranges);

}  // namespace platform_fonts
