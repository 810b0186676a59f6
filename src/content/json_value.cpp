// json_value.cpp - the project's JSON value (json_value.h): objects, parse, dump.
#include "json_value.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "content_internal.h"

namespace attn {

namespace {

const Json& null_json() {
    static const Json kNull;  // a constant, never changed: what a missing key reads as
    return kNull;
}

// The first member whose key is not less than `key` (members are sorted by key).
template <class Members>
auto lower_bound_key(Members& members, std::string_view key) {
    return std::lower_bound(members.begin(), members.end(), key,
                            [](const Json::Member& m, std::string_view k) { return m.first < k; });
}

// ---- parse: a recursive descent over the text, one function per part of the grammar ----------
struct Parser {
    std::string_view text;
    std::size_t at = 0;

    bool done() const { return at >= text.size(); }
    char peek() const { return done() ? '\0' : text[at]; }
    void skip_space() {
        while (!done() &&
               (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r'))
            ++at;
    }
    bool take(char c) {
        if (peek() != c) return false;
        ++at;
        return true;
    }
    bool take_word(std::string_view w) {
        if (text.substr(at, w.size()) != w) return false;
        at += w.size();
        return true;
    }

    std::optional<Json> value(int depth) {
        skip_space();
        if (depth > kMaxJsonDepth) return std::nullopt;
        const char c = peek();
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') {
            std::string s;
            if (!string(&s)) return std::nullopt;
            return Json(std::move(s));
        }
        if (take_word("true")) return Json(true);
        if (take_word("false")) return Json(false);
        if (take_word("null")) return Json(nullptr);
        return number();
    }

    std::optional<Json> object(int depth) {
        ++at;  // '{'
        Json j = Json::object();
        skip_space();
        if (take('}')) return j;
        for (;;) {
            skip_space();
            std::string key;
            if (peek() != '"' || !string(&key)) return std::nullopt;
            skip_space();
            if (!take(':')) return std::nullopt;
            std::optional<Json> v = value(depth + 1);
            if (!v) return std::nullopt;
            j[key] = std::move(*v);  // a repeated key keeps the last value
            skip_space();
            if (take('}')) return j;
            if (!take(',')) return std::nullopt;
        }
    }

    std::optional<Json> array(int depth) {
        ++at;  // '['
        Json j = Json::array();
        skip_space();
        if (take(']')) return j;
        for (;;) {
            std::optional<Json> v = value(depth + 1);
            if (!v) return std::nullopt;
            j.push_back(std::move(*v));
            skip_space();
            if (take(']')) return j;
            if (!take(',')) return std::nullopt;
        }
    }

    bool digits() {  // one or more
        const std::size_t start = at;
        while (!done() && text[at] >= '0' && text[at] <= '9') ++at;
        return at > start;
    }

    // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?  A whole number that fits 64 bits
    // is an integer (unsigned when not negative); any other number is a double, and one beyond
    // a double's range is refused (JSON has no infinity).
    std::optional<Json> number() {
        const std::size_t start = at;
        const bool negative = take('-');
        if (take('0')) {
            if (peek() >= '0' && peek() <= '9') return std::nullopt;  // no leading zeros
        } else if (!digits()) {
            return std::nullopt;
        }
        bool whole = true;
        if (take('.')) {
            whole = false;
            if (!digits()) return std::nullopt;
        }
        if (peek() == 'e' || peek() == 'E') {
            ++at;
            whole = false;
            if (!take('+')) take('-');
            if (!digits()) return std::nullopt;
        }
        const std::string token(text.substr(start, at - start));  // strto* need a terminated copy
        char* end = nullptr;
        errno = 0;
        if (whole && negative) {
            const long long i = std::strtoll(token.c_str(), &end, 10);
            if (errno == 0) return Json(i);
        } else if (whole) {
            const unsigned long long u = std::strtoull(token.c_str(), &end, 10);
            if (errno == 0) return Json(u);
        }
        const double d = std::strtod(token.c_str(), &end);
        if (!std::isfinite(d)) return std::nullopt;  // beyond a double's range (as nlohmann)
        return Json(d);
    }

    int hex4() {  // the 4 hex digits of a \u escape, or -1
        if (text.size() - at < 4) return -1;
        int v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = text[at++];
            const int d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
            if (d < 0) return -1;
            v = v * 16 + d;
        }
        return v;
    }

