// model.h - the trained model around the engine's transformer, read as a table of contents:
// its tokenizer, its corpus, its weights file, its baselines and the analysis of its heads.
// Formats are written down in docs/model.md. Errors are values (attn::Result / attn::Error).
// Implementation (src/model/): bpe.cpp, corpus.cpp, sha256.cpp, weights.cpp, baselines.cpp,
// analysis.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attention.h"
#include "content.h"
#include "transformer.h"

namespace attn {

// ---------------------------------------------------------------------------------------------
// Byte-level BPE tokenizer (bpe.cpp)
// ---------------------------------------------------------------------------------------------
// Ids 0..255 are the bytes; id 256 + k is merge k, the concatenation of its pair. Any byte
// string encodes (no unknown token). Text is first split into chunks that merges never cross:
// an optional leading space + a run of letters (ASCII letters and every byte >= 0x80), or of
// digits, or one other character; other whitespace stands alone.
struct Bpe {
    std::vector<std::pair<int, int>> merges;       // merge k joins (a, b) into id 256 + k
    std::vector<std::string> token_bytes;          // bytes of every id (derived from merges)
    std::unordered_map<std::uint64_t, int> ranks;  // (a << 32 | b) -> k (derived from merges)
    int vocab() const { return static_cast<int>(token_bytes.size()); }
};
constexpr int kMaxBpeVocab = 1024;
constexpr int kByteTokens = 256;
std::vector<std::string_view> bpe_chunks(std::string_view text);  // the pre-split, in order
// Learns vocab - 256 merges from text: each time the most frequent adjacent pair inside a chunk
// (ties: the smallest (a, b)); stops early when no pair occurs twice. vocab 256..1024.
// Deterministic.
Bpe bpe_train(std::string_view text, int vocab);
// Checks every merge names ids made before it; fills token_bytes and ranks
Result<Bpe> bpe_from_merges(const std::vector<std::pair<int, int>>& merges);
std::vector<int> bpe_encode_chunk(const Bpe& bpe, std::string_view chunk);  // lowest rank first
std::vector<int> bpe_encode(const Bpe& bpe, std::string_view text);         // every chunk
std::vector<int> bpe_encode_corpus(const Bpe& bpe, std::string_view text);  // same, each distinct
                                                                            // chunk encoded once
std::string bpe_decode(const Bpe& bpe, const std::vector<int>& ids);        // bytes joined
// Readable form of one token: a space shows as "␣", a newline as "↵", a tab as "⇥", a byte
// that is not part of complete printable UTF-8 inside the token as <0xE2>.
std::string token_display(const Bpe& bpe, int id);
// The model's input check: text non-empty, <= kMaxSentenceBytes, valid UTF-8, at most
// max_tokens tokens. EmptyText / TextTooLong / InvalidUtf8 / TooManyTokens.
Result<std::vector<int>> tokenize_for_model(const Bpe& bpe, std::string_view text, int max_tokens);
// The ids whose bytes are all printable ASCII (0x20..0x7E): every token the English corpus
// actually uses. Random sequences (training repeats and triplets, the induction test) draw from
// these: the other ids (control and lone non-ASCII bytes) never occur, so their embeddings carry
// no identity to copy.
std::vector<int> text_tokens(const Bpe& bpe);

// ---------------------------------------------------------------------------------------------
// Corpus: WordNet 3.0 glosses and examples (corpus.cpp)
// ---------------------------------------------------------------------------------------------
struct CorpusFile {
    const char* name;    // file name inside the package's data folder
    const char* sha256;  // lower-case hex of the file this model was trained on
};
constexpr const char* kCorpusPackage = "wordnet-base";
constexpr const char* kCorpusPackageVersion = "1:3.0-37";  // dpkg-query ${Version};
constexpr const char* kCorpusDir = "/usr/share/wordnet";   // where the Debian package puts them
const std::vector<CorpusFile>& corpus_files();             // data.noun, data.verb, data.adj, ...
// One line per synset of a WordNet data file: "<first word>: <gloss>", underscores as spaces,
// e.g. `sedate: cause to be calm or quiet as by administering a sedative to; "The patient must
// be sedated before the operation"`. Licence header lines (starting with two spaces) skipped.
std::vector<std::string> wordnet_gloss_lines(std::string_view data_file);
// The licence notice every WordNet data file starts with (its numbered header lines), as text
std::string wordnet_licence(std::string_view data_file);
struct CorpusSplit {
    std::string train, val;  // lines joined by "\n"
    std::string licence;     // wordnet_licence() of the first file
};
constexpr int kValEvery = 50;  // line k goes to validation when k % 50 == 49 (fixed split, 2%)
CorpusSplit split_corpus(const std::vector<std::string>& lines);
// Reads and checks every corpus file in dir (SHA-256 against corpus_files()), then extracts and
// splits. A checksum mismatch is an error unless allow_mismatch (then *mismatch says which).
Result<CorpusSplit> load_corpus(const std::string& dir, bool allow_mismatch, std::string* mismatch);

// ---------------------------------------------------------------------------------------------
// SHA-256 (sha256.cpp), for the corpus and the weights file
// ---------------------------------------------------------------------------------------------
std::string sha256_hex(const std::uint8_t* data, std::size_t size);  // 64 lower-case hex digits
void sha256(const std::uint8_t* data, std::size_t size, std::uint8_t out[32]);

// ---------------------------------------------------------------------------------------------
// Weights file (weights.cpp; byte layout in docs/model.md)
// ---------------------------------------------------------------------------------------------
enum class WeightsEncoding : std::uint32_t { Float32 = 0, Int8PerRow = 1 };
constexpr std::uint32_t kWeightsVersion = 1;
constexpr std::size_t kMaxWeightsBytes = 16u << 20;  // files larger than 16 MiB are refused
constexpr const char* kShippedWeights = "assets/model/model.bin";  // from the repository root
constexpr const char* kShippedReport = "assets/model/model.json";  // the run's figures
struct Model {
    ModelConfig config;
    Bpe bpe;
    std::vector<float> params;  // parameter_count(config) floats (int8 files: dequantised)
    WeightsEncoding encoding = WeightsEncoding::Float32;
};
// int8: every matrix row r of a weight tensor gets scale_r = max|w_r| / 127 and
// q = round(w / scale_r) in -127..127 (a zero row: scale 0); vectors stay float32.
std::vector<std::uint8_t> serialize_model(const Model& m, WeightsEncoding encoding);
// Parses and checks everything: magic, version (WrongVersion), sizes (BadModelFile "truncated"),
// SHA-256 trailer, config, merges, every number finite (NonFinite).
Result<Model> parse_model(const std::uint8_t* data, std::size_t size);
Result<Model> load_model(const std::string& path);  // FileNotReadable if missing
std::vector<float> quantised(const Model& m);       // params after an int8 round trip
// The whole file as bytes; FileNotReadable if missing or unreadable, or larger than max_bytes
Result<std::string> read_file_bytes(const std::string& path, std::size_t max_bytes);
std::string file_sha256(const std::vector<std::uint8_t>& bytes);

// ---------------------------------------------------------------------------------------------
// Evaluation and baselines (baselines.cpp), in bits per byte of the predicted text
// ---------------------------------------------------------------------------------------------
struct Baselines {
    double unigram_bpb = 0, bigram_bpb = 0;  // over the model's own tokens
    double bigram_prior = 0;                 // mu: p(b|a) = (c(a,b) + mu p_uni(b)) / (c(a) + mu)
    double byte_unigram_bpb = 0, byte_bigram_bpb = 0;  // the same models over bytes (no tokenizer)
};
// Counts on train ids, scored on the same targets as evaluate_bpb (val ids 1..N-1).
// Unigram: add-one. Bigram: Dirichlet prior on the unigram, with the best mu of
// {0.25, 0.5, ..., 256} on val (the baseline's most favourable setting).
Baselines count_baselines(const Bpe& bpe, const std::vector<int>& train,
                          const std::vector<int>& val);
// The same unigram and bigram over the raw bytes of the texts (a byte-level vocabulary of 256);
// fills byte_unigram_bpb and byte_bigram_bpb.
void count_byte_baselines(std::string_view train, std::string_view val, Baselines* out);
// Model loss on ids in windows of `context`: window s predicts ids s+1..s+context from
// s..s+context-1, s = 0, context, 2 context, ...; every id from 1 on is predicted once.
// Returns bits per byte of the predicted tokens. max_windows limits it (0 = all).
double evaluate_bpb(const Model& m, const std::vector<float>& params, const std::vector<int>& ids,
                    int max_windows = 0, const ForwardOptions& options = {});

// ---------------------------------------------------------------------------------------------
// Head analysis (analysis.cpp)
// ---------------------------------------------------------------------------------------------
struct HeadReport {
    int layer = 0, head = 0;
    double previous_token = 0;       // mean w[i][i-1] over validation windows, i >= 1
    double first_token = 0;          // mean w[i][0], i >= 1
    double self = 0;                 // mean w[i][i], i >= 1
    double induction = 0;            // random tokens r repeated once (r r): mean weight from r_k in
                                     // the second copy onto r_{k+1} in the first
    double ablation_loss_delta = 0;  // val bits/byte with this head's output zeroed, minus without
    std::string label;               // see head_label()
};
struct AnalysisOptions {
    int windows = 48;              // validation windows for the attention scores and the ablation
    int induction_sequences = 24;  // random sequences, each kInductionLength tokens repeated once
    bool ablation = true;          // false: the attention scores only (fast, for checkpoints)
    std::uint64_t seed = 20261203u;
};
constexpr int kInductionLength = 40;
constexpr double kPreviousTokenThreshold = 0.5, kInductionThreshold = 0.4;
constexpr double kFirstTokenThreshold = 0.5, kSelfThreshold = 0.5;
// "induction" if induction >= 0.4, else "previous-token" if previous >= 0.5, else "self" if
// self >= 0.5, else "first-token" if first >= 0.5, else "mixed"
std::string head_label(const HeadReport& h);
std::vector<HeadReport> analyse_heads(const Model& m, const std::vector<int>& val_ids,
                                      const AnalysisOptions& options = {});

}  // namespace attn
