// fuzz_scenario_json.cpp - any bytes as a scenario file: parse, run, write JSON. Never a crash,
// never an exception, never a NaN weight.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "content.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto s = attn::parse_scenario(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!s.ok()) {
        if (s.error().message.empty()) std::abort();
        (void)attn::error_json(s.error());
        return 0;
    }
    auto in = attn::focus_input(s.value());
    if (!in.ok()) std::abort();  // parse_scenario validated it
    auto r = attn::attend(in.value());
    if (!r.ok()) return 0;  // e.g. scores too large to represent: a typed error is fine
    for (double w : r.value().weights)
        if (!std::isfinite(w)) std::abort();
    (void)attn::to_json(s.value(), in.value(), r.value());
    if (s.value().kind == attn::ScenarioKind::Sentence)
        (void)attn::sentence_self_attention(s.value());
    return 0;
}
