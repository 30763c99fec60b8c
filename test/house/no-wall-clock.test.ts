/**
 * No test judges the code by the wall clock. On shared cores other processes stretch wall
 * time several times over, so a bound on it fails for the machine's load, not for the code:
 * tests bound the CPU time and peak RSS of what they run (test/helpers/measured-cli.ts:
 * `cpuMs`, `rssMiB`, `cpuMsSince`) or a count, and wall-time figures live in `npm run bench`.
 *
 * The check reads every test and e2e source (TypeScript's parser, no type checker) and
 * follows a clock reading (`Date.now()`, `performance.now()`, `process.hrtime()`,
 * `process.uptime()`, any `*.now()`, `new Date()` made a number or compared) through what
 * is computed from it: names assigned from it (also destructured, or given it as an
 * argument of a function of the same file), and, known to every file, functions returning
 * it and object members holding it (a helper's `ms`, also in the text of a child's script),
 * so `expect(r.ms)` is caught in a file that never reads a clock itself. A reading is
 * refused inside an `expect(...)`/`assert(...)` chain (argument or matcher) and on either
 * side of `<`, `<=`, `>`, `>=` anywhere. Logging a reading, a kill-after timer that stops a
 * hang, and a clock handed to the code under test are allowed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { sources } from '../helpers/sources.js';

/** A call that reads a clock, by its callee's text. */
const CLOCK_CALL = /(?:^|\.)(?:now|hrtime|uptime)$|(?:^|\.)hrtime\.bigint$|^(?:globalThis\.)?performance\.\w+$/;
/** A clock function named without being called (`const now = Date.now`). */
const CLOCK_FUNCTION = /^(?:globalThis\.)?(?:Date|performance)\.now$|(?:^|\.)hrtime(?:\.bigint)?$/;
/** Objects whose `now` is a clock (`const { now } = performance`). */
const CLOCK_OWNER = /^(?:globalThis\.)?(?:Date|performance)$/;
/** A clock read in a string (a child's script): the name it is given, `ms: Date.now() - t0` or `const ms = ...`. */
const CLOCK_IN_TEXT =
  /(\w+)\s*[:=]\s*[^,;}\n]*?(?:\bDate\.now|\bperformance\.now|\bhrtime(?:\.bigint)?|\bprocess\.uptime)\s*\(/g;
/** Arithmetic on a reading is still a reading. */
const ARITHMETIC = /^(?:Math\.\w+|Number|BigInt|parseFloat|parseInt)$/;
const ASSERTIONS = new Set(['expect', 'assert']);
const RELATIONAL = new Set([
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);
const ASSIGNING = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
]);

const isFunction = (n: ts.Node): n is ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration =>
  ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isFunctionDeclaration(n);
const nameOf = (n: ts.PropertyName | ts.BindingName): string | undefined =>
  ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : undefined;

/** Every node under `n`, not entering nested functions when `shallow`. */
function walk(n: ts.Node, visit: (n: ts.Node) => void, shallow = false): void {
  ts.forEachChild(n, (c) => {
    visit(c);
    if (!(shallow && isFunction(c))) walk(c, visit, shallow);
  });
}

/** The identifier an `a.b(c).d(e)` chain starts from. */
function chainRoot(n: ts.Expression): string | undefined {
  let e: ts.Expression = n;
  while (
    ts.isPropertyAccessExpression(e) ||
    ts.isCallExpression(e) ||
    ts.isElementAccessExpression(e) ||
    ts.isNonNullExpression(e)
  )
    e = e.expression;
  return ts.isIdentifier(e) ? e.text : undefined;
}

/**
 * What one file knows to hold a clock reading. Members and functions are known by name to
 * every file read together (a helper's `ms`, an imported `elapsed()`); other names stay local.
 */
class FileClocks {
  readonly names = new Set<string>();
  /** Names holding `new Date()`: a reading once made a number (`getTime()`, `+`, `Number()`) or compared. */
  readonly dates = new Set<string>();
  private readonly params = new Map<string, string[]>();

