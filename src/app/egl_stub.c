/* egl_stub.c - part of the platform layer. SDL's EGL code references eglGetProcAddress, and
 * Emscripten's version pulls a table of about 230 GL functions into the JS glue. The app calls GL
 * directly (platform_gl.cpp), so this definition, linked before libGL, returns NULL instead. */
typedef void (*attn_egl_proc)(void);
attn_egl_proc eglGetProcAddress(const char* name);
attn_egl_proc eglGetProcAddress(const char* name) {
    (void)name;
    return 0;
}
