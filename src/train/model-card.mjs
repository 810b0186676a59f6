// model-card.mjs - writes the model card (README.md) and the loss curve (loss.svg) of the shipped
// model from the figures of its training run (model.json, written by attention_train).
// Usage: node src/train/model-card.mjs assets/model   (scripts/train runs it)
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";

const dir = process.argv[2];
if (!dir) { console.error("usage: node src/train/model-card.mjs <dir with model.json and model.bin>"); process.exit(2); }
const run = JSON.parse(readFileSync(join(dir, "model.json"), "utf8"));
const weights = readFileSync(join(dir, run.weights.file));
const gz = gzipSync(weights, { level: 9 }).length;
const f = (x, d = 3) => Number(x).toFixed(d);
const minutes = (s) => `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
const pct = (model, base) => f((100 * (base - model)) / base, 1);
const kb = (n) => `${f(n / 1024, 1)} KB`;

// ---- loss curve: two panels sharing the step axis -------------------------------------------
function lossSvg() {
  const W = 720, H = 470, left = 64, right = 16, panel = 170, gap = 50, top = 34;
  const steps = run.training.steps;
  const x = (s) => left + ((W - left - right) * s) / steps;
  const mean = [];  // 50-step running mean of the training loss
  let sum = 0;
  run.loss_curve.forEach(([s, l], i) => {
    sum += l;
    if (i >= 50) sum -= run.loss_curve[i - 50][1];
    if ((i + 1) % 10 === 0 || i === run.loss_curve.length - 1) mean.push([s, sum / Math.min(i + 1, 50)]);
  });
  const out = [];
  const axis = (y0, lo, hi, label, unit) => {
    const y = (v) => y0 + panel - (panel * (v - lo)) / (hi - lo);
    out.push(`<text x="${left}" y="${y0 - 10}" class="t">${label}</text>`);
    for (let k = 0; k <= 4; k++) {
      const v = lo + ((hi - lo) * k) / 4;
      out.push(`<line x1="${left}" x2="${W - right}" y1="${y(v)}" y2="${y(v)}" class="g"/>`,
        `<text x="${left - 6}" y="${y(v) + 4}" class="a" text-anchor="end">${f(v, 2)}</text>`);
    }
    out.push(`<text x="14" y="${y0 + panel / 2}" class="a" transform="rotate(-90 14 ${y0 + panel / 2})" text-anchor="middle">${unit}</text>`);
    return y;
  };
  const path = (pts, y) => "M" + pts.map(([s, v]) => `${f(x(s), 1)},${f(y(v), 1)}`).join("L");
  const lo1 = Math.floor(Math.min(...mean.map((p) => p[1]))), hi1 = Math.ceil(Math.max(...mean.map((p) => p[1])));
  const y1 = axis(top, lo1, hi1, "Training loss (50-step mean; includes the synthetic sequences)", "nats per token");
  out.push(`<path d="${path(mean, y1)}" class="l1"/>`);
  const b = run.baselines, vals = run.val_curve.map((p) => p[1]);
  const lo2 = Math.floor(Math.min(...vals, run.val_bpb) * 4) / 4;
  const hi2 = Math.ceil(Math.max(b.bigram_bpb, Math.min(Math.max(...vals), b.unigram_bpb)) * 4) / 4;
  const y0b = top + panel + gap;
  const y2 = axis(y0b, lo2, hi2, `Validation bits per byte (first ${run.training.eval_windows} windows) and the token bigram`, "bits per byte");
  out.push(`<line x1="${left}" x2="${W - right}" y1="${y2(b.bigram_bpb)}" y2="${y2(b.bigram_bpb)}" class="bl"/>`,
    `<text x="${W - right - 4}" y="${y2(b.bigram_bpb) - 5}" class="a" text-anchor="end">bigram ${f(b.bigram_bpb)}</text>`,
    `<path d="${path(run.val_curve.filter((p) => p[1] <= hi2), y2)}" class="l2"/>`);
  for (let k = 0; k <= 4; k++) {
    const s = Math.round((steps * k) / 4);
    out.push(`<text x="${x(s)}" y="${y0b + panel + 18}" class="a" text-anchor="middle">${s}</text>`);
  }
  out.push(`<text x="${(W + left) / 2}" y="${H - 8}" class="a" text-anchor="middle">training step</text>`);
  if (run.first_stage) {  // where stage 2 starts
    const s2 = run.first_stage.steps;
    out.push(`<line x1="${x(s2)}" x2="${x(s2)}" y1="${top}" y2="${y0b + panel}" class="bl"/>`,
      `<text x="${x(s2) + 4}" y="${top + 12}" class="a">stage 2</text>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="title">
