// platform_web.cpp - the platform layer (with platform_gl.cpp, its WebGL2 renderer, and
// platform_fonts.cpp, its font atlas): every SDL2 / OpenGL / Emscripten call and the only
// file-level globals of the app.
//   window + WebGL2 context; the canvas is one viewport tall and sticks to the top of the viewport
//   while the page scrolls through the stage (as tall as the content): each frame reads how far
//   the page has scrolled into the stage and scrolls the main window by as much, so only what the
//   reader sees is laid out and rasterised. Drawing buffer = CSS size x devicePixelRatio, the ratio
//   lowered so that neither side passes 4096 device pixels. Fonts at that ratio,
//   keyboard only while the canvas has focus, Tab left to the page, wheel to the page unless over
//   a scrollable region, touch that keeps pinch zoom, the media queries, a lost and restored WebGL
//   context, the exports for the page, Module.onStateChange / onCanvasStatus, and the loop: one
//   frame function, two loops (native / web).
#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#ifdef ATTN_BENCH
#include <imgui_impl_opengl3.h>  // the bench build compares ImGui's own backend with platform_gl
#endif
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app_model.h"
#include "attn_theme_data.h"
#include "embedded.h"
#include "platform_fonts.h"
#include "platform_gl.h"
#include "theme.h"
#include "views.h"

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#else
#include <SDL_opengl.h>
#define EMSCRIPTEN_KEEPALIVE
#endif

