// content_internal.h - small helpers the content library's files share (not part of its API).
#pragma once

#include <string>
#include <string_view>

#include "content.h"

namespace attn::detail {

// BadScenario naming the field: The scenario's field "keys[1]" must be ...
inline Error bad_field(const std::string& field, const std::string& problem) {
    return Error{ErrorCode::BadScenario, "The scenario's field \"" + field + "\" " + problem};
}

inline Error prefixed(const Error& e, const std::string& prefix) {
    return Error{e.code, prefix + e.message};
}

// A scenario id: 1..64 of a-z, 0-9, '-' and '_' (so dir/id.json never leaves dir).
inline bool is_scenario_id(std::string_view id) {
    if (id.empty() || id.size() > 64) return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return false;
    return true;
}

}  // namespace attn::detail
