// platform_gl.cpp - part of the platform layer (see platform_gl.h): a small WebGL2 renderer for
// ImGui's draw data, and the heatmap textures (views.h HeatmapTexture). GLES 3.0 / GLSL ES 3.00.
#include "platform_gl.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "theme.h"
#include "views.h"

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <SDL_opengl.h>
#include <SDL_opengl_glext.h>
#endif

namespace platform_gl {
namespace {

struct Heatmap {  // one texture per slot (head), re-uploaded when its texels would change
    GLuint tex = 0;
    int n = 0;
    std::uint64_t key = 0;        // the options' hash (size, mask, theme, masked colour)
    std::vector<double> weights;  // the matrix uploaded, compared bit for bit each frame
};

struct Renderer {
    GLuint program = 0, vao = 0, vbo = 0, ibo = 0, fonts = 0;
    GLint u_proj = -1, u_mask = -1;
    float proj_w = -1, proj_h = -1, proj_y = 0;  // last projection uploaded
    Heatmap heat[app::kHeatmapSlots];
    std::vector<std::uint32_t> texels;
};
Renderer g_gl;  // the one renderer (the app has one context)

const char* kVertex =
    "#version 300 es\n"
    "uniform mat4 u_proj;\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 1) in vec2 a_uv;\n"
    "layout(location = 2) in vec4 a_col;\n"
    "out vec2 v_uv;\n"
    "out vec4 v_col;\n"
    "void main() { v_uv = a_uv; v_col = a_col; gl_Position = u_proj * vec4(a_pos, 0.0, 1.0); }\n";
const char* kFragment =
    "#version 300 es\n"
    "precision mediump float;\n"
    "uniform sampler2D u_tex;\n"
    "uniform float u_mask;\n"  // 1: the fonts texture (coverage in R, one byte a texel), 0: RGBA
    "in vec2 v_uv;\n"
    "in vec4 v_col;\n"
    "out vec4 o_col;\n"
    "void main() {\n"
    "  vec4 t = texture(u_tex, v_uv);\n"
    "  o_col = v_col * mix(t, vec4(1.0, 1.0, 1.0, t.r), u_mask);\n"
    "}\n";

GLuint compile(GLenum kind, const char* src) {
    const GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);  // once, at creation
    if (!ok) {
        glDeleteShader(s);
        return 0;
    }
    return s;
}

GLuint new_texture() {
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return t;
}

// Orthographic projection of ImGui's display rectangle onto clip space.
void set_projection(const ImDrawData* d) {
    const float L = d->DisplayPos.x, R = d->DisplayPos.x + d->DisplaySize.x;
    const float T = d->DisplayPos.y, B = d->DisplayPos.y + d->DisplaySize.y;
    if (R - L == g_gl.proj_w && B - T == g_gl.proj_h && T == g_gl.proj_y) return;
    g_gl.proj_w = R - L;
    g_gl.proj_h = B - T;
    g_gl.proj_y = T;
    const float m[16] = {
        2.0f / (R - L),    0, 0, 0, 0, 2.0f / (T - B), 0, 0, 0, 0, -1, 0, (R + L) / (L - R),
        (T + B) / (B - T), 0, 1};
    glUniformMatrix4fv(g_gl.u_proj, 1, GL_FALSE, m);
}

// Sets the whole pipeline state once: nothing else draws into this context.
void set_state() {
    glUseProgram(g_gl.program);
    glUniform1i(glGetUniformLocation(g_gl.program, "u_tex"), 0);
    glBindVertexArray(g_gl.vao);
    glActiveTexture(GL_TEXTURE0);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_STENCIL_TEST);
    glEnable(GL_SCISSOR_TEST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // rows of the one-byte fonts texture are not padded
    g_gl.proj_w = g_gl.proj_h = -1;
}

}  // namespace

bool device_objects_ready() { return g_gl.program != 0; }

bool create_device_objects() {
    destroy_device_objects();
    const GLuint vs = compile(GL_VERTEX_SHADER, kVertex),
                 fs = compile(GL_FRAGMENT_SHADER, kFragment);
    if (!vs || !fs) return false;
    g_gl.program = glCreateProgram();
    glAttachShader(g_gl.program, vs);
    glAttachShader(g_gl.program, fs);
    glLinkProgram(g_gl.program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(g_gl.program, GL_LINK_STATUS, &ok);
    if (!ok) {
        destroy_device_objects();
        return false;
    }
    g_gl.u_proj = glGetUniformLocation(g_gl.program, "u_proj");
    g_gl.u_mask = glGetUniformLocation(g_gl.program, "u_mask");
    glGenVertexArrays(1, &g_gl.vao);
    glGenBuffers(1, &g_gl.vbo);
    glGenBuffers(1, &g_gl.ibo);
    glBindVertexArray(g_gl.vao);
    glBindBuffer(GL_ARRAY_BUFFER, g_gl.vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g_gl.ibo);  // kept by the vertex array
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);
    const GLsizei stride = sizeof(ImDrawVert);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(ImDrawVert, pos)));
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(ImDrawVert, uv)));
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          reinterpret_cast<void*>(offsetof(ImDrawVert, col)));
    set_state();
    upload_fonts_texture();
    return true;
}

void destroy_device_objects() {
    if (g_gl.program) glDeleteProgram(g_gl.program);
    if (g_gl.vao) glDeleteVertexArrays(1, &g_gl.vao);
    if (g_gl.vbo) glDeleteBuffers(1, &g_gl.vbo);
    if (g_gl.ibo) glDeleteBuffers(1, &g_gl.ibo);
    if (g_gl.fonts) glDeleteTextures(1, &g_gl.fonts);
    for (Heatmap& h : g_gl.heat) {
        if (h.tex) glDeleteTextures(1, &h.tex);
        h = Heatmap{};
    }
    g_gl.program = g_gl.vao = g_gl.vbo = g_gl.ibo = g_gl.fonts = 0;
    ImGui::GetIO().Fonts->SetTexID(nullptr);
}

