// ui_text.cpp - parse assets/app/ui.json (format: the fields of UiText, same names).
#include "ui_text.h"

#include "json_value.h"

namespace app {
namespace {

using json = attn::Json;

attn::Error bad(const std::string& what) {
    return attn::Error{attn::ErrorCode::BadArgument, "The canvas text file (ui.json) " + what};
}

// Reads a required string field; returns false (and sets *err) if it is missing.
bool text(const json& j, const char* key, std::string* out, std::string* err) {
    auto it = j.find(key);
    if (!it || !it->is_string()) {
        *err = std::string("has no text for \"") + key + "\".";
        return false;
    }
    *out = it->get<std::string>();
    return true;
}

}  // namespace

attn::Result<UiText> parse_ui_text(std::string_view json_text) {
    const json j = json::parse(json_text).value_or(json());
    if (!j.is_object()) return bad("is not valid JSON.");
    UiText t;
    std::string err;
    bool ok = text(j, "title", &t.title, &err) && text(j, "subtitle", &t.subtitle, &err) &&
              text(j, "scores_note", &t.scores_note, &err) &&
              text(j, "weights_note", &t.weights_note, &err) &&
              text(j, "output_note", &t.output_note, &err) &&
              text(j, "masked_note", &t.masked_note, &err) &&
              text(j, "all_masked_note", &t.all_masked_note, &err) &&
              text(j, "vectors_note", &t.vectors_note, &err) &&
              text(j, "sentence_note", &t.sentence_note, &err) &&
              text(j, "heatmap_note", &t.heatmap_note, &err) &&
              text(j, "illustrative_note", &t.illustrative_note, &err) &&
              text(j, "keyboard_hint", &t.keyboard_hint, &err) &&
              text(j, "variant_base", &t.variant_base, &err) &&
              text(j, "residual_note", &t.residual_note, &err) &&
              text(j, "heads_note", &t.heads_note, &err) &&
              text(j, "touch_hint", &t.touch_hint, &err) &&
              text(j, "diagram_note", &t.diagram_note, &err) &&
              text(j, "model_note", &t.model_note, &err) &&
              text(j, "printed_scenario", &t.printed_scenario, &err);
    if (!ok) return bad(err);
    const json& printed = j.value("printed_weights", json::array());
    if (!printed.is_array()) return bad("printed_weights must be a list of numbers.");
    for (const json& v : printed) {
        if (!v.is_number()) return bad("printed_weights must be a list of numbers.");
        t.printed_weights.push_back(v.get<double>());
    }

    const json& steps = j.value("steps", json::array());
    if (!steps.is_array() || steps.size() != 4) return bad("must list exactly 4 steps.");
    for (const json& s : steps) {
        StepText st;
        if (!text(s, "title", &st.title, &err) || !text(s, "summary", &st.summary, &err) ||
            !text(s, "detail", &st.detail, &err))
            return bad("step " + std::to_string(t.steps.size() + 1) + " " + err);
        t.steps.push_back(st);
    }
    const json& myths = j.value("misconceptions", json::array());
    if (!myths.is_array() || myths.size() != 3) return bad("must list exactly 3 misconceptions.");
    for (const json& m : myths) {
        Misconception mc;
        if (!text(m, "myth", &mc.myth, &err) || !text(m, "correction", &mc.correction, &err) ||
            !text(m, "demo", &mc.demo, &err))
            return bad("misconception " + err);
        t.misconceptions.push_back(mc);
    }
    auto focus = j.find("variant_focus");
    if (!focus || !focus->is_number_integer()) return bad("has no \"variant_focus\".");
    t.variant_focus = focus->get<int>();
    const json& swaps = j.value("swaps", json::array());
    if (!swaps.is_array() || swaps.empty()) return bad("must list at least one word swap.");
    for (const json& s : swaps) {
        WordSwap w;
        if (!text(s, "sentence", &w.sentence, &err) || !text(s, "from", &w.from, &err) ||
            !text(s, "to", &w.to, &err))
            return bad("swap " + err);
        t.swaps.push_back(w);
    }
    return t;
}

}  // namespace app
