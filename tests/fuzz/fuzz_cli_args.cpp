// fuzz_cli_args.cpp - the CLI parser on arbitrary argument lists (NUL-separated in the input).
// Commands that need no files (vectors, sentence, help) are also run. Never a crash.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args(1);
    for (std::size_t i = 0; i < size; i++) {
        if (data[i] == 0)
            args.emplace_back();
        else
            args.back().push_back(static_cast<char>(data[i]));
    }
    auto c = attn::cli::parse_args(args);
    if (!c.ok()) {
        if (c.error().message.empty()) std::abort();
        return 0;
    }
    const attn::cli::Mode m = c.value().mode;
    if (m == attn::cli::Mode::Vectors || m == attn::cli::Mode::Sentence ||
        m == attn::cli::Mode::Help) {
        std::string out;
        const int code = attn::cli::run(c.value(), &out);
        if ((code != 0 && code != 2) || out.empty()) std::abort();
        if (out.find("nan") != std::string::npos && code == 0 && c.value().json) std::abort();
    }
    return 0;
}
