// tokenizer.cpp - split UTF-8 text into words and punctuation marks, with clear errors.
#include <cstdio>
#include <string>

#include "content_internal.h"

namespace attn {

namespace {

Error error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

std::string hex_byte(unsigned char b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", b);
    return buf;
}

std::uint32_t decode(std::string_view text, std::size_t i, std::size_t len) {
    const auto byte = [&](std::size_t k) {
        return static_cast<std::uint32_t>(static_cast<unsigned char>(text[k]));
    };
    if (len == 1) return byte(i);
    std::uint32_t cp = byte(i) & (0x7Fu >> len);
    for (std::size_t k = 1; k < len; k++) cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    return cp;
}

enum class CharClass { Space, Word, Punct };

// Spaces and control characters separate; ASCII and common Unicode punctuation stand alone;
// everything else (letters and digits of any script) builds words.
CharClass classify(std::uint32_t cp) {
    if (cp <= 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0xA0)) return CharClass::Space;
    if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200F) || cp == 0x2028 || cp == 0x2029 ||
        cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF)
        return CharClass::Space;
    if (cp < 0x80) {
        const bool alnum = (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') ||
                           (cp >= 'A' && cp <= 'Z') || cp == '_';
        return alnum ? CharClass::Word : CharClass::Punct;
    }
    if ((cp >= 0xA1 && cp <= 0xBF && cp != 0xAA && cp != 0xB5 && cp != 0xBA) || cp == 0xD7 ||
        cp == 0xF7 || (cp >= 0x2010 && cp <= 0x2027) || (cp >= 0x2030 && cp <= 0x205E) ||
        (cp >= 0x3001 && cp <= 0x3003) || (cp >= 0x3008 && cp <= 0x3011) ||
        (cp >= 0xFF01 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20))
        return CharClass::Punct;
    return CharClass::Word;
}

// An apostrophe or hyphen between two word characters stays inside the word: don't, well-known.
bool is_joiner(std::uint32_t cp) { return cp == '\'' || cp == '-' || cp == 0x2019; }

}  // namespace

// Length of the UTF-8 sequence that starts at text[i], or 0 if it is invalid there.
// Follows RFC 3629: no overlong forms, no surrogates (U+D800..DFFF), nothing above U+10FFFF.
std::size_t detail::utf8_sequence_length(std::string_view text, std::size_t i,
                                         std::size_t* bad_at) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b0 = byte(i);
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b0 < 0x80) return 1;
    if (b0 >= 0xC2 && b0 <= 0xDF)
        len = 2;
    else if (b0 == 0xE0)
        len = 3, lo = 0xA0;
    else if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF)
        len = 3;
    else if (b0 == 0xED)
        len = 3, hi = 0x9F;
    else if (b0 == 0xF0)
        len = 4, lo = 0x90;
    else if (b0 >= 0xF1 && b0 <= 0xF3)
        len = 4;
    else if (b0 == 0xF4)
        len = 4, hi = 0x8F;
    else {
        *bad_at = i;
        return 0;
    }
    for (std::size_t k = 1; k < len; k++) {
        if (i + k >= text.size()) {
            *bad_at = i + k;
            return 0;
        }
        const unsigned char b = byte(i + k);
        const unsigned char min = k == 1 ? lo : 0x80, max = k == 1 ? hi : 0xBF;
        if (b < min || b > max) {
            *bad_at = i + k;
            return 0;
        }
    }
    return len;
}

std::optional<Error> check_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        std::size_t bad_at = i;
        const std::size_t len = detail::utf8_sequence_length(text, i, &bad_at);
        if (len == 0) {
            std::string what = bad_at < text.size()
                                   ? "byte " + hex_byte(static_cast<unsigned char>(text[bad_at]))
                                   : "the text ends in the middle of a character";
            return error(ErrorCode::InvalidUtf8, "The text is not valid UTF-8 at byte offset " +
                                                     std::to_string(bad_at) + " (" + what +
                                                     "). Paste plain text, not binary data.");
        }
        i += len;
    }
    return std::nullopt;
}

