// step.cpp - one attention step for one focus token: compare, scale, mask, weigh, mix.
// Softmax itself is in softmax.cpp. Every function is one line of maths.
#include <cmath>
#include <limits>
#include <string>

#include "attention.h"

namespace attn {

const char* error_code_name(ErrorCode code) {
    switch (code) {
        case ErrorCode::DimensionMismatch:
            return "dimension_mismatch";
        case ErrorCode::EmptyCandidates:
            return "empty_candidates";
        case ErrorCode::NonFinite:
            return "non_finite";
        case ErrorCode::BadTemperature:
            return "bad_temperature";
        case ErrorCode::BadDimension:
            return "bad_dimension";
        case ErrorCode::TooManyTokens:
            return "too_many_tokens";
        case ErrorCode::TextTooLong:
            return "text_too_long";
        case ErrorCode::InvalidUtf8:
            return "invalid_utf8";
        case ErrorCode::InvalidText:
            return "invalid_text";
        case ErrorCode::EmptyText:
            return "empty_text";
        case ErrorCode::BadFocus:
            return "bad_focus";
        case ErrorCode::BadHeads:
            return "bad_heads";
        case ErrorCode::UnknownScenario:
            return "unknown_scenario";
        case ErrorCode::BadScenario:
            return "bad_scenario";
        case ErrorCode::BadArgument:
            return "bad_argument";
        case ErrorCode::FileNotReadable:
            return "file_not_readable";
        case ErrorCode::BadModelFile:
            return "bad_model_file";
        case ErrorCode::WrongVersion:
            return "wrong_version";
    }
    return "unknown_error";
}

const char* mask_reason_name(MaskReason reason) {
    switch (reason) {
        case MaskReason::Allowed:
            return "allowed";
        case MaskReason::Denied:
            return "denied";
        case MaskReason::Causal:
            return "causal";
        case MaskReason::Padding:
            return "padding";
    }
    return "allowed";
}

const char* row_status_name(RowStatus status) {
    return status == RowStatus::AllMasked ? "all_masked" : "ok";
}

// a . b = sum_i a_i b_i   (summed left to right, no fused multiply-add, so results are
// reproducible between the native and the wasm build; callers check the lengths)
double dot(const Vector& a, const Vector& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); i++) sum += a[i] * b[i];
    return sum;
}

// t_i = q_i k_i   (the terms a view shows being added up into the dot product)
Vector products(const Vector& q, const Vector& k) {
    Vector p(q.size() < k.size() ? q.size() : k.size());
    for (std::size_t i = 0; i < p.size(); i++) p[i] = q[i] * k[i];
    return p;
}

// p_j = q . k_j
Vector dot_products(const Vector& q, const std::vector<Vector>& keys) {
    Vector p(keys.size());
    for (std::size_t j = 0; j < keys.size(); j++) p[j] = dot(q, keys[j]);
    return p;
}

// scale = 1/sqrt(d) when scaled (keeps the spread of q . k near 1 as d grows), else 1
double scale_factor(int d, bool scaled) {
    if (!scaled || d <= 0) return 1.0;
    return 1.0 / std::sqrt(static_cast<double>(d));
}

// s_j = p_j * scale
Vector scale_scores(const Vector& dot_products, double scale) {
    Vector s(dot_products.size());
    for (std::size_t j = 0; j < dot_products.size(); j++) s[j] = dot_products[j] * scale;
    return s;
}

// mask_j = denied if the reader masked j, else padding if j is padding, else causal if
// position_j > focus (and causal is on), else allowed. The focus may attend to itself.
std::vector<MaskReason> build_mask(const FocusInput& in) {
    std::vector<MaskReason> mask(in.keys.size(), MaskReason::Allowed);
    for (std::size_t j = 0; j < mask.size(); j++) {
        const TokenPosition position =
            j < in.positions.size() ? in.positions[j] : static_cast<TokenPosition>(j);
        if (j < in.denied.size() && in.denied[j])
            mask[j] = MaskReason::Denied;
        else if (j < in.padding.size() && in.padding[j])
            mask[j] = MaskReason::Padding;
        else if (in.options.causal && position > in.focus_position)
            mask[j] = MaskReason::Causal;
    }
    return mask;
}

