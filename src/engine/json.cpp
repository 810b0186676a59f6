// json.cpp - the focus-step JSON of /work/notes/contracts.md, and the error JSON.
// Numbers are written with full precision (round-trip exact). -infinity is never written:
// a masked candidate's "logit" is null. Text that is not valid UTF-8 is replaced, never thrown.
#include <cinttypes>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "attention.h"

namespace attn {

using json = nlohmann::json;

namespace {

std::string dump(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

json focus_json(const Scenario& s, const FocusInput* in, const FocusResult& r) {
    json j;
    j["ok"] = true;
    j["scenario"] = s.id;
    j["title"] = s.title;
    j["kind"] = s.kind;
    j["illustrative"] = s.illustrative;
    j["tokens"] = s.tokens;
    j["focus"] = s.focus;
    j["focus_token"] = s.focus >= 0 && s.focus < static_cast<int>(s.tokens.size())
                           ? s.tokens[static_cast<std::size_t>(s.focus)]
                           : std::string();
    j["d"] = r.d;
    j["scaled"] = s.options.scale;
    j["scale"] = r.scale;
    j["temperature"] = r.temperature;
    j["causal"] = s.options.causal;
    j["status"] = row_status_name(r.status);
    if (in) j["query"] = in->query;
    json candidates = json::array();
    for (std::size_t c = 0; c < r.weights.size(); c++) {
        json cj;
        const int position = c < s.candidates.size() ? s.candidates[c] : static_cast<int>(c);
        cj["position"] = position;
        cj["token"] = position >= 0 && position < static_cast<int>(s.tokens.size())
                          ? s.tokens[static_cast<std::size_t>(position)]
                          : std::string();
        if (in) cj["key"] = in->keys[c];
        if (in) cj["value"] = in->values[c];
        cj["products"] = r.products[c];
        cj["raw"] = r.raw_scores[c];
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
    if (in && s.kind == "sentence") {
        j["sentence"] = s.sentence;
        j["d_model"] = s.d_model;
        j["heads"] = s.heads;
        j["max_heads"] = s.max_heads;
        auto p = illustrative_projections(s.d_model, s.heads, s.seed);
        if (p.ok()) {
            char hex[24];
            std::snprintf(hex, sizeof hex, "%016" PRIx64, fingerprint(p.value()));
            j["projections_fingerprint"] = hex;
        }
    }
    return j;
}

}  // namespace

std::string to_json(const Scenario& s, const FocusResult& r) {
    return dump(focus_json(s, nullptr, r));
}

std::string to_json(const Scenario& s, const FocusInput& in, const FocusResult& r) {
    return dump(focus_json(s, &in, r));
}

std::string error_json(const Error& e) {
    json j;
    j["ok"] = false;
    j["error"] = {{"code", error_code_name(e.code)}, {"message", e.message}};
    return dump(j);
}

}  // namespace attn
