// cli.h - attention_cli: the engine on the command line (usage in usage_text()).
// The parser is separate from running so that it can be fuzzed (tests/fuzz/fuzz_cli_args.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "content.h"

namespace attn::cli {

enum class Mode { Help, Scenario, Sentence, Vectors, ListScenarios };

struct Command {
    Mode mode = Mode::Help;
    bool json = false;                  // --json: print JSON instead of a table
    std::string path;                   // scenario file, or directory for list-scenarios
    std::string text;                   // sentence text
    int focus = -1;                     // --focus P (sentence)
    int heads = 1;                      // --heads H (sentence)
    int d_model = 8;                    // --d-model D (sentence)
    Vector query;                       // --query 1,2 (vectors)
    std::vector<Vector> keys, values;   // --keys "1,0;0,1" --values "1,0;0,1" (vectors)
    std::optional<double> temperature;  // --temperature T
    bool no_scale = false;              // --no-scale
    bool causal = false;                // --causal
    std::vector<int> mask;              // --mask P,P: positions to mask
};

std::string usage_text();  // the help text
// Parse the arguments after the program name. Never throws; bad input -> BadArgument etc.
Result<Command> parse_args(const std::vector<std::string>& args);
// Run a parsed command: fills *out with the table or JSON; returns the exit code (0 or 2).
int run(const Command& command, std::string* out);
// parse_args + run; on a parse error *out gets the message (or error JSON if --json is present).
int cli_main(const std::vector<std::string>& args, std::string* out);

}  // namespace attn::cli
