// test_json_value.cpp - the project's JSON value (src/content/json_value.h) against nlohmann/json,
// the reference: the same text accepted, the same text written, numbers that read back exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_value.h"
#include "test_util.h"

namespace {

using attn::Json;
using ref = nlohmann::json;

std::string read_asset(const std::string& rel) {
    std::ifstream f(test::asset(rel), std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

const char* const kAssets[] = {"app/model.json",
                               "app/ui.json",
                               "content/attention-score/entry.json",
                               "model/model.json",
                               "scenarios/diagram.json",
                               "scenarios/index.json",
                               "scenarios/sentence.json",
                               "scenarios/worked-example.json",
                               "theme/glyphs.json",
                               "theme/palette.json"};

std::string ref_dump(const ref& j, int indent = -1) {
    return j.dump(indent, ' ', false, ref::error_handler_t::replace);
}

// Equal texts, or where they first differ (the texts can be 300 KB long).
::testing::AssertionResult SameText(const std::string& a, const std::string& b) {
    if (a == b) return ::testing::AssertionSuccess();
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    const std::size_t from = i < 40 ? 0 : i - 40;
    return ::testing::AssertionFailure() << "at byte " << i << ": ours ..." << a.substr(from, 80)
                                         << "... the reference's ..." << b.substr(from, 80);
}

// The text with each number outside quotes written as 0: how it is laid out, whatever digits
// each number has.
std::string without_numbers(const std::string& text) {
    std::string out;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                quoted = false;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            while (i + 1 < text.size() && std::strchr("0123456789.eE+-", text[i + 1])) ++i;
            out += '0';
        } else {
            out += c;
            quoted = c == '"';
        }
    }
    return out;
}

// Ours writes the reference's values (exactly), laid out as the reference does, in at most as
// many bytes: nlohmann's Grisu2 sometimes writes 17 digits where 15 or 16 read back the same.
::testing::AssertionResult SameJson(const std::string& ours, const std::string& reference) {
    if (!ref::accept(ours)) return ::testing::AssertionFailure() << "not JSON: " << ours;
    if (ref::parse(ours) != ref::parse(reference))
        return ::testing::AssertionFailure() << "other values: " << ours.substr(0, 200);
    if (ours.size() > reference.size())
        return ::testing::AssertionFailure() << "longer: " << ours.substr(0, 200);
    return SameText(without_numbers(ours), without_numbers(reference));
}

// Whether nlohmann accepts the text, and if so that ours accepts it and writes the same.
::testing::AssertionResult SameAsReference(const std::string& text) {
    const bool want = ref::accept(text);
    const std::optional<Json> got = Json::parse(text);
    if (want != got.has_value())
        return ::testing::AssertionFailure()
               << "nlohmann " << (want ? "accepts" : "refuses") << " but ours "
               << (got ? "accepts" : "refuses") << ": " << text.substr(0, 200);
    if (want) return SameJson(got->dump(), ref_dump(ref::parse(text)));
    return ::testing::AssertionSuccess();
}

TEST(JsonValue, ReadsAndWritesEveryAssetAsTheReferenceDoes) {
    for (const char* name : kAssets) {
        SCOPED_TRACE(name);
        const std::string text = read_asset(name);
        ASSERT_FALSE(text.empty());
        const std::optional<Json> j = Json::parse(text);
        ASSERT_TRUE(j.has_value());
        const ref r = ref::parse(text);
        EXPECT_TRUE(SameJson(j->dump(), ref_dump(r)));
        EXPECT_TRUE(SameJson(j->dump(1), ref_dump(r, 1)));  // the trainer's run.json layout
        EXPECT_TRUE(SameJson(j->dump(4), ref_dump(r, 4)));
    }
}

TEST(JsonValue, AcceptsAndRefusesHandWrittenCasesAsTheReferenceDoes) {
    const char* const cases[] = {
        "",
        " ",
        "null",
        "true",
        "false",
        "nul",
        "tru",
        "0",
        "-0",
        "01",
        "-01",
        "1.",
        ".5",
        "1.5e",
        "1e5",
        "1E+5",
        "1e-5",
        "-",
        "+1",
        "0x10",
        "1e400",
        "-1e400",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "[1,2,]",
        "[,]",
        "[]",
        "{}",
        "{,}",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{a:1}",
        "{\"a\":1}{",
        "[1] x",
        "[1]   \n",
        "\"abc",
        "\"a\\qb\"",
        "\"a\\u00e9b\"",
        "\"\\u12\"",
        "\"\\uD83D\\uDE00\"",
        "\"\\uD83D\"",
        "\"\\uDE00\"",
        "\"\\uD83Dx\"",
        "\"\\uD83D\\u0041\"",
        "\"tab\there\"",
        "\"\x01\"",
        "\"\xC3\xA9\"",
        "\"\xC3\"",
        "\"\xFF\"",
        "\"\xED\xA0\x80\"",
        "\"\xF0\x9F\x98\x80\"",
        "\"\xE0\x80\xAF\"",
        "{\"a\":1,\"a\":2}",
        "[\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"]",
        "\t[ 1 , { \"k\" : [ ] } ]\r\n",
        "[1e5, -0.0, 2.50, 100, 1.0e-7, 123456789012345678]",
    };
    for (const char* c : cases) EXPECT_TRUE(SameAsReference(c));
    // Where ours is stricter: nlohmann reads a NUL byte as the end of the text (found by fuzzing).
    EXPECT_FALSE(Json::parse(std::string("2\0x", 3)).has_value());
    EXPECT_FALSE(Json::parse(std::string("[1]\0", 4)).has_value());
    EXPECT_TRUE(Json::parse(std::string("\"a\\u0000b\"")).has_value());  // escaped, it is text
}

