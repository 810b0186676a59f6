// main.cpp - attention_cli entry point: arguments in, table or JSON out (stdout), errors to
// stderr (or JSON on stdout with --json), exit 0 or 2.
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string out;
    const int code = attn::cli::cli_main(args, &out);
    bool json = false;
    for (const std::string& a : args) json = json || a == "--json";
    attn::cli::write_output(out, code == 0 || json ? stdout : stderr);
    return code;
}
