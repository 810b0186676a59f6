// cli.h - attention_cli: the engine on the command line (usage in usage_text()).
// The parser is separate from running so that it can be fuzzed (tests/fuzz/fuzz_cli_args.cpp).
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "content.h"

namespace attn::cli {

struct ModelCommand {      // attention_cli model (the trained transformer; docs/model.md)
    bool analyse = false;  // --analyse: the head table and validation figures
    std::string weights;   // --weights FILE (default: the shipped weights)
    std::string corpus;    // --corpus DIR (default: the Debian package's folder)
    int ablate_layer = -1, ablate_head = -1;  // --ablate L,H: that head's output zeroed
    int focus = -1;  // --focus P: the next tokens after position P (default: the last)
};

enum class Mode { Help, Scenario, Sentence, Vectors, ListScenarios, Model };

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
    ModelCommand model;                 // "model" (cli_model.cpp)
};

std::string usage_text();  // the help text
// Parse the arguments after the program name. Never throws; bad input -> BadArgument etc.
Result<Command> parse_args(const std::vector<std::string>& args);
// Run a parsed command: fills *out with the table or JSON; returns the exit code (0 or 2).
int run(const Command& command, std::string* out);
// "model" arguments (args[0] == "model") and running them (cli_model.cpp)
Result<Command> parse_model_args(const std::vector<std::string>& args);
int run_model(const Command& command, std::string* out);
// parse_args + run; on a parse error *out gets the message (or error JSON if --json is present).
int cli_main(const std::vector<std::string>& args, std::string* out);
// Writes a command's output to f (stdout, or stderr for an error).
void write_output(const std::string& out, std::FILE* f);

}  // namespace attn::cli
