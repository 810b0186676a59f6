// weights.cpp - the weights file: versioned header, tokenizer merges, tensors (float32, or int8
// with a float32 scale per matrix row), SHA-256 trailer. Byte layout: docs/model.md.
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "model.h"

namespace attn {

namespace {

constexpr char kMagic[8] = {'A', 'T', 'T', 'N', 'M', 'O', 'D', 'L'};
constexpr std::size_t kHeaderBytes = 8 + 4 * 2 + 4 * 6 + 4;  // magic, version, encoding, config,
                                                             // merge count
constexpr std::size_t kTrailerBytes = 32;                    // SHA-256 of everything before

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int b = 0; b < 4; b++) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
}
void put_f32(std::vector<std::uint8_t>& out, float f) {
    std::uint32_t v;
    std::memcpy(&v, &f, 4);
    put_u32(out, v);
}
std::uint32_t get_u32(const std::uint8_t* p) {
    return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) |
           (std::uint32_t(p[3]) << 24);
}
float get_f32(const std::uint8_t* p) {
    const std::uint32_t v = get_u32(p);
    float f;
    std::memcpy(&f, &v, 4);
    return f;
}

Error bad(std::string message) {
    return Error{ErrorCode::BadModelFile, "The weights file " + std::move(message)};
}

// Bytes of the tensors for a config and encoding
std::size_t tensor_bytes(const ModelConfig& c, WeightsEncoding e) {
    std::size_t n = 0;
    for (const TensorInfo& t : parameter_tensors(c)) {
        const std::size_t count = static_cast<std::size_t>(t.rows) * t.cols;
        n += e == WeightsEncoding::Int8PerRow && t.matrix ? count + 4u * t.rows : 4 * count;
    }
    return n;
}

// scale = max|w| / 127 (0 for a zero row); q = round(w / scale), in -127..127
float row_scale(const float* w, int cols) {
    float m = 0;
    for (int i = 0; i < cols; i++) m = std::max(m, std::abs(w[i]));
    return m / 127.0f;
}
std::int8_t quantise(float w, float scale) {
    if (!(scale > 0)) return 0;
    const long q = std::lround(w / scale);
    return static_cast<std::int8_t>(std::max(-127L, std::min(127L, q)));
}

}  // namespace

std::vector<std::uint8_t> serialize_model(const Model& m, WeightsEncoding encoding) {
    std::vector<std::uint8_t> out(kMagic, kMagic + 8);
    put_u32(out, kWeightsVersion);
    put_u32(out, static_cast<std::uint32_t>(encoding));
    const ModelConfig& c = m.config;
    for (int v : {c.vocab, c.context, c.d_model, c.heads, c.layers, c.d_ff})
        put_u32(out, static_cast<std::uint32_t>(v));
    put_u32(out, static_cast<std::uint32_t>(m.bpe.merges.size()));
    for (const auto& [a, b] : m.bpe.merges) {
        put_u32(out, static_cast<std::uint32_t>(a));
        put_u32(out, static_cast<std::uint32_t>(b));
    }
    for (const TensorInfo& t : parameter_tensors(c)) {
        const float* w = m.params.data() + t.offset;
        if (encoding == WeightsEncoding::Int8PerRow && t.matrix) {
            for (int r = 0; r < t.rows; r++) {
                const float* row = w + static_cast<std::size_t>(r) * t.cols;
                const float scale = row_scale(row, t.cols);
                put_f32(out, scale);
                for (int i = 0; i < t.cols; i++)
                    out.push_back(static_cast<std::uint8_t>(quantise(row[i], scale)));
            }
        } else {
            for (std::size_t i = 0; i < static_cast<std::size_t>(t.rows) * t.cols; i++)
                put_f32(out, w[i]);
        }
    }
    std::uint8_t digest[32];
    sha256(out.data(), out.size(), digest);
    out.insert(out.end(), digest, digest + 32);
    return out;
}

