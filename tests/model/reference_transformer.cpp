// reference_transformer.cpp - see reference_transformer.h. Slow on purpose.
#include "reference_transformer.h"

#include <cmath>
#include <map>
#include <string>

namespace ref {

namespace {

using LD = long double;
using M = std::vector<std::vector<LD>>;

struct Weights {
    std::map<std::string, M> t;  // every tensor as rows x cols
    const M& operator[](const std::string& name) const { return t.at(name); }
};

Weights unpack(const attn::ModelConfig& c, const std::vector<double>& flat) {
    Weights w;
    for (const attn::TensorInfo& info : attn::parameter_tensors(c)) {
        M m(info.rows, std::vector<LD>(info.cols));
        for (int r = 0; r < info.rows; r++)
            for (int k = 0; k < info.cols; k++)
                m[r][k] = flat[info.offset + static_cast<std::size_t>(r) * info.cols + k];
        w.t[info.name] = m;
    }
    return w;
}

M layernorm(const M& x, const std::vector<LD>& g, const std::vector<LD>& b) {
    M y = x;
    for (std::size_t t = 0; t < x.size(); t++) {
        LD mean = 0, var = 0;
        for (LD v : x[t]) mean += v;
        mean /= x[t].size();
        for (LD v : x[t]) var += (v - mean) * (v - mean);
        var /= x[t].size();
        for (std::size_t i = 0; i < x[t].size(); i++)
            y[t][i] = (x[t][i] - mean) / std::sqrt(var + 1e-5L) * g[i] + b[i];
    }
    return y;
}

// y = x W + b, the textbook triple loop
M linear(const M& x, const M& w, const std::vector<LD>& b) {
    M y(x.size(), std::vector<LD>(w[0].size()));
    for (std::size_t t = 0; t < x.size(); t++)
        for (std::size_t o = 0; o < w[0].size(); o++) {
            LD s = b[o];
            for (std::size_t i = 0; i < w.size(); i++) s += x[t][i] * w[i][o];
            y[t][o] = s;
        }
    return y;
}

}  // namespace

TransformerOut transformer_forward(const attn::ModelConfig& c, const std::vector<double>& flat,
                                   const std::vector<int>& tokens,
                                   const std::vector<int>& targets) {
    const Weights w = unpack(c, flat);
    const int n = static_cast<int>(tokens.size()), C = c.d_model, H = c.heads, D = C / H;
    TransformerOut out;
    M x(n, std::vector<LD>(C));
    for (int t = 0; t < n; t++)
        for (int i = 0; i < C; i++) x[t][i] = w["wte"][tokens[t]][i] + w["wpe"][t][i];
    for (int l = 0; l < c.layers; l++) {
        const std::string p = "l" + std::to_string(l) + ".";
        M a = layernorm(x, w[p + "ln1_g"][0], w[p + "ln1_b"][0]);
        M q = linear(a, w[p + "wq"], w[p + "bq"][0]);
        M k = linear(a, w[p + "wk"], w[p + "bk"][0]);
        M v = linear(a, w[p + "wv"], w[p + "bv"][0]);
        M heads(n, std::vector<LD>(C, 0));
        for (int h = 0; h < H; h++) {
            M wts(n, std::vector<LD>(n, 0));
            for (int i = 0; i < n; i++) {
                std::vector<LD> s(i + 1);
                LD mx = -1e300L, sum = 0;
                for (int j = 0; j <= i; j++) {
                    LD d = 0;
                    for (int e = 0; e < D; e++) d += q[i][h * D + e] * k[j][h * D + e];
                    s[j] = d / std::sqrt(static_cast<LD>(D));
                    if (s[j] > mx) mx = s[j];
                }
                for (int j = 0; j <= i; j++) sum += std::exp(s[j] - mx);
                for (int j = 0; j <= i; j++) wts[i][j] = std::exp(s[j] - mx) / sum;
                for (int e = 0; e < D; e++)
                    for (int j = 0; j <= i; j++) heads[i][h * D + e] += wts[i][j] * v[j][h * D + e];
            }
            out.weights.push_back(wts);
        }
        M o = linear(heads, w[p + "wo"], w[p + "bo"][0]);
        for (int t = 0; t < n; t++)
            for (int i = 0; i < C; i++) x[t][i] += o[t][i];
        M f = linear(layernorm(x, w[p + "ln2_g"][0], w[p + "ln2_b"][0]), w[p + "wfc"],
                     w[p + "bfc"][0]);
        for (auto& r : f)
            for (LD& z : r)
                z = 0.5L * z *
                    (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846L) *
                                   (z + 0.044715L * z * z * z)));
        M m = linear(f, w[p + "wproj"], w[p + "bproj"][0]);
        for (int t = 0; t < n; t++)
            for (int i = 0; i < C; i++) x[t][i] += m[t][i];
    }
    M xf = layernorm(x, w["lnf_g"][0], w["lnf_b"][0]);
    out.logits.assign(n, std::vector<LD>(c.vocab));
    for (int t = 0; t < n; t++)
        for (int u = 0; u < c.vocab; u++) {
            LD s = 0;
            for (int i = 0; i < C; i++) s += xf[t][i] * w["wte"][u][i];
            out.logits[t][u] = s;
        }
    if (!targets.empty()) {
        LD total = 0;
        for (int t = 0; t < n; t++) {
            LD mx = out.logits[t][0], sum = 0;
            for (LD z : out.logits[t]) mx = z > mx ? z : mx;
            for (LD z : out.logits[t]) sum += std::exp(z - mx);
            total += -(out.logits[t][targets[t]] - mx - std::log(sum));
        }
        out.mean_loss = total / n;
    }
    return out;
}

}  // namespace ref
