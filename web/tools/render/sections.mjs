// One HTML block per section kind of entry.json (assets/content/SCHEMA.md), and the interactive
// stage (canvas, controls, live description) that index.html and embed.html share.
import { BuildError, fail } from './errors.mjs';
import { F } from './format.mjs';
import { esc, inline, safeHref } from './inline.mjs';
import { diagramSvg } from './diagram.mjs';
import { modelControlsHtml } from './model.mjs';

export function paragraphs(list, fill) { return (list || []).map((p) => `<p>${inline(p, fill)}</p>`).join('\n'); }

function subsections(s, fill, level) {
  return (s.subsections || []).map((x) =>
    `<div class="subsection" id="${esc(x.id)}"><h${level} class="subheading">${inline(x.heading, fill)}</h${level}>\n${paragraphs(x.paragraphs, fill)}</div>`).join('\n');
}

// A still preview of the canvas while the app has not loaded (web/js/loader.js loads it when the
// reader nears the stage): the scenario's weights as bars, the engine's numbers. Decorative (the
// live description below says the same), sized by CSS to the stage.
function previewSvg(s) {
  const rows = s.candidates.map((c, i) => {
    const y = 50 + i * 40, w = Math.max(2, Math.round(c.weight * 190));
    return `<text class="pv-label" x="0" y="${y + 18}">${esc(c.token)}</text>` +
      `<rect class="pv-track" x="120" y="${y}" width="190" height="24" rx="6"/>` +
      `<rect class="pv-bar" x="120" y="${y}" width="${w}" height="24" rx="6"/>` +
      `<text class="pv-num" x="322" y="${y + 18}">${esc(F.weight(c.weight))}</text>`;
  }).join('');
  const h = 50 + s.candidates.length * 40;
  return `<svg class="stage-preview" aria-hidden="true" focusable="false" viewBox="0 0 370 ${h}">` +
    `<text class="pv-title" x="0" y="24">${esc(s.tokens[s.focus])}</text>${rows}</svg>`;
}

// opts: {page: 'page' | 'embed' (which of labels.still the fallback messages promise), stepNames
// (the titles of the entry's steps section), choices (the Example select, from index.json),
// scenario, liveLevel}
export function stageHtml(s, fill, data, opts = {}) {
  const L = s.labels;
  const names = opts.stepNames;
  if (!Array.isArray(names) || names.length !== 4) fail('the stage needs the four step names (from the steps section)');
  const still = L.still && L.still[opts.page || 'page'];
  if (typeof still !== 'string') fail(`labels.still.${opts.page || 'page'} is missing: what works without the canvas`);
  const msg = (m) => `${m} ${still}`;
  const initial = data[opts.scenario || 'diagram'];
  const model = data.model || null;  // the trained model (render/model.mjs), if the build has one
  // the Example select: the scenarios in their index order; a free-text one starts disabled; the
  // trained model last (never a scenario file), disabled until the canvas runs
  const choices = opts.choices || Object.keys(data).filter((id) => id !== 'model').map((id) => ({ id, fixed: true }));
  const scen = choices.map(({ id, fixed }) => {
    if (typeof L.scenarios[id] !== 'string') fail(`labels.scenarios has no name for the scenario "${id}"`);
    const state = !fixed ? ' disabled' : id === (opts.scenario || 'diagram') ? ' selected' : '';
    return `<option value="${esc(id)}"${state}>${esc(L.scenarios[id])}</option>`;
  }).join('') + (model ? `<option value="model" disabled>${esc(L.scenarios.model)}</option>` : '');
  const views = L.views.map((v, i) => ({ v, i })).filter(({ i }) => model || i < L.views.length - 1);
  const focusTok = initial.tokens[initial.focus];
  const engineData = Object.entries(data).filter(([id]) => id !== 'model').map(([id, j]) => ` data-scenario-${id}="${esc(JSON.stringify(j))}"`).join('') +
    (model ? ` data-model="${esc(JSON.stringify(model.record))}"` : '');
  const M = L.model || {};
  return `<div class="stage-wrap" id="stage" data-stage>
<div class="engine-data" id="engine-data" hidden${engineData} data-steps="${esc(JSON.stringify(names))}" data-messages="${esc(JSON.stringify({ loading: L.loading, no_webgl: msg(L.no_webgl), no_app: msg(L.no_app), context_lost: L.context_lost,
    model_loading: M.loading, model_loaded: M.loaded, model_failed: M.failed, model_missing: M.missing, model_help: M.own_help }))}"></div>
<div class="attention-stage" id="attention-stage" data-app-state="none">
  <canvas id="attention-canvas" tabindex="0" role="application" aria-label="${esc(L.canvas)}" aria-describedby="live-description"></canvas>
  ${previewSvg(initial)}
  <p class="stage-message" id="stage-message" role="status">${esc(msg(L.no_js))}</p>
</div>
<form class="controls" id="stage-controls" novalidate>
  <div class="control-row">
    <div class="field"><label for="scenario-select">${esc(L.scenario)}</label>
      <select id="scenario-select" name="scenario" disabled>${scen}</select></div>
    <div class="field"><label for="focus-select">${esc(L.focus)}</label>
      <select id="focus-select" name="focus" disabled><option value="${initial.focus}">${esc(focusTok)}</option></select></div>
    <div class="field"><label for="view-select">${esc(L.view)}</label>
      <select id="view-select" name="view" disabled>${views.map(({ v, i }) => `<option value="${i}">${esc(v)}</option>`).join('')}</select></div>
    <div class="field field-steps" role="group" aria-labelledby="step-label">
      <span class="label" id="step-label">Step</span>
      <div class="step-buttons">
        <button type="button" id="step-back" class="btn" disabled>← ${esc(L.back)}</button>
        <output id="step-status" for="step-back step-next" aria-live="off">4 / 4</output>
        <button type="button" id="step-next" class="btn" disabled>${esc(L.next)} →</button>
      </div>
    </div>
  </div>
  <div class="control-row sentence-row">
    <div class="field field-grow"><label for="sentence-input">${esc(L.sentence)}</label>
      <input type="text" id="sentence-input" name="sentence" maxlength="${Number(L.max_chars) || 800}" autocomplete="off" spellcheck="false" aria-describedby="sentence-help sentence-error" disabled>
      <p class="help" id="sentence-help">${esc(L.sentence_help.replace('{chars}', String(Number(L.max_chars) || 800)))}</p>
      <p class="error" id="sentence-error" role="alert"></p></div>
    <button type="submit" id="sentence-submit" class="btn btn-primary" disabled>${esc(L.submit)}</button>
  </div>
  ${modelControlsHtml(L, model)}
  <p class="error" id="control-error" role="alert"></p>
</form>
<div class="live-wrap"><h${opts.liveLevel || 4} class="live-title" id="live-title">What the picture shows now</h${opts.liveLevel || 4}>
<p id="live-description" class="live-description" aria-live="polite" aria-labelledby="live-title">${esc(F.describe(initial, names))}</p></div>
</div>`;
}

