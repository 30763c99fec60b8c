/**
 * Every kind names its rules (KindDeclarations.rules: its rule-ids.ts and its page of
 * docs/rules/), and the pages say exactly the declared ids: each page's ids are the ids of
 * the kinds that name it (core.md: app/core/rule-ids.ts, the engine's and the parser's),
 * and every page is some kind's. A rule id written in a kind's code is one it declares.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_RULES } from '../../app/core/rule-ids.js';
import { CASE_RULES } from '../../app/engine/case/rule-ids.js';
import { DIRECTORY_KINDS, KINDS } from '../../app/kinds/registry.js';
import { ROOT } from '../helpers/cli.js';

const kinds = [...KINDS, ...DIRECTORY_KINDS];

/** The ids a docs/rules page lists: table rows `| ID | severity | meaning |` and bullets `- ID severity: meaning`. */
export function pageIds(text: string): string[] {
  const ids = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^\| *([A-Z][A-Za-z0-9_-]*) *\|[^|]+\|.*\|\s*$/.exec(line) ?? /^- ([A-Z][A-Z0-9_-]+) [a-z]+: /.exec(line);
    if (m && m[1] !== 'id') ids.add(m[1]!);
  }
  return [...ids].sort();
}

function declaredByPage(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>([
    ['docs/rules/core.md', new Set(Object.keys(CORE_RULES))],
    // The case's own findings (app/engine/case/): the engine's, not a kind's.
    ['docs/rules/case.md', new Set(Object.keys(CASE_RULES))],
  ]);
  for (const k of kinds) {
    const set = out.get(k.rules.doc) ?? new Set<string>();
    for (const id of Object.keys(k.rules.ids)) set.add(id);
    out.set(k.rules.doc, set);
  }
  return out;
}

/** Rule-id literals in a kind's source files (RPR-AREA-NNN and the documents' own: RDS-, DL-). */
function idsInCode(dir: string): Set<string> {
  const out = new Set<string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.ts') || e.name === 'rule-ids.ts' || e.name === 'examples.ts') continue;
    for (const m of readFileSync(join(e.parentPath, e.name), 'utf8').matchAll(
      /'((?:RPR-[A-Z]+|RDS(?:-[A-Z]+)?|DL)-[0-9]{3})'/g,
    ))
      out.add(m[1]!);
  }
  return out;
}

describe('rules: declared by each kind, said by docs/rules/', () => {
  const pages = readdirSync(join(ROOT, 'docs/rules')).map((f) => `docs/rules/${f}`);
  const declared = declaredByPage();

  it('every page is the page of a kind (or core.md), and each kind names a page there', () => {
    expect([...declared.keys()].sort()).toEqual(pages.sort());
  });
  for (const page of pages) {
    it(`${page} lists exactly the ids its kinds declare`, () => {
      expect(pageIds(readFileSync(join(ROOT, page), 'utf8'))).toEqual([...(declared.get(page) ?? [])].sort());
    });
  }
  it('each declared id has one line saying what it finds', () => {
    for (const ids of [CORE_RULES, CASE_RULES, ...kinds.map((k) => k.rules.ids)])
      for (const [id, line] of Object.entries(ids)) {
        expect(line.trim(), id).not.toBe('');
        expect(line, id).not.toContain('\n');
      }
  });
  it('a rule id in the case engine is one it declares', () => {
    const undeclared = [...idsInCode(join(ROOT, 'app/engine/case'))].filter((id) => !(id in CASE_RULES));
    expect(undeclared).toEqual([]);
    expect([...idsInCode(join(ROOT, 'app/engine/case'))].sort()).toEqual(Object.keys(CASE_RULES).sort());
  });
  it("a rule id in a kind's code is one a kind or the core declares", () => {
    const known = new Set([...Object.keys(CORE_RULES), ...kinds.flatMap((k) => Object.keys(k.rules.ids))]);
    const folders = readdirSync(join(ROOT, 'app/kinds'), { withFileTypes: true }).filter((e) => e.isDirectory());
    const undeclared = folders.flatMap((e) =>
      [...idsInCode(join(ROOT, 'app/kinds', e.name))].filter((id) => !known.has(id)).map((id) => `${e.name}: ${id}`),
    );
    expect(undeclared).toEqual([]);
  });
});
