// attention.h - the attention engine's public interface, read as a table of contents.
//
// One attention step for one focus token, in the order the explainer shows it:
//   1. choose a focus token           q = the focus token's query vector
//   2. compare with other tokens      p_j = q . k_j            (dot product; its terms kept)
//                                     s_j = p_j / sqrt(d)      (score; scale stored in result)
//   3. turn scores into weights       l_j = s_j / T, -inf where masked
//                                     w_j = exp(l_j - max_l) / sum_k exp(l_k - max_l)
//   4. mix the values                 c_j = w_j v_j,  out = sum_j c_j
// Then the whole sequence: Q = X Wq, K = X Wk, V = X Wv per head, softmax(Q K^T / sqrt(d_k)) V,
// heads concatenated and projected by Wo.
//
// Words (the glossary's): dot product = q . k; score = the dot product times the scale, before
// normalisation; weight = after softmax. A token *position* (TokenPosition) counts tokens of the
// sequence from 0; a *candidate index* (CandidateIndex, j) counts the compared candidates.
//
// Rules: plain structs of numbers, no hidden state, no exceptions, never a NaN in a result.
// Bad input gives an Error with a message a reader can understand. Only maths: no JSON, no files,
// no text processing (that is the content library, src/content/content.h).
// Implementation: step.cpp, softmax.cpp, sequence.cpp (all in src/engine/).
// The small trained transformer: transformer.h (its tokenizer and weights: src/model/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn {

// ---------------------------------------------------------------------------------------------
// Numbers and limits
// ---------------------------------------------------------------------------------------------
using Vector = std::vector<double>;
using TokenPosition = int;           // a token's place in the sequence, counted from 0
using CandidateIndex = std::size_t;  // j: a candidate's place in keys, values and every result

struct Matrix {  // row-major: element (r, c) is data[r * cols + c]
    int rows = 0, cols = 0;
    std::vector<double> data;
    double at(int r, int c) const { return data[static_cast<std::size_t>(r) * cols + c]; }
    double& at(int r, int c) { return data[static_cast<std::size_t>(r) * cols + c]; }
};

constexpr int kMaxDimension = 512;        // d (vector length) must be 1..512
constexpr int kMaxCandidates = 512;       // at most this many candidates in one focus step
constexpr int kMaxHeads = 8;              // h must be 1..8 and divide d_model
constexpr int kMaxSequenceTokens = 1024;  // at most this many tokens in self_attention

// ---------------------------------------------------------------------------------------------
// Errors are values (one list for the engine and its content library, src/content/content.h)
// ---------------------------------------------------------------------------------------------
enum class ErrorCode {
    DimensionMismatch,  // vectors of different lengths, or a per-candidate list of the wrong length
    EmptyCandidates,    // no candidate to compare with
    NonFinite,          // a NaN or infinite component
    BadTemperature,     // T <= 0 or not finite
    BadDimension,       // d outside 1..512
    TooManyTokens,      // more than kMaxCandidates candidates (content: kMaxSentenceTokens)
    TextTooLong,        // content: more than kMaxSentenceBytes bytes
    InvalidUtf8,        // text is not valid UTF-8 (message gives the byte offset)
    InvalidText,        // content: a control character or a bidi override (message names it)
    EmptyText,          // text has no tokens
    BadFocus,           // focus position outside the tokens
    BadHeads,           // h outside 1..8, or d_model not divisible by h
    UnknownScenario,    // no scenario with that id / file
    BadScenario,        // scenario JSON malformed (message names the field)
    BadArgument,        // command-line or API argument malformed
    FileNotReadable,    // a file could not be opened or read
    BadModelFile,       // a weights file is truncated, malformed or fails its checksum
    WrongVersion,       // a weights file of a format version this build does not read
};
const char* error_code_name(ErrorCode code);  // "dimension_mismatch", "empty_candidates", ...

struct Error {
    ErrorCode code = ErrorCode::BadArgument;
    std::string message;  // readable by a non-programmer, e.g. "The query has 3 numbers but ..."
};

// Either a value or an Error. value() on an error returns a default-constructed T (never throws).
template <class T>
class Result {
  public:
    Result(T value) : value_(std::move(value)), ok_(true) {}       // NOLINT: implicit on purpose
    Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
    bool ok() const { return ok_; }
    const T& value() const { return value_; }
    T& value() { return value_; }
    const Error& error() const { return error_; }

  private:
    T value_{};
    Error error_{};
    bool ok_ = false;
};

// ---------------------------------------------------------------------------------------------
// One focus step: inputs and every intermediate
// ---------------------------------------------------------------------------------------------
enum class MaskReason { Allowed, Denied, Causal, Padding };  // why a candidate is (not) masked
enum class RowStatus { Ok, AllMasked };  // AllMasked: every weight 0, output the zero vector
const char* mask_reason_name(MaskReason reason);  // "allowed", "denied", "causal", "padding"
const char* row_status_name(RowStatus status);    // "ok", "all_masked"
inline bool is_masked(MaskReason reason) { return reason != MaskReason::Allowed; }

struct StepOptions {
    bool scale = true;         // divide scores by sqrt(d)
    double temperature = 1.0;  // T > 0: weights = softmax(score / T)
    bool causal = false;       // mask candidates whose position is after the focus position
};

