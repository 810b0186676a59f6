// cli_args.cpp - the command-line parser of attention_cli (pure: no I/O, fuzzed).
#include <cmath>
#include <cstdlib>
#include <string>

#include "cli.h"

namespace attn::cli {

namespace {

Error bad(std::string message) { return Error{ErrorCode::BadArgument, std::move(message)}; }

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t')) b++;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) e--;
    return s.substr(b, e - b);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); i++)
        if (i == s.size() || s[i] == sep) {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return parts;
}

// A decimal number: [+-] digits [. digits] [(e|E) [+-] digits]; no "inf", "nan" or hex.
std::optional<Error> parse_number(const std::string& raw, const std::string& what, double* out) {
    const std::string s = trim(raw);
    std::size_t i = 0, digits = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) i++;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++, digits++;
    if (i < s.size() && s[i] == '.') {
        i++;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++, digits++;
    }
    if (digits > 0 && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) i++;
        std::size_t exp_digits = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++, exp_digits++;
        if (exp_digits == 0) digits = 0;
    }
    if (digits == 0 || i != s.size() || s.size() > 64)
        return bad(what + ": \"" + shown_input(s) + "\" is not a number.");
    const double v = std::strtod(s.c_str(), nullptr);
    if (!std::isfinite(v))
        return Error{ErrorCode::NonFinite, what + ": \"" + shown_input(s) + "\" is too large."};
    *out = v;
    return std::nullopt;
}

std::optional<Error> parse_int(const std::string& raw, const std::string& what, int* out) {
    const std::string s = trim(raw);
    std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
    if (i == s.size() || s.size() - i > 9)
        return bad(what + ": \"" + shown_input(s) + "\" is not a whole number.");
    for (std::size_t k = i; k < s.size(); k++)
        if (s[k] < '0' || s[k] > '9')
            return bad(what + ": \"" + shown_input(s) + "\" is not a whole number.");
    *out = std::atoi(s.c_str());
    return std::nullopt;
}

std::optional<Error> parse_vector(const std::string& s, const std::string& what, Vector* out) {
    out->clear();
    const std::vector<std::string> parts = split(s, ',');
    if (parts.size() > static_cast<std::size_t>(kMaxDimension))
        return Error{ErrorCode::BadDimension,
                     what + " has more than " + std::to_string(kMaxDimension) + " numbers."};
    for (std::size_t i = 0; i < parts.size(); i++) {
        double v = 0;
        if (auto e = parse_number(parts[i], what + ", number " + std::to_string(i + 1), &v))
            return e;
        out->push_back(v);
    }
    return std::nullopt;
}

std::optional<Error> parse_vectors(const std::string& s, const std::string& what,
                                   std::vector<Vector>* out) {
    out->clear();
    const std::vector<std::string> rows = split(s, ';');
    if (rows.size() > static_cast<std::size_t>(kMaxCandidates))
        return Error{ErrorCode::TooManyTokens,
                     what + " has more than " + std::to_string(kMaxCandidates) + " vectors."};
    for (std::size_t j = 0; j < rows.size(); j++) {
        Vector v;
        if (auto e = parse_vector(rows[j], what + " " + std::to_string(j + 1), &v)) return e;
        out->push_back(std::move(v));
    }
    return std::nullopt;
}

}  // namespace

std::string usage_text() {
    return "attention_cli - the attention score engine on the command line\n"
           "\n"
           "  attention_cli scenario <file.json> [--json] [--temperature T] [--no-scale]\n"
           "                [--mask P,P] [--causal]\n"
           "  attention_cli sentence \"<text>\" --focus <position> [--json] [--heads H]\n"
           "                [--d-model D] [--temperature T] [--no-scale] [--mask P,P] [--causal]\n"
           "  attention_cli vectors --query 1,2 --keys \"1,0;0,1\" --values \"1,0;0,1\" [--json]\n"
           "                [--temperature T] [--no-scale] [--mask J,J] [--causal]\n"
           "  attention_cli list-scenarios <dir> [--json]\n"
           "  attention_cli model --text \"<text>\" [--json] [--weights FILE] [--focus P]\n"
           "                [--ablate LAYER,HEAD]\n"
           "  attention_cli model --analyse [--json] [--weights FILE] [--corpus DIR]\n"
           "\n"
           "Positions count tokens from 0. --mask lists positions to mask (for vectors: the\n"
           "candidate numbers 0..n-1). Output: a table of the dot product q.k, the score\n"
           "(scaled dot product), the weight and the mask per candidate, or with --json the\n"
           "JSON described in docs/contract.md.\n"
           "Exit status: 0 on success, 2 on bad input (with a readable message).\n";
}

