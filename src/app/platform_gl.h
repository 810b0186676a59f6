// platform_gl.h - part of the platform layer: the app's own WebGL2 (GLES 3.0) renderer for ImGui's
// draw lists, and the textures the views draw as images (one per heatmap head).
//   The app owns the context, so the GL state is set once when the objects are created and never
//   read back: no per-frame glGet round trips (ImGui's OpenGL3 backend backs up and restores about
//   twenty pieces of state every frame, each a synchronous call on WebGL).
//   destroy / create: every GL object, for a lost and restored WebGL context; textures the views
//   asked for are uploaded again on their next use.
#pragma once

#include <imgui.h>

namespace platform_gl {

bool create_device_objects();   // program, buffers, vertex array, state, the fonts texture (if
                                // built)
void destroy_device_objects();  // deletes them all (context lost, or shutdown); safe twice
bool device_objects_ready();
void upload_fonts_texture();  // after the font atlas was rebuilt (e.g. a new pixel ratio)
// Clears the drawing buffer (fb_w x fb_h device pixels) to `clear` and draws the lists.
void render(const ImDrawData* draw, int fb_w, int fb_h, const ImVec4& clear);

}  // namespace platform_gl
