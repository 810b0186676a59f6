// fuzz_tokenizer.cpp - any bytes into tokenize(), then the whole sentence path: never a crash,
// never a NaN, tokens always valid slices of the input.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "content.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto tokens = attn::tokenize(text);
    if (!tokens.ok()) {
        if (tokens.error().message.empty()) std::abort();
        return 0;
    }
    for (const attn::Token& t : tokens.value()) {
        if (t.begin < 0 || t.end <= t.begin || static_cast<std::size_t>(t.end) > size) std::abort();
        if (text.substr(t.begin, t.end - t.begin) != t.text) std::abort();
        if (attn::check_utf8(t.text)) std::abort();
    }
    const int focus = static_cast<int>(size % tokens.value().size());
    const int heads = 1 << (size % 3);  // 1, 2, 4
    auto s = attn::sentence_scenario(text, focus, 8, heads);
    // The text tokenized, so the scenario builds, unless a token holds a bidi control (such as
    // U+061C), which sentence_scenario refuses with InvalidText and a message that names it.
    if (!s.ok()) {
        if (s.error().code != attn::ErrorCode::InvalidText || s.error().message.empty())
            std::abort();
        return 0;
    }
    auto r = attn::run_scenario(s.value());
    if (!r.ok()) std::abort();
    for (double w : r.value().weights)
        if (!std::isfinite(w) || w < 0.0) std::abort();
    if (std::abs(r.value().weight_sum - 1.0) > 1e-9) std::abort();
    (void)attn::to_json(s.value(), r.value());
    return 0;
}
