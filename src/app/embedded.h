// embedded.h - the files the canvas needs (scenarios, canvas text), compiled into the wasm
// as byte arrays at build time (src/app/tools/embed_files.cmake), so the app has no file system.
#pragma once

#include <cstddef>

namespace app {

struct EmbeddedFile {
    const char* name;  // e.g. "scenarios/diagram.json", "app/ui.json"
    const unsigned char* data;
    std::size_t size;
};

const EmbeddedFile* embedded_file(const char* name);  // nullptr if not embedded

}  // namespace app
