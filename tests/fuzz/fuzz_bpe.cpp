// fuzz_bpe.cpp - any bytes into the BPE tokenizer: training on them, encoding and decoding
// round-trips exactly, every id is in the vocabulary, every display string is valid UTF-8, and
// the model's input check agrees with the engine's UTF-8 check.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const attn::Bpe b = attn::bpe_train(text, 256 + static_cast<int>(size % 64));
    if (b.vocab() < 256 || b.vocab() > 320) std::abort();
    const std::vector<int> ids = attn::bpe_encode(b, text);
    for (int id : ids)
        if (id < 0 || id >= b.vocab()) std::abort();
    if (attn::bpe_decode(b, ids) != text) std::abort();
    for (int id : ids)
        if (attn::check_utf8(attn::token_display(b, id))) std::abort();
    std::string chunks;
    for (std::string_view c : attn::bpe_chunks(text)) chunks += c;
    if (chunks != text) std::abort();
    const auto r = attn::tokenize_for_model(b, text, 128);
    const bool utf8_ok = !attn::check_utf8(text).has_value();
    if (r.ok() && (!utf8_ok || text.empty() || r.value() != ids)) std::abort();
    if (!r.ok() && r.error().message.empty()) std::abort();
    return 0;
}
