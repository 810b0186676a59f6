// palette.mjs - the page's CSS variables from the one palette (assets/theme/palette.json), which
// also gives the canvas its colours (src/app/theme_data.cmake -> attn_theme_data.h).
// paletteCss(json) -> the text of css/palette.css: light values on :root, dark values for
// prefers-color-scheme: dark (unless the toggle chose light) and for html[data-theme="dark"].
export function paletteCss(palette) {
  const tokens = Object.entries(palette.tokens || {});
  if (tokens.length === 0) throw new Error('palette.json has no tokens');
  const hex = /^#[0-9a-f]{6}$/i;
  for (const [name, v] of tokens) {
    if (!hex.test(v.light) || !hex.test(v.dark)) throw new Error(`palette token "${name}" needs light and dark as #rrggbb`);
  }
  const block = (which, indent) => tokens.map(([name, v]) => `${indent}--${name}: ${v[which].toLowerCase()};`).join('\n');
  return `/* Generated from assets/theme/palette.json by web/tools/palette.mjs: do not edit. */
:root {
${block('light', '  ')}
}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) {
${block('dark', '    ')}
  }
}
:root[data-theme="dark"] {
${block('dark', '  ')}
}
`;
}
