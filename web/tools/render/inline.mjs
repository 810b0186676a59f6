// Escaping and the inline markup of entry.json (assets/content/SCHEMA.md).
import { fail } from './errors.mjs';

export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

// Inline markup (after escaping): **strong**, *emphasis*, [text](#anchor | https://...).
export function inline(text, fill) {
  let h = esc(fill(text));
  h = h.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label, href) => {
    if (!/^(#[\w-]+|https:\/\/[^\s]+)$/.test(href)) fail(`link target not allowed: ${href}`);
    return `<a href="${href}">${label}</a>`;
  });
  h = h.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/\*([^*]+)\*/g, '<em>$1</em>');
  if (/[*[\]{}]/.test(h.replace(/<[^>]+>/g, ''))) fail(`unbalanced inline markup in: ${text}`);
  return h;
}
// Plain text for attributes and SVG labels: placeholders filled, markup stripped, escaped.
export const plainText = (text, fill) => esc(fill(text).replace(/\*\*?([^*]+)\*\*?/g, '$1'));
