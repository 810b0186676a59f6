// test_cli.cpp - attention_cli's parser and runner (native only; the CLI is not built for wasm).
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "test_util.h"

using attn::cli::Mode;
using nlohmann::json;

namespace {
int run(const std::vector<std::string>& args, std::string* out) {
    return attn::cli::cli_main(args, out);
}
}  // namespace

TEST(CliArgs, ParsesEveryCommandOfTheContract) {
    auto c = attn::cli::parse_args({"scenario", "f.json", "--json", "--temperature", "0.5",
                                    "--no-scale", "--mask", "2,7", "--causal"});
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c.value().mode, Mode::Scenario);
    EXPECT_EQ(c.value().path, "f.json");
    EXPECT_TRUE(c.value().json && c.value().no_scale && c.value().causal);
    EXPECT_EQ(*c.value().temperature, 0.5);
    EXPECT_EQ(c.value().mask, (std::vector<int>{2, 7}));
    c = attn::cli::parse_args({"sentence", "Hello world.", "--focus", "1", "--heads", "2"});
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c.value().focus, 1);
    EXPECT_EQ(c.value().heads, 2);
    c = attn::cli::parse_args(
        {"vectors", "--query", "1,2", "--keys", "1,0;0,1", "--values", "1,0; 0,1"});
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c.value().keys, (std::vector<attn::Vector>{{1, 0}, {0, 1}}));
    EXPECT_EQ(c.value().values[1], (attn::Vector{0, 1}));
    c = attn::cli::parse_args({"list-scenarios", "dir", "--json"});
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c.value().mode, Mode::ListScenarios);
}

TEST(CliArgs, RejectsMalformedArgumentsWithReadableMessages) {
    const std::vector<std::vector<std::string>> bad = {
        {},
        {"frobnicate"},
        {"scenario"},
        {"scenario", "--json"},
        {"scenario", "f", "--temperature"},
        {"scenario", "f", "--temperature", "warm"},
        {"scenario", "f", "--temperature", "inf"},
        {"scenario", "f", "--temperature", "nan"},
        {"scenario", "f", "--temperature", "0x10"},
        {"scenario", "f", "--mask", "1,,2"},
        {"scenario", "f", "--mask", "99999999999"},
        {"scenario", "f", "--focus", "1"},
        {"sentence", "text"},
        {"sentence", "text", "--focus", "one"},
        {"vectors", "--query", "1,2"},
        {"vectors", "--query", "1,,2", "--keys", "1,0", "--values", "1"},
        {"vectors", "--query", "1e999", "--keys", "1", "--values", "1"},
        {"list-scenarios", "d", "--causal"},
    };
    for (const auto& args : bad) {
        auto c = attn::cli::parse_args(args);
        EXPECT_FALSE(c.ok()) << (args.empty() ? "" : args[0]);
        if (!c.ok()) {
            EXPECT_FALSE(c.error().message.empty());
        }
    }
}

TEST(Cli, WorkedExampleTablePrintsTokensScoresAndWeights) {
    std::string out;
    ASSERT_EQ(run({"scenario", test::asset("scenarios/worked-example.json")}, &out), 0) << out;
    for (const char* s : {"bridge", "convoy", "stopped", "1.8000", "0.2000", "1.1000", "0.5888",
                          "0.1189", "0.2924", "\"it\""})
        EXPECT_NE(out.find(s), std::string::npos) << s << "\n" << out;
}

TEST(Cli, JsonOutputFollowsTheContract) {
    std::string out;
    ASSERT_EQ(
        run({"scenario", test::asset("scenarios/diagram.json"), "--json", "--mask", "3"}, &out), 0);
    const json j = json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << out;
    EXPECT_EQ(j["ok"], true);
    EXPECT_EQ(j["scenario"], "diagram");
    EXPECT_EQ(j["candidates"][2]["masked"], true);
    EXPECT_EQ(j["candidates"][2]["weight"].get<double>(), 0.0);
}

TEST(Cli, OptionsChangeTheNumbers) {
    std::string a, b;
    ASSERT_EQ(run({"scenario", test::asset("scenarios/diagram.json"), "--json"}, &a), 0);
    ASSERT_EQ(run({"scenario", test::asset("scenarios/diagram.json"), "--json", "--no-scale",
                   "--temperature", "2"},
                  &b),
              0);
    const json ja = json::parse(a), jb = json::parse(b);
    EXPECT_EQ(jb["scale"].get<double>(), 1.0);
    EXPECT_EQ(jb["temperature"].get<double>(), 2.0);
    EXPECT_EQ(jb["candidates"][0]["score"].get<double>(),
              2 * ja["candidates"][0]["score"].get<double>());
}

