// The two pages: the entry checked, index.html's body (header, groups of sections, footer),
// embed.html's body (the stage and its description), and the templates they are poured into.
import fs from 'node:fs';
import path from 'node:path';
import { fail } from './errors.mjs';
import { WEB } from './format.mjs';
import { esc, inline } from './inline.mjs';
import { paragraphs, sectionHtml, stageHtml } from './sections.mjs';

export function findSection(entry, kind) {
  for (const g of entry.groups) for (const s of g.sections) if (s.kind === kind) return s;
  fail(`content has no section of kind "${kind}"`);
}

export function validateEntry(e) {
  for (const k of ['title', 'lang', 'breadcrumb', 'tags', 'also_called', 'milestone', 'groups', 'summary']) {
    if (e[k] === undefined) fail(`entry.json: missing "${k}"`);
  }
  const ids = new Set();
  for (const g of e.groups) for (const s of [g, ...g.sections]) {
    if (!/^[a-z][a-z0-9-]*$/.test(s.id)) fail(`entry.json: bad id "${s.id}"`);
    if (ids.has(s.id)) fail(`entry.json: duplicate id "${s.id}"`);
    ids.add(s.id);
  }
}

export function indexBody(entry, fill, data) {
  const crumbs = entry.breadcrumb.map((c, i) => i === entry.breadcrumb.length - 1
    ? `<li><span aria-current="page">${esc(c)}</span></li>` : `<li>${esc(c)}</li>`).join('');
  const nav = entry.groups.map((g) => `<li><a href="#${esc(g.id)}">${esc(g.heading)}</a></li>`).join('');
  const groups = entry.groups.map((g) => `<div class="group" id="${esc(g.id)}" data-group="${esc(g.id)}" aria-labelledby="${esc(g.id)}-title">
<h2 class="group-title" id="${esc(g.id)}-title">${inline(g.heading, fill)}</h2>
${g.sections.map((s) => sectionHtml(s, fill, data, 3)).join('\n')}
</div>`).join('\n');
  return `<header class="page-header" id="top">
<div class="header-inner">
<nav class="breadcrumb" aria-label="Breadcrumb"><ol>${crumbs}</ol></nav>
<button type="button" class="theme-toggle" id="theme-toggle" aria-pressed="false" hidden><span aria-hidden="true" class="theme-icon"></span> Dark theme</button>
<h1 id="page-title">${esc(entry.title)}</h1>
<p class="also-called" data-section="also-called">Also called: ${entry.also_called.map((a) => `<em>${esc(a)}</em>`).join(', ')}.</p>
<ul class="tags" aria-label="Tags">${entry.tags.map((t) => `<li class="tag">${esc(t)}</li>`).join('')}</ul>
<p class="milestone"><a href="${esc(entry.milestone.href)}" id="milestone-link">← ${esc(entry.milestone.label)}</a></p>
<nav class="toc" aria-label="On this page"><ul>${nav}</ul></nav>
</div>
</header>
<main id="main" tabindex="-1">
${groups}
</main>
<footer class="page-footer"><p>Every score and weight on this page was computed by the project’s attention engine when the page was built.</p><p><a href="#top">Back to top</a></p></footer>`;
}

export function embedBody(entry, fill, data) {
  const stage = findSection(entry, 'stage');
  const desc = entry.groups.flatMap((g) => g.sections).find((s) => s.id === 'without-diagram');
  return `<main id="main" class="embed" tabindex="-1">
<h1 class="embed-title" id="page-title">${esc(entry.title)}: ${inline(stage.heading, fill)}</h1>
<button type="button" class="theme-toggle" id="theme-toggle" aria-pressed="false" hidden><span aria-hidden="true" class="theme-icon"></span> Dark theme</button>
${stageHtml(stage, fill, data, { liveLevel: 2 })}
${desc ? `<details class="embed-desc"><summary>${inline(desc.heading, fill)}</summary>${paragraphs(desc.paragraphs, fill)}</details>` : ''}
</main>`;
}

// The shared <head> (templates/head.html) goes in first; its own slots are filled with the rest.
const HEAD = fs.readFileSync(path.join(WEB, 'templates', 'head.html'), 'utf8');
export function page(template, entry, body, title) {
  const parts = { lang: esc(entry.lang), title: esc(title), description: esc(entry.summary), body };
  if (!template.includes('<!--slot:head-->')) fail('template has no <!--slot:head-->');
  return template.replace('<!--slot:head-->', HEAD.trimEnd()).replace(/<!--slot:(\w+)-->/g, (_, k) => {
    if (parts[k] === undefined) fail(`template slot ${k} unknown`);
    return parts[k];
  });
}
