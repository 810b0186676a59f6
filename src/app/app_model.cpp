// app_model.cpp - apply edits, run the engine, build the state JSON. No SDL / GL / Emscripten.
#include "app_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "content_json.h"

namespace app {
namespace {

// The library's own-sentence scenario (the index's first Sentence kind), or nullptr.
const attn::Scenario* own_sentence(const Library& lib) {
    return find_scenario(lib, lib.text.sentence_scenario_id);
}

std::uint32_t sentence_seed(const Library& lib) {
    const attn::Scenario* s = own_sentence(lib);
    return s ? s->seed : attn::kIllustrativeSeed;
}

// "diagram, worked-example or sentence": the index's ids, for messages.
std::string scenario_choices(const Library& lib) {
    std::string list;
    const std::size_t n = lib.index.scenarios.size();
    for (std::size_t i = 0; i < n; ++i)
        list += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + lib.index.scenarios[i].id;
    return list;
}

bool is_sentence(const attn::Scenario& s) {
    return s.kind == attn::ScenarioKind::Sentence;
}

// The own-sentence scenario: the engine's tokenizer and illustrative model, the app's options,
// the library's id and seed.
attn::Result<attn::Scenario> make_sentence(const Library& lib, const std::string& text, int focus,
                                           int heads, const attn::StepOptions& options) {
    auto s = attn::sentence_scenario(text, focus, kSentenceModelWidth, heads);
    if (!s.ok()) return s.error();
    s.value().id = lib.text.sentence_scenario_id;
    s.value().options = options;
    s.value().seed = sentence_seed(lib);
    return s;
}

int token_count(const std::string& text) {
    auto t = attn::tokenize(text);
    return t.ok() ? static_cast<int>(t.value().size()) : 0;
}

void resize_vector(attn::Vector& v, int d) {
    v.resize(static_cast<std::size_t>(d), 0.0);
}

// Keeps only the denied positions that still exist in `s`.
void keep_valid_denied(attn::Scenario& s) {
    const int n = static_cast<int>(s.tokens.size());
    s.denied.erase(std::remove_if(s.denied.begin(), s.denied.end(),
                                  [n](attn::TokenPosition p) { return p < 0 || p >= n; }),
                   s.denied.end());
}

bool presentation_only(const Edits& e) {
    return !e.scenario_id && !e.focus && !e.sentence && !e.heads && !e.variant && !e.d &&
           e.vectors.empty() && !e.temperature && !e.scale && !e.causal && !e.toggle_mask &&
           !e.reset;
}

}  // namespace

const char* step_name(int step) {
    switch (step) {
        case 0:
            return "choose_focus";
        case 1:
            return "compare";
        case 2:
            return "normalise";
        case 3:
            return "mix";
        default:
            return "unknown";
    }
}

void merge(Edits& into, const Edits& from) {
    auto take = [](auto& a, const auto& b) {
        if (b) a = b;
    };
    take(into.scenario_id, from.scenario_id);
    take(into.step, from.step);
    take(into.panel, from.panel);
    take(into.focus, from.focus);
    take(into.pinned, from.pinned);
    if (from.hover && (!into.hover || *from.hover >= 0)) into.hover = from.hover;
    take(into.sentence_draft, from.sentence_draft);
    take(into.sentence, from.sentence);
    take(into.heads, from.heads);
    take(into.shown_head, from.shown_head);
    take(into.variant, from.variant);
    take(into.d, from.d);
    into.vectors.insert(into.vectors.end(), from.vectors.begin(), from.vectors.end());
    take(into.temperature, from.temperature);
    take(into.scale, from.scale);
    take(into.causal, from.causal);
    take(into.reduced_motion, from.reduced_motion);
    take(into.dark, from.dark);
    take(into.toggle_mask, from.toggle_mask);
    into.reset = into.reset || from.reset;
    into.dismiss_message = into.dismiss_message || from.dismiss_message;
}

namespace {
// One reader for both sources: the scenario folder and ui.json path (files), or read(name).
template <class Read>
attn::Result<Library> load_library_with(const Read& read) {
    Library lib;
    auto index_text = read(std::string("scenarios/") + attn::kScenarioIndexFile);
    if (!index_text.ok()) return index_text.error();
    auto index = attn::parse_scenario_index(index_text.value());
    if (!index.ok()) return index.error();
    lib.index = index.value();
    for (const attn::ScenarioEntry& entry : lib.index.scenarios) {  // as attn::load_scenarios
        auto file = read("scenarios/" + entry.id + ".json");
        if (!file.ok()) return file.error();
        auto s = attn::parse_scenario(file.value());
        if (!s.ok()) return s.error();
        if (s.value().id != entry.id)
            return attn::Error{
                attn::ErrorCode::BadScenario,
                "The scenario file " + entry.id + ".json has a different \"id\" inside."};
        lib.scenarios.push_back(std::move(s.value()));
    }
    auto text = read("app/ui.json");
    if (!text.ok()) return text.error();
    auto ui = parse_ui_text(text.value());
    if (!ui.ok()) return ui.error();
    lib.text = ui.value();
    lib.text.scenarios = lib.index.scenarios;
    for (const attn::Scenario& s : lib.scenarios)
        if (is_sentence(s) && lib.text.sentence_scenario_id.empty())
            lib.text.sentence_scenario_id = s.id;
    return lib;
}
}  // namespace

attn::Result<Library> load_library(ReadContent read) {
    return load_library_with(read);
}

attn::Result<Library> load_library(const std::string& scenario_dir, const std::string& ui_path) {
    return load_library_with([&](const std::string& name) {
        if (name.rfind("scenarios/", 0) == 0)
            return attn::read_text_file(scenario_dir + "/" + name.substr(10));
        return attn::read_text_file(ui_path);
    });
}

const attn::Scenario* find_scenario(const Library& lib, const std::string& id) {
    for (const attn::Scenario& s : lib.scenarios)
        if (s.id == id) return &s;
    return nullptr;
}

AppState initial_state(const Library& lib) {
    AppState s;
    const attn::Scenario* start = find_scenario(lib, lib.index.start);
    if (!start && !lib.scenarios.empty()) start = &lib.scenarios.front();
    if (start) {
        s.scenario_id = start->id;
        s.scenario = *start;
    }
    const attn::Scenario* own = own_sentence(lib);
    s.sentence = own && !own->sentence.empty() ? own->sentence : lib.text.variant_base;
    s.sentence_focus = own ? own->focus : lib.text.variant_focus;
    s.heads = own ? std::clamp(own->heads, 1, kMaxShownHeads) : 1;
    s.sentence_draft = s.sentence;
    if (is_sentence(s.scenario)) {
        auto built = make_sentence(lib, s.sentence, s.sentence_focus, s.heads, s.scenario.options);
        if (built.ok()) s.scenario = built.value();
    }
    return s;
}

attn::Result<Derived> compute(const AppState& s, const Library& lib) {
    Derived d;
    // The whole sentence: the current scenario if it is one, else the reader's own sentence. Its
    // model is built once: for every head, and for the focus step when it is the current scenario.
    const bool on_sentence = is_sentence(s.scenario);
    if (!on_sentence) {
        auto focus = attn::run_scenario(s.scenario);
        if (!focus.ok()) return focus.error();
        d.focus = focus.value();
    }
    if (on_sentence) {
        d.sentence = s.scenario;
    } else {
        auto own = make_sentence(lib, s.sentence, s.sentence_focus, s.heads, s.scenario.options);
        if (!own.ok()) return own.error();
        d.sentence = own.value();
    }
    auto model = attn::illustrative_model(d.sentence);
    if (!model.ok()) return model.error();
    if (on_sentence) {
        auto focus = attn::attend(attn::focus_input(d.sentence, model.value()));
        if (!focus.ok()) return focus.error();
        d.focus = focus.value();
    }
    for (attn::CandidateIndex j = 0; j < d.focus.scores.size(); ++j) {
        const attn::TokenPosition p = attn::candidate_position(s.scenario, j);
        d.positions.push_back(p);
        const std::string& token = attn::token_at(s.scenario, p);
        d.candidate_tokens.push_back(token.empty() ? "#" + std::to_string(p) : token);
    }
    auto seq = attn::sentence_self_attention(d.sentence, model.value());
    if (!seq.ok()) return seq.error();
    d.sequence = seq.value();
    d.sequence_ok = true;
    d.embeddings = model.value().embeddings;

    // Misconception 1: the same model, one word changed.
    const UiText& t = lib.text;
    if (!t.swaps.empty()) {
        const WordSwap& w = t.swaps[static_cast<std::size_t>(
            std::clamp(s.variant, 0, static_cast<int>(t.swaps.size()) - 1))];
        auto base =
            make_sentence(lib, t.variant_base, t.variant_focus, s.heads, attn::StepOptions{});
        auto var = make_sentence(lib, w.sentence, t.variant_focus, s.heads, attn::StepOptions{});
        auto mb = base.ok() ? attn::illustrative_model(base.value())
                            : attn::Result<attn::IllustrativeModel>(base.error());
        auto mv = var.ok() ? attn::illustrative_model(var.value())
                           : attn::Result<attn::IllustrativeModel>(var.error());
        if (mb.ok() && mv.ok()) {  // each model built once: its focus step and its fingerprints
            auto rb = attn::attend(attn::focus_input(base.value(), mb.value()));
            auto rv = attn::attend(attn::focus_input(var.value(), mv.value()));
            if (rb.ok() && rv.ok()) {
                d.variant_ok = true;
                d.variant = var.value();
                d.base_focus = rb.value();
                d.variant_focus = rv.value();
                d.base_projection_print = mb.value().projections_print;
                d.variant_projection_print = mv.value().projections_print;
                d.base_embedding_print = mb.value().embeddings_print;
                d.variant_embedding_print = mv.value().embeddings_print;
                d.variant_word_from = w.from;
                d.variant_word_to = w.to;
            }
        }
    }
    d.ok = true;
    return d;
}

Applied apply(AppState& s, Derived& d, const Edits& e, const Library& lib) {
    AppState next = s;
    std::string error;
    auto fail = [&error](const std::string& m) {
        if (error.empty()) error = m;
    };
    const attn::StepOptions options = next.scenario.options;
    auto rebuild_sentence = [&](const attn::StepOptions& o) {
        auto built = make_sentence(lib, next.sentence, next.sentence_focus, next.heads, o);
        if (!built.ok()) return fail(built.error().message);
        std::vector<attn::TokenPosition> denied =
            is_sentence(next.scenario) ? next.scenario.denied : std::vector<attn::TokenPosition>{};
        next.scenario = built.value();
        next.scenario.denied = denied;
        keep_valid_denied(next.scenario);
        next.scenario_id = lib.text.sentence_scenario_id;
    };

    if (e.sentence) {
        const int n = token_count(*e.sentence);
        next.sentence = *e.sentence;
        next.sentence_draft = *e.sentence;
        if (!e.focus) next.sentence_focus = std::clamp(next.sentence_focus, 0, std::max(0, n - 1));
        if (e.focus) next.sentence_focus = *e.focus;
        next.scenario.denied.clear();
        next.pinned = next.hover = -1;
        rebuild_sentence(options);
    }
    if (e.scenario_id && !e.sentence) {
        const attn::Scenario* found = find_scenario(lib, *e.scenario_id);
        if (!found) {
            // Only an id-shaped name is repeated; anything else is not echoed.
            const std::string name = attn::is_scenario_id(*e.scenario_id)
                                         ? "called “" + *e.scenario_id + "”"
                                         : "with that name";
            fail("There is no scenario " + name + ". Choose " + scenario_choices(lib) + ".");
        } else if (*e.scenario_id != next.scenario_id || e.reset) {
            next.pinned = next.hover = -1;
            if (is_sentence(*found)) {
                next.scenario.denied.clear();
                rebuild_sentence(found->options);
            } else {
                next.scenario = *found;
                next.scenario_id = found->id;
            }
        }
    }
    if (e.reset && !e.scenario_id) {
        const attn::Scenario* found = find_scenario(lib, next.scenario_id);
        if (found && !is_sentence(*found)) next.scenario = *found;
        if (found && is_sentence(*found)) {
            next.scenario.denied.clear();
            rebuild_sentence(found->options);
        }
    }
    if (e.focus && !e.sentence) {
        if (is_sentence(next.scenario)) {  // attn::sentence_scenario checks the position
            next.sentence_focus = *e.focus;
            rebuild_sentence(next.scenario.options);
        } else if (*e.focus != next.scenario.focus) {
            const std::string& focus = attn::focus_token(next.scenario);
            const std::string who = focus.empty() ? "the focus token" : focus;
            fail("In “" + next.scenario.title + "” the query vector belongs to “" + who +
                 "”. Choose “Your sentence” to pick any focus token.");
        }
    }
    if (e.heads) {
        if (*e.heads < 1 || *e.heads > kMaxShownHeads) {
            fail("The canvas shows 1 to " + std::to_string(kMaxShownHeads) + " heads.");
        } else {
            next.heads = *e.heads;
            next.shown_head = std::min(next.shown_head, next.heads - 1);
            if (is_sentence(next.scenario)) rebuild_sentence(next.scenario.options);
        }
    }
    const bool editable = is_vectors_kind(next);
    if ((e.d || !e.vectors.empty()) && !editable)
        fail(
            "These vectors come from the illustrative model; pick the diagram or the worked "
            "example to edit vectors by hand.");
    if (e.d && editable) {
        const int dd = std::clamp(*e.d, kMinD, kMaxD);
        resize_vector(next.scenario.query, dd);
        for (auto& k : next.scenario.keys) resize_vector(k, dd);
        for (auto& v : next.scenario.values) resize_vector(v, dd);
    }
    for (const VectorEdit& v : e.vectors) {
        if (!editable) break;
        const auto c = static_cast<std::size_t>(v.candidate);
        attn::Vector* target =
            v.which == VectorEdit::Query ? &next.scenario.query
            : v.which == VectorEdit::Key
                ? (c < next.scenario.keys.size() ? &next.scenario.keys[c] : nullptr)
                : (c < next.scenario.values.size() ? &next.scenario.values[c] : nullptr);
        if (target && v.component >= 0 && v.component < static_cast<int>(target->size()))
            (*target)[static_cast<std::size_t>(v.component)] = v.value;
    }
    if (e.temperature) next.scenario.options.temperature = *e.temperature;
    if (e.scale) next.scenario.options.scale = *e.scale;
    if (e.causal) next.scenario.options.causal = *e.causal;
    if (e.toggle_mask) {
        auto& dn = next.scenario.denied;
        auto it = std::find(dn.begin(), dn.end(), *e.toggle_mask);
        if (it == dn.end())
            dn.push_back(*e.toggle_mask);
        else
            dn.erase(it);
    }
    if (e.variant)
        next.variant = std::clamp(*e.variant, 0, static_cast<int>(lib.text.swaps.size()) - 1);

    // presentation
    if (e.step) {
        if (*e.step < 0 || *e.step >= kStepCount)
            fail("There are four steps, numbered 0 to 3.");
        else
            next.step = *e.step;
    }
    if (e.panel) {
        if (*e.panel < 0 || *e.panel >= kPanelCount)
            fail("There are four views, numbered 0 to 3.");
        else
            next.panel = *e.panel;
    }
    if (e.hover) next.hover = *e.hover;
    if (e.pinned) next.pinned = *e.pinned == next.pinned ? -1 : *e.pinned;
    if (e.shown_head) next.shown_head = std::clamp(*e.shown_head, 0, next.heads - 1);
    if (e.sentence_draft) next.sentence_draft = *e.sentence_draft;
    if (e.dark) next.theme = *e.dark ? Theme::Dark : Theme::Light;
    if (e.reduced_motion) next.reduced_motion = *e.reduced_motion;
    if (e.dismiss_message) next.message.clear();

    Applied out;
    if (error.empty() && !presentation_only(e)) {
        auto r = compute(next, lib);
        if (!r.ok()) {
            error = r.error().message;
        } else {
            d = r.value();
        }
    }
    if (!error.empty()) {  // keep the previous state; show the message
        out.changed = s.message != error;
        s.message = error;
        out.error = error;
        return out;
    }
    if (!presentation_only(e)) next.message.clear();
    const bool visual = next.panel != s.panel || next.shown_head != s.shown_head ||
                        next.sentence_draft != s.sentence_draft || next.message != s.message ||
                        next.pinned != s.pinned || next.step != s.step ||
                        highlighted(next) != highlighted(s) || next.theme != s.theme ||
                        next.reduced_motion != s.reduced_motion;
    out.changed = visual || !presentation_only(e);
    s = next;
    if (out.changed) ++s.revision;
    return out;
}

bool advance(AppState& s, const Derived& d, double dt) {
    const double k = s.reduced_motion ? 1.0 : 1.0 - std::exp(-dt * 10.0);  // ease-out per frame
    bool moving = false;
    auto ease = [&](double& x, double target) {
        if (!std::isfinite(target)) target = 0.0;
        if (!std::isfinite(x)) x = target;
        x += (target - x) * k;
        if (std::fabs(target - x) < 1e-4)
            x = target;
        else
            moving = true;
    };
    ease(s.anim_step, static_cast<double>(s.step));
    const std::size_t n = d.focus.scores.size();
    if (s.shown_scores.size() != n) s.shown_scores.assign(n, 0.0);
    if (s.shown_weights.size() != n) s.shown_weights.assign(n, 0.0);
    for (std::size_t j = 0; j < n; ++j) {
        ease(s.shown_scores[j], d.focus.scores[j]);
        ease(s.shown_weights[j], j < d.focus.weights.size() ? d.focus.weights[j] : 0.0);
    }
    return moving;
}

std::string state_json(const AppState& s, const Derived& d) {
    using nlohmann::json;
    json j = d.ok ? attn::focus_json(s.scenario, nullptr, d.focus, nullptr)
                  : attn::error_json_value(
                        attn::Error{attn::ErrorCode::BadScenario,
                                    s.message.empty() ? "Nothing loaded yet." : s.message});
    j["step"] = s.step;
    j["step_name"] = step_name(s.step);
    j["heads"] = s.heads;
    j["theme"] = s.theme == Theme::Dark ? "dark" : "light";
    j["reduced_motion"] = s.reduced_motion;
    j["sentence"] = is_sentence(s.scenario) ? json(s.scenario.sentence) : json(nullptr);
    j["hover"] = highlighted(s);
    j["panel"] = s.panel;
    j["message"] = s.message;
    return attn::dump_json(j);  // invalid UTF-8 replaced, never thrown
}

int highlighted(const AppState& s) {
    return s.hover >= 0 ? s.hover : s.pinned;
}

bool is_vectors_kind(const AppState& s) {
    return s.scenario.kind == attn::ScenarioKind::Vectors;
}

std::string focus_label(const attn::Scenario& s) {
    const std::string& token = attn::focus_token(s);
    return token.empty() ? "focus" : token;
}

std::string format_number(double v, int decimals) {
    if (std::isnan(v)) return "–";
    if (std::isinf(v)) return v < 0 ? "−∞" : "∞";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string out = buf;
    if (out[0] == '-') {
        const bool zero = out.find_first_not_of("-0.") == std::string::npos;
        out = zero ? out.substr(1) : "−" + out.substr(1);  // U+2212, never "-0.00"
    }
    return out;
}

}  // namespace app