namespace {

// Characters that do not show as they read: C0 and C1 controls (so also tab and newline), DEL,
// and the bidi controls that reorder the text around them (marks, embeddings, overrides,
// isolates). What each one is, for the message.
const char* hidden_kind(std::uint32_t cp) {
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) return "a control character";
    if (cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
        (cp >= 0x2066 && cp <= 0x2069))
        return "a bidi control character, which reorders what a reader sees,";
    return nullptr;
}

std::string code_point(std::uint32_t cp) {
    const char* digits = "0123456789ABCDEF";
    std::string hex;
    for (int shift = cp > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4)
        hex += digits[(cp >> shift) & 0xF];
    return "U+" + hex;
}

}  // namespace

std::optional<Error> check_plain_text(std::string_view text) {
    if (auto e = check_utf8(text)) return e;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t bad_at = 0;
        const std::size_t len = detail::utf8_sequence_length(text, i, &bad_at);
        const std::uint32_t cp = decode(text, i, len);
        if (const char* kind = hidden_kind(cp))
            return error(ErrorCode::InvalidText, "The text contains " + std::string(kind) + " " +
                                                     code_point(cp) + ", at byte offset " +
                                                     std::to_string(i) + "; use plain text.");
        i += len;
    }
    return std::nullopt;
}

// Plain and at most 60 bytes: as is. Plain and longer: the first whole characters within 40
// bytes, then "…". Anything else is not repeated.
std::string shown_input(std::string_view text) {
    if (check_plain_text(text)) return "(text that cannot be shown)";
    if (text.size() <= 60) return std::string(text);
    std::size_t end = 0;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t bad_at = 0;
        const std::size_t len = detail::utf8_sequence_length(text, i, &bad_at);
        if (i + len > 40) break;
        i += len;
        end = i;
    }
    return std::string(text.substr(0, end)) + "\xE2\x80\xA6";  // U+2026 …
}

// tokens = maximal runs of word characters (with inner joiners) and single punctuation marks
Result<std::vector<Token>> tokenize(std::string_view utf8) {
    if (utf8.size() > kMaxSentenceBytes)
        return error(ErrorCode::TextTooLong,
                     "The text is " + std::to_string(utf8.size()) + " bytes long; at most " +
                         std::to_string(kMaxSentenceBytes) + " bytes are allowed.");
    if (auto e = check_utf8(utf8)) return *e;
    struct Char {
        std::uint32_t cp;
        std::size_t begin, end;
        CharClass cls;
    };
    std::vector<Char> chars;
    for (std::size_t i = 0; i < utf8.size();) {
        std::size_t bad_at = 0;
        const std::size_t len = detail::utf8_sequence_length(utf8, i, &bad_at);
        const std::uint32_t cp = decode(utf8, i, len);
        chars.push_back({cp, i, i + len, classify(cp)});
        i += len;
    }
    std::vector<Token> tokens;
    const auto emit = [&](std::size_t begin, std::size_t end) {
        tokens.push_back(Token{std::string(utf8.substr(begin, end - begin)),
                               static_cast<int>(begin), static_cast<int>(end)});
    };
    for (std::size_t c = 0; c < chars.size();) {
        if (chars[c].cls == CharClass::Space) {
            c++;
        } else if (chars[c].cls == CharClass::Punct) {
            emit(chars[c].begin, chars[c].end);
            c++;
        } else {
            std::size_t e = c + 1;
            while (e < chars.size() && (chars[e].cls == CharClass::Word ||
                                        (is_joiner(chars[e].cp) && e + 1 < chars.size() &&
                                         chars[e + 1].cls == CharClass::Word)))
                e++;
            emit(chars[c].begin, chars[e - 1].end);
            c = e;
        }
        if (tokens.size() > static_cast<std::size_t>(kMaxSentenceTokens))
            return error(ErrorCode::TooManyTokens, "The text has more than " +
                                                       std::to_string(kMaxSentenceTokens) +
                                                       " words and punctuation marks; shorten it.");
    }
    if (tokens.empty())
        return error(ErrorCode::EmptyText, "The text has no words in it; type a sentence.");
    return tokens;
}

}  // namespace attn