TEST(JsonValue, AcceptsAndRefusesMutatedAssetsAsTheReferenceDoes) {
    const std::string base = read_asset("scenarios/worked-example.json");
    const std::string bytes = "{}[]\",:.-+eE0123456789\\u tfn\x01\xC3\xFF";
    std::mt19937 rng(12345);
    int accepted = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::string text = base;
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng() % text.size();
            const char b = bytes[rng() % bytes.size()];
            switch (rng() % 3) {
                case 0:
                    text[at] = b;
                    break;
                case 1:
                    text.insert(text.begin() + static_cast<long>(at), b);
                    break;
                default:
                    text.erase(at, 1);
            }
        }
        accepted += ref::accept(text) ? 1 : 0;
        ASSERT_TRUE(SameAsReference(text)) << "trial " << trial;
    }
    EXPECT_GT(accepted, 100);  // the mutations test both sides
    EXPECT_LT(accepted, 2900);
}

TEST(JsonValue, WritesDoublesThatReadBackExactlyInNoMoreDigitsThanTheReference) {
    std::mt19937_64 rng(7);
    std::vector<double> values = {0.1,
                                  0.5,
                                  1.0 / 3,
                                  2.0,
                                  100.0,
                                  1e15,
                                  1e16,
                                  123456789012345.0,
                                  1e-4,
                                  1e-5,
                                  1.5e21,
                                  -2.5e-8,
                                  5e-324,
                                  1.7976931348623157e308,
                                  0.80218388855245};
    for (int i = 0; i < 20000; ++i) {
        const std::uint64_t bits = rng();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        if (std::isfinite(d)) values.push_back(d);
        values.push_back(static_cast<double>(static_cast<int>(rng() % 200001) - 100000) / 1000.0);
        values.push_back(std::ldexp(static_cast<double>(rng() >> 11), -60));  // weights in [0, 8)
    }
    int same_text = 0;
    for (const double d : values) {
        const std::string mine = Json(d).dump(), theirs = ref(d).dump();
        ASSERT_EQ(std::strtod(mine.c_str(), nullptr), d) << mine;
        ASSERT_LE(mine.size(), theirs.size()) << mine << " against " << theirs;
        ASSERT_TRUE(ref::parse(mine).is_number_float()) << mine;  // still a float: "2.0", not "2"
        same_text += mine == theirs ? 1 : 0;
    }
    EXPECT_GE(same_text, static_cast<int>(values.size() * 99 / 100));
    EXPECT_EQ(Json(-0.0).dump(), "-0.0");
    EXPECT_EQ(Json(std::nan("")).dump(), "null");
    EXPECT_EQ(Json(-INFINITY).dump(), "null");
}