    static void append_utf8(std::string* out, std::uint32_t cp) {
        if (cp < 0x80) {
            *out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            *out += static_cast<char>(0xC0 | (cp >> 6));
            *out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            *out += static_cast<char>(0xE0 | (cp >> 12));
            *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            *out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            *out += static_cast<char>(0xF0 | (cp >> 18));
            *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            *out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    // "..." with the escapes of RFC 8259; raw bytes must be UTF-8 and not control characters.
    // A \u escape of a surrogate must be a high one followed by \u and a low one.
    bool string(std::string* out) {
        ++at;  // '"'
        for (;;) {
            if (done()) return false;
            const auto c = static_cast<unsigned char>(text[at]);
            if (c == '"') {
                ++at;
                return true;
            }
            if (c < 0x20) return false;
            if (c != '\\') {
                std::size_t bad_at = 0;
                const std::size_t len = detail::utf8_sequence_length(text, at, &bad_at);
                if (len == 0) return false;
                out->append(text.substr(at, len));
                at += len;
                continue;
            }
            ++at;
            if (done()) return false;
            const char e = text[at++];
            switch (e) {
                case '"':
                    *out += '"';
                    break;
                case '\\':
                    *out += '\\';
                    break;
                case '/':
                    *out += '/';
                    break;
                case 'b':
                    *out += '\b';
                    break;
                case 'f':
                    *out += '\f';
                    break;
                case 'n':
                    *out += '\n';
                    break;
                case 'r':
                    *out += '\r';
                    break;
                case 't':
                    *out += '\t';
                    break;
                case 'u': {
                    const int hi = hex4();
                    if (hi < 0 || (hi >= 0xDC00 && hi <= 0xDFFF)) return false;
                    std::uint32_t cp = static_cast<std::uint32_t>(hi);
                    if (hi >= 0xD800 && hi <= 0xDBFF) {
                        if (!take('\\') || !take('u')) return false;
                        const int lo = hex4();
                        if (lo < 0xDC00 || lo > 0xDFFF) return false;
                        cp = 0x10000 + ((cp - 0xD800) << 10) +
                             static_cast<std::uint32_t>(lo - 0xDC00);
                    }
                    append_utf8(out, cp);
                    break;
                }
                default:
                    return false;
            }
        }
    }
};

// ---- dump ------------------------------------------------------------------------------------

// Text in quotes: " and \ escaped, control characters as \b \f \n \r \t or \u00xx, everything
// else as it is; each sequence that is not UTF-8 becomes U+FFFD.
void dump_string(std::string& out, std::string_view s) {
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            std::size_t bad_at = i;
            const std::size_t len = detail::utf8_sequence_length(s, i, &bad_at);
            if (len > 0) {
                out.append(s.substr(i, len));
                i += len;
            } else {
                out += "\xEF\xBF\xBD";        // U+FFFD for the bytes up to the bad one
                i = std::max(bad_at, i + 1);  // a bad continuation byte starts afresh
            }
            continue;
        }
        ++i;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    out += '"';
}

// A double in the fewest significant digits that read back as the same double (tried at 15,
// 16, then 17 digits; 17 always round-trip, and a number that needs fewer than 15 is written at
// 15 with trailing zeros, which fall away), laid out
// as nlohmann did: 2.0, 0.125, 1e-05, 1.5e+21. Not finite: null (JSON has no infinity).
void dump_double(std::string& out, double x) {
    if (!std::isfinite(x)) {
        out += "null";
        return;
    }
    if (x == 0) {
        out += std::signbit(x) ? "-0.0" : "0.0";
        return;
    }
    char buf[40];
    // Below DBL_MIN (subnormal) fewer digits are significant: there the search starts at 1.
    for (int p = std::fabs(x) < DBL_MIN ? 1 : 15; p <= 17; ++p) {
        std::snprintf(buf, sizeof buf, "%.*e", p - 1, x);
        if (p == 17 || std::strtod(buf, nullptr) == x) break;
    }
    // buf is [-]d.ddddde[+-]XX: the digits, then x = 0.digits * 10^n
    const char* s = buf;
    if (*s == '-') out += *s++;
    std::string digits;
    for (; *s && *s != 'e'; ++s)
        if (*s != '.') digits += *s;
    const int n = std::atoi(s + 1) + 1;
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    const int k = static_cast<int>(digits.size());
    constexpr int kMinExp = -4, kMaxExp = 15;  // outside 1e-5 .. 1e15: exponent form
    if (k <= n && n <= kMaxExp) {
        out += digits + std::string(static_cast<std::size_t>(n - k), '0') + ".0";
    } else if (0 < n && n <= kMaxExp) {
        out += digits.substr(0, static_cast<std::size_t>(n)) + "." +
               digits.substr(static_cast<std::size_t>(n));
    } else if (kMinExp < n && n <= 0) {
        out += "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
    } else {
        out += digits.substr(0, 1);
        if (k > 1) out += "." + digits.substr(1);
        const int e = n - 1;
        std::snprintf(buf, sizeof buf, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
        out += buf;
    }
}

void newline(std::string& out, int indent, int level) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * level), ' ');
}

}  // namespace

