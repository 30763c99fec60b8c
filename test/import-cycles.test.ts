/**
 * No module of ours imports itself back through a chain of value imports. ES modules
 * evaluate a cycle in an order set by whichever module is loaded first, so a cycle that
 * works from the CLI's entry point can throw "Cannot access … before initialization" from
 * another one (it did: kinds/nemosyne/profiles.ts took UsageError from engine/run.ts, which
 * imports the registry, which imports the Nemosyne kind). Type-only imports are erased and
 * do not count.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';
import { sources } from './helpers/sources.js';

/** The relative modules a file imports or re-exports for their values. */
function valueImports(file: string, text: string): string[] {
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: string[] = [];
  for (const st of sf.statements) {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      if (c?.isTypeOnly) continue;
      const b = c?.namedBindings;
      // `import { type A, type B } from …` is erased too (unless it also names a default).
      if (c && !c.name && b && ts.isNamedImports(b) && b.elements.length > 0 && b.elements.every((el) => el.isTypeOnly))
        continue;
      spec = st.moduleSpecifier;
    } else if (ts.isExportDeclaration(st)) {
      if (st.isTypeOnly) continue;
      const b = st.exportClause;
      if (b && ts.isNamedExports(b) && b.elements.length > 0 && b.elements.every((el) => el.isTypeOnly)) continue;
      spec = st.moduleSpecifier;
    }
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) {
      const target = resolve(dirname(file), spec.text).replace(/\.js$/, '');
      out.push(target);
    }
  }
  return out;
}

/** Strongly connected components of more than one module (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(c);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

function graphOf(files: string[]): Map<string, string[]> {
  const key = (f: string): string => f.replace(/\.tsx?$/, '');
  const known = new Set(files.map(key));
  const g = new Map<string, string[]>();
  for (const f of files)
    g.set(
      key(f),
      valueImports(f, readFileSync(f, 'utf8')).filter((t) => known.has(t)),
    );
  return g;
}

describe('import cycles', () => {
  it('finds a planted cycle, and ignores type-only imports', () => {
    const g = new Map<string, string[]>();
    const a = valueImports(
      '/x/a.ts',
      "import { b } from './b.js';\nimport type { T } from './c.js';\nimport { type U } from './d.js';\nexport { e } from './e.js';\nexport type { F } from './f.js';\n",
    );
    expect(a).toEqual(['/x/b', '/x/e']);
    g.set('/x/a', a);
    g.set('/x/b', valueImports('/x/b.ts', "import { a } from './a.js';\n"));
    g.set('/x/c', valueImports('/x/c.ts', "import type { A } from './a.js';\n"));
    expect(cycles(g).map((c) => c.sort())).toEqual([['/x/a', '/x/b']]);
  });

  it('the real tree has none in shared/, app/, main/ and renderer/', () => {
    const files = ['shared', 'app', 'main', join('renderer', 'src')].flatMap((d) => sources(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const found = cycles(graphOf(files)).map((c) =>
      c
        .map((f) => relative(ROOT, f))
        .sort()
        .join(' -> '),
    );
    expect(found).toEqual([]);
  });
});