TEST(Cli, VectorsAndSentenceCommandsRun) {
    std::string out;
    ASSERT_EQ(
        run({"vectors", "--query", "1,2", "--keys", "1,0;0,1", "--values", "1,0;0,1", "--json"},
            &out),
        0)
        << out;
    json j = json::parse(out);
    EXPECT_EQ(j["d"], 2);
    EXPECT_NEAR(j["candidates"][1]["weight"].get<double>(),
                1.0 / (1.0 + std::exp(-1.0 / std::sqrt(2.0))), 1e-12);
    ASSERT_EQ(run({"sentence", "The cat sat.", "--focus", "1", "--heads", "2", "--json"}, &out), 0)
        << out;
    j = json::parse(out);
    EXPECT_EQ(j["illustrative"], true);
    EXPECT_EQ(j["candidates"].size(), 4u);
}

TEST(Cli, BadInputExitsTwoWithAReadableMessageOrErrorJson) {
    std::string out;
    EXPECT_EQ(run({"scenario", "/no/such/file.json"}, &out), 2);
    EXPECT_NE(out.find("error:"), std::string::npos);
    EXPECT_EQ(run({"scenario", "/no/such/file.json", "--json"}, &out), 2);
    json j = json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    EXPECT_EQ(j["ok"], false);
    EXPECT_EQ(j["error"]["code"], "unknown_scenario");
    EXPECT_EQ(
        run({"vectors", "--query", "1,2", "--keys", "1,0;0", "--values", "1;2", "--json"}, &out),
        2);
    EXPECT_EQ(json::parse(out)["error"]["code"], "dimension_mismatch");
    EXPECT_EQ(run({"sentence", "a b", "--focus", "5", "--json"}, &out), 2);
    EXPECT_EQ(json::parse(out)["error"]["code"], "bad_focus");
    EXPECT_EQ(run({"scenario", test::asset("scenarios/diagram.json"), "--temperature", "0"}, &out),
              2);
    EXPECT_NE(out.find("temperature"), std::string::npos);
    EXPECT_EQ(run({"scenario", test::asset("scenarios/diagram.json"), "--mask", "40"}, &out), 2);
    EXPECT_EQ(run({"bogus", "--json"}, &out), 2);
    EXPECT_EQ(json::parse(out)["error"]["code"], "bad_argument");
}

TEST(Cli, ListScenariosListsTheAssets) {
    std::string out;
    ASSERT_EQ(run({"list-scenarios", test::asset("scenarios"), "--json"}, &out), 0) << out;
    const json j = json::parse(out);
    std::vector<std::string> ids;
    for (const json& s : j["scenarios"]) ids.push_back(s["id"]);
    EXPECT_EQ(ids, (std::vector<std::string>{"diagram", "sentence", "worked-example"}));
    EXPECT_EQ(run({"list-scenarios", "/no/such/dir"}, &out), 2);
}

TEST(Cli, OutputIsWrittenByLengthSoAnEmbeddedNulDoesNotCutIt) {
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    const std::string out("before\0after\n", 13);
    attn::cli::write_output(out, f);
    std::rewind(f);
    std::string back(64, '\0');
    back.resize(std::fread(&back[0], 1, back.size(), f));
    std::fclose(f);
    EXPECT_EQ(back, out);
}

TEST(Cli, ArgumentsThatAreNotPlainTextAreNotEchoed) {
    std::string out;
    const std::vector<std::vector<std::string>> cases = {
        {"\x1b[2Jbogus"},
        {"scenario", test::asset("scenarios/diagram.json"), "--temperature", "\x1b[31mhot"},
        {"scenario", "/no/such/\x1b[31m.json"},
        {"sentence", "a b", "--focus", "1\xE2\x80\xAE"},
        {"vectors", "--query", "1,\x07", "--keys", "1,0", "--values", "1"}};
    for (const auto& args : cases) {
        EXPECT_EQ(run(args, &out), 2) << out;
        EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
        EXPECT_EQ(out.find('\x07'), std::string::npos) << out;
        EXPECT_EQ(out.find("\xE2\x80\xAE"), std::string::npos) << out;
        EXPECT_NE(out.find("error:"), std::string::npos) << out;
    }
    EXPECT_EQ(run({"sentence", "a b", "--focus", std::string(5000, '9')}, &out), 2);
    EXPECT_LT(out.size(), 300u) << "a long argument is not repeated in full";
}
