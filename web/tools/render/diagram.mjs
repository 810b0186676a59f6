// The four-step SVG diagram, drawn from the engine's state for the diagram scenario, in two
// layouts of the same parts: `wide` (the four steps as columns, one row per candidate) and `narrow`
// (the four steps as bands from top to bottom, for phones; the CSS shows one of them). Each
// candidate is one <g class="d-cand"> holding everything that belongs to it (its token, key and
// value, comparison, score, weight and contribution), so hovering, tapping or focusing it
// highlights its whole path; inside it, only the token box is focusable (one Tab stop, one name).
import { F } from './format.mjs';
import { fail } from './errors.mjs';
import { esc, plainText } from './inline.mjs';

// How many candidates the diagram can draw (one row each).
export const MIN_CANDIDATES = 2, MAX_CANDIDATES = 6;

// Long token labels get a smaller font, and very long ones are squeezed to fit their box.
export const tokenClass = (tok, small) => ([...tok].length > small ? 'd-token d-token-sm' : 'd-token');
const fitAttr = (tok, max, px) => ([...tok].length > max ? ` textLength="${px}" lengthAdjust="spacingAndGlyphs"` : '');
// The room of a label inside its box or chip (SVG units). The boxes are sized for a typical
// sans-serif; where the reader's system-ui font is wider (DejaVu Sans is), web/js/diagram.js
// squeezes the label to this width.
const room = (px) => ` data-fit="${px}"`;

// What both layouts share: the labels, the candidates with their formatted numbers, and the SVG's
// opening tag.
function parts(state, steps, fill) {
  const d = steps.diagram;
  const n = state.candidates.length;
  if (n < MIN_CANDIDATES || n > MAX_CANDIDATES) fail(`the diagram draws ${MIN_CANDIDATES} to ${MAX_CANDIDATES} candidates; the diagram scenario has ${n}`);
  const t = (s) => plainText(s, fill);
  const cands = state.candidates.map((c, i) => ({ c, i, sc: F.score(c.score), wt: F.weight(c.weight) }));
  // the four step names come from the steps themselves: "1 · Focus" from steps[0].short
  if (!Array.isArray(steps.steps) || steps.steps.length !== 4) fail('the diagram needs the four steps (steps[4] with title and short)');
  const columns = steps.steps.map((st, i) => `${i + 1} · ${t(st.short)}`);
  return { L: d.labels, t, cands, columns, focus: state.tokens[state.focus] };
}
const open = (id, layout, W, H) => `<svg class="diagram-svg diagram-${layout}" id="${id}" viewBox="0 0 ${W} ${H}" role="group" aria-labelledby="diagram-title" aria-describedby="diagram-desc" data-step="3" data-layout="${layout}">`;
// A candidate's group and its one focusable element (the token box): the button's name is the
// token with its numbers, and its visible text (the token) is part of that name (WCAG 2.5.3).
const candOpen = ({ c, i, sc, wt }) => `<g class="d-cand" data-index="${i}" data-position="${c.position}" ` +
  `data-token="${esc(c.token)}" data-score="${esc(sc)}" data-weight="${esc(wt)}">`;
const button = ({ c, sc, wt }, inner) =>
  `<g class="d-cand-btn" tabindex="0" role="button" aria-pressed="false" aria-label="${esc(`${c.token}: score ${sc}, weight ${wt}`)}">${inner}</g>`;
const band = (i, x, y, w, h, label, lx, ly) => `<g class="d-col" data-col="${i}"><rect class="d-col-band" x="${x}" y="${y}" width="${w}" height="${h}" rx="14"/>` +
  `<text class="d-col-label" x="${lx}" y="${ly}">${label}</text></g>`;

// steps: the entry's `steps` section (its diagram labels and its four steps).
export function diagramSvg(state, steps, fill, layout = 'wide') {
  if (layout === 'wide') return wideSvg(parts(state, steps, fill));
  if (layout === 'narrow') return narrowSvg(parts(state, steps, fill));
  return fail(`unknown diagram layout "${layout}"`);
}

