// model_view.cpp - loading the trained model, its head table and text; one run for the views.
// No SDL / GL / Emscripten. The maths is the engine's: model_forward (with ForwardOptions for the
// ablation, exactly as attention_cli model --ablate), head_focus_input + attend for one row.
#include "model_view.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>

#include "json_value.h"

namespace app {
namespace {

using json = attn::Json;

attn::Error bad_file(const std::string& m) { return attn::Error{attn::ErrorCode::BadModelFile, m}; }

bool is_hex64(const std::string& s) {
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
           });
}

double number_or(const json& j, const char* key, double fallback) {
    const auto it = j.find(key);
    return it && it->is_number() ? it->get<double>() : fallback;
}

// Fills m.heads from the model card's head table; heads it does not name stay "mixed".
std::optional<attn::Error> read_heads(LoadedModel& m, const std::string& heads_json) {
    const attn::ModelConfig& c = m.model.config;
    m.heads.clear();
    for (int l = 0; l < c.layers; ++l)
        for (int h = 0; h < c.heads; ++h) m.heads.push_back(HeadLabel{l, h});
    if (heads_json.empty()) return std::nullopt;
    const json j = json::parse(heads_json).value_or(json());  // not JSON: no list, below
    const json* list =
        j.is_array() ? &j : (j.is_object() && j.contains("heads") ? &j["heads"] : nullptr);
    if (!list || !list->is_array())
        return bad_file("The model's head table is not a list of heads.");
    for (const json& e : *list) {
        if (!e.is_object() || !e.contains("layer") || !e.contains("head") ||
            !e["layer"].is_number_integer() || !e["head"].is_number_integer())
            return bad_file("A row of the model's head table has no layer or head.");
        const int l = e["layer"].get<int>(), h = e["head"].get<int>();
        if (l < 0 || l >= c.layers || h < 0 || h >= c.heads)
            return bad_file("The model's head table names layer " + std::to_string(l) + ", head " +
                            std::to_string(h) + ", which this model does not have.");
        HeadLabel& r = m.heads[static_cast<std::size_t>(l * c.heads + h)];
        r.previous_token = number_or(e, "previous_token", 0);
        r.first_token = number_or(e, "first_token", 0);
        r.self = number_or(e, "self", 0);
        r.induction = number_or(e, "induction", 0);
        r.ablation_loss_delta = number_or(e, "ablation_loss_delta", 0);
        if (e.contains("label") && e["label"].is_string()) r.label = e["label"].get<std::string>();
    }
    return std::nullopt;
}

std::string display_for(const std::string& label) {
    if (label == "previous-token") return "previous token";
    if (label == "first-token") return "first token";
    return label;
}

}  // namespace

double HeadLabel::score() const {
    if (label == "induction") return induction;
    if (label == "previous-token") return previous_token;
    if (label == "first-token") return first_token;
    if (label == "self") return self;
    return std::max({previous_token, first_token, self, induction});
}

std::string HeadLabel::score_name() const {
    if (label != "mixed") return display_for(label);
    const double s = score();
    if (s == induction) return "induction";
    if (s == previous_token) return "previous token";
    if (s == self) return "self";
    return "first token";
}

const HeadLabel& LoadedModel::label(int layer, int head) const {
    const std::size_t at = static_cast<std::size_t>(layer * model.config.heads + head);
    return heads.at(std::min(at, heads.size() - 1));
}

attn::Result<LoadedModel> load_weights(const std::uint8_t* data, std::size_t size,
                                       const std::string& expected_sha256,
                                       const std::string& heads_json) {
    if (!data || size == 0) return bad_file("The model's weights file is empty.");
    if (!is_hex64(expected_sha256))
        return bad_file("The page has no valid checksum for the model's weights file.");
    LoadedModel m;
    m.sha256 = attn::sha256_hex(data, size);
    m.bytes = size;
    if (m.sha256 != expected_sha256)
        return bad_file(
            "The model's weights file does not match its checksum (it may be damaged "
            "or from another build): expected " +
            expected_sha256.substr(0, 12) + "…, got " + m.sha256.substr(0, 12) + "….");
    attn::Result<attn::Model> parsed = attn::parse_model(data, size);
    if (!parsed.ok()) return parsed.error();
    m.model = std::move(parsed.value());
    if (auto e = read_heads(m, heads_json)) return *e;
    return m;
}

const PatternText& ModelText::pattern(const std::string& label) const {
    for (const PatternText& p : patterns)
        if (p.label == label) return p;
    for (const PatternText& p : patterns)
        if (p.label == "mixed") return p;
    return patterns.front();
}

