// content_internal.h - small helpers the content library's files share (not part of its API).
#pragma once

#include <string>
#include <string_view>

#include "content.h"

namespace attn::detail {

// Length of the UTF-8 sequence that starts at text[i], or 0 if it is invalid there (then
// *bad_at is the offset of the first bad byte). RFC 3629; defined in tokenizer.cpp.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i, std::size_t* bad_at);

// BadScenario naming the field: The scenario's field "keys[1]" must be ...
inline Error bad_field(const std::string& field, const std::string& problem) {
    return Error{ErrorCode::BadScenario, "The scenario's field \"" + field + "\" " + problem};
}

inline Error prefixed(const Error& e, const std::string& prefix) {
    return Error{e.code, prefix + e.message};
}

}  // namespace attn::detail
