// Escaping, the link allow-list and the inline markup of entry.json (assets/content/SCHEMA.md).
import { fail } from './errors.mjs';

// Every text that reaches the page passes here; a field missing from entry.json fails the build
// (instead of printing "undefined").
export function esc(s) {
  if (s === undefined || s === null) fail('missing text (a field of entry.json is absent)');
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

// The one allow-list for every link the page carries (inline links, resources, the milestone):
// a #anchor, an https:// URL, or a relative path. Anything with a scheme (javascript:, data:,
// http:), a protocol-relative //host, a backslash, a space or a control character fails the build.
const ANCHOR = /^#[a-z][a-z0-9-]*$/;
const HTTPS = /^https:\/\/[A-Za-z0-9.-]+(?::\d+)?(?:[/?#][^\s"'<>\\`]*)?$/;
const RELATIVE = /^(?![A-Za-z][A-Za-z0-9+.-]*:)(?!\/\/)[A-Za-z0-9._~!$&'()*+,;=:@%/-]+(?:[?#][^\s"'<>\\`]*)?$/;
export function safeHref(href) {
  if (typeof href !== 'string' || !(ANCHOR.test(href) || HTTPS.test(href) || RELATIVE.test(href))) {
    fail(`link target not allowed: ${JSON.stringify(href)} (use a relative path, #anchor or https://)`);
  }
  return href;
}
export const isAnchor = (href) => ANCHOR.test(href);

// **strong** and *emphasis* on text that is already escaped and holds no link.
function marks(h, source) {
  const out = h.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/\*([^*]+)\*/g, '<em>$1</em>');
  if (/[*[\]{}]/.test(out.replace(/<[^>]+>/g, ''))) fail(`unbalanced inline markup or unfilled placeholder in: ${source}`);
  return out;
}

// Inline markup: placeholders filled, then [label](href) links cut out first, so emphasis applies to
// the text and the labels but never inside a URL.
const LINK = /\[([^\]]+)\]\(([^)\s]*)\)/g;
export function inline(text, fill) {
  if (text === undefined || text === null) fail('missing text (a field of entry.json is absent)');
  const filled = fill(String(text));
  let html = '', last = 0;
  for (const m of filled.matchAll(LINK)) {
    html += marks(esc(filled.slice(last, m.index)), text) + `<a href="${esc(safeHref(m[2]))}">${marks(esc(m[1]), text)}</a>`;
    last = m.index + m[0].length;
  }
  return html + marks(esc(filled.slice(last)), text);
}
// Plain text for attributes and SVG labels: placeholders filled, markup stripped, escaped.
export function plainText(text, fill) {
  if (text === undefined || text === null) fail('missing text (a field of entry.json is absent)');
  return esc(fill(String(text)).replace(LINK, '$1').replace(/\*\*?([^*]+)\*\*?/g, '$1'));
}