struct FocusInput {                        // one attention step for one focus token
    Vector query;                          // q (length d, 1..512)
    std::vector<Vector> keys, values;      // k_j, v_j per candidate (same length d as q)
    std::vector<TokenPosition> positions;  // per candidate: its position; empty = 0..n-1
    TokenPosition focus_position = 0;      // position of the focus token (used by causal)
    std::vector<bool> denied;              // per-candidate "mask this position" (empty = none)
    std::vector<bool> padding;             // per-candidate padding flags (empty = none)
    StepOptions options;
};

struct FocusResult {                    // every intermediate, for the views
    int d = 0;                          // vector length
    double temperature = 1.0;           // T used
    std::vector<Vector> products;       // products[j][i] = q_i k_ji (the terms of the dot product)
    Vector dot_products;                // p_j = q . k_j
    double scale = 1.0;                 // 1/sqrt(d) if options.scale, else 1
    Vector scores;                      // s_j = p_j * scale
    std::vector<MaskReason> mask;       // per candidate
    Vector logits;                      // scores / T, -inf where masked
    Vector weights;                     // softmax(logits); exactly 0 where masked
    double weight_sum = 0.0;            // sum_j w_j: 1 (to rounding), or 0 when AllMasked
    std::vector<Vector> contributions;  // c_j = w_j v_j
    Vector output;                      // sum_j w_j v_j
    RowStatus status = RowStatus::Ok;
};

// ---------------------------------------------------------------------------------------------
// Step 2: compare (query . key)
// ---------------------------------------------------------------------------------------------
double dot(const Vector& a, const Vector& b);                           // a . b = sum_i a_i b_i
Vector products(const Vector& q, const Vector& k);                      // t_i = q_i k_i
Vector dot_products(const Vector& q, const std::vector<Vector>& keys);  // p_j = q . k_j
double scale_factor(int d, bool scaled);                        // 1/sqrt(d), or 1 if !scaled
Vector scale_scores(const Vector& dot_products, double scale);  // s_j = p_j * scale

// ---------------------------------------------------------------------------------------------
// Step 3: masks, temperature, stable softmax
// ---------------------------------------------------------------------------------------------
std::vector<MaskReason> build_mask(const FocusInput& in);  // denied > padding > causal, per cand.
Vector apply_temperature(const Vector& scores, double temperature);            // l_j = s_j / T
Vector apply_mask(const Vector& logits, const std::vector<MaskReason>& mask);  // masked -> -inf
Vector softmax(const Vector& logits, RowStatus* status);  // exp(l_j - max) / sum; all -inf -> 0s

// ---------------------------------------------------------------------------------------------
// Step 4: mix the values
// ---------------------------------------------------------------------------------------------
std::vector<Vector> contributions(const Vector& weights,
                                  const std::vector<Vector>& values);  // w_j v_j
Vector mix(const Vector& weights, const std::vector<Vector>& values);  // sum_j w_j v_j

// ---------------------------------------------------------------------------------------------
// The whole focus step
// ---------------------------------------------------------------------------------------------
std::optional<Error> check_temperature(double temperature);    // T finite and > 0
std::optional<Error> check_focus_input(const FocusInput& in);  // nullopt if valid, else the error
Result<FocusResult> attend(const FocusInput& in);              // validate, then steps 2-4

// ---------------------------------------------------------------------------------------------
// Whole sequence, multi-head self-attention
// ---------------------------------------------------------------------------------------------
struct HeadProjection {
    Matrix wq, wk, wv;  // each d_model x d_k
};
struct Projections {
    std::vector<HeadProjection> heads;  // h heads
    Matrix wo;                          // (h * d_k) x d_model
};
struct SequenceOptions {
    bool scale = true;          // divide Q K^T by sqrt(d_k)
    double temperature = 1.0;   // T > 0
    bool causal = false;        // row i may not attend to column j > i
    std::vector<bool> padding;  // per position: padded keys are masked (empty = none)
};
struct HeadResult {
    Matrix q, k, v;                 // n x d_k: Q = X Wq, K = X Wk, V = X Wv
    double scale = 1.0;             // 1/sqrt(d_k) or 1
    Matrix scores;                  // n x n: Q K^T * scale (before mask and temperature)
    Matrix weights;                 // n x n: row-wise softmax(mask(scores / T)); masked -> 0
    Matrix output;                  // n x d_k: weights V
    std::vector<RowStatus> status;  // per row
};
struct SequenceResult {
    std::vector<HeadResult> heads;
    Matrix concat;  // n x (h * d_k): head outputs side by side
    Matrix output;  // n x d_model: concat Wo
};

Matrix zeros(int rows, int cols);                 // rows x cols of 0
Vector row(const Matrix& m, int r);               // row r as a vector
Matrix transpose(const Matrix& m);                // (m^T)_ij = m_ji
Matrix matmul(const Matrix& a, const Matrix& b);  // (ab)_ij = sum_k a_ik b_kj (shapes checked
                                                  //   by caller; mismatch -> 0 x 0)
Matrix concat_heads(const std::vector<HeadResult>& heads);  // [O_1 | O_2 | ... | O_h]
std::optional<Error> check_heads(int d_model, int heads);   // d_model 1..512, h 1..8, divides
std::optional<Error> check_projections(const Projections& p, int d_model);  // shapes of W*
Result<SequenceResult> self_attention(const Matrix& x, const Projections& p,
                                      const SequenceOptions& options);  // x: n x d_model

}  // namespace attn