// A section's HTML; any failure inside it names the section.
// ctx: what a section needs from the rest of the entry ({stepNames} for the stage).
export function sectionHtml(s, fill, data, level, ctx = {}) {
  try {
    return sectionBody(s, fill, data, level, ctx);
  } catch (e) {
    if (e instanceof BuildError) throw new BuildError(`section "${s.id}": ${e.message.replace(/^section "[^"]*": /, '')}`);
    throw e;
  }
}

function sectionBody(s, fill, data, level, ctx) {
  const h = `h${level}`;
  const head = `<${h} id="${esc(s.id)}-title">${inline(s.heading, fill)}</${h}>`;
  let body = '';
  switch (s.kind) {
    case 'prose':
      body = paragraphs(s.paragraphs, fill) + subsections(s, fill, level + 1);
      break;
    case 'callout':
      body = `<div class="callout">${paragraphs(s.paragraphs, fill)}</div>`;
      break;
    case 'steps': {
      const d = s.diagram;
      body = `<p class="goal"><strong>Learning goal.</strong> ${inline(s.goal, fill)}</p>
<ol class="steps" id="steps-list">${s.steps.map((st, i) =>
        `<li class="step" data-step="${i}"><span class="step-num" aria-hidden="true">0${i + 1}</span><div><strong class="step-title">${inline(st.title, fill)}</strong><p>${inline(st.text, fill)}</p></div></li>`).join('\n')}</ol>
<figure class="diagram" id="diagram" aria-labelledby="diagram-title" aria-describedby="diagram-desc">
<figcaption><strong id="diagram-title">${inline(d.title, fill)}</strong></figcaption>
<div class="diagram-pictures" id="diagram-pictures">${diagramSvg(data.diagram, s, fill, 'wide')}\n${diagramSvg(data.diagram, s, fill, 'narrow')}</div>
<p class="diagram-readout" id="diagram-readout" aria-live="polite">${inline(d.hint, fill)}</p>
<div class="diagram-desc" id="diagram-desc"><p>${inline(d.description, fill)}</p><p class="reduced-desc">${inline(d.static_description, fill)}</p></div>
<p class="diagram-note" id="diagram-note">${inline(d.correction, fill)}</p>
</figure>`;
      break;
    }
    case 'stage':
      body = paragraphs(s.paragraphs, fill) + stageHtml(s, fill, data, { page: 'page', stepNames: ctx.stepNames, choices: ctx.choices });
      break;
    case 'table':
      body = `<div class="table-scroll"><table class="mapping"><caption>${inline(s.note, fill)}</caption>
<thead><tr>${s.columns.map((c) => `<th scope="col">${inline(c, fill)}</th>`).join('')}</tr></thead>
<tbody>${s.rows.map((r) => `<tr><th scope="row">${inline(r[0], fill)}</th><td>${inline(r[1], fill)}</td></tr>`).join('\n')}</tbody></table></div>`;
      break;
    case 'worked':
      body = `<p>${inline(s.intro, fill)}</p>
<p class="worked-start"><strong>Starting point.</strong> ${inline(s.start, fill)}</p>
<ol class="worked-steps">${s.steps.map((x) => `<li>${inline(x, fill)}</li>`).join('\n')}</ol>
<p class="worked-result"><strong>Result.</strong> ${inline(s.result, fill)}</p>`;
      break;
    case 'scenario':
      body = paragraphs(s.paragraphs, fill) +
        `<aside class="caution" aria-labelledby="${esc(s.id)}-caution"><h${level + 1} id="${esc(s.id)}-caution">${inline(s.caution.heading, fill)}</h${level + 1}>${paragraphs(s.caution.paragraphs, fill)}</aside>`;
      break;
    case 'list':
      body = `<ul class="plain-list">${s.items.map((x) => `<li>${inline(x, fill)}</li>`).join('\n')}</ul>`;
      break;
    case 'terms':
      body = `<dl class="terms">${s.terms.map((x) => `<div><dt>${inline(x.term, fill)}</dt><dd>${inline(x.definition, fill)}</dd></div>`).join('\n')}</dl>`;
      break;
    case 'misconceptions':
      body = `<ul class="myths">${s.items.map((x, i) => `<li class="myth" data-misconception="${i + 1}"><p class="myth-claim"><span class="tag tag-myth">Misconception</span> ${inline(x.myth, fill)}</p><p class="myth-fix"><span class="tag tag-fix">Correction</span> ${inline(x.correction, fill)}</p></li>`).join('\n')}</ul>`;
      break;
    case 'quiz':
      body = quizHtml(s, fill, level);
      break;
    case 'resources':
      body = `<ul class="resources">${s.items.map((r) => {
        // resources open in a new tab: the allow-list, and https only
        if (!safeHref(r.href).startsWith('https://')) fail(`resource link must be https: ${r.href}`);
        return `<li class="resource"><span class="tag">${esc(r.kind)}</span>
<a href="${esc(r.href)}" target="_blank" rel="noopener noreferrer">${esc(r.title)} <span class="visually-hidden">${esc(s.new_tab)}</span><span class="ext" aria-hidden="true">↗</span></a>
<span class="resource-author">${esc(r.author)}</span>
<p>${inline(r.note, fill)}</p>
<p class="resource-meta"><span>${esc(r.level)}</span> · <span>${esc(s.checked)}</span></p></li>`;
      }).join('\n')}</ul>`;
      break;
    default:
      fail(`section "${s.id}": unknown kind "${s.kind}"`);
  }
  const cls = s.kind === 'callout' ? ' section-callout' : '';
  return `<section class="section${cls}" id="${esc(s.id)}" data-section="${esc(s.id)}" aria-labelledby="${esc(s.id)}-title">\n${head}\n${body}\n</section>`;
}

