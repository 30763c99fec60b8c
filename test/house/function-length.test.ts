/**
 * No function of ours holds more than 60 steps unless a comment right above it says why it
 * must be one (a line starting `// One function:` or a JSDoc line `One function:`). A long
 * function hides its steps; split it along its own step comments instead.
 *
 * A step is a statement (a block's braces are not one) or a JSX element, counted in the
 * function's own body: a nested function is measured on its own. Steps, not lines, because
 * the formatter decides the lines: Prettier folds one long call over five lines and joins a
 * short one, and a limit in lines would move with the print width rather than with what the
 * function does.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { sources } from '../helpers/sources.js';

export const MAX_FUNCTION_STEPS = 60;
const ROOMS = ['shared', 'app', 'main', 'renderer/src'];

function isFunctionLike(n: ts.Node): n is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isFunctionExpression(n) ||
    ts.isArrowFunction(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessor(n) ||
    ts.isSetAccessor(n)
  );
}

/** The comment text before the statement that holds `n` (a declaration, a const, a property). */
function leadingComment(sf: ts.SourceFile, n: ts.Node): string {
  let holder: ts.Node = n;
  while (
    holder.parent &&
    !ts.isSourceFile(holder.parent) &&
    !ts.isBlock(holder.parent) &&
    !ts.isClassLike(holder.parent) &&
    !ts.isObjectLiteralExpression(holder.parent)
  )
    holder = holder.parent;
  const ranges = ts.getLeadingCommentRanges(sf.text, holder.getFullStart()) ?? [];
  return ranges.map((r) => sf.text.slice(r.pos, r.end)).join('\n');
}

/** The steps of a function's own body: statements and JSX elements, not those of nested functions. */
function steps(body: ts.Node): number {
  let count = 0;
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n)) return;
    if ((ts.isStatement(n) && !ts.isBlock(n)) || ts.isJsxElement(n) || ts.isJsxSelfClosingElement(n)) count++;
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return count;
}

/** Every function over the limit without a reason, as `path:line name (N steps)`. */
export function longFunctions(files: string[], max = MAX_FUNCTION_STEPS): string[] {
  const out: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(
      file,
      text,
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const visit = (n: ts.Node): void => {
      if (isFunctionLike(n) && n.body) {
        const start = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
        const count = steps(n.body);
        if (count > max && !/One function:/.test(leadingComment(sf, n))) {
          const name =
            n.name && ts.isIdentifier(n.name)
              ? n.name.text
              : ts.isVariableDeclaration(n.parent) && ts.isIdentifier(n.parent.name)
                ? n.parent.name.text
                : '(anonymous)';
          out.push(`${relative(ROOT, file)}:${start + 1} ${name} (${count} steps)`);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

describe('function length', () => {
  it(`no function over ${MAX_FUNCTION_STEPS} steps without a comment saying why`, () => {
    const files = ROOMS.flatMap((r) => sources(join(ROOT, r)));
    const long = longFunctions(files);
    expect(long).toEqual([]);
  });
  it('the check fires on a long function and honours a stated reason', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'reprise-fnlen-'));
    try {
      const body = Array.from({ length: 61 }, (_, i) => `  const v${i} = ${i};`).join('\n');
      writeFileSync(join(dir, 'long.ts'), `export function long(): void {\n${body}\n}\n`);
      writeFileSync(
        join(dir, 'why.ts'),
        `// One function: a state machine whose states share locals.\nexport function why(): void {\n${body}\n}\n`,
      );
      expect(longFunctions([join(dir, 'long.ts')]).length).toBe(1);
      expect(longFunctions([join(dir, 'why.ts')])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