namespace {

constexpr double kMaxDrawingBufferPx = 4096;  // many phone GPUs stop there, on either side
// Glyphs in the atlas: the one glyph list (assets/theme/glyphs.json), in both faces.
const ImWchar kGlyphRanges[] = {ATTN_GLYPH_RANGES, 0};
// The lazy ranges (Latin-1's letters and signs, Latin Extended-A, Greek: about two thirds of the
// glyphs) join the atlas only once a text the canvas draws holds one of them (wants_lazy_glyphs):
// until then the start-up measures, draws and uploads the eager third. Once in, they stay. With no
// lazy range the eager list is the whole list.
const ImWchar kEagerRanges[] = {ATTN_GLYPH_RANGES_EAGER, 0};

constexpr Uint64 kLayoutPollMs = 250;  // an idle canvas reads the layout at least this often

#ifdef ATTN_BENCH
// A timed run of frames (bench build only; see bench_begin).
enum class BenchKind { Heatmap = 0, Drag = 1, Model = 2 };
struct BenchRun {
    BenchKind kind = BenchKind::Heatmap;
    int tokens = 0;         // the heatmap's sentence length (0 for the other kinds)
    int i = 0;              // frames timed so far
    double drag_start = 0;  // the dragged number's value before the run
    app::AppState saved_state;
    app::Derived saved_derived;
    std::vector<double> ui, whole;  // ms per frame
    std::string error;
};
#endif

struct Platform {
    SDL_Window* window = nullptr;
    SDL_GLContext gl = nullptr;
    double css_w = 0, css_h = 0;
    double dpr = 0, font_dpr = 0;        // effective pixel ratio (capped), and the fonts' one
    bool lazy_glyphs = false;            // the atlas holds the lazy ranges (see kEagerRanges)
    const void* glyphs_model = nullptr;  // the trained model whose vocabulary was looked through
    float scroll = 0;                    // CSS px of the stage above the canvas (the page's scroll)
    bool running = true;
    bool theme_seen_dark = false, motion_seen = false;  // last media-query values
    Uint64 last_ticks = 0;
    float scroll_y = 0, scroll_max = 0;  // scrollable region under the pointer, last frame
    bool over_scrollable = false;
    std::uint64_t sent_revision = ~0ull;
    float sent_height = 0;  // content height last reported to the page (CSS px)
    // Idle frames are skipped: the canvas keeps its last image until something changes.
    bool wake = false;                     // input that is not an SDL event (our wheel handler)
    Uint64 awake_until = 0;                // keep drawing until then (ms), after any change
    Uint64 next_layout_read = 0;           // an idle canvas reads the page's layout by then (ms)
    std::uint64_t drawn_revision = ~0ull;  // state revision of the last drawn frame
    double ui_ms = 0;  // last drawn frame: CPU time from ImGui's new frame to Render() (bench)
    bool focus_window = false;  // the canvas gained DOM focus (Tab or click): ImGui takes the keys
    int hide_pointer_in = -1;   // frames until a lifted finger stops hovering (-1: not pending)
    bool pointer_hidden = false;
    app::FieldRect sent_field;               // sentence field rect last given to the page
    std::vector<SDL_Event> deferred_keyups;  // released in the frame they were pressed: next frame
    bool gl_lost = false;        // the WebGL context is lost: no GL call until it is restored
    bool imgui_backend = false;  // bench build only: draw with ImGui's OpenGL3 backend instead
    std::string json, reply;     // strings handed to the page stay alive until the next call
    std::vector<std::uint8_t> weights;  // the model's weights file, written by the page
#ifdef ATTN_BENCH
    std::optional<BenchRun> bench;  // a timed run going on (bench build only)
#endif
};

struct App {
    app::Library lib;
    app::AppState state;
    app::Derived derived;
    bool loaded = false;
    Platform plat;
};

App g_app;  // the page's exports reach the app through this one global

#ifdef __EMSCRIPTEN__
// clang-format off
EM_JS(void, js_notify_state, (const char* json), {
    if (typeof Module["onStateChange"] === "function") {
        try { Module["onStateChange"](UTF8ToString(json)); } catch (e) { console.error(e); }
    }
});
EM_JS(void, js_content_height, (double css_px), {
    if (typeof Module["onContentHeight"] === "function") {
        try { Module["onContentHeight"](css_px); } catch (e) { console.error(e); }
    }
});
// How far the sticky canvas sits below the top of its stage: the part of the content scrolled by.
EM_JS(double, js_canvas_offset, (), {
    var c = Module["canvas"];
    var p = c && c.parentElement;
    if (!p) return 0;
    return c.getBoundingClientRect().top - p.getBoundingClientRect().top;
});
// The canvas asked for the trained model before its weights arrived: the page loads them.
EM_JS(void, js_request_model, (), {
    if (typeof Module["onModelWanted"] === "function") {
        try { Module["onModelWanted"](); } catch (e) { console.error(e); }
    }
});
// "lost": the canvas cannot draw (the state still takes edits); "restored": it draws again;
// "failed": the GL objects could not be rebuilt after a restore.
EM_JS(void, js_canvas_status, (const char* status), {
    if (typeof Module["onCanvasStatus"] === "function") {
        try { Module["onCanvasStatus"](UTF8ToString(status)); } catch (e) { console.error(e); }
    }
});
EM_JS(int, js_prefers_dark, (), {
    return (typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches) ? 1 : 0;
});
EM_JS(int, js_prefers_reduced_motion, (), {
    return (typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches) ? 1 : 0;
});
// SDL2 looks for "#canvas"; point it at Module.canvas whatever the page calls it. Clicking the
// canvas focuses it (SDL's mousedown handler prevents the default focus), and Tab always reaches
// the page: the capture listener runs before SDL's, which would swallow it.
// It also records, for the frame loop (js_take_events): the canvas gained focus (1), a finger
// lifted (2), a finger (4) or a mouse (8) went down; and a tap on the canvas's own sentence field
// (Module.attnTextField, CSS px) asks the page to focus its real text input inside the gesture, so
// a phone opens its keyboard (Module.onTextInputRequest). And the page's layout may have moved
// (16): a scroll, a resize, a size change of the canvas, its stage or the page, a change of the
// colour scheme or motion preference; an idle canvas reads the layout only then (see frame).
EM_JS(void, js_prepare_canvas, (), {
    var canvas = Module["canvas"];
    if (!canvas) return;
    specialHTMLTargets["#canvas"] = canvas;
    if (!canvas.hasAttribute("tabindex")) canvas.tabIndex = 0;
    Module["attnEvents"] = 0;
    canvas.addEventListener("pointerdown", function(e) {
        Module["attnEvents"] |= (e.pointerType === "mouse" ? 8 : 4);
        canvas.focus({preventScroll: true});
    }, true);
    var lifted = function(e) { if (e.pointerType !== "mouse") Module["attnEvents"] |= 2; };
    canvas.addEventListener("pointerup", lifted, true);
    canvas.addEventListener("pointercancel", lifted, true);
    canvas.addEventListener("pointerup", function(e) {
        var f = Module["attnTextField"], r = canvas.getBoundingClientRect();
        if (e.pointerType === "mouse" || !f || !(f["w"] > 0)) return;
        var x = e.clientX - r.left, y = e.clientY - r.top;
        if (x >= f["x"] && x <= f["x"] + f["w"] && y >= f["y"] && y <= f["y"] + f["h"] &&
            typeof Module["onTextInputRequest"] === "function") {
            try { Module["onTextInputRequest"](); } catch (err) { console.error(err); }
        }
    });
    canvas.addEventListener("focus", function() { Module["attnEvents"] |= 1; });
    var moved = function() { Module["attnEvents"] |= 16; };
    window.addEventListener("scroll", moved, {capture: true, passive: true});
    window.addEventListener("resize", moved);
    if (typeof ResizeObserver === "function") {
        var seen = new ResizeObserver(moved);
        seen.observe(canvas);
        if (canvas.parentElement) seen.observe(canvas.parentElement);
        seen.observe(document.documentElement);
    }
    if (typeof matchMedia === "function")
        ["(prefers-color-scheme: dark)", "(prefers-reduced-motion: reduce)"].forEach(function(q) {
            var m = matchMedia(q);
            if (m.addEventListener) m.addEventListener("change", moved);
        });
    canvas.addEventListener("keydown", function(e) {
        if (e.key === "Tab" && !e.ctrlKey && !e.altKey && !e.metaKey) e.stopImmediatePropagation();
    }, true);
});
EM_JS(int, js_take_events, (), {
    var v = Module["attnEvents"] | 0;
    Module["attnEvents"] = 0;
    return v;
});
EM_JS(void, js_set_text_field, (double x, double y, double w, double h), {
    // quoted keys: Closure renames unquoted ones, and the page and tests read this rectangle
    Module["attnTextField"] = w > 0 ? {"x": x, "y": y, "w": w, "h": h} : null;
});
// clang-format on
#else
void js_notify_state(const char*) {}
void js_content_height(double) {}
double js_canvas_offset() { return 0; }
void js_request_model() {}
int js_prefers_dark() { return 0; }
int js_prefers_reduced_motion() { return 0; }
void js_prepare_canvas() {}
int js_take_events() { return 0; }
void js_set_text_field(double, double, double, double) {}
#endif

#ifdef __EMSCRIPTEN__
// ---- GL objects: everything the app keeps on the GPU. A lost WebGL context takes them all, so
// these two are the one place that releases and rebuilds them: a texture or buffer the app adds
// is released and rebuilt here too.
// Release runs while the context is lost (WebGL ignores calls on a lost context); it forgets the
// dead handles so that nothing later uses them.
// platform_gl::destroy_device_objects forgets every handle and size (its buffers are re-specified
// with glBufferData each frame), so a rebuilt renderer starts clean. The bench build's ImGui
// OpenGL3 backend goes whole: 1.86 keeps its vertex / index buffer sizes across
// DestroyDeviceObjects, so rebuilt (empty) buffers would be written as if already that large.
void gl_objects_release(Platform& p) {
#ifdef ATTN_BENCH
    if (p.imgui_backend) ImGui_ImplOpenGL3_Shutdown();
#endif
    (void)p;
    // program, vertex array, buffers, the fonts texture and the heatmap textures (platform_gl)
    platform_gl::destroy_device_objects();
}
// Builds them on the (restored) context; false if the renderer could not (shaders, texture). The
// heatmap textures are uploaded again when the views next ask for them.
bool gl_objects_create(Platform& p) {
#ifdef ATTN_BENCH
    if (p.imgui_backend &&
        !(ImGui_ImplOpenGL3_Init("#version 300 es") && ImGui_ImplOpenGL3_CreateDeviceObjects()))
        return false;
#endif
    (void)p;
    return platform_gl::create_device_objects();  // uploads the fonts texture as well
}

EM_BOOL on_context_lost(int, const void*, void* user) {
    Platform& p = static_cast<App*>(user)->plat;
    p.gl_lost = true;
    gl_objects_release(p);
    js_canvas_status("lost");
    return EM_TRUE;  // preventDefault: without it the browser never restores the context
}
EM_BOOL on_context_restored(int, const void*, void* user) {
    Platform& p = static_cast<App*>(user)->plat;
    const bool ok = gl_objects_create(p);
    p.gl_lost = !ok;
    p.wake = true;  // draw at once: an idle canvas would otherwise stay blank
    js_canvas_status(ok ? "restored" : "failed");
    return EM_TRUE;
}
#endif

// Reads the canvas's CSS size and the DPR; sizes the drawing buffer to match. True if it changed.
bool update_canvas_size(Platform& p) {
    double w = 1024, h = 720, dpr = 1;
#ifdef __EMSCRIPTEN__
    emscripten_get_element_css_size("#canvas", &w, &h);
    dpr = emscripten_get_device_pixel_ratio();
#else
    int iw = 0, ih = 0;
    SDL_GetWindowSize(p.window, &iw, &ih);
    w = iw;
    h = ih;
#endif
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    if (dpr <= 0 || !std::isfinite(dpr)) dpr = 1;
    dpr = std::min({dpr, kMaxDrawingBufferPx / w, kMaxDrawingBufferPx / h});
    bool buffer_ok = true;  // the drawing buffer still has our size (SDL's own resize handler
#ifdef __EMSCRIPTEN__       // may set it behind our back, which clears the canvas)
    int bw = 0, bh = 0;
    emscripten_get_canvas_element_size("#canvas", &bw, &bh);
    buffer_ok = bw == static_cast<int>(std::min(kMaxDrawingBufferPx, std::floor(w * dpr))) &&
                bh == static_cast<int>(std::min(kMaxDrawingBufferPx, std::floor(h * dpr)));
#endif
    if (w == p.css_w && h == p.css_h && dpr == p.dpr && buffer_ok) return false;
    p.css_w = w;
    p.css_h = h;
    p.dpr = dpr;
#ifdef __EMSCRIPTEN__
    SDL_SetWindowSize(p.window, static_cast<int>(w), static_cast<int>(h));
    emscripten_set_canvas_element_size(
        "#canvas", static_cast<int>(std::min(kMaxDrawingBufferPx, std::floor(w * dpr))),
        static_cast<int>(std::min(kMaxDrawingBufferPx, std::floor(h * dpr))));
#endif
    return true;
}

// True the first time a text the canvas draws needs the lazy glyphs: the reader's sentence,
// draft and model text, a message, or (once loaded) the trained model's vocabulary, whose tokens
// the next-token list shows. The static files were looked through as main read them.
bool wants_lazy_glyphs(App& a) {
    Platform& p = a.plat;
    if (p.lazy_glyphs) return false;
    const app::AppState& s = a.state;
    bool want = app::needs_lazy_glyphs(s.sentence) || app::needs_lazy_glyphs(s.sentence_draft) ||
                app::needs_lazy_glyphs(s.model.text) || app::needs_lazy_glyphs(s.message);
    if (a.lib.model.get() != p.glyphs_model) {
        p.glyphs_model = a.lib.model.get();
        if (a.lib.model)
            for (const std::string& t : a.lib.model->model.bpe.token_bytes)
                want = want || app::needs_lazy_glyphs(t);
    }
    return want;
}

// Rebuilds the font atlas at the DPR so text is sharp; ImGui then scales it back to CSS pixels.
// True if it was rebuilt.
bool update_fonts(Platform& p) {
    if (p.font_dpr == p.dpr || p.gl_lost) return false;
    p.font_dpr = p.dpr;
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const float s = static_cast<float>(p.dpr);
    // Order matters: app::FontRole indexes io.Fonts->Fonts. Until a text needs the lazy ranges,
    // each font holds only kEagerRanges.
    const platform_fonts::Face* faces[] = {&platform_fonts::kRegular, &platform_fonts::kSemiBold,
                                           &platform_fonts::kSemiBold, &platform_fonts::kRegular};
    const float sizes[] = {app::kBodyPx, app::kBodyPx, app::kHeadingPx, app::kSmallPx};
    for (int i = 0; i < 4; ++i)
        platform_fonts::add_font(io.Fonts, *faces[i], sizes[i] * s,
                                 p.lazy_glyphs ? kGlyphRanges : kEagerRanges);
    io.FontGlobalScale = 1.0f / s;
#ifdef ATTN_BENCH
    if (p.imgui_backend) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
        return true;
    }
#endif
    platform_gl::upload_fonts_texture();
    return true;
}

