// {{ns.field}} or {{ns.field.sel}}: ns = diagram | worked; field = scores, weights, weight_sum, top,
// focus, scale, score.<token|n>, weight.<token|n>, token.<n> (n counts candidates from 1).
// makeFiller(data) returns fill(text), which replaces every placeholder with the engine's number
// as the page prints it, and fails on any placeholder it does not know.
import { fail } from './errors.mjs';
import { F } from './format.mjs';

export function makeFiller(data) {
  const ns = { diagram: data.diagram, worked: data['worked-example'] };
  const pick = (s, sel, name) => {
    const n = Number(sel);
    const c = Number.isInteger(n) ? s.candidates[n - 1] : s.candidates.find((x) => x.token === sel);
    if (!c) fail(`placeholder {{${name}}}: no candidate "${sel}" in scenario ${s.scenario}`);
    return c;
  };
  const value = (name) => {
    const [n, field, sel, extra] = name.trim().split('.');
    const s = ns[n];
    if (!s || extra !== undefined) fail(`unknown placeholder {{${name}}}`);
    const live = s.candidates.filter((c) => !c.masked);
    switch (field) {
      case 'scores': if (sel === undefined) return F.list(live.map((c) => F.score(c.score))); break;
      case 'weights': if (sel === undefined) return F.list(live.map((c) => F.weight(c.weight))); break;
      case 'weight_sum': if (sel === undefined) return F.plain(s.weight_sum); break;
      case 'scale': if (sel === undefined) return F.plain(s.scale); break;
      case 'top': if (sel === undefined) return F.topCandidate(s).token; break;
      case 'focus': if (sel === undefined) return s.tokens[s.focus]; break;
      case 'score': if (sel !== undefined) return F.score(pick(s, sel, name).score); break;
      case 'weight': if (sel !== undefined) return F.weight(pick(s, sel, name).weight); break;
      case 'token': if (sel !== undefined) return pick(s, sel, name).token; break;
    }
    return fail(`unknown placeholder {{${name}}}`);
  };
  return (text) => {
    if (typeof text !== 'string') fail('missing text (a field of entry.json is absent)');
    return text.replace(/\{\{([^{}]*)\}\}/g, (_, name) => value(name));
  };
}
