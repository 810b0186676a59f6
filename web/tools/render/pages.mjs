// The two pages: the entry checked, index.html's body (header, groups of sections, footer),
// embed.html's body (the stage and its description), and the templates they are poured into.
import fs from 'node:fs';
import path from 'node:path';
import { fail } from './errors.mjs';
import { WEB } from './format.mjs';
import { esc, inline, safeHref } from './inline.mjs';
import { paragraphs, sectionHtml, stageHtml } from './sections.mjs';

export function findSection(entry, kind) {
  for (const g of entry.groups) for (const s of g.sections) if (s.kind === kind) return s;
  fail(`content has no section of kind "${kind}"`);
}

// The step names, written once: the titles of the entry's steps section.
export function stepNames(entry) {
  return findSection(entry, 'steps').steps.map((st) => {
    if (typeof st.title !== 'string' || typeof st.short !== 'string') fail('every step needs a title and a short name');
    return st.title.replace(/\*\*?([^*]+)\*\*?/g, '$1');
  });
}

export function validateEntry(e) {
  for (const k of ['title', 'lang', 'breadcrumb', 'tags', 'also_called', 'milestone', 'groups', 'summary', 'footer']) {
    if (e[k] === undefined) fail(`entry.json: missing "${k}"`);
  }
  // every id the entry names: groups, sections, subsections, quiz questions (checkIds then checks
  // the rendered page, where the page's own ids and the derived ones join them)
  const ids = new Set();
  const named = [];
  for (const g of e.groups) {
    named.push(g);
    for (const s of g.sections || []) named.push(s, ...(s.subsections || []), ...(s.kind === 'quiz' ? s.questions || [] : []));
  }
  for (const x of named) {
    if (typeof x.id !== 'string' || !/^[a-z][a-z0-9-]*$/.test(x.id)) fail(`entry.json: bad id "${x.id}" (lower-case letters, digits and hyphens, starting with a letter)`);
    if (ids.has(x.id)) fail(`entry.json: duplicate id "${x.id}"`);
    ids.add(x.id);
  }
  if (e.milestone.href !== undefined) milestoneHref(e.milestone.href);
}

// The "back to the milestone" link appears only where the site set it: no href, no link. Besides
// the allow-list, a path made only of dot segments ("../", "./": a folder, so a directory listing
// or this page again) and a link to this page itself ("#...", "index.html") fail the build.
export function milestoneHref(href) {
  if (href === undefined || href === null || href === '') return null;
  safeHref(href);
  if (/^(?:\.\.?(?:\/|$))+$/.test(href)) fail(`milestone.href "${href}" names a folder, not the milestone page (a directory listing or this page)`);
  if (/^#|^(?:\.\/)?(?:index\.html)?(?:[?#].*)?$/.test(href)) fail(`milestone.href "${href}" leads back to this page`);
  return href;
}

// On each rendered page: every id unique, and every #anchor, aria-labelledby, aria-describedby and
// label for= names an id that is there.
export function checkIds(name, html) {
  const ids = new Set();
  for (const [, id] of html.matchAll(/\sid="([^"]*)"/g)) {
    if (ids.has(id)) fail(`${name}: duplicate id "${id}"`);
    ids.add(id);
  }
  const refs = [
    ...[...html.matchAll(/\shref="#([^"]*)"/g)].map((m) => ['link #', m[1]]),
    ...[...html.matchAll(/\s(aria-labelledby|aria-describedby|for)="([^"]*)"/g)].flatMap((m) => m[2].split(/\s+/).map((id) => [m[1] + ' ', id])),
  ];
  for (const [what, id] of refs) if (!ids.has(id)) fail(`${name}: ${what}${what === 'link #' ? '' : '→ '}#${id} names no element on the page`);
}

export function indexBody(entry, fill, data, choices) {
  const milestone = milestoneHref(entry.milestone.href);
  const crumbs = entry.breadcrumb.map((c, i) => i === entry.breadcrumb.length - 1
    ? `<li><span aria-current="page">${esc(c)}</span></li>` : `<li>${esc(c)}</li>`).join('');
  const nav = entry.groups.map((g) => `<li><a href="#${esc(g.id)}">${esc(g.heading)}</a></li>`).join('');
  const groups = entry.groups.map((g) => `<div class="group" id="${esc(g.id)}" data-group="${esc(g.id)}" aria-labelledby="${esc(g.id)}-title">
<h2 class="group-title" id="${esc(g.id)}-title">${inline(g.heading, fill)}</h2>
${g.sections.map((s) => sectionHtml(s, fill, data, 3, { stepNames: stepNames(entry), choices })).join('\n')}
</div>`).join('\n');
  return `<header class="page-header" id="top">
<div class="header-inner">
<nav class="breadcrumb" aria-label="Breadcrumb"><ol>${crumbs}</ol></nav>
<button type="button" class="theme-toggle" id="theme-toggle" aria-pressed="false" hidden><span aria-hidden="true" class="theme-icon"></span> Dark theme</button>
<h1 id="page-title">${esc(entry.title)}</h1>
<p class="also-called" data-section="also-called">Also called: ${entry.also_called.map((a) => `<em>${esc(a)}</em>`).join(', ')}.</p>
<ul class="tags" aria-label="Tags">${entry.tags.map((t) => `<li class="tag">${esc(t)}</li>`).join('')}</ul>
${milestone ? `<p class="milestone"><a href="${esc(milestone)}" id="milestone-link">← ${esc(entry.milestone.label)}</a></p>\n` : ''}<nav class="toc" aria-label="On this page"><ul>${nav}</ul></nav>
</div>
</header>
<main id="main" tabindex="-1">
${groups}
</main>
<footer class="page-footer"><p>${inline(entry.footer, fill)}</p><p><a href="#top">Back to top</a></p></footer>`;
}

export function embedBody(entry, fill, data, choices) {
  const stage = findSection(entry, 'stage');
  const desc = entry.groups.flatMap((g) => g.sections).find((s) => s.id === 'without-diagram');
  return `<main id="main" class="embed" tabindex="-1">
<h1 class="embed-title" id="page-title">${esc(entry.title)}: ${inline(stage.heading, fill)}</h1>
<button type="button" class="theme-toggle" id="theme-toggle" aria-pressed="false" data-opt-in hidden><span aria-hidden="true" class="theme-icon"></span> Dark theme</button>
${stageHtml(stage, fill, data, { liveLevel: 2, page: 'embed', stepNames: stepNames(entry), choices })}
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