TEST(JsonValue, RefusesNestingDeeperThanTheLimitWithoutRecursingFurther) {
    const auto nested = [](int depth) {
        return std::string(static_cast<std::size_t>(depth), '[') +
               std::string(static_cast<std::size_t>(depth), ']');
    };
    EXPECT_TRUE(Json::parse(nested(attn::kMaxJsonDepth)).has_value());
    EXPECT_FALSE(Json::parse(nested(attn::kMaxJsonDepth + 2)).has_value());
    EXPECT_FALSE(Json::parse(std::string(1000000, '[')).has_value());  // no stack overflow
    EXPECT_FALSE(Json::parse(std::string(1000000, '{')).has_value());
}

TEST(JsonValue, WritesTextThatIsNotUtf8WithReplacementCharacters) {
    const std::string bad = std::string("a\xFF") + "b\xE2\x82" + "c\xC3\xA9\x80" + "\x01\"\\";
    const std::string mine = Json(bad).dump();
    ASSERT_TRUE(ref::accept(mine)) << mine;
    EXPECT_EQ(ref::parse(mine).get<std::string>(),
              "a\xEF\xBF\xBD"
              "b\xEF\xBF\xBD"
              "c\xC3\xA9\xEF\xBF\xBD\x01\"\\");
    EXPECT_EQ(mine, ref_dump(ref(bad)));
}

TEST(JsonValue, BuildsObjectsFromPairsAndArraysOtherwiseAsTheReferenceDoes) {
    EXPECT_EQ((Json{{"b", 1}, {"a", {1, 2}}}).dump(), (ref{{"b", 1}, {"a", {1, 2}}}).dump());
    EXPECT_EQ((Json{{"a", 1}, 2}).dump(), (ref{{"a", 1}, 2}).dump());
    EXPECT_EQ((Json{1, "x", nullptr, true}).dump(), (ref{1, "x", nullptr, true}).dump());
    EXPECT_EQ(Json(std::vector<std::vector<double>>{{1.5}, {}}).dump(),
              ref(std::vector<std::vector<double>>{{1.5}, {}}).dump());
    EXPECT_EQ(Json(std::vector<bool>{true, false}).dump(), "[true,false]");
    Json j;
    j["z"] = 1;
    j["a"]["b"] = "c";
    j["list"].push_back(2.5);
    j["z"] = 3;  // replaces
    EXPECT_EQ(j.dump(), R"({"a":{"b":"c"},"list":[2.5],"z":3})");
    EXPECT_EQ(j.size(), 3u);
    EXPECT_TRUE(std::as_const(j)["missing"].is_null());  // reading does not add the key
    EXPECT_FALSE(j.contains("missing"));
    EXPECT_EQ(j.size(), 3u);
}

TEST(JsonValue, ReadsEachKindOnlyAsItself) {
    const Json j = *Json::parse(R"({"u": 5, "i": -5, "f": 2.5, "s": "t", "b": true, "n": null})");
    EXPECT_TRUE(j["u"].is_number_unsigned());
    EXPECT_TRUE(j["i"].is_number_integer() && !j["i"].is_number_unsigned());
    EXPECT_TRUE(j["f"].is_number() && !j["f"].is_number_integer());
    EXPECT_EQ(j["i"].get<int>(), -5);
    EXPECT_EQ(j["f"].get<double>(), 2.5);
    EXPECT_EQ(j["s"].get<std::string>(), "t");
    EXPECT_EQ(j["s"].get<double>(), 0.0);  // another kind reads as zero, never throws
    EXPECT_EQ(j["u"].get<std::string>(), "");
    EXPECT_TRUE(j["b"].get<bool>());
    EXPECT_TRUE(j["n"].is_null());
    EXPECT_EQ(j.find("nothing"), nullptr);
    EXPECT_EQ(j.value("nothing", Json(7)).get<int>(), 7);
    EXPECT_EQ(j["s"][3].type(), Json::Type::Null);
}

}  // namespace
