// fuzz_weights.cpp - any bytes into the weights loader: never a crash; a file that loads has a
// valid config, a tokenizer of its vocabulary and finite numbers, and runs one forward pass.
// Also mutates a real (tiny) weights file, so the fuzzer gets past the checksum.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "model.h"

namespace {

void check(const attn::Result<attn::Model>& r) {
    if (!r.ok()) {
        if (r.error().message.empty()) std::abort();
        return;
    }
    const attn::Model& m = r.value();
    if (attn::check_model_config(m.config)) std::abort();
    if (m.bpe.vocab() != m.config.vocab) std::abort();
    if (m.params.size() != attn::parameter_count(m.config)) std::abort();
    for (float x : m.params)
        if (!std::isfinite(x)) std::abort();
    const std::vector<int> ids = {0, m.config.vocab - 1};
    const int n = std::min<int>(2, m.config.context);
    attn::Activations<float> a;
    attn::model_forward<float>(m.config, attn::view_params(m.config, m.params.data()), ids.data(),
                               nullptr, n, a);
    if (a.probs.size() != static_cast<std::size_t>(n) * m.config.vocab) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    check(attn::parse_model(data, size));
    // the same bytes written over the tensors of a valid tiny file, then re-signed: reaches the
    // number checks and the forward pass with arbitrary weights
    attn::Model m;
    m.config = attn::ModelConfig{258, 4, 4, 2, 1, 4};
    m.bpe = attn::bpe_from_merges({{97, 98}, {256, 99}}).value();
    m.params.assign(attn::parameter_count(m.config), 0.5f);
    const attn::WeightsEncoding e =
        size % 2 ? attn::WeightsEncoding::Int8PerRow : attn::WeightsEncoding::Float32;
    std::vector<std::uint8_t> file = attn::serialize_model(m, e);
    const std::size_t header = 44 + 16, body = file.size() - 32 - header;
    for (std::size_t i = 0; i < size && i < body; i++) file[header + i] = data[i];
    std::uint8_t digest[32];
    attn::sha256(file.data(), file.size() - 32, digest);
    for (int i = 0; i < 32; i++) file[file.size() - 32 + i] = digest[i];
    check(attn::parse_model(file.data(), file.size()));
    return 0;
}