// Follows the system's colour scheme and motion preference when they change.
void update_media_queries(App& a) {
    const bool dark = js_prefers_dark() != 0;
    const bool motion = js_prefers_reduced_motion() != 0;
    app::Edits e;
    if (dark != a.plat.theme_seen_dark) e.dark = dark;
    if (motion != a.plat.motion_seen) e.reduced_motion = motion;
    a.plat.theme_seen_dark = dark;
    a.plat.motion_seen = motion;
    if (e.dark || e.reduced_motion) app::apply(a.state, a.derived, e, a.lib);
}

// Whether the wheel should scroll the canvas (a scrollable ImGui region is under the pointer).
void update_wheel_target(Platform& p) {
    p.over_scrollable = false;
    for (ImGuiWindow* w = GImGui->HoveredWindow; w; w = w->ParentWindow) {
        if ((w->Flags & ImGuiWindowFlags_NoScrollWithMouse) == 0 && w->ScrollMax.y > 0.5f) {
            p.over_scrollable = true;
            p.scroll_y = w->Scroll.y;
            p.scroll_max = w->ScrollMax.y;
            return;
        }
    }
}

#ifdef __EMSCRIPTEN__
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* ev, void* user) {
    Platform& p = static_cast<App*>(user)->plat;
    double dy = ev->deltaY;
    if (ev->deltaMode == DOM_DELTA_PIXEL) dy /= 100;
    if (ev->deltaMode == DOM_DELTA_LINE) dy /= 3;
    if (ev->deltaMode == DOM_DELTA_PAGE) dy *= 10;
    // The region takes the wheel only if it can still scroll that way; else the page scrolls.
    const bool can = p.over_scrollable && ((dy > 0 && p.scroll_y < p.scroll_max - 0.5f) ||
                                           (dy < 0 && p.scroll_y > 0.5f));
    if (!can) return EM_FALSE;
    ImGui::GetIO().MouseWheel -= static_cast<float>(dy);
    p.wake = true;
    return EM_TRUE;  // preventDefault: the page does not scroll as well
}
#endif