// One byte a texel (GL_R8): a quarter of the RGBA upload, and no RGBA conversion on the CPU; the
// shader turns coverage r into (1, 1, 1, r). With no font added yet there is nothing to upload
// (ImGui would build its default font, which the app never draws).
void upload_fonts_texture() {
    ImGuiIO& io = ImGui::GetIO();
    if (!g_gl.program || io.Fonts->Fonts.empty()) return;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
    if (!g_gl.fonts) g_gl.fonts = new_texture();
    glBindTexture(GL_TEXTURE_2D, g_gl.fonts);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, w, h, 0, GL_RED, GL_UNSIGNED_BYTE, pixels);
    io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(g_gl.fonts)));
    io.Fonts->ClearTexData();  // the atlas keeps glyph data; the pixels live on the GPU now
}

void render(const ImDrawData* d, int fb_w, int fb_h, const ImVec4& clear) {
    if (!g_gl.program) return;
    glViewport(0, 0, fb_w, fb_h);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(clear.x, clear.y, clear.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    if (!d || d->DisplaySize.x <= 0 || d->DisplaySize.y <= 0) return;
    set_projection(d);
    const ImVec2 off = d->DisplayPos, sc = d->FramebufferScale;
    GLuint bound = 0;
    for (int l = 0; l < d->CmdListsCount; ++l) {
        const ImDrawList* list = d->CmdLists[l];
        glBufferData(GL_ARRAY_BUFFER,
                     list->VtxBuffer.Size * static_cast<GLsizeiptr>(sizeof(ImDrawVert)),
                     list->VtxBuffer.Data, GL_STREAM_DRAW);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                     list->IdxBuffer.Size * static_cast<GLsizeiptr>(sizeof(ImDrawIdx)),
                     list->IdxBuffer.Data, GL_STREAM_DRAW);
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback) continue;  // the app adds none
            const float x0 = (cmd.ClipRect.x - off.x) * sc.x, y0 = (cmd.ClipRect.y - off.y) * sc.y;
            const float x1 = (cmd.ClipRect.z - off.x) * sc.x, y1 = (cmd.ClipRect.w - off.y) * sc.y;
            if (x1 <= x0 || y1 <= y0 || x0 >= fb_w || y0 >= fb_h || x1 <= 0 || y1 <= 0) continue;
            glScissor(static_cast<GLint>(x0), static_cast<GLint>(fb_h - y1),
                      static_cast<GLsizei>(x1 - x0), static_cast<GLsizei>(y1 - y0));
            const GLuint tex = static_cast<GLuint>(reinterpret_cast<std::intptr_t>(cmd.GetTexID()));
            if (tex != bound) {
                glBindTexture(GL_TEXTURE_2D, tex);
                glUniform1f(g_gl.u_mask, tex == g_gl.fonts ? 1.0f : 0.0f);
                bound = tex;
            }
            glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(cmd.ElemCount),
                           sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                           reinterpret_cast<void*>(cmd.IdxOffset * sizeof(ImDrawIdx)));
        }
    }
}

}  // namespace platform_gl

namespace app {

namespace {
// a == b bit for bit, a word at a time (libc's memcmp goes byte by byte: slower than hashing)
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    const double *pa = a.data(), *pb = b.data(), *end = pa + a.size();  // pointers: -Oz inlines
    for (; pa != end; ++pa, ++pb) {                                     // no operator[]
        std::uint64_t x = 0, y = 0;
        std::memcpy(&x, pa, sizeof x);
        std::memcpy(&y, pb, sizeof y);
        if (x != y) return false;
    }
    return true;
}
}  // namespace

// One texel per cell, uploaded only when the weights, the mask or the colours changed: a hash of
// the options, and the matrix compared bit for bit with the copy last uploaded (cheaper than
// hashing 128 x 128 doubles each frame, and far cheaper than uploading).
ImTextureID HeatmapTexture(int slot, const attn::Matrix& weights, bool causal, Theme theme,
                           ImU32 masked) {
    using platform_gl::g_gl;
    const int n = weights.rows;
    if (!g_gl.program || slot < 0 || slot >= kHeatmapSlots || n < 1 || weights.cols != n)
        return nullptr;
    std::uint64_t key = 1469598103934665603ull;
    const auto mixin = [&key](std::uint64_t v) { key = (key ^ v) * 1099511628211ull; };
    mixin(static_cast<std::uint64_t>(n));
    mixin(causal ? 1 : 2);
    mixin(static_cast<std::uint64_t>(theme));
    mixin(masked);
    platform_gl::Heatmap& h = g_gl.heat[slot];
    if (h.tex && h.n == n && h.key == key && same_bits(h.weights, weights.data))
        return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(h.tex));
    h.weights = weights.data;
    g_gl.texels.resize(static_cast<std::size_t>(n) * n);
    const HeatScale scale = heat_scale(palette_for(theme), n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            g_gl.texels[static_cast<std::size_t>(i) * n + j] =
                causal && j > i ? masked
                                : rgba(weight_colour(scale, static_cast<float>(weights.at(i, j))));
    if (!h.tex) h.tex = platform_gl::new_texture();
    glBindTexture(GL_TEXTURE_2D, h.tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, n, n, 0, GL_RGBA, GL_UNSIGNED_BYTE, g_gl.texels.data());
    h.n = n;
    h.key = key;
    return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(h.tex));
}

}  // namespace app
