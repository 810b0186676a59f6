// content_json.h - the content's JSON as attn::Json values (json_value.h), for code that adds
// its own fields (the app's state JSON, the CLI's scenario list). Formats in docs/contract.md.
#pragma once

#include <string>

#include "json_value.h"

#include "content.h"

namespace attn {

// The focus-step object of to_json (in = nullptr: without the vectors; model: the fingerprint).
attn::Json focus_json(const Scenario& s, const FocusInput* in, const FocusResult& r,
                      const IllustrativeModel* model);
attn::Json error_json_value(const Error& e);  // {"ok": false, "error": {code, message}}

}  // namespace attn
