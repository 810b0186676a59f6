// bpe.cpp - the byte-level BPE tokenizer: pre-split, training, encoding, decoding, display.
#include <algorithm>
#include <cstdio>

#include "model.h"

namespace attn {

namespace {

std::uint64_t pair_key(int a, int b) {
    return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b);
}

bool is_letter(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_space(unsigned char c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// End of the chunk that starts with the (non-space) byte at i
std::size_t run_end(std::string_view t, std::size_t i) {
    const unsigned char c = static_cast<unsigned char>(t[i]);
    std::size_t j = i + 1;
    if (is_letter(c))
        while (j < t.size() && is_letter(static_cast<unsigned char>(t[j]))) j++;
    else if (is_digit(c))
        while (j < t.size() && is_digit(static_cast<unsigned char>(t[j]))) j++;
    return j;
}

void fill_tables(Bpe& b) {
    b.token_bytes.resize(kByteTokens);
    for (int i = 0; i < kByteTokens; i++) b.token_bytes[i] = std::string(1, static_cast<char>(i));
    b.ranks.clear();
    for (std::size_t k = 0; k < b.merges.size(); k++) {
        const auto [x, y] = b.merges[k];
        b.token_bytes.push_back(b.token_bytes[x] + b.token_bytes[y]);
        b.ranks[pair_key(x, y)] = static_cast<int>(k);
    }
}

// Replaces every (a, b) in ids by id, left to right
void merge_pair(std::vector<int>& ids, int a, int b, int id) {
    std::size_t w = 0;
    for (std::size_t r = 0; r < ids.size(); r++) {
        if (r + 1 < ids.size() && ids[r] == a && ids[r + 1] == b) {
            ids[w++] = id;
            r++;
        } else {
            ids[w++] = ids[r];
        }
    }
    ids.resize(w);
}

// Length of the valid UTF-8 sequence at s[i] (0 if not valid)
std::size_t utf8_length(const std::string& s, std::size_t i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80         ? 1
                      : (c >> 5) == 6  ? 2
                      : (c >> 4) == 14 ? 3
                      : (c >> 3) == 30 ? 4
                                       : 0;
    if (len == 0 || i + len > s.size()) return 0;
    for (std::size_t k = 1; k < len; k++)
        if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return 0;
    return check_utf8(std::string_view(s).substr(i, len)) ? 0 : len;
}

}  // namespace

// Chunks: " "? letters+ | " "? digits+ | " "? one other byte | one whitespace byte
std::vector<std::string_view> bpe_chunks(std::string_view t) {
    std::vector<std::string_view> chunks;
    std::size_t i = 0;
    while (i < t.size()) {
        const unsigned char c = static_cast<unsigned char>(t[i]);
        std::size_t end = i + 1;
        if (c == ' ' && i + 1 < t.size() && !is_space(static_cast<unsigned char>(t[i + 1])))
            end = run_end(t, i + 1);
        else if (!is_space(c))
            end = run_end(t, i);
        chunks.push_back(t.substr(i, end - i));
        i = end;
    }
    return chunks;
}

// Each merge: count adjacent pairs inside the distinct chunks (weighted by how often each chunk
// occurs), take the most frequent (ties: smallest a, then b), replace it everywhere.
Bpe bpe_train(std::string_view text, int vocab) {
    vocab = std::clamp(vocab, kByteTokens, kMaxBpeVocab);
    std::unordered_map<std::string_view, long long> counts;
    for (std::string_view c : bpe_chunks(text)) counts[c]++;
    std::vector<std::pair<std::string_view, long long>> distinct(counts.begin(), counts.end());
    std::sort(distinct.begin(), distinct.end());  // a fixed order, whatever the hash map did
    std::vector<std::vector<int>> words;
    std::vector<long long> freq;
    for (const auto& [chunk, n] : distinct) {
        if (chunk.size() < 2) continue;
        words.emplace_back(chunk.begin(), chunk.end());
        for (int& id : words.back()) id = static_cast<unsigned char>(id);
        freq.push_back(n);
    }
    Bpe b;
    std::vector<long long> pairs(static_cast<std::size_t>(vocab) * vocab);
    for (int id = kByteTokens; id < vocab; id++) {
        std::fill(pairs.begin(), pairs.end(), 0);
        for (std::size_t w = 0; w < words.size(); w++)
            for (std::size_t i = 0; i + 1 < words[w].size(); i++)
                pairs[static_cast<std::size_t>(words[w][i]) * vocab + words[w][i + 1]] += freq[w];
        const auto best = std::max_element(pairs.begin(), pairs.end());  // first = smallest pair
        if (*best < 2) break;
        const int a = static_cast<int>((best - pairs.begin()) / vocab);
        const int c = static_cast<int>((best - pairs.begin()) % vocab);
        b.merges.emplace_back(a, c);
        for (std::vector<int>& word : words) merge_pair(word, a, c, id);
    }
    fill_tables(b);
    return b;
}

Result<Bpe> bpe_from_merges(const std::vector<std::pair<int, int>>& merges) {
    if (merges.size() > static_cast<std::size_t>(kMaxBpeVocab - kByteTokens))
        return Error{ErrorCode::BadModelFile,
                     "The tokenizer has too many merges (" + std::to_string(merges.size()) + ")."};
    for (std::size_t k = 0; k < merges.size(); k++) {
        const int made = kByteTokens + static_cast<int>(k);
        const auto [a, c] = merges[k];
        if (a < 0 || c < 0 || a >= made || c >= made)
            return Error{ErrorCode::BadModelFile, "Tokenizer merge " + std::to_string(k + 1) +
                                                      " joins a token that does not exist yet (" +
                                                      std::to_string(a) + ", " + std::to_string(c) +
                                                      ")."};
    }
    Bpe b;
    b.merges = merges;
    fill_tables(b);
    return b;
}

// Start from the bytes; repeatedly join the adjacent pair with the lowest merge rank
std::vector<int> bpe_encode_chunk(const Bpe& b, std::string_view chunk) {
    std::vector<int> ids(chunk.begin(), chunk.end());
    for (int& id : ids) id = static_cast<unsigned char>(id);
    while (ids.size() > 1) {
        int best_rank = -1;
        for (std::size_t i = 0; i + 1 < ids.size(); i++) {
            const auto it = b.ranks.find(pair_key(ids[i], ids[i + 1]));
            if (it != b.ranks.end() && (best_rank < 0 || it->second < best_rank))
                best_rank = it->second;
        }
        if (best_rank < 0) break;
        const auto [x, y] = b.merges[static_cast<std::size_t>(best_rank)];
        merge_pair(ids, x, y, kByteTokens + best_rank);
    }
    return ids;
}

std::vector<int> bpe_encode(const Bpe& b, std::string_view text) {
    std::vector<int> ids;
    for (std::string_view c : bpe_chunks(text)) {
        const std::vector<int> part = bpe_encode_chunk(b, c);
        ids.insert(ids.end(), part.begin(), part.end());
    }
    return ids;
}

std::vector<int> bpe_encode_corpus(const Bpe& b, std::string_view text) {
    std::unordered_map<std::string_view, std::vector<int>> cache;
    std::vector<int> ids;
    for (std::string_view c : bpe_chunks(text)) {
        auto it = cache.find(c);
        if (it == cache.end()) it = cache.emplace(c, bpe_encode_chunk(b, c)).first;
        ids.insert(ids.end(), it->second.begin(), it->second.end());
    }
    return ids;
}

std::string bpe_decode(const Bpe& b, const std::vector<int>& ids) {
    std::string out;
    for (int id : ids)
        if (id >= 0 && id < b.vocab()) out += b.token_bytes[static_cast<std::size_t>(id)];
    return out;
}

std::string token_display(const Bpe& b, int id) {
    if (id < 0 || id >= b.vocab()) return "<?>";
    const std::string& s = b.token_bytes[static_cast<std::size_t>(id)];
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const std::size_t len = utf8_length(s, i);
        const bool c1_control =
            len == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0;
        if (c == ' ') {
            out += "\u2423";  // ␣
        } else if (c == '\n') {
            out += "\u21B5";  // ↵
        } else if (c == '\t') {
            out += "\u21E5";  // ⇥
        } else if (len == 0 || c < 0x20 || c == 0x7F || c1_control) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "<0x%02X>", c);
            out += hex;
            i++;
            continue;
        } else {
            out.append(s, i, len);
            i += len;
            continue;
        }
        i++;
    }
    return out;
}