  constructor(
    readonly file: string,
    readonly sf: ts.SourceFile,
    readonly props: Set<string>,
    readonly functions: Set<string>,
  ) {
    walk(sf, (n) => {
      if (ts.isFunctionDeclaration(n) && n.name)
        this.params.set(
          n.name.text,
          n.parameters.map((p) => nameOf(p.name) ?? ''),
        );
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && isFunction(n.initializer))
        this.params.set(
          n.name.text,
          n.initializer.parameters.map((p) => nameOf(p.name) ?? ''),
        );
    });
  }

  /** Whether the value of `n` is (computed from) a clock reading. */
  reads(n: ts.Node): boolean {
    if (ts.isIdentifier(n)) return this.names.has(n.text);
    if (ts.isPropertyAccessExpression(n)) return this.props.has(n.name.text) || this.reads(n.expression);
    if (ts.isElementAccessExpression(n))
      return (
        this.reads(n.expression) ||
        (ts.isStringLiteralLike(n.argumentExpression) && this.props.has(n.argumentExpression.text))
      );
    if (ts.isCallExpression(n)) return this.readingCall(n);
    if (ts.isPrefixUnaryExpression(n) && this.isDateNow(n.operand)) return true;
    // Not a number to compare: a function, an object (its members are followed by name), text.
    if (isFunction(n) || ts.isObjectLiteralExpression(n) || ts.isTemplateExpression(n) || ts.isStringLiteralLike(n))
      return false;
    return ts.forEachChild(n, (c) => this.reads(c) || undefined) ?? false;
  }

  /** `new Date()` itself, or a name holding one: a timestamp, not yet a number to bound. */
  isDateNow(n: ts.Node): boolean {
    if (ts.isIdentifier(n)) return this.dates.has(n.text);
    return ts.isNewExpression(n) && n.expression.getText(this.sf) === 'Date' && !n.arguments?.length;
  }

  private readingCall(n: ts.CallExpression): boolean {
    const callee = n.expression
      .getText(this.sf)
      .replace(/\s+|\?/g, '')
      .replace(/\[['"`](\w+)['"`]\]/g, '.$1');
    if (CLOCK_CALL.test(callee)) return true;
    if (ts.isIdentifier(n.expression) && this.functions.has(n.expression.text)) return true;
    if (ARITHMETIC.test(callee)) return n.arguments.some((a) => this.reads(a) || this.isDateNow(a));
    if (
      ts.isPropertyAccessExpression(n.expression) &&
      /^(?:getTime|valueOf)$/.test(n.expression.name.text) &&
      this.isDateNow(n.expression.expression)
    )
      return true;
    // A method of a reading (`ms.toFixed(0)`); any other call is the code under test, given a clock perhaps.
    return ts.isPropertyAccessExpression(n.expression) && this.reads(n.expression.expression);
  }

  /** Whether a function's result is a reading: an expression body, or a `return` of one. */
  private returnsReading(f: ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration): boolean {
    if (!f.body) return false;
    if (!ts.isBlock(f.body)) return this.reads(f.body);
    let found = false;
    walk(f.body, (n) => void (found ||= ts.isReturnStatement(n) && !!n.expression && this.reads(n.expression)), true);
    return found;
  }

  /** One pass over the file; whether it learnt a name, a function or a member that holds a reading. */
  learn(): boolean {
    const size = () => this.names.size + this.functions.size + this.dates.size + this.props.size;
    const before = size();
    walk(this.sf, (n) => this.learnFrom(n));
    return size() !== before;
  }

  private learnFrom(n: ts.Node): void {
    if (ts.isVariableDeclaration(n) && n.initializer) this.learnDeclaration(n.name, n.initializer);
    else if (ts.isFunctionDeclaration(n) && n.name && this.returnsReading(n)) this.functions.add(n.name.text);
    else if (
      ts.isBinaryExpression(n) &&
      ASSIGNING.has(n.operatorToken.kind) &&
      ts.isIdentifier(n.left) &&
      this.reads(n.right)
    )
      this.names.add(n.left.text);
    else if (ts.isPropertyAssignment(n) && nameOf(n.name) && this.reads(n.initializer)) this.props.add(nameOf(n.name)!);
    else if (ts.isShorthandPropertyAssignment(n) && this.names.has(n.name.text)) this.props.add(n.name.text);
    else if (ts.isStringLiteralLike(n) || ts.isTemplateExpression(n))
      for (const m of n.getText(this.sf).matchAll(CLOCK_IN_TEXT)) this.props.add(m[1]!);
    else if (ts.isCallExpression(n) && ts.isIdentifier(n.expression))
      this.learnArguments(n.expression.text, n.arguments);
  }

  private learnDeclaration(name: ts.BindingName, init: ts.Expression): void {
    const text = init.getText(this.sf);
    if (ts.isIdentifier(name)) {
      if (this.isDateNow(init)) this.dates.add(name.text);
      else if (CLOCK_FUNCTION.test(text) || (isFunction(init) && this.returnsReading(init)))
        this.functions.add(name.text);
      else if (this.reads(init)) this.names.add(name.text);
      return;
    }
    for (const e of name.elements) {
      if (ts.isOmittedExpression(e) || !ts.isIdentifier(e.name)) continue;
      const member = ts.isObjectBindingPattern(name)
        ? e.propertyName
          ? nameOf(e.propertyName)
          : e.name.text
        : undefined;
      if (member === 'now' && CLOCK_OWNER.test(text)) this.functions.add(e.name.text);
      else if (member ? this.props.has(member) : this.reads(init)) this.names.add(e.name.text);
    }
  }

  /** A reading passed to a function of this file makes its parameter one. */
  private learnArguments(fn: string, args: readonly ts.Expression[]): void {
    const params = this.params.get(fn);
    args.forEach((a, i) => params?.[i] && this.reads(a) && this.names.add(params[i]));
  }

  /** Each place a reading is asserted on or compared, as `path:line code`. */
  violations(): string[] {
    const out = new Set<string>();
    const at = (n: ts.Node) =>
      out.add(
        `${relative(ROOT, this.file)}:${this.sf.getLineAndCharacterOfPosition(n.getStart(this.sf)).line + 1} ${n.getText(this.sf).replace(/\s+/g, ' ').slice(0, 160)}`,
      );
    walk(this.sf, (n) => {
      if (
        ts.isCallExpression(n) &&
        ASSERTIONS.has(chainRoot(n.expression) ?? '') &&
        n.arguments.some((a) => this.reads(a) || (isFunction(a) && this.returnsReading(a)))
      )
        at(n);
      if (
        ts.isBinaryExpression(n) &&
        RELATIONAL.has(n.operatorToken.kind) &&
        [n.left, n.right].some((e) => this.reads(e) || this.isDateNow(e))
      )
        at(n);
    });
    return [...out];
  }
}

/** Every assertion on, or comparison of, a wall-clock reading in `files`, as `path:line code`. */
export function wallClockBounds(files: string[]): string[] {
  const props = new Set<string>();
  const functions = new Set<string>();
  const all = files.map(
    (f) =>
      new FileClocks(
        f,
        ts.createSourceFile(
          f,
          readFileSync(f, 'utf8'),
          ts.ScriptTarget.Latest,
          true,
          f.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
        ),
        props,
        functions,
      ),
  );
  // Members and functions are shared across files: learn until nothing new is learnt anywhere.
  for (let changed = true; changed;) changed = all.map((c) => c.learn()).some(Boolean);
  return all.flatMap((c) => c.violations());
}

/** Each a test file (and, after `---`, a helper file beside it) that bounds the wall clock. */
const PLANTED: string[] = [
  'const t0 = Date.now();\nawait f();\nexpect(Date.now() - t0).toBeLessThan(1000);\n',
  'const t0 = performance.now();\nawait f();\nconst ms = performance.now() - t0;\nexpect(ms).toBeLessThan(10_000);\n',
  'const t0 = Date.now();\nconst elapsed = Date.now() - t0;\nconst seconds = Math.round(elapsed / 1000);\nexpect(seconds).toBeLessThanOrEqual(2);\n',
  'const t0 = Date.now();\nexpect(10_000).toBeGreaterThan(Date.now() - t0);\n',
  "const t0 = Date['now']();\nexpect(globalThis.performance.now() - t0).toBeLessThan(5);\n",
  "import { elapsedSince } from './clock.js';\nconst t0 = start();\nexpect(await elapsedSince(t0)).toBeLessThan(100);\n---\nexport const start = (): number => 0;\nexport async function elapsedSince(t0: number): Promise<number> {\n  await settle();\n  return performance.now() - t0;\n}\n",
  "const t = process.hrtime.bigint();\nawait f();\nexpect(process.hrtime.bigint() - t < 10n ** 9n, 'fast').toBe(true);\n",
  'const t0 = process.hrtime();\nconst [s] = process.hrtime(t0);\nexpect(s).toBe(0);\n',
  'const started = new Date();\nexpect(new Date().getTime() - started.getTime()).toBeLessThan(100);\n',
  'const deadline = new Date(Date.now() + 5000);\nawait f();\nexpect(new Date() < deadline).toBe(true);\n',
  'const t0 = +new Date();\nawait f();\nexpect(Number(new Date()) - t0).toBeLessThan(100);\n',
  'const now = () => performance.now();\nconst a = now();\nexpect.soft(now() - a, "quick").toBeLessThan(5);\n',
  "const { now } = performance;\nconst a = now();\nif (now() - a > 100) throw new Error('slow');\n",
  "import { hrtime } from 'node:process';\nconst a = hrtime.bigint();\nassert.ok(hrtime.bigint() - a < 5n);\n",
  'function bounded(ms: number): void {\n  expect(ms).toBeLessThan(10);\n}\nconst t0 = Date.now();\nbounded(Date.now() - t0);\n',
  'function took(t0: number): number {\n  return Date.now() - t0;\n}\nexpect(took(1)).toBeLessThan(10);\n',
  'const r = await runMeasured(dir, args);\nexpect(r.ms).toBeLessThan(10_000);\n',
  'const r = await runMeasured(dir, args);\nexpect.soft(r.ms, why).toBeLessThan(BUDGET);\n',
  "const problems: string[] = [];\nconst r = await runMeasured(dir, args);\nif (r.ms >= 15_000) problems.push('no answer');\nexpect(problems).toEqual([]);\n",
  'const { code, ms } = await runMeasured(dir, args);\nexpect(code).toBe(0);\nexpect(ms).toBeLessThan(5);\n',
  'const o = await timed();\nexpect(o.took).toBeLessThan(2000);\n---\nexport async function timed() {\n  const t0 = Date.now();\n  await work();\n  return { took: Date.now() - t0 };\n}\n',
  "const CHILD = `const t0 = Date.now(); await run(); console.log(JSON.stringify({ ms: Date.now() - t0 }));`;\nconst o = JSON.parse(spawnSync(process.execPath, ['-e', CHILD]).stdout);\nexpect(o['ms']).toBeLessThan(2000);\n",
  "const CHILD = 'const elapsed = performance.now() - t0; console.log(JSON.stringify({ elapsed }))';\nconst { elapsed } = JSON.parse(run(CHILD));\nexpect(elapsed).toBeLessThan(2000);\n",
];

/** Each a test file that measures honestly: none may be refused. */
const ALLOWED: string[] = [
  "const r = await runMeasured(dir, args, 45_000);\nexpect(r.killed, 'no answer: it hung').toBe(false);\nexpect(r.cpuMs).toBeLessThan(10_000);\nexpect(r.rssMiB).toBeLessThan(512);\nconsole.log(`${r.ms} ms (${r.cpuMs} ms CPU)`);\n",
  'const cpu0 = process.cpuUsage();\nawait f();\nexpect(cpuMsSince(cpu0)).toBeLessThan(2000);\n',
  "const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);\nconst r = buildReport({ path: 'x' }, Date.now());\nexpect(r.verdict).toBe('pass');\n",
  "let t = Date.now();\nvi.spyOn(Date, 'now').mockImplementation(() => (t += 10));\nexpect(seen.length).toBeGreaterThan(5);\n",
  'const entry = { recordedAtUtc: new Date().toISOString() };\nexpect(entry.recordedAtUtc).toMatch(/Z$/);\n',
  'const later = { ...report, run: { ...report.run, durationMs: 999 } };\nexpect(later.run.durationMs).toBeGreaterThan(0);\nconst ms: MemberSpan[] = members;\nexpect(ms.length).toBeLessThan(3);\n',
];

describe('no test bounds the wall clock', () => {
  it('no test or e2e file asserts on, or compares, a wall-clock reading', () => {
    const self = join(ROOT, 'test/house/no-wall-clock.test.ts');
    const files = ['test', 'e2e'].flatMap((r) => sources(join(ROOT, r))).filter((f) => f !== self);
    expect(files.length).toBeGreaterThan(100);
    expect(wallClockBounds(files)).toEqual([]);
  }, 120_000);

  it('refuses each planted bound, also through the real measured-CLI helper, and allows honest measures', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reprise-clock-'));
    const helper = join(ROOT, 'test/helpers/measured-cli.ts');
    try {
      const check = (code: string, i: string): string[] => {
        const [test, beside] = code.split('---\n');
        const files = [join(dir, `${i}.test.ts`), ...(beside ? [join(dir, `${i}-helper.ts`)] : [])];
        writeFileSync(files[0]!, test!);
        if (beside) writeFileSync(files[1]!, beside);
        return wallClockBounds([...files, helper]);
      };
      PLANTED.forEach((code, i) =>
        expect(
          check(code, `planted-${i}`).filter((v) => v.includes(`planted-${i}.test.ts:`)).length,
          code,
        ).toBeGreaterThan(0),
      );
      ALLOWED.forEach((code, i) => expect(check(code, `allowed-${i}`), code).toEqual([]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
