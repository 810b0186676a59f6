// The four-step SVG diagram, drawn from the engine's state for the diagram scenario: the focus
// token and its query, one row per candidate (key and value, comparison, score, weight,
// contribution), the normalise stage and the merged output.
import { F } from './format.mjs';
import { fail } from './errors.mjs';
import { esc, plainText } from './inline.mjs';

// How many candidates the diagram can draw (one row each).
export const MIN_CANDIDATES = 2, MAX_CANDIDATES = 6;

// Long token labels get a smaller font, and very long ones are squeezed to fit their box.
export const tokenClass = (tok, small) => ([...tok].length > small ? 'd-token d-token-sm' : 'd-token');
export const fitAttr = (tok, max, px) => ([...tok].length > max ? ` textLength="${px}" lengthAdjust="spacingAndGlyphs"` : '');
export function diagramSvg(state, d, fill) {
  const L = d.labels;
  const t = (s) => plainText(s, fill);
  const n = state.candidates.length;
  if (n < MIN_CANDIDATES || n > MAX_CANDIDATES) fail(`the diagram draws ${MIN_CANDIDATES} to ${MAX_CANDIDATES} candidates; the diagram scenario has ${n}`);
  const rows = state.candidates.map((c, i) => ({ c, y: 200 + i * 100 }));
  const focus = state.tokens[state.focus];
  const W = 1040, H = rows[n - 1].y + 120;
  const out = [];
  out.push(`<svg class="diagram-svg" id="diagram-svg" viewBox="0 0 ${W} ${H}" role="group" aria-labelledby="diagram-title" aria-describedby="diagram-desc" data-step="3">`);
  // column headers (the four steps)
  const cols = [[20, 230], [270, 540], [560, 800], [820, 1020]];
  cols.forEach(([x0, x1], i) => {
    out.push(`<g class="d-col" data-col="${i}"><rect class="d-col-band" x="${x0}" y="8" width="${x1 - x0}" height="${H - 16}" rx="14"/>` +
      `<text class="d-col-label" x="${x0 + 14}" y="36">${t(L.columns[i])}</text></g>`);
  });
  // focus token + query chip, and the query bus down to the comparisons
  out.push(`<g class="d-focus-group" aria-hidden="true">` +
    `<text class="d-small" x="36" y="74">${t(L.focus)}</text>` +
    `<rect class="d-box d-focus" x="36" y="84" width="180" height="60" rx="10"/>` +
    `<text class="${tokenClass(focus, 12)}" x="56" y="121"${fitAttr(focus, 18, 144)}>${esc(focus)}</text>` +
    `<rect class="d-chip d-chip-q" x="290" y="100" width="100" height="28" rx="14"/>` +
    `<text class="d-chip-text" x="340" y="119" text-anchor="middle">${t(L.query)}</text>` +
    `<path class="d-line d-q" d="M216 114 H290"/>` +
    `<path class="d-line d-q" d="M340 128 V${rows[rows.length - 1].y}"/></g>`);
  // normalise box and sum note
  const nTop = rows[0].y - 40, nBot = rows[rows.length - 1].y + 40;
  out.push(`<g class="d-norm-group"><rect class="d-box d-norm" x="600" y="${nTop}" width="110" height="${nBot - nTop}" rx="12"/>` +
    `<text class="d-norm-text" x="655" y="${(nTop + nBot) / 2 - 4}" text-anchor="middle">${t(L.normalise)}</text>` +
    `<text class="d-small" x="655" y="${(nTop + nBot) / 2 + 16}" text-anchor="middle">softmax</text>` +
    `<text class="d-sum" x="680" y="${nBot + 30}" text-anchor="middle">${t(L.sum)}</text></g>`);
  // output box
  const oy = (rows[0].y + rows[rows.length - 1].y) / 2;
  out.push(`<g class="d-out-group"><rect class="d-box d-out" x="900" y="${oy - 50}" width="120" height="100" rx="12"/>` +
    `<text class="d-out-text" x="960" y="${oy - 8}" text-anchor="middle">new token</text>` +
    `<text class="d-out-text" x="960" y="${oy + 14}" text-anchor="middle">representation</text>` +
    `<text class="d-small" x="960" y="${oy + 36}" text-anchor="middle">for “${esc(focus)}”</text></g>`);
  // one focusable group per candidate: its token, key/value chips, comparison, score, weight, contribution
  rows.forEach(({ c, y }, i) => {
    const sc = F.score(c.score), wt = F.weight(c.weight);
    const label = `${c.token}: score ${sc}, weight ${wt}`;
    // The row is the hover area; the button inside it is just the token box, so its visible text
    // (the token) is part of its accessible name (WCAG 2.5.3). The rest of the row is drawing.
    out.push(`<g class="d-cand" data-index="${i}" data-position="${c.position}" ` +
      `data-token="${esc(c.token)}" data-score="${esc(sc)}" data-weight="${esc(wt)}">` +
      `<rect class="d-hit" x="30" y="${y - 44}" width="870" height="88"/>` +
      `<g class="d-cand-btn" tabindex="0" role="button" aria-pressed="false" aria-label="${esc(label)}">` +
      `<rect class="d-box d-cand-box" x="36" y="${y - 36}" width="180" height="72" rx="10"/>` +
      `<text class="${tokenClass(c.token, 7)}" x="52" y="${y + 7}"${fitAttr(c.token, 9, 84)}>${esc(c.token)}</text></g>` +
      `<g aria-hidden="true">` +
      `<rect class="d-chip d-chip-k" x="146" y="${y - 28}" width="60" height="24" rx="12"/>` +
      `<text class="d-chip-text" x="176" y="${y - 11}" text-anchor="middle">${t(L.key)}</text>` +
      `<rect class="d-chip d-chip-v" x="146" y="${y + 4}" width="60" height="24" rx="12"/>` +
      `<text class="d-chip-text" x="176" y="${y + 21}" text-anchor="middle">${t(L.value)}</text>` +
      `<path class="d-line d-path" d="M206 ${y - 16} H318"/>` +
      `<circle class="d-cmp" cx="340" cy="${y}" r="22"/>` +
      `<text class="d-cmp-text" x="340" y="${y + 5}" text-anchor="middle">${t(L.compare)}</text>` +
      `<path class="d-line d-path" d="M362 ${y} H400"/>` +
      `<rect class="d-pill d-score" x="400" y="${y - 18}" width="130" height="36" rx="18"/>` +
      `<text class="d-pill-text" x="465" y="${y + 6}" text-anchor="middle">${t(L.score)} <tspan class="d-num">${esc(sc)}</tspan></text>` +
      `<path class="d-line d-path" d="M530 ${y} H600"/>` +
      `<path class="d-line d-path" d="M710 ${y} H730"/>` +
      `<rect class="d-pill d-weight" x="730" y="${y - 18}" width="80" height="36" rx="18"/>` +
      `<text class="d-pill-text d-num" x="770" y="${y + 6}" text-anchor="middle">${esc(wt)}</text>` +
      `<path class="d-line d-path" d="M810 ${y} H826"/>` +
      `<circle class="d-cmp d-mix" cx="848" cy="${y}" r="22"/>` +
      `<text class="d-cmp-text" x="848" y="${y + 5}" text-anchor="middle">× v</text>` +
      `<path class="d-line d-path d-contrib" d="M870 ${y} C885 ${y} 885 ${oy} 900 ${oy}"/>` +
      `</g></g>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
