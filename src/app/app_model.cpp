// app_model.cpp - apply edits, run the engine, build the state JSON. No SDL / GL / Emscripten.
#include "app_model.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "content_json.h"
#include "model_json.h"

#include "attn_theme_data.h"

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

bool is_sentence(const attn::Scenario& s) { return s.kind == attn::ScenarioKind::Sentence; }

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

void resize_vector(attn::Vector& v, int d) { v.resize(static_cast<std::size_t>(d), 0.0); }

// Keeps only the denied positions that still exist in `s`.
void keep_valid_denied(attn::Scenario& s) {
    const int n = static_cast<int>(s.tokens.size());
    s.denied.erase(std::remove_if(s.denied.begin(), s.denied.end(),
                                  [n](attn::TokenPosition p) { return p < 0 || p >= n; }),
                   s.denied.end());
}

// A head's measured score for a pattern label ("induction", "previous-token", ...).
double pattern_score(const HeadLabel& h, const std::string& pattern) {
    if (pattern == "induction") return h.induction;
    if (pattern == "previous-token") return h.previous_token;
    if (pattern == "first-token") return h.first_token;
    if (pattern == "self") return h.self;
    return 0;
}

const ModelExample* model_example(const Library& lib, int i) {
    const auto& ex = lib.text.model.examples;
    return i >= 0 && i < static_cast<int>(ex.size()) ? &ex[static_cast<std::size_t>(i)] : nullptr;
}

// The scenario the views and the page read in the model view: the model's tokens, the focus and
// its candidates 0..focus (keys after the focus are causally masked and add nothing), scaled by
// 1/sqrt(d_k), temperature 1 - the chosen head's own row (its numbers: compute_model).
attn::Scenario model_scenario(const std::vector<std::string>& tokens, const ModelChoice& c) {
    attn::Scenario s;
    s.id = kModelScenarioId;
    s.kind = attn::ScenarioKind::Model;
    s.title = "A trained model: layer " + std::to_string(c.layer + 1) + ", head " +
              std::to_string(c.head + 1);
    s.tokens = tokens;
    s.focus = c.focus;
    for (int j = 0; j <= c.focus; ++j) s.candidates.push_back(j);
    s.options.scale = true;
    s.options.causal = true;
    return s;
}

// One run of the trained model for the state's choice; its focus row is the views' focus step.
std::optional<attn::Error> compute_model(const AppState& s, const Library& lib, Derived& d,
                                         const ModelRun* reuse) {
    if (!lib.model) return attn::Error{attn::ErrorCode::BadModelFile, lib.text.model.not_loaded};
    auto r = run_model(*lib.model, s.model, model_example(lib, s.model.example), reuse);
    if (!r.ok()) return r.error();
    d.model = std::move(r.value());
    d.model_ok = true;
    d.focus = d.model.focus;
    const attn::ModelConfig& c = lib.model->model.config;
    for (int l = 0; l < c.layers; ++l)
        for (int h = 0; h < c.heads; ++h)
            d.model_heads.push_back(head_sentence(*lib.model, lib.text.model, l, h));
    return std::nullopt;
}

}  // namespace

const char* step_name(Step step) {
    switch (step) {
        case Step::ChooseFocus:
            return "choose_focus";
        case Step::Compare:
            return "compare";
        case Step::Normalise:
            return "normalise";
        case Step::Mix:
            return "mix";
    }
    return "unknown";
}

void merge(Edits& into, const Edits& from) {
#define ATTN_MERGE_VALUE(group, type, name) \
    if (from.name) into.name = from.name;
#define ATTN_MERGE_FLAG(group, name) into.name = into.name || from.name;
    const std::optional<HoverReport> hover = into.hover;
    ATTN_EDIT_VALUES(ATTN_MERGE_VALUE)
    ATTN_EDIT_FLAGS(ATTN_MERGE_FLAG)
#undef ATTN_MERGE_VALUE
#undef ATTN_MERGE_FLAG
    if (hover && hover->position && from.hover && !from.hover->position) into.hover = hover;
    into.vectors.insert(into.vectors.end(), from.vectors.begin(), from.vectors.end());
}

