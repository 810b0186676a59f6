// test_scenario.cpp - scenario parsing errors and the JSON output (parsed back with nlohmann).
#include <nlohmann/json.hpp>

#include "content.h"
#include "test_util.h"

using attn::ErrorCode;
using nlohmann::json;

namespace {

const char* kValid = R"({"id": "t", "title": "T", "tokens": ["a", "b", "c"], "focus": 0,
  "candidates": [1, 2], "query": [1, 0], "keys": [[1, 0], [0, 1]], "values": [[1, 2], [3, 4]]})";

// kValid with one top-level field replaced (or removed when value is empty)
std::string with(const std::string& field, const std::string& value) {
    json j = json::parse(kValid);
    if (value.empty())
        j.erase(field);
    else
        j[field] = json::parse(value);
    return j.dump();
}

attn::Error error_of(const std::string& text) {
    auto r = attn::parse_scenario(text);
    EXPECT_FALSE(r.ok()) << text;
    EXPECT_FALSE(r.error().message.empty());
    return r.error();
}

void expect_field_error(const std::string& field, const std::string& value, ErrorCode code) {
    attn::Error e = error_of(with(field, value));
    EXPECT_EQ(e.code, code) << field << "=" << value << ": " << e.message;
    if (code == ErrorCode::BadScenario) {
        EXPECT_NE(e.message.find("\"" + field), std::string::npos) << e.message;
    }
}

}  // namespace

TEST(Scenario, ValidMinimalScenarioParses) {
    auto r = attn::parse_scenario(kValid);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r.value().kind, attn::ScenarioKind::Vectors);
    EXPECT_EQ(r.value().keys.size(), 2u);
    EXPECT_TRUE(r.value().options.scale);
}

TEST(Scenario, MalformedJsonIsBadScenario) {
    for (const char* text : {"", "{", "[1, 2]", "{\"id\": }", "null", "\"x\"", "{\"id\": \"a\"} x"})
        EXPECT_EQ(error_of(text).code, ErrorCode::BadScenario) << text;
}

TEST(Scenario, WrongFieldsNameTheField) {
    expect_field_error("id", "", ErrorCode::BadScenario);
    expect_field_error("id", "3", ErrorCode::BadScenario);
    expect_field_error("title", "[1]", ErrorCode::BadScenario);
    expect_field_error("kind", "\"matrix\"", ErrorCode::BadScenario);
    expect_field_error("focus", "", ErrorCode::BadScenario);
    expect_field_error("focus", "1.5", ErrorCode::BadScenario);
    expect_field_error("focus", "\"1\"", ErrorCode::BadScenario);
    expect_field_error("focus", "99999999999", ErrorCode::BadScenario);
    expect_field_error("tokens", "", ErrorCode::BadScenario);
    expect_field_error("tokens", "[1, 2]", ErrorCode::BadScenario);
    expect_field_error("candidates", "", ErrorCode::BadScenario);
    expect_field_error("candidates", "[1, 7]", ErrorCode::BadScenario);
    expect_field_error("query", "", ErrorCode::BadScenario);
    expect_field_error("query", "[1, \"x\"]", ErrorCode::BadScenario);
    expect_field_error("keys", "[[1, 0], 5]", ErrorCode::BadScenario);
    expect_field_error("values", "{}", ErrorCode::BadScenario);
    expect_field_error("options", "3", ErrorCode::BadScenario);
    expect_field_error("denied", "[9]", ErrorCode::BadScenario);
    expect_field_error("illustrative", "1", ErrorCode::BadScenario);
}