Result<Model> parse_model(const std::uint8_t* data, std::size_t size) {
    if (size < 12) return bad("is truncated: it has " + std::to_string(size) + " bytes.");
    if (std::memcmp(data, kMagic, 8) != 0)
        return bad("does not start with \"ATTNMODL\"; it is not a model weights file.");
    const std::uint32_t version = get_u32(data + 8);
    if (version != kWeightsVersion)
        return Error{ErrorCode::WrongVersion,
                     "The weights file has format version " + std::to_string(version) +
                         "; this build reads version " + std::to_string(kWeightsVersion) + "."};
    if (size < kHeaderBytes + kTrailerBytes) return bad("is truncated: its header is incomplete.");
    const std::uint32_t enc = get_u32(data + 12);
    if (enc > 1) return bad("has an unknown encoding " + std::to_string(enc) + ".");
    Model m;
    m.encoding = static_cast<WeightsEncoding>(enc);
    std::uint32_t f[6];
    for (int i = 0; i < 6; i++) {
        f[i] = get_u32(data + 16 + 4 * i);
        if (f[i] > 1u << 20) return bad("has an impossible model size.");
    }
    m.config = ModelConfig{static_cast<int>(f[0]), static_cast<int>(f[1]), static_cast<int>(f[2]),
                           static_cast<int>(f[3]), static_cast<int>(f[4]), static_cast<int>(f[5])};
    if (auto e = check_model_config(m.config)) return bad("has a bad model shape: " + e->message);
    const std::uint32_t merges = get_u32(data + 40);
    // vocab is checked positive above; compare in 64 bits so a huge count cannot overflow.
    if (static_cast<std::int64_t>(merges) + kByteTokens != m.config.vocab)
        return bad("has " + std::to_string(merges) + " tokenizer merges for a vocabulary of " +
                   std::to_string(m.config.vocab) + " (it needs vocabulary - 256).");
    const std::size_t expected =
        kHeaderBytes + 8u * merges + tensor_bytes(m.config, m.encoding) + kTrailerBytes;
    if (size < expected)
        return bad("is truncated: it has " + std::to_string(size) + " bytes of the " +
                   std::to_string(expected) + " its header announces.");
    if (size > expected)
        return bad("has " + std::to_string(size - expected) + " unexpected bytes at the end.");
    std::uint8_t digest[32];
    sha256(data, size - kTrailerBytes, digest);
    if (std::memcmp(digest, data + size - kTrailerBytes, 32) != 0)
        return bad("fails its SHA-256 checksum: it is damaged.");
    const std::uint8_t* p = data + kHeaderBytes;
    std::vector<std::pair<int, int>> pairs(merges);
    for (auto& [a, b] : pairs) {
        a = static_cast<int>(std::min<std::uint32_t>(get_u32(p), 1u << 30));
        b = static_cast<int>(std::min<std::uint32_t>(get_u32(p + 4), 1u << 30));
        p += 8;
    }
    Result<Bpe> bpe = bpe_from_merges(pairs);
    if (!bpe.ok()) return bpe.error();
    m.bpe = std::move(bpe.value());
    m.params.assign(parameter_count(m.config), 0.0f);
    for (const TensorInfo& t : parameter_tensors(m.config)) {
        float* w = m.params.data() + t.offset;
        if (m.encoding == WeightsEncoding::Int8PerRow && t.matrix) {
            for (int r = 0; r < t.rows; r++) {
                const float scale = get_f32(p);
                p += 4;
                for (int i = 0; i < t.cols; i++)
                    w[static_cast<std::size_t>(r) * t.cols + i] =
                        static_cast<float>(static_cast<std::int8_t>(*p++)) * scale;
            }
        } else {
            for (std::size_t i = 0; i < static_cast<std::size_t>(t.rows) * t.cols; i++, p += 4)
                w[i] = get_f32(p);
        }
    }
    for (const TensorInfo& t : parameter_tensors(m.config))
        for (std::size_t i = 0; i < static_cast<std::size_t>(t.rows) * t.cols; i++)
            if (!std::isfinite(m.params[t.offset + i]))
                return Error{ErrorCode::NonFinite,
                             "The weights file holds a number that is not "
                             "finite (NaN or infinity) in tensor " +
                                 t.name + "."};
    return m;
}

Result<std::string> read_file_bytes(const std::string& path, std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{ErrorCode::FileNotReadable, "The file " + path + " cannot be opened."};
    std::string bytes;
    char buf[1 << 16];
    while (in) {
        in.read(buf, sizeof buf);
        bytes.append(buf, static_cast<std::size_t>(in.gcount()));
        if (bytes.size() > max_bytes)
            return Error{ErrorCode::FileNotReadable, "The file " + path + " is larger than " +
                                                         std::to_string(max_bytes) + " bytes."};
    }
    if (in.bad()) return Error{ErrorCode::FileNotReadable, "The file " + path + " cannot be read."};
    return bytes;
}

Result<Model> load_model(const std::string& path) {
    Result<std::string> bytes = read_file_bytes(path, kMaxWeightsBytes);
    if (!bytes.ok())
        return Error{ErrorCode::FileNotReadable,
                     "The weights file " + path + " is missing, unreadable or too large."};
    const std::string& b = bytes.value();
    return parse_model(reinterpret_cast<const std::uint8_t*>(b.data()), b.size());
}

std::vector<float> quantised(const Model& m) {
    const std::vector<std::uint8_t> bytes = serialize_model(m, WeightsEncoding::Int8PerRow);
    Result<Model> back = parse_model(bytes.data(), bytes.size());
    return back.ok() ? back.value().params : m.params;
}

std::string file_sha256(const std::vector<std::uint8_t>& bytes) {
    return sha256_hex(bytes.data(), bytes.size());
}

}  // namespace attn