// Follows the page's scroll through the stage: the main window shows the content from `scroll`
// down (SetScrollY each frame), so a scroll redraws. True if it changed.
bool update_scroll(Platform& p) {
    const double off = js_canvas_offset();
    const float scroll = std::isfinite(off) && off > 0 ? static_cast<float>(std::round(off)) : 0.0f;
    if (scroll == p.scroll) return false;
    p.scroll = scroll;
    return true;
}

// Tells the page how tall the canvas's content is (this frame's layout), when it changes.
void report_content_height(Platform& p) {
    ImGuiWindow* w = ImGui::FindWindowByName("Attention score");
    if (!w) return;
    const float h = std::ceil(w->DC.CursorMaxPos.y + w->Scroll.y - w->Pos.y + w->WindowPadding.y);
    if (std::fabs(h - p.sent_height) < 1.0f) return;
    p.sent_height = h;
    js_content_height(h);
}

// Tells the page where the canvas's sentence field is, when it moves (see js_prepare_canvas).
void report_text_field(Platform& p, const app::FieldRect& f) {
    if (f.x == p.sent_field.x && f.y == p.sent_field.y && f.w == p.sent_field.w &&
        f.h == p.sent_field.h)
        return;
    p.sent_field = f;
    js_set_text_field(f.x, f.y, f.w, f.h);
}

void notify_if_changed(App& a) {
    if (a.state.revision == a.plat.sent_revision) return;
    a.plat.sent_revision = a.state.revision;
    const std::string json = app::state_json(a.state, a.derived);
    if (json == a.plat.json) return;
    a.plat.json = json;
    js_notify_state(a.plat.json.c_str());
}

