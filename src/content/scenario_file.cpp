// scenario_file.cpp - scenarios as files: read assets/scenarios/*.json and the scenario index,
// and parse every field (check_scenario in scenario.cpp does the rest). The only file I/O.
#include <cstdio>
#include <string>

#include "json_value.h"

#include "content_internal.h"

namespace attn {

using json = attn::Json;

namespace {

using detail::prefixed;

Error bad(const std::string& field, const std::string& problem) {
    return detail::bad_field(field, problem);
}

// Each reader returns an error for a present-but-wrong field; an absent optional field keeps
// the default. Every type is checked before get() (which never throws).
std::optional<Error> read_string(const json& j, const char* field, bool required,
                                 std::string* out) {
    auto it = j.find(field);
    if (!it) {
        if (required) return bad(field, "is missing.");
        return std::nullopt;
    }
    if (!it->is_string()) return bad(field, "must be text in quotes.");
    *out = it->get<std::string>();
    return std::nullopt;
}

std::optional<Error> read_bool(const json& j, const char* field, bool* out) {
    auto it = j.find(field);
    if (!it) return std::nullopt;
    if (!it->is_boolean()) return bad(field, "must be true or false.");
    *out = it->get<bool>();
    return std::nullopt;
}

bool as_int(const json& v, int* out) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > 1000000000ull) return false;
        *out = static_cast<int>(u);
        return true;
    }
    if (v.is_number_integer()) {
        const auto i = v.get<std::int64_t>();
        if (i < -1000000000ll || i > 1000000000ll) return false;
        *out = static_cast<int>(i);
        return true;
    }
    return false;
}

std::optional<Error> read_int(const json& j, const char* field, bool required, int* out) {
    auto it = j.find(field);
    if (!it) {
        if (required) return bad(field, "is missing.");
        return std::nullopt;
    }
    if (!as_int(*it, out)) return bad(field, "must be a whole number.");
    return std::nullopt;
}

std::optional<Error> read_number(const json& j, const char* field, double* out) {
    auto it = j.find(field);
    if (!it) return std::nullopt;
    if (!it->is_number()) return bad(field, "must be a number.");
    *out = it->get<double>();
    return std::nullopt;
}

std::optional<Error> to_vector(const json& v, const std::string& field, Vector* out) {
    if (!v.is_array()) return bad(field, "must be a list of numbers like [1, 0.5].");
    if (v.size() > static_cast<std::size_t>(kMaxDimension))
        return Error{ErrorCode::BadDimension, "The scenario's field \"" + field + "\" has " +
                                                  std::to_string(v.size()) + " numbers; at most " +
                                                  std::to_string(kMaxDimension) + " are allowed."};
    out->clear();
    for (std::size_t i = 0; i < v.size(); i++) {
        if (!v[i].is_number())
            return bad(field, "must contain only numbers (item " + std::to_string(i + 1) +
                                  " is not a number).");
        out->push_back(v[i].get<double>());
    }
    return std::nullopt;
}

std::optional<Error> read_vector(const json& j, const char* field, bool required, Vector* out) {
    auto it = j.find(field);
    if (!it) {
        if (required) return bad(field, "is missing.");
        return std::nullopt;
    }
    return to_vector(*it, field, out);
}

std::optional<Error> read_vectors(const json& j, const char* field, std::vector<Vector>* out) {
    auto it = j.find(field);
    if (!it) return bad(field, "is missing.");
    if (!it->is_array()) return bad(field, "must be a list of lists of numbers.");
    if (it->size() > static_cast<std::size_t>(kMaxCandidates))
        return Error{ErrorCode::TooManyTokens, "The scenario's field \"" + std::string(field) +
                                                   "\" has more than " +
                                                   std::to_string(kMaxCandidates) + " entries."};
    out->clear();
    for (std::size_t k = 0; k < it->size(); k++) {
        Vector v;
        if (auto e = to_vector((*it)[k], std::string(field) + "[" + std::to_string(k) + "]", &v))
            return e;
        out->push_back(std::move(v));
    }
    return std::nullopt;
}

std::optional<Error> read_ints(const json& j, const char* field, std::vector<int>* out) {
    auto it = j.find(field);
    if (!it) return std::nullopt;
    if (!it->is_array()) return bad(field, "must be a list of whole numbers like [2, 7].");
    if (it->size() > static_cast<std::size_t>(kMaxCandidates))
        return bad(field, "has more than " + std::to_string(kMaxCandidates) + " entries.");
    out->clear();
    for (std::size_t k = 0; k < it->size(); k++) {
        int v = 0;
        if (!as_int((*it)[k], &v))
            return bad(field, "must contain only whole numbers (item " + std::to_string(k + 1) +
                                  " is not).");
        out->push_back(v);
    }
    return std::nullopt;
}