Result<std::vector<int>> tokenize_for_model(const Bpe& b, std::string_view text, int max_tokens) {
    if (text.empty()) return Error{ErrorCode::EmptyText, "The text is empty; type a few words."};
    if (text.size() > kMaxSentenceBytes)
        return Error{ErrorCode::TextTooLong,
                     "The text has " + std::to_string(text.size()) + " bytes; at most " +
                         std::to_string(kMaxSentenceBytes) + " are allowed."};
    if (auto e = check_utf8(text)) return *e;
    std::vector<int> ids = bpe_encode(b, text);
    if (ids.size() > static_cast<std::size_t>(max_tokens))
        return Error{ErrorCode::TooManyTokens, "The text makes " + std::to_string(ids.size()) +
                                                   " tokens; the model reads at most " +
                                                   std::to_string(max_tokens) + "."};
    return ids;
}

std::vector<int> text_tokens(const Bpe& b) {
    std::vector<int> ids;
    for (int id = 0; id < b.vocab(); id++) {
        const std::string& s = b.token_bytes[static_cast<std::size_t>(id)];
        bool printable = !s.empty();
        for (char ch : s) printable = printable && ch >= 0x20 && ch <= 0x7E;
        if (printable) ids.push_back(id);
    }
    return ids;
}

}  // namespace attn
