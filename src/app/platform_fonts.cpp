// platform_fonts.cpp - ImGui's font atlas built from the page's own font (see platform_fonts.h).
//   measure: for each font (a face at a size) the browser measures every glyph of its ranges:
//            advance, ink box (actualBoundingBox*), and the font's ascent and descent
//   pack:    the glyphs' boxes and ImGui's own rectangles (mouse cursors, baked lines) on shelves
//   draw:    the browser draws every glyph at its place on one 2D canvas the atlas's size; its
//            alpha channel becomes the atlas's coverage (one byte a texel)
//   finish:  ImGui's glyph tables, as its stb_truetype builder leaves them
// Numerical choices: boxes are whole device pixels (floor / ceil of the ink box, one pixel more on
// each side for anti-aliasing), glyphs are drawn at whole pixels and advances are rounded
// (PixelSnapH), so text stays sharp; the digits share the widest digit's advance (tabular
// figures), each centred in it, so numbers line up in columns whatever the reader's font.
#include "platform_fonts.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

namespace platform_fonts {
namespace {

#ifdef __EMSCRIPTEN__
// clang-format off
// The canvas's font-family, from the page's CSS (one owner: web/css/page.css --font).
EM_JS(int, js_fonts_available, (), {
    var c = typeof document !== "undefined" && document.createElement("canvas");
    var ctx = c && c.getContext("2d");
    return ctx && typeof ctx.measureText === "function" ? 1 : 0;
});
// For each of the n code points: advance, ink box left, right, ascent, descent (5 floats, CSS
// canvas conventions: left and ascent positive away from the pen); then the font's ascent and
// descent. `font` is "weight size" (the family is the canvas's own). 0 if the browser cannot.
EM_JS(int, js_measure_glyphs, (const char* font, const int* cps, int n, float* out), {
    var ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) return 0;
    var family = getComputedStyle(Module["canvas"]).fontFamily || "sans-serif";
    ctx.font = UTF8ToString(font) + " " + family;
    var o = out >> 2;
    for (var i = 0; i < n; i++) {
        var m = ctx.measureText(String.fromCodePoint(HEAP32[(cps >> 2) + i]));
        HEAPF32[o++] = m.width;
        HEAPF32[o++] = m.actualBoundingBoxLeft;
        HEAPF32[o++] = m.actualBoundingBoxRight;
        HEAPF32[o++] = m.actualBoundingBoxAscent;
        HEAPF32[o++] = m.actualBoundingBoxDescent;
    }
    var f = ctx.measureText("Hg");
    HEAPF32[o++] = f.fontBoundingBoxAscent || f.actualBoundingBoxAscent;
    HEAPF32[o++] = f.fontBoundingBoxDescent || f.actualBoundingBoxDescent;
    return 1;
});
// Draws n glyphs (4 ints each: font index into the lines of `fonts`, code point, pen x, baseline
// y) in white on a transparent w x h canvas and copies its alpha into `pixels` (w x h bytes).
EM_JS(int, js_draw_glyphs, (const char* fonts, const int* items, int n, unsigned char* pixels, int w, int h), {
    var c = document.createElement("canvas");
    c.width = w;
    c.height = h;
    var ctx = c.getContext("2d", {"willReadFrequently": true});
    if (!ctx) return 0;
    var family = getComputedStyle(Module["canvas"]).fontFamily || "sans-serif";
    var list = UTF8ToString(fonts).split("\n"), current = -1, p = items >> 2;
    ctx.fillStyle = "#fff";
    ctx.textBaseline = "alphabetic";
    for (var i = 0; i < n; i++, p += 4) {
        if (HEAP32[p] !== current) { current = HEAP32[p]; ctx.font = list[current] + " " + family; }
        ctx.fillText(String.fromCodePoint(HEAP32[p + 1]), HEAP32[p + 2], HEAP32[p + 3]);
    }
    var rgba = ctx.getImageData(0, 0, w, h).data;
    for (var k = 0, size = w * h; k < size; k++) HEAPU8[pixels + k] = rgba[4 * k + 3];
    return 1;
});
// clang-format on

constexpr int kMargin = 1;  // px around a glyph's ink box: anti-aliasing spills past the outline
constexpr int kMinWidth = 256;
constexpr int kMaxWidth = 4096;  // the atlas's width at most (as the drawing buffer's sides)

struct Glyph {
    int font = 0;           // its font: an index into the atlas's ConfigData
    ImWchar cp = 0;         // code point
    float advance = 0;      // pen advance, device px
    int left = 0, top = 0;  // the box's top-left corner from the pen on the baseline
    int w = 0, h = 0;       // the box (0 x 0: nothing to draw, as for a space)
    float shift = 0;        // moves the drawn glyph right in its advance (tabular digits)
    int x = 0, y = 0;       // the box's place in the atlas
};

struct Box {
    int w = 0, h = 0, x = 0, y = 0;
};

// Shelf packing, tallest first: boxes left to right in rows, each row as tall as its first box,
// `pad` px between boxes. Returns the height used.
int pack(std::vector<Box>& boxes, int width, int pad) {
    std::vector<Box*> order;
    for (Box& b : boxes) order.push_back(&b);
    std::stable_sort(order.begin(), order.end(),
                     [](const Box* a, const Box* b) { return a->h > b->h; });
    int x = pad, y = pad, row = 0;
    for (Box* b : order) {
        if (x + b->w + pad > width) x = pad, y += row + pad, row = 0;
        b->x = x, b->y = y;
        x += b->w + pad;
        row = std::max(row, b->h);
    }
    return y + row + pad;
}

// The smallest power-of-two width (kMinWidth..kMaxWidth) whose square holds the boxes' area.
int atlas_width(const std::vector<Box>& boxes, int pad) {
    double area = 0;
    int widest = 0;
    for (const Box& b : boxes) {
        area += double(b.w + pad) * (b.h + pad);
        widest = std::max(widest, b.w + 2 * pad);
    }
    int w = kMinWidth;
    while (w < kMaxWidth && (double(w) * w < area * 1.1 || w < widest)) w *= 2;
    return w;
}

// Each digit takes the widest digit's advance, centred in it (tabular figures).
void tabular_digits(std::vector<Glyph>& glyphs, std::size_t first) {
    float widest = 0;
    for (std::size_t i = first; i < glyphs.size(); ++i)
        if (glyphs[i].cp >= '0' && glyphs[i].cp <= '9')
            widest = std::max(widest, glyphs[i].advance);
    for (std::size_t i = first; i < glyphs.size(); ++i) {
        Glyph& g = glyphs[i];
        if (g.cp < '0' || g.cp > '9') continue;
        g.shift = std::round((widest - g.advance) / 2);
        g.advance = widest;
    }
}

// Measures the glyphs of one font; false if the browser cannot.
bool measure(const ImFontConfig& cfg, int index, const char* css, std::vector<Glyph>& glyphs,
             float& ascent, float& descent) {
    std::vector<int> cps;
    for (const ImWchar* r = cfg.GlyphRanges; r && r[0]; r += 2)
        for (unsigned c = r[0]; c <= r[1]; ++c) cps.push_back(static_cast<int>(c));
    const int n = static_cast<int>(cps.size());
    std::vector<float> m(static_cast<std::size_t>(n) * 5 + 2);
    if (!js_measure_glyphs(css, cps.data(), n, m.data())) return false;
    const std::size_t first = glyphs.size();
    for (int i = 0; i < n; ++i) {
        const float* g = &m[static_cast<std::size_t>(i) * 5];
        Glyph out;
        out.font = index;
        out.cp = static_cast<ImWchar>(cps[static_cast<std::size_t>(i)]);
        out.advance = std::isfinite(g[0]) ? g[0] : 0;
        const bool ink = g[1] + g[2] > 0 && g[3] + g[4] > 0;  // false for spaces
        if (ink) {
            out.left = static_cast<int>(std::floor(-g[1])) - kMargin;
            out.top = static_cast<int>(std::floor(-g[3])) - kMargin;
            out.w = static_cast<int>(std::ceil(g[2])) + kMargin - out.left;
            out.h = static_cast<int>(std::ceil(g[4])) + kMargin - out.top;
        }
        glyphs.push_back(out);
    }
    tabular_digits(glyphs, first);
    ascent = std::ceil(m[static_cast<std::size_t>(n) * 5]);
    descent = -std::ceil(m[static_cast<std::size_t>(n) * 5 + 1]);  // ImGui's descent is negative
    return true;
}

bool build(ImFontAtlas* atlas) {
    ImFontAtlasBuildInit(atlas);  // ImGui's own rectangles: mouse cursors, baked lines
    atlas->TexID = nullptr;
    atlas->TexWidth = atlas->TexHeight = 0;
    atlas->TexUvScale = atlas->TexUvWhitePixel = ImVec2(0, 0);
    atlas->ClearTexData();

    // measure
    const int fonts = atlas->ConfigData.Size;
    std::vector<Glyph> glyphs;
    std::vector<float> ascent(static_cast<std::size_t>(fonts)), descent(ascent);
    std::string css_lines;
    for (int f = 0; f < fonts; ++f) {
        const ImFontConfig& cfg = atlas->ConfigData[f];
        Face face;
        if (cfg.FontData && cfg.FontDataSize == static_cast<int>(sizeof face))
            std::memcpy(&face, cfg.FontData, sizeof face);
        char css[40];
        std::snprintf(css, sizeof css, "%d %.2fpx", face.weight,
                      static_cast<double>(cfg.SizePixels));
        if (!measure(cfg, f, css, glyphs, ascent[static_cast<std::size_t>(f)],
                     descent[static_cast<std::size_t>(f)]))
            return false;
        css_lines += css;
        css_lines += '\n';
    }

    // pack: ImGui's rectangles first, then every glyph with ink
    std::vector<Box> boxes;
    for (const ImFontAtlasCustomRect& r : atlas->CustomRects) boxes.push_back({r.Width, r.Height});
    for (const Glyph& g : glyphs)
        if (g.w > 0) boxes.push_back({g.w, g.h});
    const int pad = std::max(1, atlas->TexGlyphPadding);
    atlas->TexWidth = atlas_width(boxes, pad);
    atlas->TexHeight = pack(boxes, atlas->TexWidth, pad);
    atlas->TexUvScale = ImVec2(1.0f / atlas->TexWidth, 1.0f / atlas->TexHeight);
    std::size_t b = 0;
    for (ImFontAtlasCustomRect& r : atlas->CustomRects) {
        r.X = static_cast<unsigned short>(boxes[b].x);
        r.Y = static_cast<unsigned short>(boxes[b++].y);
    }
    std::vector<int> items;
    for (Glyph& g : glyphs) {
        if (g.w == 0) continue;
        g.x = boxes[b].x, g.y = boxes[b++].y;
        items.insert(items.end(), {g.font, g.cp, g.x - g.left, g.y - g.top});
    }

    // draw
    const std::size_t texels = static_cast<std::size_t>(atlas->TexWidth) * atlas->TexHeight;
    atlas->TexPixelsAlpha8 = static_cast<unsigned char*>(IM_ALLOC(texels));
    std::memset(atlas->TexPixelsAlpha8, 0, texels);
    if (!js_draw_glyphs(css_lines.c_str(), items.data(), static_cast<int>(items.size() / 4),
                        atlas->TexPixelsAlpha8, atlas->TexWidth, atlas->TexHeight))
        return false;

    // finish
    for (int f = 0; f < fonts; ++f) {
        ImFontConfig& cfg = atlas->ConfigData[f];
        ImFontAtlasBuildSetupFont(atlas, cfg.DstFont, &cfg, ascent[static_cast<std::size_t>(f)],
                                  descent[static_cast<std::size_t>(f)]);
    }
    const ImVec2 uv = atlas->TexUvScale;
    for (const Glyph& g : glyphs) {
        ImFontConfig& cfg = atlas->ConfigData[g.font];
        const float x0 = g.left + g.shift, y0 = IM_ROUND(cfg.DstFont->Ascent) + g.top;
        cfg.DstFont->AddGlyph(&cfg, g.cp, x0, y0, x0 + g.w, y0 + g.h, g.x * uv.x, g.y * uv.y,
                              (g.x + g.w) * uv.x, (g.y + g.h) * uv.y, g.advance);
    }
    ImFontAtlasBuildFinish(atlas);
    return true;
}

constexpr ImFontBuilderIO kBuilder = {build};
#endif

}  // namespace

#ifdef __EMSCRIPTEN__
bool available() { return js_fonts_available() != 0; }

ImFont* add_font(ImFontAtlas* atlas, const Face& face, float px, const ImWchar* ranges) {
    atlas->FontBuilderIO = &kBuilder;
    ImFontConfig cfg;
    cfg.FontData = const_cast<Face*>(&face);  // copied by the atlas (FontDataOwnedByAtlas false)
    cfg.FontDataSize = static_cast<int>(sizeof face);
    cfg.FontDataOwnedByAtlas = false;
    cfg.SizePixels = px;
    cfg.GlyphRanges = ranges;
    cfg.PixelSnapH = true;
    return atlas->AddFont(&cfg);
}
#else
bool available() { return true; }

ImFont* add_font(ImFontAtlas* atlas, const Face&, float px, const ImWchar*) {
    ImFontConfig cfg;
    cfg.SizePixels = px;
    return atlas->AddFontDefault(&cfg);
}
#endif

}  // namespace platform_fonts