std::optional<Error> read_strings(const json& j, const char* field, std::vector<std::string>* out) {
    auto it = j.find(field);
    if (!it) return bad(field, "is missing.");
    if (!it->is_array()) return bad(field, "must be a list of words in quotes.");
    if (it->size() > static_cast<std::size_t>(kMaxSentenceTokens))
        return Error{ErrorCode::TooManyTokens, "The scenario has more than " +
                                                   std::to_string(kMaxSentenceTokens) + " tokens."};
    out->clear();
    for (std::size_t k = 0; k < it->size(); k++) {
        if (!(*it)[k].is_string())
            return bad(field,
                       "must contain only text (item " + std::to_string(k + 1) + " is not text).");
        out->push_back((*it)[k].get<std::string>());
    }
    return std::nullopt;
}

// "field \"scale\"" -> "field \"options.scale\"" for errors inside the options object
Error in_options(Error e) {
    const std::string marker = "field \"";
    const std::size_t at = e.message.find(marker);
    if (at != std::string::npos) e.message.insert(at + marker.size(), "options.");
    return e;
}

}  // namespace

Result<Scenario> parse_scenario(std::string_view json_text) {
    if (json_text.size() > kMaxScenarioBytes)
        return Error{ErrorCode::BadScenario, "The scenario file is larger than 1 MiB."};
    const std::optional<json> parsed = json::parse(json_text);
    if (!parsed) return Error{ErrorCode::BadScenario, "The scenario is not valid JSON."};
    const json& j = *parsed;
    if (!j.is_object())
        return Error{ErrorCode::BadScenario, "The scenario must be a JSON object { ... }."};
    Scenario s;
    if (auto e = read_string(j, "id", true, &s.id)) return *e;
    if (s.id.empty()) return bad("id", "must not be empty.");
    if (auto e = read_string(j, "title", false, &s.title)) return *e;
    if (auto e = read_string(j, "description", false, &s.description)) return *e;
    std::string kind = scenario_kind_name(s.kind);
    if (auto e = read_string(j, "kind", false, &kind)) return *e;
    const std::optional<ScenarioKind> known = scenario_kind_from_name(kind);
    if (!known) return bad("kind", "must be \"vectors\" or \"sentence\".");
    s.kind = *known;
    if (auto e = read_int(j, "focus", true, &s.focus)) return *e;
    if (auto e = read_ints(j, "denied", &s.denied)) return *e;
    if (auto e = read_ints(j, "padding", &s.padding)) return *e;
    if (auto e = read_bool(j, "illustrative", &s.illustrative)) return *e;
    auto opt = j.find("options");
    if (opt) {
        if (!opt->is_object()) return bad("options", "must be an object { ... }.");
        if (auto e = read_bool(*opt, "scale", &s.options.scale)) return in_options(*e);
        if (auto e = read_number(*opt, "temperature", &s.options.temperature))
            return in_options(*e);
        if (auto e = read_bool(*opt, "causal", &s.options.causal)) return in_options(*e);
    }
    if (s.kind == ScenarioKind::Vectors) {
        if (auto e = read_strings(j, "tokens", &s.tokens)) return *e;
        if (auto e = read_ints(j, "candidates", &s.candidates)) return *e;
        if (!j.contains("candidates")) return bad("candidates", "is missing.");
        if (auto e = read_vector(j, "query", true, &s.query)) return *e;
        if (auto e = read_vectors(j, "keys", &s.keys)) return *e;
        if (auto e = read_vectors(j, "values", &s.values)) return *e;
        if (s.keys.size() != s.candidates.size())
            return Error{ErrorCode::DimensionMismatch,
                         "The scenario lists " + std::to_string(s.candidates.size()) +
                             " candidates but " + std::to_string(s.keys.size()) + " keys."};
    } else {
        if (auto e = read_string(j, "sentence", true, &s.sentence)) return *e;
        if (auto e = read_int(j, "d_model", false, &s.d_model)) return *e;
        if (auto e = read_int(j, "heads", false, &s.heads)) return *e;
        s.max_heads = s.heads > 4 ? s.heads : 4;
        if (auto e = read_int(j, "max_heads", false, &s.max_heads)) return *e;
        int seed = static_cast<int>(kIllustrativeSeed);
        if (auto e = read_int(j, "seed", false, &seed)) return *e;
        if (seed < 0) return bad("seed", "must not be negative.");
        s.seed = static_cast<std::uint32_t>(seed);
        auto tokens = tokenize(s.sentence);
        if (!tokens.ok()) return prefixed(tokens.error(), "In the scenario's sentence: ");
        s.tokens.clear();
        s.candidates.clear();
        for (const Token& t : tokens.value()) {
            s.candidates.push_back(static_cast<TokenPosition>(s.tokens.size()));
            s.tokens.push_back(t.text);
        }
    }
    if (auto e = check_scenario(s)) return *e;
    return s;
}