attn::Result<ModelText> parse_model_text(const std::string& json_text) {
    const auto bad = [](const std::string& f) {
        return attn::Error{attn::ErrorCode::BadScenario,
                           "The model view's text (model.json) has no valid \"" + f + "\"."};
    };
    const json j = json::parse(json_text).value_or(json());  // not JSON: not an object
    if (!j.is_object()) return bad("top level");
    ModelText t;
    const std::pair<const char*, std::string*> strings[] = {
        {"title", &t.title},
        {"about", &t.about},
        {"own_text_note", &t.own_text_note},
        {"grid_note", &t.grid_note},
        {"next_note", &t.next_note},
        {"ablate_note", &t.ablate_note},
        {"output_note", &t.output_note},
        {"fingerprint_note", &t.fingerprint_note},
        {"loading", &t.loading},
        {"not_loaded", &t.not_loaded}};
    for (const auto& [key, out] : strings) {
        if (!j.contains(key) || !j[key].is_string()) return bad(key);
        *out = j[key].get<std::string>();
    }
    if (!j.contains("examples") || !j["examples"].is_array() || j["examples"].empty())
        return bad("examples");
    for (const json& e : j["examples"]) {
        ModelExample x;
        for (const auto& [key, out] : {std::pair<const char*, std::string*>{"id", &x.id},
                                       {"title", &x.title},
                                       {"text", &x.text},
                                       {"look_for", &x.look_for}}) {
            if (!e.contains(key) || !e[key].is_string() || e[key].get<std::string>().empty())
                return bad(std::string("examples.") + key);
            *out = e[key].get<std::string>();
        }
        if (e.contains("pattern") && e["pattern"].is_string())
            x.pattern = e["pattern"].get<std::string>();
        if (e.contains("focus") && e["focus"].is_number_integer()) x.focus = e["focus"].get<int>();
        if (e.contains("swap") && e["swap"].is_array() && e["swap"].size() == 2 &&
            e["swap"][0].is_string() && e["swap"][1].is_string()) {
            x.swap_from = e["swap"][0].get<std::string>();
            x.swap_to = e["swap"][1].get<std::string>();
        }
        t.examples.push_back(x);
    }
    if (!j.contains("patterns") || !j["patterns"].is_array()) return bad("patterns");
    for (const json& p : j["patterns"]) {
        if (!p.is_object() || !p.contains("label") || !p.contains("name") ||
            !p.contains("description") || !p["label"].is_string() || !p["name"].is_string() ||
            !p["description"].is_string())
            return bad("patterns");
        t.patterns.push_back(PatternText{p["label"].get<std::string>(),
                                         p["name"].get<std::string>(),
                                         p["description"].get<std::string>()});
    }
    if (t.patterns.empty()) return bad("patterns");
    return t;
}

std::vector<NextToken> top_next(const LoadedModel& m, const attn::Activations<float>& a,
                                int position, int k) {
    const attn::ModelConfig& c = m.model.config;
    const std::vector<float> probs =
        attn::next_token_probs(c, attn::view_params(c, m.model.params.data()), a, position);
    std::vector<std::pair<int, double>> all;
    for (int v = 0; v < c.vocab; v++) all.emplace_back(v, probs[static_cast<std::size_t>(v)]);
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& x, const auto& y) { return x.second > y.second; });
    std::vector<NextToken> out;
    for (int i = 0; i < k && i < static_cast<int>(all.size()); ++i)
        out.push_back(
            NextToken{all[static_cast<std::size_t>(i)].first,
                      attn::token_display(m.model.bpe, all[static_cast<std::size_t>(i)].first),
                      all[static_cast<std::size_t>(i)].second});
    return out;
}

attn::Result<std::vector<std::string>> model_tokens(const LoadedModel& m, const std::string& text) {
    auto ids = attn::tokenize_for_model(m.model.bpe, text, m.model.config.context);
    if (!ids.ok()) return ids.error();
    std::vector<std::string> out;
    for (int id : ids.value()) out.push_back(attn::token_display(m.model.bpe, id));
    return out;
}

namespace {

// One forward pass over ids (no targets), without the predictions at every position: the view
// shows one row's next tokens (top_next(), from next_token_probs()).
attn::Activations<float> forward(const LoadedModel& m, const std::vector<int>& ids,
                                 attn::ForwardOptions o = {}) {
    o.predictions = false;
    attn::Activations<float> a;
    const attn::ModelConfig& c = m.model.config;
    attn::model_forward<float>(c, attn::view_params(c, m.model.params.data()), ids.data(), nullptr,
                               static_cast<int>(ids.size()), a, o);
    return a;
}

// The chosen head's focus row through the engine's focus step (the glossary's code path).
attn::Result<attn::FocusResult> focus_row(const LoadedModel& m, const attn::Activations<float>& a,
                                          int layer, int head, int focus, attn::FocusInput* in) {
    const attn::ModelConfig& c = m.model.config;
    *in = attn::head_focus_input(a.layers[static_cast<std::size_t>(layer)], a.n, c.d_model, c.heads,
                                 head, focus);
    // Candidates 0..focus: the keys after the focus are causally masked, so dropping them changes
    // no number (their weights are exactly 0 and add nothing to the sums).
    in->keys.resize(static_cast<std::size_t>(focus) + 1);
    in->values.resize(static_cast<std::size_t>(focus) + 1);
    return attn::attend(*in);
}

// The example text with one word changed (first whole-word match), or "" if it does not occur.
std::string swapped(const std::string& text, const std::string& from, const std::string& to) {
    if (from.empty()) return "";
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1)) {
        const bool left = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
        const std::size_t end = at + from.size();
        const bool right =
            end >= text.size() || !std::isalnum(static_cast<unsigned char>(text[end]));
        if (left && right) return text.substr(0, at) + to + text.substr(end);
    }
    return "";
}

}  // namespace