TEST(Scenario, InconsistentVectorsGiveTheEngineErrors) {
    expect_field_error("focus", "5", ErrorCode::BadFocus);
    expect_field_error("query", "[1, 0, 0]", ErrorCode::DimensionMismatch);
    expect_field_error("keys", "[[1, 0]]", ErrorCode::DimensionMismatch);
    expect_field_error("values", "[[1, 2]]", ErrorCode::DimensionMismatch);
    expect_field_error("candidates", "[]", ErrorCode::DimensionMismatch);
    expect_field_error("query", "[]", ErrorCode::BadDimension);
    expect_field_error("options", "{\"temperature\": 0}", ErrorCode::BadTemperature);
    EXPECT_NE(error_of(with("options", "{\"temperature\": \"hot\"}"))
                  .message.find("\"options.temperature\""),
              std::string::npos);
    std::string huge = kValid;  // 1e999 overflows a double: refused, never an infinity
    const std::string from = "\"query\": [1, 0]";
    huge.replace(huge.find(from), from.size(), "\"query\": [1e999, 0]");
    const ErrorCode huge_code = error_of(huge).code;
    EXPECT_TRUE(huge_code == ErrorCode::BadScenario || huge_code == ErrorCode::NonFinite);
    json j = json::parse(kValid);
    j["keys"] = json::array();
    j["values"] = json::array();
    j["candidates"] = json::array();
    EXPECT_EQ(error_of(j.dump()).code, ErrorCode::EmptyCandidates);
    j = json::parse(kValid);
    j["tokens"] = json::array();
    for (int i = 0; i <= attn::kMaxSentenceTokens; i++) j["tokens"].push_back("t");
    EXPECT_EQ(error_of(j.dump()).code, ErrorCode::TooManyTokens);
}

TEST(Scenario, SentenceKindTokenizesAndChecksHeads) {
    const std::string base =
        R"({"id": "s", "kind": "sentence", "sentence": "One two, three.", "focus": 1)";
    auto ok = attn::parse_scenario(base + R"(, "heads": 2})");
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    EXPECT_EQ(ok.value().tokens, (std::vector<std::string>{"One", "two", ",", "three", "."}));
    EXPECT_EQ(attn::parse_scenario(base + R"(, "heads": 3})").error().code, ErrorCode::BadHeads);
    EXPECT_EQ(attn::parse_scenario(base + R"(, "d_model": 0})").error().code,
              ErrorCode::BadDimension);
    EXPECT_EQ(attn::parse_scenario(base + R"(, "max_heads": 9})").error().code,
              ErrorCode::BadScenario);
    EXPECT_EQ(attn::parse_scenario(
                  R"({"id": "s", "kind": "sentence", "sentence": "a \u0000", "focus": 5})")
                  .error()
                  .code,
              ErrorCode::BadFocus);
    EXPECT_EQ(
        attn::parse_scenario(R"({"id": "s", "kind": "sentence", "sentence": "   ", "focus": 0})")
            .error()
            .code,
        ErrorCode::EmptyText);
    EXPECT_EQ(attn::parse_scenario(R"({"id": "s", "kind": "sentence", "focus": 0})").error().code,
              ErrorCode::BadScenario);
}

TEST(Scenario, InvalidUtf8InsideJsonStringsIsRejected) {
    std::string text = with("title", "\"x\"");
    text.replace(text.find("\"x\""), 3, "\"\xFF\"");
    EXPECT_EQ(error_of(text).code, ErrorCode::BadScenario);  // nlohmann rejects it as JSON
}

TEST(Scenario, UnknownFileIsUnknownScenario) {
    EXPECT_EQ(attn::load_scenario(test::asset("scenarios/no-such.json")).error().code,
              ErrorCode::UnknownScenario);
    EXPECT_EQ(attn::find_scenario(test::asset("scenarios"), "nope").error().code,
              ErrorCode::UnknownScenario);
    EXPECT_EQ(attn::find_scenario(test::asset("scenarios"), "../x").error().code,
              ErrorCode::UnknownScenario);
    auto found = attn::find_scenario(test::asset("scenarios"), "worked-example");
    ASSERT_TRUE(found.ok()) << found.error().message;
    EXPECT_EQ(found.value().id, "worked-example");
    EXPECT_EQ(attn::read_text_file(test::asset("scenarios/nothing-here")).error().code,
              ErrorCode::FileNotReadable);
}