Result<std::string> read_text_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return Error{ErrorCode::FileNotReadable, "Cannot open the file " + shown_input(path) + "."};
    std::string text;
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
        text.append(buf, n);
        if (text.size() > kMaxScenarioBytes) {
            std::fclose(f);
            return Error{ErrorCode::BadScenario,
                         "The file " + shown_input(path) + " is larger than 1 MiB."};
        }
    }
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed)
        return Error{ErrorCode::FileNotReadable, "Cannot read the file " + shown_input(path) + "."};
    return text;
}

Result<Scenario> load_scenario(const std::string& path) {
    auto text = read_text_file(path);
    if (!text.ok()) {
        if (text.error().code == ErrorCode::FileNotReadable)
            return Error{ErrorCode::UnknownScenario,
                         "There is no scenario file " + shown_input(path) + "."};
        return text.error();
    }
    return parse_scenario(text.value());
}

Result<Scenario> find_scenario(const std::string& dir, const std::string& id) {
    if (!is_scenario_id(id))  // unchecked: not repeated
        return Error{ErrorCode::UnknownScenario,
                     "There is no scenario with that name (ids use a-z, 0-9 and -)."};
    auto s = load_scenario(dir + "/" + id + ".json");
    if (!s.ok() && s.error().code == ErrorCode::UnknownScenario)
        return Error{ErrorCode::UnknownScenario, "There is no scenario called \"" + id + "\"."};
    return s;
}

// {"start": "id", "scenarios": [{"id": "diagram", "label": "Diagram"}, ...]}
Result<ScenarioIndex> parse_scenario_index(std::string_view json_text) {
    const auto bad_index = [](const std::string& problem) {
        return Error{ErrorCode::BadScenario, "The scenario index " + problem};
    };
    const json j = json::parse(json_text).value_or(json());
    if (!j.is_object()) return bad_index("is not a JSON object { ... }.");
    auto list = j.find("scenarios");
    if (!list || !list->is_array() || list->empty() ||
        list->size() > static_cast<std::size_t>(kMaxCandidates))
        return bad_index("needs \"scenarios\": a list of {\"id\", \"label\"}.");
    ScenarioIndex index;
    for (const json& item : *list) {
        ScenarioEntry entry;
        if (!item.is_object()) return bad_index("lists an entry that is not an object.");
        if (auto e = read_string(item, "id", true, &entry.id))
            return prefixed(*e, "In the index: ");
        if (auto e = read_string(item, "label", true, &entry.label))
            return prefixed(*e, "In the index: ");
        if (!is_scenario_id(entry.id))
            return bad_index("lists an id that is not 1 to 64 of a-z, 0-9, - and _.");
        if (entry.label.empty() || check_utf8(entry.label))
            return bad_index("needs a label (UTF-8 text) for every scenario.");
        for (const ScenarioEntry& seen : index.scenarios)
            if (seen.id == entry.id) return bad_index("lists the id \"" + entry.id + "\" twice.");
        index.scenarios.push_back(std::move(entry));
    }
    if (auto e = read_string(j, "start", true, &index.start)) return prefixed(*e, "In the index: ");
    for (const ScenarioEntry& entry : index.scenarios)
        if (entry.id == index.start) return index;
    return bad_index("names a \"start\" scenario that it does not list.");
}

Result<ScenarioIndex> load_scenario_index(const std::string& dir) {
    auto text = read_text_file(dir + "/" + kScenarioIndexFile);
    if (!text.ok()) return text.error();
    return parse_scenario_index(text.value());
}

Result<std::vector<Scenario>> load_scenarios(const std::string& dir, const ScenarioIndex& index) {
    std::vector<Scenario> all;
    for (const ScenarioEntry& entry : index.scenarios) {
        auto s = find_scenario(dir, entry.id);
        if (!s.ok()) return s.error();
        if (s.value().id != entry.id)
            return Error{ErrorCode::BadScenario,
                         "The scenario file " + entry.id + ".json has a different \"id\" inside."};
        all.push_back(std::move(s.value()));
    }
    return all;
}

}  // namespace attn