Json::Json(std::initializer_list<Json> list) {
    const bool pairs = std::all_of(list.begin(), list.end(), [](const Json& e) {
        return e.is_array() && e.size() == 2 && e.items_[0].is_string();
    });
    if (pairs) {
        type_ = Type::Object;
        for (const Json& e : list) (*this)[e.items_[0].s_] = e.items_[1];
    } else {
        type_ = Type::Array;
        items_.assign(list.begin(), list.end());
    }
}

const Json* Json::find(std::string_view key) const {
    if (!is_object()) return nullptr;
    const auto it = lower_bound_key(members_, key);
    return it != members_.end() && it->first == key ? &it->second : nullptr;
}

const Json& Json::operator[](std::string_view key) const {
    const Json* v = find(key);
    return v ? *v : null_json();
}

const Json& Json::operator[](std::size_t i) const {
    return is_array() && i < items_.size() ? items_[i] : null_json();
}

Json Json::value(std::string_view key, Json fallback) const {
    const Json* v = find(key);
    return v ? *v : fallback;
}

Json& Json::operator[](std::string_view key) {
    if (!is_object()) *this = object();
    const auto it = lower_bound_key(members_, key);
    if (it != members_.end() && it->first == key) return it->second;
    return members_.insert(it, Member(std::string(key), Json()))->second;
}

Json& Json::operator[](std::size_t i) { return items_.at(i); }

void Json::push_back(Json v) {
    if (!is_array()) *this = array();
    items_.push_back(std::move(v));
}

std::optional<Json> Json::parse(std::string_view text) {
    Parser p{text};
    std::optional<Json> j = p.value(0);
    p.skip_space();
    if (!j || !p.done()) return std::nullopt;
    return j;
}

std::string Json::dump(int indent) const {
    std::string out;
    dump_to(out, indent, 0);
    return out;
}

void Json::dump_to(std::string& out, int indent, int level) const {
    switch (type_) {
        case Type::Null:
            out += "null";
            break;
        case Type::Boolean:
            out += b_ ? "true" : "false";
            break;
        case Type::Integer:
            out += std::to_string(i_);
            break;
        case Type::Unsigned:
            out += std::to_string(u_);
            break;
        case Type::Float:
            dump_double(out, d_);
            break;
        case Type::String:
            dump_string(out, s_);
            break;
        case Type::Array:
            out += '[';
            for (std::size_t i = 0; i < items_.size(); ++i) {
                if (i > 0) out += ',';
                newline(out, indent, level + 1);
                items_[i].dump_to(out, indent, level + 1);
            }
            if (!items_.empty()) newline(out, indent, level);
            out += ']';
            break;
        case Type::Object:
            out += '{';
            for (std::size_t i = 0; i < members_.size(); ++i) {
                if (i > 0) out += ',';
                newline(out, indent, level + 1);
                dump_string(out, members_[i].first);
                out += indent < 0 ? ":" : ": ";
                members_[i].second.dump_to(out, indent, level + 1);
            }
            if (!members_.empty()) newline(out, indent, level);
            out += '}';
            break;
    }
}

}  // namespace attn