Result<Command> parse_args(const std::vector<std::string>& args) {
    Command c;
    if (args.empty()) return bad("No command given.\n\n" + usage_text());
    const std::string& verb = args[0];
    std::size_t i = 1;
    if (verb == "--help" || verb == "-h" || verb == "help") {
        c.mode = Mode::Help;
        return c;
    } else if (verb == "scenario" || verb == "sentence" || verb == "list-scenarios") {
        c.mode = verb == "scenario"   ? Mode::Scenario
                 : verb == "sentence" ? Mode::Sentence
                                      : Mode::ListScenarios;
        if (args.size() < 2 || (args[1].size() > 1 && args[1].compare(0, 2, "--") == 0))
            return bad("\"" + verb + "\" needs " +
                       (verb == "sentence"   ? std::string("a sentence in quotes")
                        : verb == "scenario" ? std::string("a scenario file")
                                             : std::string("a directory")) +
                       ".");
        (c.mode == Mode::Sentence ? c.text : c.path) = args[1];
        i = 2;
    } else if (verb == "vectors") {
        c.mode = Mode::Vectors;
    } else if (verb == "model") {
        return parse_model_args(args);
    } else {
        return bad("Unknown command \"" + shown_input(verb) +
                   "\"; use scenario, sentence, vectors, list-scenarios or model.");
    }
    bool has_query = false, has_keys = false, has_values = false, has_focus = false;
    const bool step = c.mode != Mode::ListScenarios;
    for (; i < args.size(); i++) {
        const std::string& a = args[i];
        const auto value = [&](std::string* v) -> std::optional<Error> {
            if (i + 1 >= args.size()) return bad(a + " needs a value after it.");
            *v = args[++i];
            return std::nullopt;
        };
        std::string v;
        if (a == "--json") {
            c.json = true;
        } else if (step && a == "--no-scale") {
            c.no_scale = true;
        } else if (step && a == "--causal") {
            c.causal = true;
        } else if (step && a == "--temperature") {
            if (auto e = value(&v)) return *e;
            double t = 0;
            if (auto e = parse_number(v, "--temperature", &t)) return *e;
            c.temperature = t;
        } else if (step && a == "--mask") {
            if (auto e = value(&v)) return *e;
            c.mask.clear();
            for (const std::string& p : split(v, ',')) {
                int pos = 0;
                if (auto e = parse_int(p, "--mask", &pos)) return *e;
                if (c.mask.size() >= static_cast<std::size_t>(kMaxCandidates))
                    return bad("--mask lists too many positions.");
                c.mask.push_back(pos);
            }
        } else if (c.mode == Mode::Sentence && a == "--focus") {
            if (auto e = value(&v)) return *e;
            if (auto e = parse_int(v, "--focus", &c.focus)) return *e;
            has_focus = true;
        } else if (c.mode == Mode::Sentence && a == "--heads") {
            if (auto e = value(&v)) return *e;
            if (auto e = parse_int(v, "--heads", &c.heads)) return *e;
        } else if (c.mode == Mode::Sentence && a == "--d-model") {
            if (auto e = value(&v)) return *e;
            if (auto e = parse_int(v, "--d-model", &c.d_model)) return *e;
        } else if (c.mode == Mode::Vectors && a == "--query") {
            if (auto e = value(&v)) return *e;
            if (auto e = parse_vector(v, "The query", &c.query)) return *e;
            has_query = true;
        } else if (c.mode == Mode::Vectors && a == "--keys") {
            if (auto e = value(&v)) return *e;
            if (auto e = parse_vectors(v, "Key", &c.keys)) return *e;
            has_keys = true;
        } else if (c.mode == Mode::Vectors && a == "--values") {
            if (auto e = value(&v)) return *e;
            if (auto e = parse_vectors(v, "Value", &c.values)) return *e;
            has_values = true;
        } else {
            return bad("Unknown or misplaced option \"" + shown_input(a) + "\" for \"" + verb +
                       "\".");
        }
    }
    if (c.mode == Mode::Sentence && !has_focus)
        return bad("\"sentence\" needs --focus <position> (tokens count from 0).");
    if (c.mode == Mode::Vectors && !(has_query && has_keys && has_values))
        return bad("\"vectors\" needs --query, --keys and --values.");
    return c;
}

}  // namespace attn::cli
