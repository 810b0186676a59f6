// test_cli_model.cpp - "attention_cli model": the JSON contract of docs/model.md on the shipped
// weights, and exit status 2 with a readable message for every kind of bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli.h"
#include "model.h"

namespace {

const std::string kWeights = std::string(ATTN_ASSETS_DIR) + "/model/model.bin";

int run(std::vector<std::string> args, std::string* out) { return attn::cli::cli_main(args, out); }

std::string write_file(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    const std::string path = std::string(ATTN_TEST_TMP) + "/" + name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    return path;
}

TEST(CliModel, TextJsonHasTokensNextTokensAndCausalWeightRowsPerHead) {
    std::string out;
    ASSERT_EQ(
        run({"model", "--text", "dog: a domestic animal", "--json", "--weights", kWeights}, &out),
        0)
        << out;
    const nlohmann::json j = nlohmann::json::parse(out);
    const std::size_t n = j["tokens"].size();
    ASSERT_GT(n, 2u);
    EXPECT_EQ(j["token_ids"].size(), n);
    ASSERT_EQ(j["next"].size(), 5u);
    double previous = 1.0;
    for (const auto& next : j["next"]) {
        const double p = next["p"].get<double>();
        EXPECT_GT(p, 0.0);
        EXPECT_LE(p, previous);
        previous = p;
    }
    const attn::Model m = attn::load_model(kWeights).value();
    ASSERT_EQ(j["layers"].size(), static_cast<std::size_t>(m.config.layers));
    for (const auto& layer : j["layers"]) {
        ASSERT_EQ(layer["heads"].size(), static_cast<std::size_t>(m.config.heads));
        for (const auto& head : layer["heads"]) {
            ASSERT_EQ(head["weights"].size(), n);
            ASSERT_EQ(head["scores"].size(), n);
            for (std::size_t i = 0; i < n; i++) {
                double sum = 0;
                for (std::size_t k = 0; k < n; k++) {
                    const double w = head["weights"][i][k].get<double>();
                    if (k > i) {
                        EXPECT_EQ(w, 0.0);
                        EXPECT_TRUE(head["scores"][i][k].is_null());
                    } else {
                        EXPECT_TRUE(std::isfinite(head["scores"][i][k].get<double>()));
                    }
                    sum += w;
                }
                EXPECT_NEAR(sum, 1.0, 1e-5);
            }
        }
    }
}

TEST(CliModel, TextTableShowsReadableTokensAndTheNextTokens) {
    std::string out;
    ASSERT_EQ(run({"model", "--text", "a cat", "--weights", kWeights}, &out), 0) << out;
    EXPECT_NE(out.find("\u2423"), std::string::npos);  // the leading space of " cat" is visible
    EXPECT_NE(out.find("likeliest next tokens"), std::string::npos);
    EXPECT_NE(out.find("layer 1 head 3"), std::string::npos);
}

TEST(CliModel, BadTextExitsWithStatusTwoAndAMessage) {
    const std::vector<std::vector<std::string>> bad = {
        {"model", "--text", ""},
        {"model", "--text", "bad \xC3( utf-8"},
        {"model", "--text", std::string(5000, 'a')},
        {"model", "--text", std::string(3000, 'x') + " " + std::string(1000, '!')},  // > 128 tokens
        {"model"},
        {"model", "--text", "a", "--analyse"},
        {"model", "--text"},
        {"model", "--frobnicate"},
        {"model", "--text", "a", "--corpus", "x"},
    };
    for (std::vector<std::string> args : bad) {
        args.push_back("--weights");
        args.push_back(kWeights);
        std::string out;
        EXPECT_EQ(run(args, &out), 2) << args[1];
        EXPECT_GT(out.size(), 10u);
        std::string json_out;
        args.push_back("--json");
        EXPECT_EQ(run(args, &json_out), 2);
        const nlohmann::json j = nlohmann::json::parse(json_out, nullptr, false);
        ASSERT_FALSE(j.is_discarded()) << json_out;
        EXPECT_EQ(j["ok"], false);
        EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
    }
}

TEST(CliModel, BadWeightsFilesExitWithStatusTwoAndTheirErrorCode) {
    attn::Model m = attn::load_model(kWeights).value();
    std::vector<std::uint8_t> good = attn::serialize_model(m, attn::WeightsEncoding::Int8PerRow);
    std::vector<std::uint8_t> truncated(good.begin(), good.begin() + good.size() / 2);
    std::vector<std::uint8_t> version = good;
    version[8] = 9;
    attn::Model nan = m;
    nan.params[10] = std::nanf("");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {std::string(ATTN_TEST_TMP) + "/missing.bin", "file_not_readable"},
        {write_file("truncated.bin", truncated), "bad_model_file"},
        {write_file("version.bin", version), "wrong_version"},
        {write_file("nan.bin", attn::serialize_model(nan, attn::WeightsEncoding::Float32)),
         "non_finite"},
    };
    for (const auto& [path, code] : cases) {
        std::string out;
        EXPECT_EQ(run({"model", "--text", "a cat", "--json", "--weights", path}, &out), 2);
        EXPECT_EQ(nlohmann::json::parse(out)["error"]["code"], code) << path;
    }
}

}  // namespace