// l_j = s_j / T
Vector apply_temperature(const Vector& scores, double temperature) {
    Vector l(scores.size());
    for (std::size_t j = 0; j < scores.size(); j++) l[j] = scores[j] / temperature;
    return l;
}

// l_j = -infinity where masked (so exp gives exactly 0), unchanged elsewhere
Vector apply_mask(const Vector& logits, const std::vector<MaskReason>& mask) {
    Vector l = logits;
    for (std::size_t j = 0; j < l.size() && j < mask.size(); j++)
        if (is_masked(mask[j])) l[j] = -std::numeric_limits<double>::infinity();
    return l;
}

// c_j = w_j v_j
std::vector<Vector> contributions(const Vector& weights, const std::vector<Vector>& values) {
    std::vector<Vector> c(values.size());
    for (std::size_t j = 0; j < values.size(); j++) {
        c[j].resize(values[j].size());
        double w = j < weights.size() ? weights[j] : 0.0;
        for (std::size_t i = 0; i < values[j].size(); i++) c[j][i] = w * values[j][i];
    }
    return c;
}

// out = sum_j w_j v_j   (a masked candidate has w_j = 0 and adds exactly nothing)
Vector mix(const Vector& weights, const std::vector<Vector>& values) {
    Vector out(values.empty() ? 0 : values[0].size(), 0.0);
    for (std::size_t j = 0; j < values.size() && j < weights.size(); j++)
        for (std::size_t i = 0; i < out.size() && i < values[j].size(); i++)
            out[i] += weights[j] * values[j][i];
    return out;
}