attn::Result<ModelRun> run_model(const LoadedModel& m, const ModelChoice& c,
                                 const ModelExample* example, const ModelRun* reuse) {
    const attn::ModelConfig& cfg = m.model.config;
    if (c.layer < 0 || c.layer >= cfg.layers || c.head < 0 || c.head >= cfg.heads)
        return attn::Error{attn::ErrorCode::BadArgument,
                           "The model has layers 1 to " + std::to_string(cfg.layers) +
                               " and heads 1 to " + std::to_string(cfg.heads) + "."};
    auto ids = attn::tokenize_for_model(m.model.bpe, c.text, cfg.context);
    if (!ids.ok()) return ids.error();
    ModelRun r;
    r.ids = ids.value();
    const int n = static_cast<int>(r.ids.size());
    if (c.focus < 0 || c.focus >= n)
        return attn::Error{attn::ErrorCode::BadFocus,
                           "The focus position " + std::to_string(c.focus) +
                               " is outside the text: its tokens are numbered 0 to " +
                               std::to_string(n - 1) + "."};
    const bool same = reuse && reuse->ids == r.ids;
    for (int id : r.ids) r.tokens.push_back(attn::token_display(m.model.bpe, id));
    r.acts = same ? reuse->acts : forward(m, r.ids);
    if (same) {
        r.maps = reuse->maps;
    } else {  // a_ij = weights[l][h, i, j] (j <= i), as doubles for the views' textures
        for (int l = 0; l < cfg.layers; ++l)
            for (int h = 0; h < cfg.heads; ++h) {
                attn::Matrix w{n, n, std::vector<double>(static_cast<std::size_t>(n) * n, 0.0)};
                const auto& lw = r.acts.layers[static_cast<std::size_t>(l)].weights;
                for (int i = 0; i < n; ++i)
                    for (int j = 0; j <= i; ++j) w.at(i, j) = lw[attn::head_index(n, h, i, j)];
                r.maps.push_back(std::move(w));
            }
    }
    auto row = focus_row(m, r.acts, c.layer, c.head, c.focus, &r.focus_input);
    if (!row.ok()) return row.error();
    r.focus = row.value();
    const int D = cfg.d_model / cfg.heads;
    const auto& heads_out = r.acts.layers[static_cast<std::size_t>(c.layer)].heads_out;
    const auto at = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(c.focus) *
                                                    static_cast<std::size_t>(cfg.d_model) +
                                                static_cast<std::size_t>(c.head * D));
    r.head_output.assign(heads_out.begin() + at, heads_out.begin() + at + D);
    r.next = top_next(m, r.acts, c.focus);
    if (c.ablate) {  // the engine's ablation: the chosen head's output zeroed (ForwardOptions)
        if (same && reuse->ablated_layer == c.layer && reuse->ablated_head == c.head) {
            r.ablated_acts = reuse->ablated_acts;
        } else {
            attn::ForwardOptions off;
            off.ablate_layer = c.layer;
            off.ablate_head = c.head;
            r.ablated_acts = forward(m, r.ids, off);
        }
        r.ablated_layer = c.layer;
        r.ablated_head = c.head;
        r.next_ablated = top_next(m, r.ablated_acts, c.focus);
    }
    // Misconception 1: the same weights on the text with one word changed.
    if (example && c.example >= 0) {
        r.variant_text = swapped(c.text, example->swap_from, example->swap_to);
        auto vids = attn::tokenize_for_model(m.model.bpe, r.variant_text, cfg.context);
        if (!r.variant_text.empty() && vids.ok()) {
            const bool same_variant =
                same && reuse->variant_ok && reuse->variant_text == r.variant_text;
            r.variant_acts = same_variant ? reuse->variant_acts : forward(m, vids.value());
            // The same position (or the last, if the change made the text shorter).
            const int vf = std::min(c.focus, static_cast<int>(vids.value().size()) - 1);
            attn::FocusInput vin;
            auto vrow = focus_row(m, r.variant_acts, c.layer, c.head, vf, &vin);
            if (vrow.ok()) {
                r.variant_ok = true;
                r.variant_focus = vrow.value();
                r.swap_from = example->swap_from;
                r.swap_to = example->swap_to;
                for (int id : vids.value())
                    r.variant_tokens.push_back(attn::token_display(m.model.bpe, id));
            }
        }
    }
    return r;
}

std::string head_sentence(const LoadedModel& m, const ModelText& t, int layer, int head) {
    const HeadLabel& h = m.label(layer, head);
    char score[32];
    std::snprintf(score, sizeof score, "%.2f", h.score());
    return "Layer " + std::to_string(layer + 1) + ", head " + std::to_string(head + 1) + " " +
           t.pattern(h.label).description + "; " + h.score_name() + " score " + score + ".";
}

}  // namespace app