<title id="title">Loss curve of the shipped model: training loss falls from ${f(mean[0][1], 2)} to ${f(mean.at(-1)[1], 2)} nats per token; validation ${f(vals.at(-1))} bits per byte against a bigram baseline of ${f(b.bigram_bpb)}</title>
<style>.t{font:600 13px sans-serif;fill:#222}.a{font:11px sans-serif;fill:#555}.g{stroke:#ddd}.l1{fill:none;stroke:#1f5fa8;stroke-width:2}.l2{fill:none;stroke:#b3471d;stroke-width:2}.bl{stroke:#777;stroke-dasharray:5 4}
@media (prefers-color-scheme: dark){.t{fill:#eee}.a{fill:#bbb}.g{stroke:#444}}</style>
<rect width="100%" height="100%" fill="none"/>
${out.join("\n")}
</svg>
`;
}

// ---- the card -------------------------------------------------------------------------------
const c = run.config, t = run.training, b = run.baselines;
const s1 = run.first_stage || t;  // a one-stage run has no first_stage
const stages = run.first_stage ? [s1, t] : [t];
const natural = (x) => 1 - x.synthetic_fraction - (x.triplet_fraction ?? 0);
const totalSeconds = t.total_seconds ?? t.seconds, totalTokens = t.total_tokens ?? t.tokens;
const heads = run.heads.map((h) =>
  `| ${h.layer} | ${h.head} | ${f(h.previous_token)} | ${f(h.first_token)} | ${f(h.self)} | ${f(h.induction)} | ${h.ablation_loss_delta >= 0 ? "+" : ""}${f(h.ablation_loss_delta, 4)} | ${h.label} |`).join("\n");
const th = run.analysis.thresholds;
const below = Number(pct(run.val_bpb, b.bigram_bpb));
const card = `# The project's transformer: model card

*Written by \`scripts/train\` from the run itself (\`model.json\` holds every figure below). Do not
edit by hand: rerun \`scripts/train\`.*

A decoder-only transformer small enough to read: ${c.layers} layers, ${c.heads} heads, d_model ${c.d_model},
${run.parameters.toLocaleString("en")} parameters. It was trained from scratch by this project's own C++ code
(\`src/engine/transformer.cpp\`, \`src/train/\`) on the definitions and example sentences of WordNet,
so that a reader can take its real attention heads apart with the same four steps as the glossary's
worked example (dot product, score, weight, mix).

## Corpus and licence

- Debian package \`${run.corpus.package}\`, version \`${run.corpus.version}\` (WordNet 3.0), files
  ${run.corpus.files.map((x) => `\`${x.name}\``).join(", ")} (SHA-256 recorded in \`src/model/corpus.cpp\`
  and checked by the trainer${run.corpus.matches_recorded ? "; they matched for this run" : "; **they did NOT match for this run**"}).
- One line per synset: \`<first word>: <gloss>\`, for example
  \`sedate: cause to be calm or quiet as by administering a sedative to; "The patient must be sedated before the operation"\`.
- Fixed split: every ${run.corpus.val_every}th line is held out for validation:
  ${run.corpus.train_bytes.toLocaleString("en")} bytes (${run.corpus.train_tokens.toLocaleString("en")} tokens) for training,
  ${run.corpus.val_bytes.toLocaleString("en")} bytes (${run.corpus.val_tokens.toLocaleString("en")} tokens) for validation.
- The corpus is not in the repository; \`scripts/install\` installs the package.
- Training also uses a stated share of synthetic sequences (per stage in the table under Training):
  - **repeats**: ${t.synthetic_min}-${t.synthetic_max} random tokens repeated once, after a random prefix of 0-${t.prefix_max ?? 128} random
    tokens (so the copy's place varies); only the predictable tokens of the second copy are scored;
  - **triplets**: \`a b a c d c ...\` with random tokens; only each triplet's last token is scored, and only
    the token before the one before it tells what it is, which rewards a head that attends to the
    previous token;
  - **copied spans**: in a share of the natural windows, a span of ${t.synthetic_min}-${t.synthetic_max} tokens is copied
    further on in the same window (every token scored).

  Random tokens are drawn from the ${t.random_tokens ?? "printable"} tokens whose bytes are printable ASCII, the ones
  the English text uses (the head analysis's induction test draws from the same set): the other
  ids, control characters and lone bytes of non-ASCII letters, hardly occur, so the model has
  learnt no identity for them to copy.

  Natural definitions rarely repeat a long span, and a 2-layer model of this size trained for minutes
  does not grow an induction head from them alone: the repeats are there to grow one, on top of the
  previous-token heads that the triplets grow (whether they did is in the head table below).
  Validation uses natural text only.${run.first_stage ? `
  The second stage keeps a few percent of synthetic sequences, enough for the grown heads to stay,
  and gives the natural text, the text the model is measured on, ${f(100 * natural(t), 0)}% of each batch.` : ""}

WordNet's licence asks that this notice appear on all copies, including modifications:

\`\`\`
${run.corpus.licence.trim()}
\`\`\`

## Tokenizer

Byte-level BPE trained by the project (\`src/model/bpe.cpp\`) on the training split: 256 byte tokens
+ ${run.tokenizer.merges} merges = ${run.tokenizer.vocab} tokens. Merges never cross a chunk boundary (an optional leading
space + a run of letters, or digits, or one other character). Any UTF-8 text tokenizes; there is no
unknown token. Shown readably: a leading space as ␣, a newline as ↵, bytes that are not text as \`<0xE2>\`.
Example: \`${run.tokenizer.sample}\` →
${run.tokenizer.sample_tokens.map((x) => "`" + x + "`").join(" ")}

## Architecture

| | |
|---|---|
| layers, heads, d_model, d_k | ${c.layers}, ${c.heads}, ${c.d_model}, ${c.d_model / c.heads} |
| MLP | ${c.d_model} → ${c.d_ff} → ${c.d_model}, GELU (tanh form) |
| context | ${c.context} tokens; learned position embeddings (initialised as sinusoids) |
| normalisation | pre-LayerNorm in each block, final LayerNorm |
| unembedding | tied to the token embedding |
| parameters | ${run.parameters.toLocaleString("en")} |
| attention | causal; each head's row goes through the engine's own \`scores\`, \`scale_scores\`, \`build_mask\`, \`apply_mask\`, \`softmax\`, \`mix\` |

## Training

AdamW (β1 ${t.beta1}, β2 ${t.beta2}, weight decay ${t.weight_decay} on matrices and embeddings), warm-up then cosine
decay to a tenth of the peak rate, gradient norm clipped at ${t.clip}, ${t.batch} sequences per step (a corpus sequence is
${c.context} tokens), ${t.threads} thread${t.threads === 1 ? "" : "s"} (the batch split between them, their gradients summed in a fixed order), fixed
seeds; a run is repeatable bit for bit on one build with the same thread count.

| stage | steps | peak rate | warm-up | natural windows (with a copied span) | repeats | triplets | seed | tokens | time |
|---|---|---|---|---|---|---|---|---|---|
${stages.map((x, i) => `| ${i + 1}${i ? " (from stage 1's weights)" : " (from scratch)"} | ${x.stage_steps ?? x.steps} | ${x.lr} | ${x.warmup} | ${f(100 * natural(x), 0)}% (${f(100 * (x.copy_fraction ?? 0), 0)}% of them) | ${f(100 * x.synthetic_fraction, 0)}% | ${f(100 * (x.triplet_fraction ?? 0), 0)}% | ${x.seed} | ${x.tokens.toLocaleString("en")} | ${minutes(x.seconds)} |`).join("\n")}

Hand-written backward pass for every layer, checked against finite differences in double precision
(\`tests/model/test_transformer.cpp\`).
Total: ${t.steps} steps, ${totalTokens.toLocaleString("en")} tokens, **${minutes(totalSeconds)}** on this machine
(${Math.round(totalTokens / totalSeconds).toLocaleString("en")} tokens/s with ${t.threads} threads on a 2-core machine).

![Loss curve](loss.svg)

## How good is it

Bits per byte of the validation text (lower is better), every figure on the same predicted text:

| model | bits per byte |
|---|---|
| this transformer, int8 weights (shipped) | **${f(run.val_bpb, 4)}** |
| this transformer, float32 weights | ${f(run.val_bpb_float, 4)} |
| bigram over the same tokens (counts, Dirichlet prior μ = ${b.bigram_prior} on the unigram, μ chosen on validation) | ${f(b.bigram_bpb, 4)} |
| unigram over the same tokens (add-one) | ${f(b.unigram_bpb, 4)} |
| bigram over bytes (the same model with 256 byte tokens) | ${f(b.byte_bigram_bpb, 4)} |
| unigram over bytes | ${f(b.byte_unigram_bpb, 4)} |

The transformer is **${pct(run.val_bpb, b.bigram_bpb)}% below the token bigram** ${below >= 25 ? "(the goal: at least 25%)" : "(the goal was at least 25%: **not reached**)"} and
${pct(run.val_bpb, b.byte_bigram_bpb)}% below the byte bigram.
Quantisation (int8, one float scale per matrix row; vectors stay float32) changes validation loss by
**${f(run.quantisation_delta_percent, 3)}%** (the limit is 1%).

## Heads

Measured on the shipped weights (\`attention_cli model --analyse\`): mean attention weight on the
previous token, on the first token of the window and on itself over ${run.analysis.windows} validation windows;
induction: on ${run.analysis.induction_sequences} sequences of ${run.analysis.induction_length} random tokens repeated once, the mean
weight from a token in the second copy onto the token that followed its earlier occurrence; ablation:
the rise in validation bits per byte (same windows) when the head's output is zeroed.
Labels: induction ≥ ${th.induction}, else previous-token ≥ ${th.previous_token}, else self ≥ ${th.self}, else first-token ≥ ${th.first_token}, else mixed.

${run.heads.some((h) => h.label === "previous-token") && run.heads.some((h) => h.label === "induction") ? "" : "**No head of this run clears the previous-token (" + th.previous_token + ") and induction (" + th.induction + ") thresholds together: the goal of at least one of each is not met yet.** The strongest previous-token score is " + f(Math.max(...run.heads.map((h) => h.previous_token))) + ", the strongest induction score " + f(Math.max(...run.heads.map((h) => h.induction))) + ".\n\n"}| layer | head | previous | first | self | induction | ablation (bits/byte) | label |
|---|---|---|---|---|---|---|---|
${heads}

## Weights file

\`${run.weights.file}\`: format version ${run.weights.version}, ${run.weights.encoding}, ${weights.length.toLocaleString("en")} bytes
(${kb(weights.length)}; ${kb(gz)} gzipped), SHA-256 \`${run.weights.sha256}\`.
Byte layout: \`docs/model.md\`.

## What it cannot do

It is tiny. At best it continues a definition plausibly for a few words: it has learned spelling,
common word pairs and the shape of a WordNet gloss, not facts. It does not understand anything, it
cannot answer questions, and what it writes is often wrong or nonsense. It knows only what was in
WordNet's definitions (modern American English). Its heads show simple patterns (the previous
token, copying a repeated span, resting on the first token) that are easy to see, which is why it
is here; larger models' heads are far less tidy. Do not use it for anything but looking inside.
`;
writeFileSync(join(dir, "README.md"), card);
writeFileSync(join(dir, "loss.svg"), lossSvg());
console.log(`model card: ${join(dir, "README.md")}, loss curve: ${join(dir, "loss.svg")}; weights ${weights.length} bytes, ${gz} gzipped`);