// One frame: events, size, fonts, ease, draw, apply the reader's edits, tell the page.
void frame(void* arg) {
    App& a = *static_cast<App*>(arg);
    Platform& p = a.plat;
    bool woke = p.wake;
    p.wake = false;
    // ImGui 1.86 reads a key as down or up once per frame: a key released in the same frame it was
    // pressed (a quick tap, or a test's press) would never be seen. Such a release waits a frame.
    std::vector<SDL_Event> pending;
    pending.swap(p.deferred_keyups);
    std::vector<SDL_Scancode> down;
    for (SDL_Event& ev : pending) ImGui_ImplSDL2_ProcessEvent(&ev);
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) {
        woke = true;
        if (ev.type == SDL_KEYDOWN) down.push_back(ev.key.keysym.scancode);
        if (ev.type == SDL_KEYUP &&
            std::find(down.begin(), down.end(), ev.key.keysym.scancode) != down.end()) {
            p.deferred_keyups.push_back(ev);
            continue;
        }
        if (!p.gl_lost) ImGui_ImplSDL2_ProcessEvent(&ev);
        if (ev.type == SDL_QUIT) p.running = false;
    }
    if (!p.deferred_keyups.empty()) p.wake = true;
    const int dom = js_take_events();
    app::Edits pointer;
    if (dom & 1) p.focus_window = true;
    if (dom & 4) pointer.touch = true;
    if (dom & 8) pointer.touch = false;
    if (dom & (4 | 8)) p.pointer_hidden = false, p.hide_pointer_in = -1;
    if (dom & 2) p.hide_pointer_in = 2;  // after the tap's release frame, so the tap still clicks
    if (dom & ~16) woke = true;
    if (a.loaded && pointer.touch.has_value()) app::apply(a.state, a.derived, pointer, a.lib);
    if (p.gl_lost) {  // nothing to draw on; the page's controls still edit the state
        notify_if_changed(a);
        return;
    }
    const Uint64 now = SDL_GetTicks64();
    // The layout (size, scroll, media queries) costs DOM reads: read every frame while awake, and
    // when idle only after the page signalled a move (16), or every kLayoutPollMs in case a signal
    // was missed. An idle stage read it on every animation frame: about 4% of a core here.
    if ((dom & 16) || now <= p.awake_until || now >= p.next_layout_read) {
        p.next_layout_read = now + kLayoutPollMs;
        woke = update_canvas_size(p) || woke;
        woke = update_scroll(p) || woke;
        update_media_queries(a);
    }
    woke = update_fonts(p) || woke;
    const double dt = p.last_ticks ? std::min(0.1, (now - p.last_ticks) / 1000.0) : 1.0 / 60;
    p.last_ticks = now;
    const bool moving = app::advance(a.state, a.derived, dt);
    // Idle: no input, nothing easing, no change since the last drawn frame (and no text caret to
    // blink) -> skip drawing; WebGL keeps showing the last frame. For half a second after any
    // change frames keep coming, so ImGui's hover and focus states settle.
    if (p.hide_pointer_in >= 0) woke = true;
    if (woke || moving || a.state.revision != p.drawn_revision || ImGui::GetIO().WantTextInput)
        p.awake_until = now + 500;
    if (now > p.awake_until) return;
    p.drawn_revision = a.state.revision;
    // Texts are looked through on drawn frames only: a new one comes with input or a page edit,
    // and either wakes the canvas.
    if (wants_lazy_glyphs(a)) {
        p.lazy_glyphs = true;
        p.font_dpr = 0;  // rebuild the atlas now, with them
        update_fonts(p);
    }
    app::apply_style(a.state.theme);

    const Uint64 ui_start = SDL_GetPerformanceCounter();
#ifdef ATTN_BENCH
    if (p.imgui_backend) ImGui_ImplOpenGL3_NewFrame();
#endif
    ImGui_ImplSDL2_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    int fb_w = 0, fb_h = 0;
#ifdef __EMSCRIPTEN__
    emscripten_get_canvas_element_size("#canvas", &fb_w, &fb_h);
#else
    SDL_GL_GetDrawableSize(p.window, &fb_w, &fb_h);
#endif
    io.DisplaySize = ImVec2(static_cast<float>(p.css_w), static_cast<float>(p.css_h));
    io.DisplayFramebufferScale =
        ImVec2(static_cast<float>(fb_w / p.css_w), static_cast<float>(fb_h / p.css_h));
    // A finger that lifted leaves no hover behind (SDL keeps its last position as the mouse's).
    if (p.hide_pointer_in >= 0 && p.hide_pointer_in-- == 0) p.pointer_hidden = true;
    if (p.pointer_hidden) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    if (ImGuiWindow* w = ImGui::FindWindowByName("Attention score")) ImGui::SetScrollY(w, p.scroll);
    if (p.focus_window) {  // focus from Tab: keys (Page Up / Down, arrows) work at once
        ImGui::SetWindowFocus("Attention score");
        p.focus_window = false;
    }
    app::Edits edits;
    if (a.loaded) {
        edits = app::ShowAppLayout(a.state, a.derived, a.lib.text);
    } else {
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(io.DisplaySize);
        ImGui::Begin("##failed", nullptr, ImGuiWindowFlags_NoDecoration);
        ImGui::TextWrapped("The visualisation could not start: %s", a.state.message.c_str());
        ImGui::End();
    }
    ImGui::Render();
    p.ui_ms = 1000.0 * (SDL_GetPerformanceCounter() - ui_start) / SDL_GetPerformanceFrequency();
    const app::Palette pal = app::palette_for(a.state.theme);
#ifdef ATTN_BENCH
    if (p.imgui_backend) {
        glViewport(0, 0, fb_w, fb_h);
        glClearColor(pal.bg.x, pal.bg.y, pal.bg.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    } else
#endif
        platform_gl::render(ImGui::GetDrawData(), fb_w, fb_h, pal.bg);
    SDL_GL_SwapWindow(p.window);

    update_wheel_target(p);
    if (a.loaded) report_content_height(p);
    const bool wants_model = (edits.scenario_id && *edits.scenario_id == app::kModelScenarioId) ||
                             (edits.panel && *edits.panel == app::to_int(app::Panel::Model));
    if (wants_model && !a.lib.model) {  // the page fetches the weights, then opens the model
        edits.scenario_id.reset();
        edits.panel.reset();
        js_request_model();
    }
    if (a.loaded) app::apply(a.state, a.derived, edits, a.lib);
    report_text_field(p, a.state.sentence_field);
    notify_if_changed(a);
}