export function quizHtml(s, fill, level) {
  const qs = s.questions.map((q, qi) => {
    const right = q.options.filter((o) => o.correct);
    if (right.length !== 1) fail(`quiz question ${q.id}: needs exactly one correct option`);
    const opts = q.options.map((o, oi) => `<li><label class="option" data-correct="${o.correct ? 'true' : 'false'}">` +
      `<input type="radio" name="${esc(q.id)}" value="${oi}" data-feedback="${esc(fill(o.feedback))}"> <span>${inline(o.text, fill)}</span></label></li>`).join('\n');
    return `<fieldset class="question" id="${esc(q.id)}" data-question="${qi + 1}">
<legend><span class="q-num">Question ${qi + 1}</span> ${inline(q.prompt, fill)}</legend>
<ul class="options">${opts}</ul>
<p class="feedback" id="${esc(q.id)}-feedback" aria-live="polite"></p>
<details class="answer"><summary>${esc(s.reveal)}</summary><p><strong>Answer:</strong> ${inline(right[0].text, fill)}</p><p>${inline(q.explanation, fill)}</p></details>
</fieldset>`;
  }).join('\n');
  return `<p>${inline(s.intro, fill)}</p>
<form class="quiz" id="quiz" novalidate data-unanswered="${esc(s.unanswered)}" data-score="${esc(s.score)}">
${qs}
<div class="quiz-actions"><button type="submit" class="btn btn-primary" id="quiz-submit" hidden>${esc(s.submit)}</button>
<button type="button" class="btn" id="quiz-retry" hidden>${esc(s.retry)}</button></div>
<p class="quiz-result" id="quiz-result" aria-live="polite"></p>
</form>`;
}