namespace {

Error error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

bool all_finite(const Vector& v) {
    for (double x : v)
        if (!std::isfinite(x)) return false;
    return true;
}

std::string count(std::size_t n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// Checks one list of per-candidate vectors: lengths equal to `d` and every number finite.
std::optional<Error> check_vectors(const std::vector<Vector>& vs, std::size_t d, const char* name) {
    for (std::size_t j = 0; j < vs.size(); j++) {
        if (vs[j].size() != d)
            return error(ErrorCode::DimensionMismatch,
                         std::string(name) + " " + std::to_string(j + 1) + " has " +
                             count(vs[j].size(), "number") + " but it must have " +
                             std::to_string(d) + " like the others.");
        for (std::size_t i = 0; i < d; i++)
            if (!std::isfinite(vs[j][i]))
                return error(ErrorCode::NonFinite,
                             std::string(name) + " " + std::to_string(j + 1) + ", number " +
                                 std::to_string(i + 1) +
                                 ", is not a finite number (NaN or infinity).");
    }
    return std::nullopt;
}

}  // namespace

// T > 0 and finite (T = 0 would divide by zero; a NaN T would give NaN weights)
std::optional<Error> check_temperature(double temperature) {
    if (!std::isfinite(temperature) || !(temperature > 0.0))
        return error(ErrorCode::BadTemperature,
                     "The temperature must be a finite number greater than 0.");
    return std::nullopt;
}

// Valid input: 1 <= d <= 512; 1..kMaxCandidates candidates; one value per key; equal lengths;
// finite numbers; T > 0 and finite; per-candidate lists empty or one entry per candidate.
std::optional<Error> check_focus_input(const FocusInput& in) {
    const std::size_t d = in.query.size();
    if (d < 1 || d > static_cast<std::size_t>(kMaxDimension))
        return error(ErrorCode::BadDimension, "The query has " + count(d, "number") +
                                                  "; it needs between 1 and " +
                                                  std::to_string(kMaxDimension) + ".");
    if (in.keys.empty())
        return error(ErrorCode::EmptyCandidates,
                     "There are no candidate tokens to compare the focus token with.");
    if (in.keys.size() > static_cast<std::size_t>(kMaxCandidates))
        return error(ErrorCode::TooManyTokens, "There are " + count(in.keys.size(), "candidate") +
                                                   "; at most " + std::to_string(kMaxCandidates) +
                                                   " are allowed.");
    if (in.values.size() != in.keys.size())
        return error(ErrorCode::DimensionMismatch, "There are " + count(in.keys.size(), "key") +
                                                       " but " + count(in.values.size(), "value") +
                                                       "; each candidate needs one of each.");
    for (std::size_t i = 0; i < d; i++)
        if (!std::isfinite(in.query[i]))
            return error(ErrorCode::NonFinite, "Query number " + std::to_string(i + 1) +
                                                   " is not a finite number (NaN or infinity).");
    if (auto e = check_vectors(in.keys, d, "Key")) return e;
    const std::size_t dv = in.values[0].size();
    if (dv < 1 || dv > static_cast<std::size_t>(kMaxDimension))
        return error(ErrorCode::BadDimension, "Value 1 has " + count(dv, "number") +
                                                  "; values need between 1 and " +
                                                  std::to_string(kMaxDimension) + ".");
    if (auto e = check_vectors(in.values, dv, "Value")) return e;
    if (auto e = check_temperature(in.options.temperature)) return e;
    const std::size_t n = in.keys.size();
    if (!in.positions.empty() && in.positions.size() != n)
        return error(ErrorCode::DimensionMismatch, "There are " + count(n, "candidate") + " but " +
                                                       count(in.positions.size(), "position") +
                                                       ".");
    for (TokenPosition p : in.positions)
        if (p < 0)
            return error(ErrorCode::BadArgument,
                         "A candidate position is negative (" + std::to_string(p) + ").");
    if (in.focus_position < 0)
        return error(ErrorCode::BadFocus, "The focus position must not be negative.");
    if (!in.denied.empty() && in.denied.size() != n)
        return error(ErrorCode::DimensionMismatch,
                     "The mask has " + count(in.denied.size(), "entry") + " but there are " +
                         count(n, "candidate") + ".");
    if (!in.padding.empty() && in.padding.size() != n)
        return error(ErrorCode::DimensionMismatch,
                     "The padding list has " + count(in.padding.size(), "entry") +
                         " but there are " + count(n, "candidate") + ".");
    return std::nullopt;
}

// attend: validate, then p = q.K, s = p * scale, l = mask(s / T), w = softmax(l),
// c_j = w_j v_j, out = sum_j c_j. Numbers too large to represent on the way give NonFinite.
Result<FocusResult> attend(const FocusInput& in) {
    if (auto e = check_focus_input(in)) return *e;
    FocusResult r;
    r.d = static_cast<int>(in.query.size());
    r.temperature = in.options.temperature;
    r.products.resize(in.keys.size());
    for (std::size_t j = 0; j < in.keys.size(); j++) r.products[j] = products(in.query, in.keys[j]);
    r.dot_products = dot_products(in.query, in.keys);
    if (!all_finite(r.dot_products))
        return error(ErrorCode::NonFinite,
                     "A query-key dot product is too large to represent; use smaller numbers.");
    r.scale = scale_factor(r.d, in.options.scale);
    r.scores = scale_scores(r.dot_products, r.scale);
    r.mask = build_mask(in);
    Vector unmasked = apply_temperature(r.scores, r.temperature);
    for (std::size_t j = 0; j < unmasked.size(); j++)
        if (!is_masked(r.mask[j]) && !std::isfinite(unmasked[j]))
            return error(ErrorCode::BadTemperature,
                         "Dividing the scores by this temperature gives numbers too large to "
                         "represent; use a larger temperature.");
    r.logits = apply_mask(unmasked, r.mask);
    r.weights = softmax(r.logits, &r.status);
    r.weight_sum = 0.0;
    for (double w : r.weights) r.weight_sum += w;
    r.contributions = contributions(r.weights, in.values);
    r.output = mix(r.weights, in.values);
    if (!all_finite(r.output))
        return error(ErrorCode::NonFinite,
                     "The mixed output is too large to represent; use smaller value vectors.");
    for (const Vector& c : r.contributions)
        if (!all_finite(c))
            return error(ErrorCode::NonFinite,
                         "A contribution is too large to represent; use smaller value vectors.");
    return r;
}

}  // namespace attn