// Applies an edit from the page; returns "" or the readable error (kept alive in plat.reply).
const char* page_edit(const app::Edits& e) {
    if (!g_app.loaded) {
        g_app.plat.reply = "The visualisation has not loaded.";
        return g_app.plat.reply.c_str();
    }
    g_app.plat.reply = app::apply(g_app.state, g_app.derived, e, g_app.lib).error;
    if (!g_app.plat.reply.empty()) {  // the page shows it next to its control: once, not twice
        g_app.state.message.clear();
        ++g_app.state.revision;
    }
    return g_app.plat.reply.c_str();
}

#ifdef ATTN_BENCH
// ---- bench build only (attention_app_bench; never in dist/) -------------------------------------
// A timed run: bench_begin sets the scene (and keeps the reader's state), each bench_step draws one
// timed frame after that kind's edit for frame i, bench_end restores the state and gives the
// figures. ui: ImGui's new frame to Render() (views and the engine's numbers); whole: the whole
// frame() call plus glFinish, so the GPU process's rasterisation (SwiftShader) is inside it too.
// The page paces the steps one per animation frame, as the app draws (attn_bench_begin); the
// one-call runs (attn_bench_frames) draw them back to back.

// The scene of each kind.
//   Heatmap: the Whole sentence view, 4 heads, an own sentence of `tokens` words; no edits.
//   Drag: the Vectors view of the worked example, the query's first number a new value each frame,
//     so every frame recomputes the engine's numbers and redraws.
//   Model: the trained model's view (the page must have loaded the weights) on an own text of 109
//     tokens; each frame a new focus row and every eighth another head, so every timed frame runs
//     the chosen head's focus step and the next tokens again (a new head: its map too).
std::string bench_setup(App& a, BenchKind kind, int tokens) {
    app::Edits e;
    if (kind == BenchKind::Heatmap) {
        const char* words[] = {"because", "the",    "bridge",  "was",    "blocked",
                               "the",     "convoy", "stopped", "before", "it"};
        std::string text;
        for (int i = 0; i < tokens; i++) text += std::string(i ? " " : "") + words[i % 10];
        e.sentence = text;
        e.focus = tokens - 1;
        e.panel = static_cast<int>(app::Panel::Sentence);
        e.heads = app::kMaxShownHeads;
    } else if (kind == BenchKind::Drag) {
        e.scenario_id = std::string("worked-example");
        e.panel = static_cast<int>(app::Panel::Vectors);
    } else {
        if (!a.lib.model) return "the trained model is not loaded";
        std::string text;
        for (int i = 0; i < 4; i++) text += "because the bridge was blocked, the convoy stopped. ";
        e.scenario_id = std::string(app::kModelScenarioId);
        e.model_text = text;
    }
    return app::apply(a.state, a.derived, e, a.lib).error;
}

app::Edits bench_edit(const App& a, const BenchRun& r) {
    app::Edits d;
    const int i = r.i;
    if (r.kind == BenchKind::Drag) {
        d.vectors.push_back({app::VectorEdit::Query, 0, 0, r.drag_start + 0.01 * ((i % 40) - 20)});
    } else if (r.kind == BenchKind::Model) {
        const attn::ModelConfig& c = a.lib.model->model.config;
        constexpr int rows = 100;  // focus rows 0..99, inside the text's tokens
        d.focus = (i * 37) % rows;
        if (i % 8 == 7) {
            d.model_layer = (i / 8) % c.layers;
            d.model_head = (i / 16) % c.heads;
        }
    }
    return d;
}

std::string bench_begin(App& a, BenchKind kind, int tokens) {
    Platform& p = a.plat;
    if (p.bench) return "a run is already going";
    BenchRun r;
    r.kind = kind;
    r.tokens = tokens;
    r.saved_state = a.state;
    r.saved_derived = a.derived;
    r.error = bench_setup(a, kind, tokens);
    r.drag_start = a.state.scenario.query.empty() ? 0.5 : a.state.scenario.query[0];
    p.bench = std::move(r);
    return p.bench->error;
}

void bench_step(App& a) {
    BenchRun& r = *a.plat.bench;
    if (!r.error.empty()) return;
    const Uint64 t0 = SDL_GetPerformanceCounter();
    r.error = app::apply(a.state, a.derived, bench_edit(a, r), a.lib).error;
    a.plat.wake = true;  // every timed frame is drawn
    frame(&a);
    glFinish();
    r.whole.push_back(1000.0 * (SDL_GetPerformanceCounter() - t0) / SDL_GetPerformanceFrequency());
    r.ui.push_back(a.plat.ui_ms);
    ++r.i;
}

std::string bench_end(App& a) {
    BenchRun r = std::move(*a.plat.bench);
    a.plat.bench.reset();
    a.state = r.saved_state;
    a.derived = r.saved_derived;
    ++a.state.revision;
    if (!r.error.empty() || r.ui.empty())
        return app::error_json("bench", r.error.empty() ? "no frames" : r.error);
    return app::frame_stats_json(r.tokens, r.ui, r.whole);
}

// `frames` timed frames back to back, in one call.
std::string bench_run(App& a, BenchKind kind, int tokens, int frames) {
    bench_begin(a, kind, tokens);
    for (int i = 0; i < frames && a.plat.bench->error.empty(); i++) bench_step(a);
    return bench_end(a);
}
#endif

}  // namespace

