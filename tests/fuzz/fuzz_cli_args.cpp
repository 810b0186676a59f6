// fuzz_cli_args.cpp - the CLI parser on arbitrary argument lists (NUL-separated in the input).
// Commands that need no files (vectors, sentence, help) are also run. Never a crash.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"

namespace {
// A successful --json answer is valid JSON whose numbers are all numbers: every candidate's
// dot_product, score and weight, and every output component (NaN or infinity would be null).
bool json_numbers_finite(const std::string& out) {
    const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return false;
    if (!j.value("ok", false)) return true;  // an error object: its message is checked elsewhere
    if (!j.contains("candidates") || !j["candidates"].is_array()) return false;
    for (const auto& c : j["candidates"])
        for (const char* k : {"dot_product", "score", "weight"})
            if (!c.contains(k) || !c[k].is_number()) return false;
    if (!j.contains("output") || !j["output"].is_array()) return false;
    for (const auto& v : j["output"])
        if (!v.is_number()) return false;
    return true;
}
}  // namespace

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
        if (code == 0 && c.value().json && m != attn::cli::Mode::Help && !json_numbers_finite(out))
            std::abort();
    }
    return 0;
}