// ---------------------------------------------------------------- wide: steps as columns
function wideSvg({ L, t, cands, columns, focus }) {
  const rows = cands.map((x) => ({ ...x, y: 200 + x.i * 100 }));
  const n = rows.length;
  const W = 1040, H = rows[n - 1].y + 120;
  const out = [open('diagram-svg', 'wide', W, H)];
  // column headers (the four steps)
  const cols = [[20, 230], [270, 540], [560, 800], [820, 1020]];
  cols.forEach(([x0, x1], i) => out.push(band(i, x0, 8, x1 - x0, H - 16, columns[i], x0 + 14, 36)));
  // focus token + query chip, and the query bus down to the comparisons
  out.push(`<g class="d-focus-group" aria-hidden="true">` +
    `<text class="d-small" x="36" y="74">${t(L.focus)}</text>` +
    `<rect class="d-box d-focus" x="36" y="84" width="180" height="60" rx="10"/>` +
    `<text class="${tokenClass(focus, 12)}" x="56" y="121"${fitAttr(focus, 18, 144)}${room(148)}>${esc(focus)}</text>` +
    `<rect class="d-chip d-chip-q" x="290" y="100" width="100" height="28" rx="14"/>` +
    `<text class="d-chip-text" x="340" y="119" text-anchor="middle"${room(84)}>${t(L.query)}</text>` +
    `<path class="d-line d-q" d="M216 114 H290"/>` +
    `<path class="d-line d-q" d="M340 128 V${rows[n - 1].y}"/></g>`);
  // normalise box and sum note
  const nTop = rows[0].y - 40, nBot = rows[n - 1].y + 40;
  out.push(`<g class="d-norm-group"><rect class="d-box d-norm" x="600" y="${nTop}" width="110" height="${nBot - nTop}" rx="12"/>` +
    `<text class="d-norm-text" x="655" y="${(nTop + nBot) / 2 - 4}" text-anchor="middle"${room(96)}>${t(L.normalise)}</text>` +
    `<text class="d-small" x="655" y="${(nTop + nBot) / 2 + 16}" text-anchor="middle"${room(96)}>softmax</text>` +
    `<text class="d-sum" x="680" y="${nBot + 30}" text-anchor="middle">${t(L.sum)}</text></g>`);
  // output box
  const oy = (rows[0].y + rows[n - 1].y) / 2;
  out.push(`<g class="d-out-group"><rect class="d-box d-out" x="900" y="${oy - 50}" width="120" height="100" rx="12"/>` +
    `<text class="d-out-text" x="960" y="${oy - 8}" text-anchor="middle"${room(108)}>new token</text>` +
    `<text class="d-out-text" x="960" y="${oy + 14}" text-anchor="middle"${room(108)}>representation</text>` +
    `<text class="d-small" x="960" y="${oy + 36}" text-anchor="middle"${room(108)}>for “${esc(focus)}”</text></g>`);
  // one group per candidate: its token, key/value chips, comparison, score, weight, contribution
  rows.forEach((r) => {
    const { c, y, sc, wt } = r;
    out.push(candOpen(r) +
      `<rect class="d-hit" x="30" y="${y - 44}" width="870" height="88"/>` +
      button(r, `<rect class="d-box d-cand-box" x="36" y="${y - 36}" width="180" height="72" rx="10"/>` +
        `<text class="${tokenClass(c.token, 7)}" x="52" y="${y + 7}"${fitAttr(c.token, 9, 84)}${room(88)}>${esc(c.token)}</text>`) +
      `<g aria-hidden="true">` +
      `<rect class="d-chip d-chip-k" x="146" y="${y - 28}" width="60" height="24" rx="12"/>` +
      `<text class="d-chip-text" x="176" y="${y - 11}" text-anchor="middle"${room(50)}>${t(L.key)}</text>` +
      `<rect class="d-chip d-chip-v" x="146" y="${y + 4}" width="60" height="24" rx="12"/>` +
      `<text class="d-chip-text" x="176" y="${y + 21}" text-anchor="middle"${room(50)}>${t(L.value)}</text>` +
      `<path class="d-line d-path" d="M206 ${y - 16} H318"/>` +
      `<circle class="d-cmp" cx="340" cy="${y}" r="22"/>` +
      `<text class="d-cmp-text" x="340" y="${y + 5}" text-anchor="middle"${room(34)}>${t(L.compare)}</text>` +
      `<path class="d-line d-path" d="M362 ${y} H400"/>` +
      `<rect class="d-pill d-score" x="400" y="${y - 18}" width="130" height="36" rx="18"/>` +
      `<text class="d-pill-text" x="465" y="${y + 6}" text-anchor="middle"${room(112)}>${t(L.score)} <tspan class="d-num">${esc(sc)}</tspan></text>` +
      `<path class="d-line d-path" d="M530 ${y} H600"/>` +
      `<path class="d-line d-path" d="M710 ${y} H730"/>` +
      `<rect class="d-pill d-weight" x="730" y="${y - 18}" width="80" height="36" rx="18"/>` +
      `<text class="d-pill-text d-num" x="770" y="${y + 6}" text-anchor="middle"${room(64)}>${esc(wt)}</text>` +
      `<path class="d-line d-path" d="M810 ${y} H826"/>` +
      `<circle class="d-cmp d-mix" cx="848" cy="${y}" r="22"/>` +
      `<text class="d-cmp-text" x="848" y="${y + 5}" text-anchor="middle"${room(34)}>× v</text>` +
      `<path class="d-line d-path d-contrib" d="M870 ${y} C885 ${y} 885 ${oy} 900 ${oy}"/>` +
      `</g></g>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

// ---------------------------------------------------------------- narrow: steps as bands, top to bottom
// 300 units wide: at 320 px the figure is about 260 px, so 14-unit text is about 12 CSS px.
function narrowSvg({ L, t, cands, columns, focus }) {
  const W = 300, X0 = 8, BW = W - 16, P = 52, WP = 40;
  const n = cands.length;
  const qx = 172; // the query chip and the comparisons line up on this x
  // band 1: focus token and query
  const b1 = { top: 8, bottom: 104 };
  // band 2: one row per candidate: token box (with k and v), comparison, score
  const b2 = { top: b1.bottom + 8 }; b2.row = (i) => b2.top + 54 + i * P; b2.bottom = b2.row(n - 1) + 30;
  // band 3: the normalise bar, then one weight per candidate, then the sum
  const b3 = { top: b2.bottom + 8 }; b3.bar = b3.top + 36; b3.row = (i) => b3.top + 92 + i * WP; b3.sum = b3.row(n - 1) + 36; b3.bottom = b3.sum + 12;
  // band 4: weight × value per candidate, merging into the output box
  const b4 = { top: b3.bottom + 8 }; b4.row = (i) => b4.top + 52 + i * WP; b4.out = b4.row(n - 1) + 32; b4.bottom = b4.out + 80;
  const H = b4.bottom + 8;
  const out = [open('diagram-svg-narrow', 'narrow', W, H)];
  [b1, b2, b3, b4].forEach((b, i) => out.push(band(i, X0, b.top, BW, b.bottom - b.top, columns[i], X0 + 12, b.top + 24)));
  out.push(`<g class="d-focus-group" aria-hidden="true">` +
    `<rect class="d-box d-focus" x="16" y="44" width="112" height="48" rx="10"/>` +
    `<text class="d-token d-token-narrow" x="24" y="74"${fitAttr(focus, 10, 96)}${room(96)}>${esc(focus)}</text>` +
    `<path class="d-line d-q" d="M128 68 H${qx - 36}"/>` +
    `<rect class="d-chip d-chip-q" x="${qx - 36}" y="56" width="72" height="24" rx="12"/>` +
    `<text class="d-chip-text" x="${qx}" y="73" text-anchor="middle"${room(60)}>${t(L.query)}</text>` +
    `<path class="d-line d-q" d="M${qx} 80 V${b2.row(n - 1) - 15}"/></g>`);
  out.push(`<g class="d-norm-group"><rect class="d-box d-norm" x="16" y="${b3.bar}" width="${W - 32}" height="32" rx="10"/>` +
    `<text class="d-norm-text" x="${W / 2}" y="${b3.bar + 21}" text-anchor="middle"${room(W - 48)}>${t(L.normalise)} (softmax)</text>` +
    `<text class="d-sum" x="${W - 16}" y="${b3.sum}" text-anchor="end">${t(L.sum)}</text></g>`);
  const outTop = b4.out;
  out.push(`<g class="d-out-group"><rect class="d-box d-out" x="16" y="${outTop}" width="${W - 32}" height="64" rx="12"/>` +
    `<text class="d-out-text" x="${W / 2}" y="${outTop + 26}" text-anchor="middle"${room(W - 48)}>new token representation</text>` +
    `<text class="d-small" x="${W / 2}" y="${outTop + 48}" text-anchor="middle"${room(W - 48)}>for “${esc(focus)}”</text></g>`);
  cands.forEach((r) => {
    const { c, i, sc, wt } = r;
    const y = b2.row(i), wy = b3.row(i), my = b4.row(i);
    const name = (yy) => `<text class="d-row-token" x="24" y="${yy + 5}"${fitAttr(c.token, 14, 120)}${room(120)}>${esc(c.token)}</text>`;
    out.push(candOpen(r) +
      `<rect class="d-hit" x="${X0}" y="${y - 26}" width="${BW}" height="${P}"/>` +
      `<rect class="d-hit" x="${X0}" y="${wy - 20}" width="${BW}" height="${WP}"/>` +
      `<rect class="d-hit" x="${X0}" y="${my - 20}" width="${BW}" height="${WP}"/>` +
      button(r, `<rect class="d-box d-cand-box" x="16" y="${y - 22}" width="134" height="44" rx="10"/>` +
        `<text class="d-token d-token-narrow" x="24" y="${y + 6}"${fitAttr(c.token, 9, 92)}${room(92)}>${esc(c.token)}</text>`) +
      `<g aria-hidden="true">` +
      `<rect class="d-chip d-chip-k" x="122" y="${y - 19}" width="24" height="18" rx="9"/>` +
      `<text class="d-chip-text" x="134" y="${y - 5}" text-anchor="middle">k</text>` +
      `<rect class="d-chip d-chip-v" x="122" y="${y + 1}" width="24" height="18" rx="9"/>` +
      `<text class="d-chip-text" x="134" y="${y + 15}" text-anchor="middle">v</text>` +
      `<path class="d-line d-path" d="M150 ${y} H${qx - 15}"/>` +
      `<circle class="d-cmp" cx="${qx}" cy="${y}" r="15"/>` +
      `<text class="d-cmp-text" x="${qx}" y="${y + 5}" text-anchor="middle"${room(24)}>${t(L.compare).replace(/\s+/g, "")}</text>` +
      `<path class="d-line d-path" d="M${qx + 15} ${y} H196"/>` +
      `<rect class="d-pill d-score" x="196" y="${y - 16}" width="96" height="32" rx="16"/>` +
      `<text class="d-pill-text" x="244" y="${y + 5}" text-anchor="middle"${room(84)}>${t(L.score)} <tspan class="d-num">${esc(sc)}</tspan></text>` +
      name(wy) +
      `<path class="d-line d-path" d="M160 ${wy} H212"/>` +
      `<rect class="d-pill d-weight" x="212" y="${wy - 15}" width="80" height="30" rx="15"/>` +
      `<text class="d-pill-text d-num" x="252" y="${wy + 5}" text-anchor="middle"${room(64)}>${esc(wt)}</text>` +
      name(my) +
      `<text class="d-pill-text d-num" x="190" y="${my + 5}" text-anchor="end">${esc(wt)}</text>` +
      `<circle class="d-cmp d-mix" cx="220" cy="${my}" r="15"/>` +
      `<text class="d-cmp-text" x="220" y="${my + 5}" text-anchor="middle"${room(24)}>× v</text>` +
      `<path class="d-line d-path d-contrib" d="M235 ${my} H262 V${outTop}"/>` +
      `</g></g>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
