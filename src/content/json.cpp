// json.cpp - the focus-step JSON and the error JSON of docs/contract.md.
// Numbers are written with full precision (round-trip exact). -infinity is never written:
// a masked candidate's "logit" is null. Text that is not valid UTF-8 is replaced, never thrown.
#include <string>

#include "content_json.h"

namespace attn {

using json = attn::Json;

json focus_json(const Scenario& s, const FocusInput* in, const FocusResult& r,
                const IllustrativeModel* model) {
    json j;
    j["ok"] = true;
    j["scenario"] = s.id;
    j["title"] = s.title;
    j["kind"] = scenario_kind_name(s.kind);
    j["illustrative"] = s.illustrative;
    j["tokens"] = s.tokens;
    j["focus"] = s.focus;
    j["focus_token"] = focus_token(s);
    j["d"] = r.d;
    j["scaled"] = s.options.scale;
    j["scale"] = r.scale;
    j["temperature"] = r.temperature;
    j["causal"] = s.options.causal;
    j["status"] = row_status_name(r.status);
    if (in) j["query"] = in->query;
    json candidates = json::array();
    for (CandidateIndex c = 0; c < r.weights.size(); c++) {
        json cj;
        const TokenPosition position = candidate_position(s, c);
        cj["position"] = position;
        cj["token"] = token_at(s, position);
        if (in) cj["key"] = in->keys[c];
        if (in) cj["value"] = in->values[c];
        cj["products"] = r.products[c];
        cj["dot_product"] = r.dot_products[c];
        cj["score"] = r.scores[c];
        cj["masked"] = is_masked(r.mask[c]);
        cj["mask_reason"] = mask_reason_name(r.mask[c]);
        cj["logit"] = is_masked(r.mask[c]) ? json(nullptr) : json(r.logits[c]);
        cj["weight"] = r.weights[c];
        cj["contribution"] = r.contributions[c];
        candidates.push_back(std::move(cj));
    }
    j["candidates"] = std::move(candidates);
    j["output"] = r.output;
    j["weight_sum"] = r.weight_sum;
    if (in && s.kind == ScenarioKind::Sentence) {
        j["sentence"] = s.sentence;
        j["d_model"] = s.d_model;
        j["heads"] = s.heads;
        j["max_heads"] = s.max_heads;
        if (model) j["projections_fingerprint"] = fingerprint_hex(model->projections_print);
    }
    return j;
}

json error_json_value(const Error& e) {
    return {{"ok", false}, {"error", {{"code", error_code_name(e.code)}, {"message", e.message}}}};
}

std::string to_json(const Scenario& s, const FocusResult& r) {
    return focus_json(s, nullptr, r, nullptr).dump();
}

std::string to_json(const Scenario& s, const FocusInput& in, const FocusResult& r,
                    const IllustrativeModel* model) {
    return focus_json(s, &in, r, model).dump();
}

std::string error_json(const Error& e) { return error_json_value(e).dump(); }

}  // namespace attn