// ---- exports for the page: listed once in src/app/exports.json (see docs/contract.md, 4) -----
extern "C" {
EMSCRIPTEN_KEEPALIVE const char* attn_state_json() {
    g_app.plat.reply = app::state_json(g_app.state, g_app.derived);
    return g_app.plat.reply.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* attn_set_scenario(const char* id) {
    app::Edits e;
    e.scenario_id = std::string(id ? id : "");
    return page_edit(e);
}
EMSCRIPTEN_KEEPALIVE const char* attn_set_sentence(const char* text, int focus) {
    app::Edits e;
    e.sentence = std::string(text ? text : "");
    e.focus = focus;
    return page_edit(e);
}
EMSCRIPTEN_KEEPALIVE const char* attn_tokenize(const char* text) {
    g_app.plat.reply = app::tokenize_json(text ? text : "");
    return g_app.plat.reply.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* attn_set_option(const char* name, double value) {
    const std::string n = name ? name : "";
    const std::optional<app::Edits> e = app::option_edit(n, value);
    if (e) return page_edit(*e);
    g_app.plat.reply = "There is no canvas setting called “" + n + "”.";
    return g_app.plat.reply.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* attn_set_vector(int which, int candidate, int component,
                                                 double value) {
    app::Edits e;
    if (which < 0 || which > 2) {
        g_app.plat.reply = "Choose the query (0), a key (1) or a value (2).";
        return g_app.plat.reply.c_str();
    }
    e.vectors.push_back(
        app::VectorEdit{static_cast<app::VectorEdit::Which>(which), candidate, component, value});
    return page_edit(e);
}
EMSCRIPTEN_KEEPALIVE const char* attn_set_focus(int position) {
    app::Edits e;
    e.focus = position;
    return page_edit(e);
}
EMSCRIPTEN_KEEPALIVE const char* attn_set_step(int step) {
    app::Edits e;
    e.step = step;
    return page_edit(e);
}
EMSCRIPTEN_KEEPALIVE const char* attn_set_panel(int panel) {
    app::Edits e;
    e.panel = panel;
    return page_edit(e);
}
EMSCRIPTEN_KEEPALIVE void attn_set_theme(int dark) {
    app::Edits e;
    e.dark = dark != 0;
    page_edit(e);
}
#ifdef ATTN_BENCH
// The heatmap at `tokens` words (0: the drag), `frames` frames back to back.
EMSCRIPTEN_KEEPALIVE const char* attn_bench_frames(int tokens, int frames) {
    if (!g_app.loaded || g_app.plat.bench || tokens < 0 || tokens > attn::kMaxSentenceTokens ||
        frames < 1 || frames > 1000)
        g_app.plat.reply = app::error_json("bench", "tokens must be 0..128, frames 1..1000");
    else
        g_app.plat.reply =
            bench_run(g_app, tokens ? BenchKind::Heatmap : BenchKind::Drag, tokens, frames);
    return g_app.plat.reply.c_str();
}
// Dragging a number in the Vectors view, `frames` frames back to back.
EMSCRIPTEN_KEEPALIVE const char* attn_bench_drag(int frames) {
    return attn_bench_frames(0, frames);
}
// The trained model's view, `frames` frames back to back.
EMSCRIPTEN_KEEPALIVE const char* attn_bench_model(int frames) {
    if (!g_app.loaded || g_app.plat.bench || frames < 1 || frames > 1000)
        g_app.plat.reply = app::error_json("bench", "frames 1..1000");
    else
        g_app.plat.reply = bench_run(g_app, BenchKind::Model, 0, frames);
    return g_app.plat.reply.c_str();
}
// A paced run: begin (0 heatmap at `tokens`, 1 drag, 2 the trained model's view; the app's own
// frame loop pauses), then one step per animation frame, then end (the loop resumes): the figures.
EMSCRIPTEN_KEEPALIVE const char* attn_bench_begin(int kind, int tokens) {
    if (!g_app.loaded || kind < 0 || kind > 2 ||
        (kind == 0 && (tokens < 1 || tokens > attn::kMaxSentenceTokens)))
        g_app.plat.reply = "kind must be 0..2, tokens 1..128 for the heatmap";
    else
        g_app.plat.reply = bench_begin(g_app, static_cast<BenchKind>(kind), kind == 0 ? tokens : 0);
    if (g_app.plat.bench) emscripten_pause_main_loop();
    return g_app.plat.reply.c_str();
}
EMSCRIPTEN_KEEPALIVE void attn_bench_step() {
    if (g_app.plat.bench) bench_step(g_app);
}
EMSCRIPTEN_KEEPALIVE const char* attn_bench_end() {
    if (!g_app.plat.bench) {
        g_app.plat.reply = app::error_json("bench", "no run was begun");
        return g_app.plat.reply.c_str();
    }
    g_app.plat.reply = bench_end(g_app);
    emscripten_resume_main_loop();
    return g_app.plat.reply.c_str();
}
// 1: draw with ImGui's OpenGL3 backend (state backup and restore every frame); 0: platform_gl.
EMSCRIPTEN_KEEPALIVE void attn_bench_renderer(int imgui_backend) {
    Platform& p = g_app.plat;
    if ((imgui_backend != 0) == p.imgui_backend) return;
    p.imgui_backend = imgui_backend != 0;
    if (p.imgui_backend) {
        ImGui_ImplOpenGL3_Init("#version 300 es");
        ImGui_ImplOpenGL3_CreateDeviceObjects();
    } else {
        ImGui_ImplOpenGL3_Shutdown();
        platform_gl::upload_fonts_texture();
    }
}
#endif
// The trained model: the page asks for a buffer, writes the weights file into it (Module.HEAPU8),
// then loads it with the checksum and head table it has on record. Nothing is loaded before.
EMSCRIPTEN_KEEPALIVE std::uint8_t* attn_model_buffer(int bytes) {
    if (bytes <= 0 || static_cast<std::size_t>(bytes) > attn::kMaxWeightsBytes) return nullptr;
    g_app.plat.weights.assign(static_cast<std::size_t>(bytes), 0);
    return g_app.plat.weights.data();
}
EMSCRIPTEN_KEEPALIVE const char* attn_load_model(const char* sha256, const char* heads_json) {
    App& a = g_app;
    auto m = app::load_weights(a.plat.weights.data(), a.plat.weights.size(), sha256 ? sha256 : "",
                               heads_json ? heads_json : "");
    std::vector<std::uint8_t>().swap(a.plat.weights);  // the parsed model keeps what it needs
    if (!m.ok()) {
        a.plat.reply = m.error().message;
        return a.plat.reply.c_str();
    }
    a.lib.model = std::make_shared<const app::LoadedModel>(std::move(m.value()));
    a.derived.loaded = a.lib.model;  // the state JSON says so at once
    ++a.state.revision;
    a.plat.reply.clear();
    return a.plat.reply.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* attn_set_model_text(const char* text, int focus) {
    app::Edits e;
    e.model_text = std::string(text ? text : "");
    e.focus = focus;
    return page_edit(e);
}
EMSCRIPTEN_KEEPALIVE void attn_set_reduced_motion(int on) {
    app::Edits e;
    e.reduced_motion = on != 0;
    page_edit(e);
}
}

int main(int, char**) {
    App& a = g_app;
    auto lib = app::load_library([](const std::string& name) -> attn::Result<std::string> {
        const app::EmbeddedFile* f = app::embedded_file(name.c_str());
        if (!f)
            return attn::Error{attn::ErrorCode::FileNotReadable,
                               "The app was built without " + name + "."};
        std::string text(reinterpret_cast<const char*>(f->data), f->size);
        if (app::needs_lazy_glyphs(text)) g_app.plat.lazy_glyphs = true;  // drawn from the start
        return text;
    });
    if (lib.ok()) {
        a.lib = lib.value();
        a.state = app::initial_state(a.lib);
        auto d = app::compute(a.state, a.lib);
        if (d.ok()) {
            a.derived = d.value();
            a.loaded = true;
        } else {
            a.state.message = d.error().message;
        }
    } else {
        a.state.message = lib.error().message;
    }
    a.plat.theme_seen_dark = js_prefers_dark() != 0;
    a.plat.motion_seen = js_prefers_reduced_motion() != 0;
    a.state.theme = a.plat.theme_seen_dark ? app::Theme::Dark : app::Theme::Light;
    a.state.reduced_motion = a.plat.motion_seen;
    ++a.state.revision;

    js_prepare_canvas();
    SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT,
                "#attention-canvas");  // keys only when focused
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER | SDL_INIT_EVENTS) != 0) {
        js_notify_state(app::error_json("no_video", "The canvas could not start.").c_str());
        return 1;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);  // ImGui draws in order: no depth buffer to keep
    // No alpha, stencil or multisampling either (SDL's defaults). The page's WebGL2 probe asks for
    // the same (web/js/loader.js, CONTEXT_ATTRIBUTES; tests/e2e/faults.test.mjs compares them).
    a.plat.window =
        SDL_CreateWindow("Attention score", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 1024,
                         720, SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    a.plat.gl = a.plat.window ? SDL_GL_CreateContext(a.plat.window) : nullptr;
    if (!a.plat.gl) {
        js_notify_state(app::error_json("no_webgl2",
                                        "This browser cannot draw WebGL2, so the interactive "
                                        "canvas is not available.")
                            .c_str());
        return 1;
    }
    SDL_GL_MakeCurrent(a.plat.window, a.plat.gl);
    SDL_GL_SetSwapInterval(1);
    // Touch: let the page keep pinch zoom and scrolling (SDL still turns taps into mouse clicks).
    SDL_EventState(SDL_FINGERDOWN, SDL_IGNORE);
    SDL_EventState(SDL_FINGERUP, SDL_IGNORE);
    SDL_EventState(SDL_FINGERMOTION, SDL_IGNORE);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    ImGui_ImplSDL2_InitForOpenGL(a.plat.window, a.plat.gl);
    if (!platform_gl::create_device_objects()) {
        js_notify_state(
            "{\"ok\":false,\"error\":{\"code\":\"no_webgl2\",\"message\":\"This browser "
            "cannot draw WebGL2, so the interactive canvas is not available.\"}}");
        return 1;
    }
    if (!platform_fonts::available()) {  // the browser draws the atlas's glyphs (platform_fonts)
        js_notify_state(app::error_json("no_video",
                                        "This browser cannot draw the canvas's text, "
                                        "so the interactive canvas is not available.")
                            .c_str());
        return 1;
    }
    app::apply_style(a.state.theme);

#ifdef __EMSCRIPTEN__
    // Replace SDL's wheel handler (it always prevents the page from scrolling) with ours.
    emscripten_set_wheel_callback("#canvas", nullptr, EM_FALSE, nullptr);
    emscripten_set_wheel_callback("#canvas", &a, EM_FALSE, on_wheel);
    emscripten_set_webglcontextlost_callback("#canvas", &a, EM_FALSE, on_context_lost);
    emscripten_set_webglcontextrestored_callback("#canvas", &a, EM_FALSE, on_context_restored);
    emscripten_set_main_loop_arg(frame, &a, 0, true);
#else
    while (a.plat.running) frame(&a);
    platform_gl::destroy_device_objects();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(a.plat.gl);
    SDL_DestroyWindow(a.plat.window);
    SDL_Quit();
#endif
    return 0;
}
