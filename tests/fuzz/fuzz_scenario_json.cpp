// fuzz_scenario_json.cpp - any bytes as a scenario file: parse, run, write JSON. Never a crash,
// never an exception, never a NaN weight. And the project's JSON parser (json_value.h) accepts
// exactly what nlohmann/json, the reference, accepts (up to kMaxJsonDepth of nesting), and writes
// back the same values.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "content.h"
#include "json_value.h"

namespace {

void check_against_reference(std::string_view text) {
    // nlohmann reads a NUL byte as the end of the text ("2\0x" is 2); a NUL outside quotes is
    // not JSON, and ours refuses it (tests/test_json_value.cpp): no comparison for such text.
    if (text.find('\0') != std::string_view::npos) return;
    const bool want = nlohmann::json::accept(text);
    const std::optional<attn::Json> got = attn::Json::parse(text);
    const auto opening =
        std::count(text.begin(), text.end(), '[') + std::count(text.begin(), text.end(), '{');
    if (want && !got && opening <= attn::kMaxJsonDepth) std::abort();  // refused valid JSON
    if (!want && got) std::abort();                                    // accepted invalid JSON
    if (got && nlohmann::json::parse(got->dump()) != nlohmann::json::parse(text)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check_against_reference(text);
    auto s = attn::parse_scenario(text);
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