bool changes_model(const Edits& e) {
    bool any = !e.vectors.empty();
#define ATTN_IS_MODEL_VALUE(group, type, name) \
    any = any || (EditGroup::group == EditGroup::Model && e.name.has_value());
#define ATTN_IS_MODEL_FLAG(group, name) \
    any = any || (EditGroup::group == EditGroup::Model && e.name);
    ATTN_EDIT_VALUES(ATTN_IS_MODEL_VALUE)
    ATTN_EDIT_FLAGS(ATTN_IS_MODEL_FLAG)
#undef ATTN_IS_MODEL_VALUE
#undef ATTN_IS_MODEL_FLAG
    return any;
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
    auto mtext = read("app/model.json");
    if (!mtext.ok()) return mtext.error();
    auto mt = parse_model_text(mtext.value());
    if (!mt.ok()) return mt.error();
    lib.text.model = mt.value();
    return lib;
}
}  // namespace

attn::Result<Library> load_library(ReadContent read) { return load_library_with(read); }

attn::Result<Library> load_library(const std::string& scenario_dir, const std::string& ui_path) {
    return load_library_with([&](const std::string& name) {
        if (name.rfind("scenarios/", 0) == 0)
            return attn::read_text_file(scenario_dir + "/" + name.substr(10));
        if (name == "app/model.json") {  // beside ui.json
            const std::size_t slash = ui_path.find_last_of('/');
            return attn::read_text_file(
                (slash == std::string::npos ? std::string(".") : ui_path.substr(0, slash + 1)) +
                "model.json");
        }
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

attn::Result<Derived> compute(const AppState& s, const Library& lib, const Derived* previous) {
    Derived d;
    // The whole sentence: the current scenario if it is one, else the reader's own sentence. Its
    // model is built once: for every head, and for the focus step when it is the current scenario.
    // The trained model's focus step is its forward pass's (compute_model).
    d.loaded = lib.model;
    const bool on_sentence = is_sentence(s.scenario);
    if (s.scenario_id == kModelScenarioId) {
        const ModelRun* reuse = previous && previous->model_ok && previous->loaded == lib.model
                                    ? &previous->model
                                    : nullptr;
        if (auto e = compute_model(s, lib, d, reuse)) return *e;
    } else if (!on_sentence) {
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
    for (const WordSwap& w : t.swaps) d.swap_labels.push_back(w.from + " → " + w.to);
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

namespace {

// One apply() in progress: the next state, the first error, and how to rebuild the own sentence.
struct Pending {
    AppState next;
    const Library& lib;
    std::string error;
    void fail(const std::string& m) {
        if (error.empty()) error = m;
    }
    // Rebuilds the own-sentence scenario from next.sentence / sentence_focus / heads; the reader's
    // masks survive where their positions still exist.
    void rebuild_sentence(const attn::StepOptions& o) {
        auto built = make_sentence(lib, next.sentence, next.sentence_focus, next.heads, o);
        if (!built.ok()) return fail(built.error().message);
        std::vector<Position> denied =
            is_sentence(next.scenario) ? next.scenario.denied : std::vector<Position>{};
        next.scenario = built.value();
        next.scenario.denied = denied;
        keep_valid_denied(next.scenario);
        next.scenario_id = lib.text.sentence_scenario_id;
    }
    void unpin() { next.pinned = next.hover = std::nullopt; }
    // Rebuilds the model scenario from next.model (the model's tokenizer; the run: compute).
    void rebuild_model() {
        if (!lib.model) return fail(lib.text.model.not_loaded);
        auto tokens = model_tokens(*lib.model, next.model.text);
        if (!tokens.ok()) return fail(tokens.error().message);
        const int n = static_cast<int>(tokens.value().size());
        if (next.model.focus < 0 || next.model.focus >= n)
            return fail("The focus position " + std::to_string(next.model.focus) +
                        " is outside the text: its tokens are numbered 0 to " +
                        std::to_string(n - 1) + ".");
        next.scenario = model_scenario(tokens.value(), next.model);
        next.scenario.description = lib.text.model.about;
        next.scenario_id = kModelScenarioId;
    }
    int model_token_count(const std::string& text) const {
        auto t = lib.model ? model_tokens(*lib.model, text)
                           : attn::Result<std::vector<std::string>>(std::vector<std::string>{});
        return t.ok() ? static_cast<int>(t.value().size()) : 0;
    }
};

// What is explained: the own sentence, the scenario, a reset, the focus token.
void apply_scenario_edits(Pending& p, const Edits& e) {
    AppState& next = p.next;
    const attn::StepOptions options = next.scenario.options;
    if (e.sentence) {
        const int n = token_count(*e.sentence);
        next.sentence = *e.sentence;
        next.sentence_draft = *e.sentence;
        next.sentence_focus =
            e.focus && *e.focus >= 0
                ? *e.focus
                : (e.focus ? default_focus(*e.sentence)
                           : std::clamp(next.sentence_focus, 0, std::max(0, n - 1)));
        next.scenario.denied.clear();
        p.unpin();
        p.rebuild_sentence(options);
    }
    if (e.scenario_id && !e.sentence && *e.scenario_id != kModelScenarioId) {
        const attn::Scenario* found = find_scenario(p.lib, *e.scenario_id);
        if (!found) {
            // Only an id-shaped name is repeated; anything else is not echoed.
            const std::string name = attn::is_scenario_id(*e.scenario_id)
                                         ? "called “" + *e.scenario_id + "”"
                                         : "with that name";
            p.fail("There is no scenario " + name + ". Choose " + scenario_choices(p.lib) + ".");
        } else if (*e.scenario_id != next.scenario_id || e.reset) {
            p.unpin();
            if (is_sentence(*found)) {
                next.scenario.denied.clear();
                p.rebuild_sentence(found->options);
            } else {
                next.scenario = *found;
                next.scenario_id = found->id;
            }
        }
    }
    if (e.reset && !e.scenario_id) {
        const attn::Scenario* found = find_scenario(p.lib, next.scenario_id);
        if (found && !is_sentence(*found)) next.scenario = *found;
        if (found && is_sentence(*found)) {
            next.scenario.denied.clear();
            p.rebuild_sentence(found->options);
        }
    }
    if (e.focus && !e.sentence && next.scenario_id != kModelScenarioId) {
        if (is_sentence(next.scenario)) {  // attn::sentence_scenario checks the position
            next.sentence_focus = *e.focus;
            p.rebuild_sentence(next.scenario.options);
        } else if (*e.focus != next.scenario.focus) {
            const std::string& focus = attn::focus_token(next.scenario);
            const std::string who = focus.empty() ? "the focus token" : focus;
            p.fail("In “" + next.scenario.title + "” the query vector belongs to “" + who +
                   "”. Choose “Your sentence” or “A trained model” to pick any focus token.");
        }
    }
}

// How it is computed: heads, d and the vectors, temperature, scaling, masks, the word swap.
void apply_option_edits(Pending& p, const Edits& e) {
    AppState& next = p.next;
    if (e.heads) {
        if (*e.heads < 1 || *e.heads > kMaxShownHeads) {
            p.fail("The canvas shows 1 to " + std::to_string(kMaxShownHeads) + " heads.");
        } else {
            next.heads = *e.heads;
            next.shown_head = std::min(next.shown_head, next.heads - 1);
            if (is_sentence(next.scenario)) p.rebuild_sentence(next.scenario.options);
        }
    }
    const bool editable = is_vectors_kind(next);
    if ((e.d || !e.vectors.empty()) && !editable)
        p.fail(
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
        if (!target || v.component < 0 || v.component >= static_cast<int>(target->size()))
            p.fail("There is no such vector component.");
        else if (!std::isfinite(v.value))
            p.fail("A vector component must be a number.");
        else
            (*target)[static_cast<std::size_t>(v.component)] = v.value;
    }
    if (e.temperature) {
        if (!(*e.temperature >= kMinTemperature && *e.temperature <= kMaxTemperature))
            p.fail("The temperature goes from " + format_number(kMinTemperature, 1) + " to " +
                   format_number(kMaxTemperature, 1) + ".");
        else
            next.scenario.options.temperature = *e.temperature;
    }
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
        next.variant = std::clamp(*e.variant, 0, static_cast<int>(p.lib.text.swaps.size()) - 1);
}

// The trained model: entering it, its text or example, layer, head, focus, the ablation.
void apply_model_edits(Pending& p, const Edits& e) {
    AppState& next = p.next;
    const bool in_model = next.scenario_id == kModelScenarioId;
    const bool enter = e.scenario_id && *e.scenario_id == kModelScenarioId;
    const bool any = enter || e.model_text || e.model_example || e.model_layer || e.model_head ||
                     e.model_ablate || (in_model && e.focus);
    if (in_model && (e.temperature || e.scale || e.causal || e.toggle_mask))
        p.fail(
            "The trained model's heads always use the 1/√d scale, temperature 1 and the causal "
            "mask: they are part of how it was trained.");
    if (!any) return;
    if (!p.lib.model) return p.fail(p.lib.text.model.not_loaded);
    const attn::ModelConfig& c = p.lib.model->model.config;
    ModelChoice& m = next.model;
    const auto last = [&](const std::string& text) {
        return std::max(0, p.model_token_count(text) - 1);
    };
    const auto choose_example = [&](int i) {
        const ModelExample* x = model_example(p.lib, i);
        if (!x) return p.fail("There is no example text " + std::to_string(i) + ".");
        m.example = i;
        m.text = x->text;
        m.focus = x->focus >= 0 ? std::min(x->focus, last(x->text)) : last(x->text);
        // the head showing its pattern: the first labelled so, else the one scoring highest on it
        const HeadLabel* best = nullptr;
        for (const HeadLabel& h : p.lib.model->heads) {
            if (x->pattern.empty()) break;
            if (h.label == x->pattern) {
                best = &h;
                break;
            }
            if (!best || pattern_score(h, x->pattern) > pattern_score(*best, x->pattern)) best = &h;
        }
        if (best) {
            m.layer = best->layer;
            m.head = best->head;
        }
    };
    if (m.text.empty()) choose_example(0);
    if (e.model_example) choose_example(*e.model_example);
    if (e.model_text) {
        m.text = *e.model_text;
        m.example = -1;
        m.focus = e.focus && *e.focus >= 0 ? *e.focus : last(m.text);
    } else if (e.focus && (in_model || enter)) {
        m.focus = *e.focus;
    }
    if (e.model_layer) {
        if (*e.model_layer < 0 || *e.model_layer >= c.layers)
            p.fail("The model has layers 1 to " + std::to_string(c.layers) + ".");
        else
            m.layer = *e.model_layer;
    }
    if (e.model_head) {
        if (*e.model_head < 0 || *e.model_head >= c.heads)
            p.fail("Each layer has heads 1 to " + std::to_string(c.heads) + ".");
        else
            m.head = *e.model_head;
    }
    if (e.model_ablate) m.ablate = *e.model_ablate;
    if (!in_model) {
        p.unpin();
        next.panel = Panel::Model;
    }
    p.rebuild_model();
}

// What is drawn: step, view, pins and hover, the draft text, theme and motion, the message.
void apply_presentation_edits(Pending& p, const Edits& e) {
    AppState& next = p.next;
    if (e.step) {
        if (*e.step < 0 || *e.step >= kStepCount)
            p.fail("There are four steps, numbered 0 to 3.");
        else
            next.step = static_cast<Step>(*e.step);
    }
    if (e.panel) {
        if (*e.panel < 0 || *e.panel >= kPanelCount)
            p.fail("There are " + std::to_string(kPanelCount) + " views, numbered 0 to " +
                   std::to_string(kPanelCount - 1) + ".");
        else
            next.panel = static_cast<Panel>(*e.panel);
    }
    if (e.hover) next.hover = e.hover->position;
    if (e.pinned) next.pinned = next.pinned == *e.pinned ? std::nullopt : e.pinned;
    if (e.shown_head) next.shown_head = std::clamp(*e.shown_head, 0, next.heads - 1);
    if (e.sentence_draft) next.sentence_draft = *e.sentence_draft;
    if (e.dark) next.theme = *e.dark ? Theme::Dark : Theme::Light;
    if (e.reduced_motion) next.reduced_motion = *e.reduced_motion;
    if (e.dismiss_message) next.message.clear();
    if (e.touch) next.touch = *e.touch;
    if (e.sentence_field) next.sentence_field = *e.sentence_field;
}

// The whole-sentence view always draws a sentence, so the header, the page's focus select and the
// live text must name that sentence: opening the view explains the reader's own sentence, and
// choosing a vectors example while in it goes back to the four steps.
void keep_view_and_example_together(Pending& p, const AppState& before) {
    AppState& next = p.next;
    if (next.panel == Panel::Model && next.scenario_id != kModelScenarioId) {
        if (before.panel != Panel::Model) {  // opening the model view explains the model
            Edits enter;
            enter.scenario_id = kModelScenarioId;
            apply_model_edits(p, enter);
        } else {  // another example chosen in the model view: back to the four steps
            next.panel = Panel::Steps;
        }
        return;
    }
    if (next.panel != Panel::Sentence || is_sentence(next.scenario)) return;
    if (before.panel != Panel::Sentence) {
        const attn::Scenario* own = own_sentence(p.lib);
        p.unpin();
        next.scenario.denied.clear();
        p.rebuild_sentence(own ? own->options : next.scenario.options);
    } else {
        next.panel = Panel::Steps;
    }
}

// Whether anything the reader sees differs between two states (beyond the engine's numbers).
bool looks_different(const AppState& a, const AppState& b) {
    return a.panel != b.panel || a.shown_head != b.shown_head ||
           a.sentence_draft != b.sentence_draft || a.message != b.message || a.pinned != b.pinned ||
           a.step != b.step || highlighted(a) != highlighted(b) || a.theme != b.theme ||
           a.reduced_motion != b.reduced_motion || a.touch != b.touch;
}

}  // namespace

Applied apply(AppState& s, Derived& d, const Edits& e, const Library& lib) {
    Pending p{s, lib, {}};
    apply_scenario_edits(p, e);
    apply_option_edits(p, e);
    apply_model_edits(p, e);
    apply_presentation_edits(p, e);
    keep_view_and_example_together(p, s);
    const bool model = changes_model(e) || p.next.scenario_id != s.scenario_id;
    if (p.error.empty() && model) {
        auto r = compute(p.next, lib, &d);
        if (!r.ok())
            p.error = r.error().message;
        else
            d = r.value();
    }
    Applied out;
    if (!p.error.empty()) {  // keep the previous state; show the message
        out.changed = s.message != p.error;
        s.message = p.error;
        out.error = p.error;
        return out;
    }
    if (model) p.next.message.clear();
    out.changed = model || looks_different(p.next, s);
    s = p.next;
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
    ease(s.anim_step, static_cast<double>(static_cast<int>(s.step)));
    const std::size_t n = d.focus.scores.size();
    if (s.shown_scores.size() != n) s.shown_scores.assign(n, 0.0);
    if (s.shown_weights.size() != n) s.shown_weights.assign(n, 0.0);
    for (std::size_t j = 0; j < n; ++j) {
        ease(s.shown_scores[j], d.focus.scores[j]);
        ease(s.shown_weights[j], j < d.focus.weights.size() ? d.focus.weights[j] : 0.0);
    }
    return moving;
}

namespace {

// The whole-sentence view for the page: the sentence the map draws, and per head the focus row's
// strongest weights (at most three), strongest first.
attn::Json whole_sentence_json(const Derived& d) {
    using json = attn::Json;
    const attn::Scenario& sent = d.sentence;
    json heads = json::array();
    const int f = sent.focus;
    for (const attn::HeadResult& hr : d.sequence.heads) {
        std::vector<int> order;
        for (int j = 0; j < hr.weights.cols; ++j) order.push_back(j);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return hr.weights.at(f, a) > hr.weights.at(f, b); });
        json top = json::array();
        for (std::size_t k = 0; k < order.size() && k < 3; ++k)
            top.push_back({{"position", order[k]},
                           {"token", sent.tokens[static_cast<std::size_t>(order[k])]},
                           {"weight", hr.weights.at(f, order[k])}});
        heads.push_back(top);
    }
    return {{"sentence", sent.sentence},
            {"tokens", sent.tokens},
            {"focus", f},
            {"causal", sent.options.causal},
            {"heads", heads}};
}

// Misconception 1 now: the swapped word's own score for the focus before and after, and whether
// the projections kept their fingerprint.
attn::Json misconception_json(const AppState& s, const Derived& d) {
    using json = attn::Json;
    json m = {{"variant", s.variant}, {"swaps", d.swap_labels}};
    if (!d.variant_ok) return m;
    for (std::size_t j = 0; j < d.variant.tokens.size(); ++j) {
        if (d.variant.tokens[j] != d.variant_word_to) continue;
        if (j < d.base_focus.scores.size() && j < d.variant_focus.scores.size()) {
            m["score_before"] = d.base_focus.scores[j];
            m["score_after"] = d.variant_focus.scores[j];
        }
        break;
    }
    const auto focus = static_cast<std::size_t>(d.variant.focus);
    m["from"] = d.variant_word_from;
    m["to"] = d.variant_word_to;
    m["focus_token"] = focus < d.variant.tokens.size() ? d.variant.tokens[focus] : "";
    m["projections_identical"] = d.base_projection_print == d.variant_projection_print;
    return m;
}

attn::Json next_json(const std::vector<NextToken>& list) {
    attn::Json out = attn::Json::array();
    for (const NextToken& t : list) out.push_back({{"token", t.token}, {"id", t.id}, {"p", t.p}});
    return out;
}

// The "model" object of the state JSON (docs/contract.md, "Model view").
attn::Json model_json(const AppState& s, const Derived& d) {
    using json = attn::Json;
    json j{{"loaded", d.loaded != nullptr},
           {"active", s.scenario_id == kModelScenarioId && d.model_ok}};
    if (!d.loaded) return j;
    const attn::ModelConfig& c = d.loaded->model.config;
    j["weights_sha256"] = d.loaded->sha256;
    j["weights_bytes"] = d.loaded->bytes;
    j["config"] = attn::model_config_json(c);
    json heads = json::array();
    for (const HeadLabel& h : d.loaded->heads) {
        json one{{"layer", h.layer},
                 {"head", h.head},
                 {"label", h.label},
                 {"score", h.score()},
                 {"score_name", h.score_name()}};
        const std::size_t at = static_cast<std::size_t>(h.layer * c.heads + h.head);
        if (at < d.model_heads.size()) one["description"] = d.model_heads[at];
        heads.push_back(one);
    }
    j["heads"] = heads;
    if (!j["active"].get<bool>()) return j;
    const ModelChoice& m = s.model;
    const ModelRun& r = d.model;
    j["text"] = m.text;
    j["example"] = m.example;
    j["tokens"] = r.tokens;
    j["token_ids"] = r.ids;
    j["layer"] = m.layer;
    j["head"] = m.head;
    j["focus"] = m.focus;
    j["ablated"] = m.ablate ? json{{"layer", m.layer}, {"head", m.head}} : json(nullptr);
    j["row"] = {{"dot_products", r.focus.dot_products},
                {"scores", r.focus.scores},
                {"weights", r.focus.weights},
                {"scale", r.focus.scale}};
    j["head_output"] = r.head_output;
    j["next"] = next_json(r.next);
    j["next_ablated"] = next_json(r.next_ablated);
    j["variant"] = r.variant_ok ? json{{"text", r.variant_text},
                                       {"from", r.swap_from},
                                       {"to", r.swap_to},
                                       {"tokens", r.variant_tokens},
                                       {"scores", r.variant_focus.scores},
                                       {"weights", r.variant_focus.weights}}
                                : json(nullptr);
    return j;
}

}  // namespace

std::string state_json(const AppState& s, const Derived& d) {
    using json = attn::Json;
    json j = d.ok ? attn::focus_json(s.scenario, nullptr, d.focus, nullptr)
                  : attn::error_json_value(
                        attn::Error{attn::ErrorCode::BadScenario,
                                    s.message.empty() ? "Nothing loaded yet." : s.message});
    j["step"] = to_int(s.step);
    j["step_name"] = step_name(s.step);
    j["heads"] = s.heads;
    j["theme"] = s.theme == Theme::Dark ? "dark" : "light";
    j["reduced_motion"] = s.reduced_motion;
    j["sentence"] = is_sentence(s.scenario) ? json(s.scenario.sentence) : json(nullptr);
    j["hover"] = highlighted(s).value_or(-1);  // the page's contract: -1 = nothing highlighted
    j["pinned"] = s.pinned.value_or(-1);
    j["panel"] = to_int(s.panel);
    j["message"] = s.message;
    // what the page's controls need (see src/app/exports.json, attn_set_option)
    j["editable"] = is_vectors_kind(s);
    j["denied"] = s.scenario.denied;
    j["shown_head"] = s.shown_head;
    j["limits"] = {{"d", {kMinD, kMaxD}},
                   {"temperature", {kMinTemperature, kMaxTemperature}},
                   {"heads", {1, kMaxShownHeads}},
                   {"tokens", attn::kMaxSentenceTokens},
                   {"bytes", attn::kMaxSentenceBytes}};
    if (d.ok && is_vectors_kind(s) && j.contains("candidates")) {  // the page's vector table
        j["query"] = s.scenario.query;
        for (std::size_t c = 0; c < j["candidates"].size(); ++c) {
            if (c < s.scenario.keys.size()) j["candidates"][c]["key"] = s.scenario.keys[c];
            if (c < s.scenario.values.size()) j["candidates"][c]["value"] = s.scenario.values[c];
        }
    }
    if (d.ok && d.sequence_ok) j["whole"] = whole_sentence_json(d);
    if (d.ok) j["misconception"] = misconception_json(s, d);
    j["model"] = model_json(s, d);
    return j.dump();  // invalid UTF-8 replaced, never thrown
}

std::string error_json(const std::string& code, const std::string& message) {
    return attn::Json{{"ok", false}, {"error", {{"code", code}, {"message", message}}}}.dump();
}

namespace {

// Decodes one UTF-8 sequence at text[i] (advancing i); invalid bytes give U+FFFD.
char32_t next_code_point(const std::string& text, std::size_t& i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = b(i);
    const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + static_cast<std::size_t>(len) > text.size()) {
        ++i;
        return 0xFFFD;
    }
    char32_t cp = len == 1 ? c : c & (0xFF >> (len + 1));
    for (int k = 1; k < len; ++k) cp = (cp << 6) | (b(i + static_cast<std::size_t>(k)) & 0x3F);
    i += static_cast<std::size_t>(len);
    return cp;
}

// Inclusive [first, last] pairs of code points, from the one glyph list (assets/theme/glyphs.json).
constexpr char32_t kDrawnRanges[] = {ATTN_GLYPH_RANGES};
constexpr char32_t kLazyRanges[] = {ATTN_GLYPH_RANGES_LAZY 0};  // a 0 ends it (it may be empty)

template <std::size_t N>
bool in_ranges(char32_t cp, const char32_t (&ranges)[N]) {
    for (std::size_t r = 0; r + 1 < N; r += 2)
        if (cp >= ranges[r] && cp <= ranges[r + 1]) return true;
    return false;
}

bool canvas_draws(char32_t cp) {
    if (cp == '\t' || cp == '\n' || cp == '\r') return true;  // whitespace separates tokens
    return in_ranges(cp, kDrawnRanges);
}

// The code point of a JSON escape "\uXXXX" at text[i] (advancing i past it), or nullopt.
std::optional<char32_t> json_escape_at(const std::string& text, std::size_t& i) {
    if (text[i] != '\\' || i + 6 > text.size() || text[i + 1] != 'u') return std::nullopt;
    char32_t cp = 0;
    for (std::size_t k = i + 2; k < i + 6; ++k) {
        const char c = text[k];
        if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
        cp = cp * 16 +
             static_cast<char32_t>(std::isdigit(static_cast<unsigned char>(c))
                                       ? c - '0'
                                       : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
    }
    i += 6;
    return cp;
}

// A word token has a letter or digit: ASCII alphanumerics, or any non-ASCII character that is not
// punctuation (the engine's tokenizer keeps non-ASCII letters in words).
bool is_word(const std::string& token) {
    for (unsigned char c : token)
        if (std::isalnum(c) || c >= 0xC0) return true;
    return false;
}

}  // namespace

std::string unsupported_characters(const std::string& text) {
    std::string out;
    std::vector<char32_t> seen;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t start = i;
        const char32_t cp = next_code_point(text, i);
        if (canvas_draws(cp) || std::find(seen.begin(), seen.end(), cp) != seen.end()) continue;
        seen.push_back(cp);
        out += text.substr(start, i - start);
    }
    return out;
}

bool needs_lazy_glyphs(const std::string& text) {
    // An escaped backslash before "u" reads as an escape too: that errs towards the full atlas.
    for (std::size_t i = 0; i < text.size();) {
        const std::optional<char32_t> escaped = json_escape_at(text, i);
        if (in_ranges(escaped ? *escaped : next_code_point(text, i), kLazyRanges)) return true;
    }
    return false;
}

Position default_focus(const std::string& text) {
    auto tokens = attn::tokenize(text);
    if (!tokens.ok()) return 0;
    Position focus = 0;
    for (std::size_t j = 0; j < tokens.value().size(); ++j)
        if (is_word(tokens.value()[j].text)) focus = static_cast<Position>(j);
    return focus;
}

std::string tokenize_json(const std::string& text) {
    using json = attn::Json;
    json j{{"bytes", text.size()},
           {"max_tokens", attn::kMaxSentenceTokens},
           {"max_bytes", attn::kMaxSentenceBytes},
           {"unsupported", unsupported_characters(text)}};
    auto tokens = attn::tokenize(text);
    if (!tokens.ok()) {
        j["ok"] = false;
        j["error"] = json{{"code", attn::error_code_name(tokens.error().code)},
                          {"message", tokens.error().message}};
    } else {
        json list = json::array();
        int words = 0;
        for (const attn::Token& t : tokens.value()) {
            list.push_back(t.text);
            words += is_word(t.text) ? 1 : 0;
        }
        j["ok"] = true;
        j["tokens"] = list;
        j["focus"] = default_focus(text);
        j["words"] = words;
    }
    return j.dump();
}

std::optional<Edits> option_edit(const std::string& name, double value) {
    Edits e;
    const int i = std::isfinite(value) ? static_cast<int>(std::lround(value)) : -1;
    if (name == "temperature")
        e.temperature = value;
    else if (name == "scale")
        e.scale = value != 0;
    else if (name == "causal")
        e.causal = value != 0;
    else if (name == "d")
        e.d = i;
    else if (name == "heads")
        e.heads = i;
    else if (name == "shown_head")
        e.shown_head = i;
    else if (name == "variant")
        e.variant = i;
    else if (name == "mask")
        e.toggle_mask = i;
    else if (name == "pinned")
        e.pinned = i;
    else if (name == "reset")
        e.reset = true;
    else if (name == "model_layer")
        e.model_layer = i;
    else if (name == "model_head")
        e.model_head = i;
    else if (name == "model_ablate")
        e.model_ablate = value != 0;
    else if (name == "model_example")
        e.model_example = i;
    else
        return std::nullopt;
    return e;
}

std::string frame_stats_json(int tokens, std::vector<double> ui_ms, std::vector<double> whole_ms) {
    if (ui_ms.empty() || whole_ms.empty()) return error_json("bench", "no frames");
    double sum = 0;
    for (double v : ui_ms) sum += v;
    const double mean = sum / static_cast<double>(ui_ms.size());
    std::sort(ui_ms.begin(), ui_ms.end());
    std::sort(whole_ms.begin(), whole_ms.end());
    auto at = [](const std::vector<double>& v, double q) {
        return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
    };
    return attn::Json{{"ok", true},
                      {"tokens", tokens},
                      {"frames", ui_ms.size()},
                      {"mean_ms", mean},
                      {"p50_ms", at(ui_ms, 0.5)},
                      {"p95_ms", at(ui_ms, 0.95)},
                      {"max_ms", ui_ms.back()},
                      {"whole_p50_ms", at(whole_ms, 0.5)},
                      {"whole_p95_ms", at(whole_ms, 0.95)}}
        .dump();
}

std::optional<Position> highlighted(const AppState& s) { return s.hover ? s.hover : s.pinned; }

bool is_vectors_kind(const AppState& s) { return s.scenario.kind == attn::ScenarioKind::Vectors; }

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