TEST(Json, FocusStepRoundTripsThroughAParser) {
    auto s = attn::load_scenario(test::asset("scenarios/worked-example.json"));
    ASSERT_TRUE(s.ok());
    s.value().denied = {8};
    auto in = attn::focus_input(s.value());
    ASSERT_TRUE(in.ok());
    auto r = attn::attend(in.value());
    ASSERT_TRUE(r.ok());
    for (const std::string& text :
         {attn::to_json(s.value(), r.value()), attn::to_json(s.value(), in.value(), r.value())}) {
        const json j = json::parse(text, nullptr, false);
        ASSERT_FALSE(j.is_discarded()) << text;
        EXPECT_EQ(j["ok"], true);
        EXPECT_EQ(j["scenario"], "worked-example");
        EXPECT_EQ(j["focus"], 10);
        EXPECT_EQ(j["d"], 4);
        EXPECT_EQ(j["scale"].get<double>(), 0.5);
        EXPECT_EQ(j["scaled"], true);
        EXPECT_EQ(j["status"], "ok");
        EXPECT_EQ(j["tokens"].get<std::vector<std::string>>(), s.value().tokens);
        ASSERT_EQ(j["candidates"].size(), 3u);
        for (std::size_t c = 0; c < 3; c++) {
            const json& cj = j["candidates"][c];
            EXPECT_EQ(cj["position"], s.value().candidates[c]);
            EXPECT_EQ(cj["dot_product"].get<double>(),
                      r.value().dot_products[c]);  // exact round trip
            EXPECT_EQ(cj["score"].get<double>(), r.value().scores[c]);
            EXPECT_EQ(cj["weight"].get<double>(), r.value().weights[c]);
            EXPECT_EQ(cj["products"].get<std::vector<double>>(), r.value().products[c]);
            EXPECT_EQ(cj["contribution"].get<std::vector<double>>(), r.value().contributions[c]);
        }
        EXPECT_EQ(j["candidates"][0]["token"], "bridge");
        EXPECT_EQ(j["candidates"][2]["masked"], true);
        EXPECT_EQ(j["candidates"][2]["mask_reason"], "denied");
        EXPECT_TRUE(j["candidates"][2]["logit"].is_null());  // -infinity is never written
        EXPECT_EQ(j["output"].get<std::vector<double>>(), r.value().output);
        EXPECT_NEAR(j["weight_sum"].get<double>(), 1.0, test::kSumTol);
    }
    const json full = json::parse(attn::to_json(s.value(), in.value(), r.value()));
    EXPECT_EQ(full["query"].get<std::vector<double>>(), in.value().query);
    EXPECT_EQ(full["candidates"][1]["key"].get<std::vector<double>>(), in.value().keys[1]);
}

TEST(Json, SentenceJsonCarriesTheIllustrativeFlagAndFingerprint) {
    auto s = attn::sentence_scenario("Caf\xC3\xA9 is open.", 0, 8, 2);
    ASSERT_TRUE(s.ok());
    auto model = attn::illustrative_model(s.value());  // built once: input and fingerprint
    ASSERT_TRUE(model.ok());
    const attn::FocusInput in = attn::focus_input(s.value(), model.value());
    auto r = attn::attend(in);
    ASSERT_TRUE(r.ok());
    const json j =
        json::parse(attn::to_json(s.value(), in, r.value(), &model.value()), nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    EXPECT_EQ(j["illustrative"], true);
    EXPECT_EQ(j["heads"], 2);
    EXPECT_EQ(j["tokens"][0], "Caf\xC3\xA9");
    EXPECT_EQ(j["projections_fingerprint"].get<std::string>().size(), 16u);
}

TEST(Json, AllMaskedRowIsReportedWithZeroWeights) {
    auto s = attn::load_scenario(test::asset("scenarios/diagram.json"));
    ASSERT_TRUE(s.ok());
    s.value().denied = {1, 2, 3};
    auto r = attn::run_scenario(s.value());
    ASSERT_TRUE(r.ok());
    const json j = json::parse(attn::to_json(s.value(), r.value()));
    EXPECT_EQ(j["status"], "all_masked");
    EXPECT_EQ(j["weight_sum"].get<double>(), 0.0);
    for (const json& c : j["candidates"]) EXPECT_EQ(c["weight"].get<double>(), 0.0);
}

TEST(Json, ErrorJsonRoundTripsEvenWithInvalidUtf8InTheMessage) {
    const json j =
        json::parse(attn::error_json({ErrorCode::BadFocus, "bad \xFF focus"}), nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    EXPECT_EQ(j["ok"], false);
    EXPECT_EQ(j["error"]["code"], "bad_focus");
    EXPECT_NE(j["error"]["message"].get<std::string>().find("focus"), std::string::npos);
}
