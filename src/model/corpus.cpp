// corpus.cpp - the training text: glosses and example sentences of WordNet 3.0 (Debian package
// wordnet-base), extracted line by line, with a fixed held-out split.
#include <algorithm>

#include "model.h"

namespace attn {

const std::vector<CorpusFile>& corpus_files() {
    static const std::vector<CorpusFile> files = {
        {"data.noun", "fea17d2f9656611334eac790e5d69e47645fa180c4aa481fb4cd9b3520754ca2"},
        {"data.verb", "adcf43e35b581e8036d8b5a52d63d9cd3d3b4870b2720d3c03c799df44777bc2"},
        {"data.adj", "c89120dfc1f046ddff4a631bf9b7e9fa1a36b5e86565a23bf82dbe14f30b88a7"},
        {"data.adv", "444a63bf3955080ab7524f5079cfc07ff9bc682cb98bdb1db73b0fb9829f1139"},
    };
    return files;
}

// A data line: "offset lex_filenum ss_type w_cnt word lex_id [word lex_id ...] p_cnt ... | gloss"
// -> "word: gloss" (the synset's first word; "_" -> " "; an adjective marker like "(a)" dropped)
std::vector<std::string> wordnet_gloss_lines(std::string_view file) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < file.size()) {
        std::size_t end = file.find('\n', start);
        if (end == std::string_view::npos) end = file.size();
        std::string_view line = file.substr(start, end - start);
        start = end + 1;
        if (line.size() < 2 || line[0] == ' ') continue;  // licence header
        const std::size_t bar = line.find(" | ");
        if (bar == std::string_view::npos) continue;
        std::size_t field = 0, pos = 0;
        std::string_view word;
        while (pos < bar && field <= 4) {
            const std::size_t sp = std::min(line.find(' ', pos), bar);
            if (field == 4) word = line.substr(pos, sp - pos);
            pos = sp + 1;
            field++;
        }
        if (word.empty()) continue;
        if (word.back() == ')') word = word.substr(0, word.rfind('('));
        std::string gloss(line.substr(bar + 3));
        while (!gloss.empty() && (gloss.back() == ' ' || gloss.back() == '\r')) gloss.pop_back();
        if (gloss.empty()) continue;
        std::string out(word);
        std::replace(out.begin(), out.end(), '_', ' ');
        lines.push_back(out + ": " + gloss);
    }
    return lines;
}

// Header lines look like "  14 WordNet 3.0 Copyright 2006 by Princeton University.  "
std::string wordnet_licence(std::string_view file) {
    std::string out;
    std::size_t start = 0;
    while (start < file.size() && file.compare(start, 2, "  ") == 0) {
        std::size_t end = file.find('\n', start);
        if (end == std::string_view::npos) end = file.size();
        std::string_view line = file.substr(start + 2, end - start - 2);
        start = end + 1;
        std::size_t i = 0;
        while (i < line.size() && line[i] >= '0' && line[i] <= '9') i++;
        if (i < line.size() && line[i] == ' ') i++;
        std::string text(line.substr(i));
        while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
        out += text + "\n";
    }
    return out;
}

CorpusSplit split_corpus(const std::vector<std::string>& lines) {
    CorpusSplit s;
    for (std::size_t k = 0; k < lines.size(); k++) {
        std::string& part = k % kValEvery == kValEvery - 1 ? s.val : s.train;
        part += lines[k];
        part += '\n';
    }
    return s;
}

Result<CorpusSplit> load_corpus(const std::string& dir, bool allow_mismatch,
                                std::string* mismatch) {
    std::vector<std::string> lines;
    std::string licence;
    for (const CorpusFile& f : corpus_files()) {
        const std::string path = dir + "/" + f.name;
        Result<std::string> bytes = read_file_bytes(path, 64u << 20);
        if (!bytes.ok())
            return Error{ErrorCode::FileNotReadable,
                         "The corpus file " + path +
                             " cannot be read; install the Debian package " + kCorpusPackage +
                             " (scripts/install)."};
        const std::string& b = bytes.value();
        const std::string sum =
            sha256_hex(reinterpret_cast<const std::uint8_t*>(b.data()), b.size());
        if (sum != f.sha256) {
            const std::string what = std::string(f.name) + " has SHA-256 " + sum + ", expected " +
                                     f.sha256 + " (" + kCorpusPackage + " " +
                                     kCorpusPackageVersion + ")";
            if (!allow_mismatch)
                return Error{ErrorCode::BadArgument,
                             "The corpus differs from the one the model "
                             "was trained on: " +
                                 what + "."};
            if (mismatch) *mismatch += what + "\n";
        }
        if (licence.empty()) licence = wordnet_licence(b);
        const std::vector<std::string> part = wordnet_gloss_lines(b);
        lines.insert(lines.end(), part.begin(), part.end());
    }
    CorpusSplit split = split_corpus(lines);
    split.licence = licence;
    return split;
}

}  // namespace attn
