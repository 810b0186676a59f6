// attention_reference.mjs - multi-head self-attention written plainly in JavaScript (Float64Array),
// the same shapes and algorithm as attn::self_attention, to time against the wasm engine in one
// Node process (scripts/bench-engine.mjs). Not a test: the engine's tests live in tests/.
//   per head:  Q = X Wq, K = X Wk, V = X Wv;  S = Q K^T / sqrt(d_k);  W = softmax_rows(S);  O = W V
//   output  = [O_1 | ... | O_h] Wo

const matrix = (rows, cols) => ({ rows, cols, data: new Float64Array(rows * cols) });

// (ab)_ij = sum_k a_ik b_kj, summed in order of k
export function matmul(a, b) {
  const c = matrix(a.rows, b.cols);
  for (let i = 0; i < a.rows; i++)
    for (let j = 0; j < b.cols; j++) {
      let sum = 0;
      for (let k = 0; k < a.cols; k++) sum += a.data[i * a.cols + k] * b.data[k * b.cols + j];
      c.data[i * c.cols + j] = sum;
    }
  return c;
}

// (m^T)_ij = m_ji
export function transpose(m) {
  const t = matrix(m.cols, m.rows);
  for (let i = 0; i < m.rows; i++)
    for (let j = 0; j < m.cols; j++) t.data[j * t.cols + i] = m.data[i * m.cols + j];
  return t;
}

// w_j = exp(l_j - max) / sum_k exp(l_k - max), in place on row r of m
function softmaxRow(m, r) {
  const off = r * m.cols;
  let max = -Infinity;
  for (let j = 0; j < m.cols; j++) if (m.data[off + j] > max) max = m.data[off + j];
  let sum = 0;
  for (let j = 0; j < m.cols; j++) {
    const e = Math.exp(m.data[off + j] - max);
    m.data[off + j] = e;
    sum += e;
  }
  for (let j = 0; j < m.cols; j++) m.data[off + j] /= sum;
}

// x: n x d_model; p = {heads: [{wq, wk, wv}], wo}; no mask, temperature 1, scaled.
export function selfAttention(x, p) {
  const n = x.rows;
  const outputs = p.heads.map((w) => {
    const q = matmul(x, w.wq), k = matmul(x, w.wk), v = matmul(x, w.wv);
    const scale = 1 / Math.sqrt(q.cols);
    const s = matmul(q, transpose(k));
    for (let i = 0; i < s.data.length; i++) s.data[i] *= scale;
    for (let i = 0; i < n; i++) softmaxRow(s, i);
    return matmul(s, v);
  });
  const width = outputs.reduce((a, o) => a + o.cols, 0);
  const concat = matrix(n, width);
  let offset = 0;
  for (const o of outputs) {
    for (let i = 0; i < n; i++)
      for (let j = 0; j < o.cols; j++) concat.data[i * width + offset + j] = o.data[i * o.cols + j];
    offset += o.cols;
  }
  return matmul(concat, p.wo);
}

// The fixed input of tests/bench/bench_input.h, bit for bit: a 32-bit LCG,
// state = state * 1664525 + 1013904223, k = (state >>> 8) % 2001 - 1000; X = k/1000, W = k/8000.
export function makeBenchInput(n, dModel = 64, heads = 4, seed = 12345) {
  let state = seed >>> 0;
  const fill = (rows, cols, divisor) => {
    const m = matrix(rows, cols);
    for (let i = 0; i < m.data.length; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      m.data[i] = (((state >>> 8) % 2001) - 1000) / divisor;
    }
    return m;
  };
  const dk = dModel / heads;
  const x = fill(n, dModel, 1000);
  const hs = [];
  for (let h = 0; h < heads; h++)
    hs.push({ wq: fill(dModel, dk, 8000), wk: fill(dModel, dk, 8000), wv: fill(dModel, dk, 8000) });
  return { x, p: { heads: hs, wo: fill(heads * dk, dModel, 8000) } };
}
