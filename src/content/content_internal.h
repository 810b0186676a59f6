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

}  // namespace attn::detail
