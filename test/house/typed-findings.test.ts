/**
 * Typed findings: a kind's findings name only the rule ids its rule-ids.ts declares. Under
 * app/kinds/ the constructors of app/core/findings.ts that take any string are not imported
 * (eslint.config.js `reprise/typed-findings`): each way of reaching them, planted in a
 * kind's file, is an error; what is typed or no constructor is let through; the real tree
 * has no violation; and a kind's own constructors refuse an id it did not declare.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fail as tgFail, changedNumbers as tgChangedNumbers } from '../../app/kinds/tg/findings.js';
import { ROOT } from '../helpers/cli.js';

const eslint = new ESLint({ cwd: ROOT });
const RULE = 'reprise/typed-findings';

async function typedErrors(filePath: string, code: string): Promise<string[]> {
  const [res] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return (res?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

/** Each way to the untyped constructors, from a file two folders below app/ (a kind's). */
const UNTYPED = (up: string): string[] => [
  `import { fail } from '${up}core/findings.js';\nexport const f = fail('RPR-X-001', 'x');\n`,
  `import { warning as w } from '${up}core/findings.js';\nexport const f = w('RPR-X-001', 'x');\n`,
  `import { unavailable } from '${up}core/findings.js';\nexport const f = unavailable('RPR-X-001', 'x');\n`,
  `import { info } from '${up}core/findings.js';\nexport const f = info('RPR-X-001', 'x');\n`,
  `import { finding } from '${up}core/findings.js';\nexport const f = finding('RPR-X-001', 'fail', 'x');\n`,
  `import { changedNumbers } from '${up}core/findings.js';\nexport const f = changedNumbers;\n`,
  `import { cutShort, fail } from '${up}core/findings.js';\nexport const f = fail(cutShort('x'), 'x');\n`,
  `import * as F from '${up}core/findings.js';\nexport const f = F.fail('RPR-X-001', 'x');\n`,
  `export { fail } from '${up}core/findings.js';\n`,
  `export * from '${up}core/findings.js';\n`,
  `export const f = async () => (await import('${up}core/findings.js')).fail('RPR-X-001', 'x');\n`,
];

describe('typed findings', () => {
  for (const [file, up] of [
    ['app/kinds/tg/x.ts', '../../'],
    ['app/kinds/acgp/x.ts', '../../'],
    ['app/kinds/tg/engines/x.ts', '../../../'],
  ] as const) {
    for (const code of UNTYPED(up)) {
      it(`refuses in ${file}: ${code.split('\n').join(' ')}`, async () => {
        expect((await typedErrors(file, code)).join('\n')).toContain(
          'takes any rule id: a kind makes its findings with findingsOn(its rules)',
        );
      });
    }
  }
  it("lets a kind take findingsOn, the other helpers and types, and lets code outside the kinds' floor be", async () => {
    const allowed =
      "import { cutShort, findingsOn, FINDINGS_LIMIT, type ChangedNumberRule } from '../../core/findings.js';\n" +
      "import type { RuleDeclarations } from '../../core/findings.js';\n" +
      "import { fail } from './findings.js';\n" +
      'export const x: [typeof cutShort, typeof findingsOn, string, ChangedNumberRule | RuleDeclarations | null, typeof fail] = [cutShort, findingsOn, FINDINGS_LIMIT, null, fail];\n';
    expect(await typedErrors('app/kinds/tg/x.ts', allowed)).toEqual([]);
    expect(await typedErrors('app/journal/x.ts', UNTYPED('../')[0]!)).toEqual([]);
  });
  it('the real tree has no untyped finding in a kind', async () => {
    const results = await eslint.lintFiles(['app/kinds']);
    const bad = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(bad).toEqual([]);
  }, 300_000);
  it("a kind's own constructors refuse an id it did not declare (tsconfig.test.json checks the @ts-expect-error)", () => {
    // @ts-expect-error RPR-TG-999 is not in app/kinds/tg/rule-ids.ts
    expect(tgFail('RPR-TG-999', 'x').rule).toBe('RPR-TG-999');
    // @ts-expect-error a core id is not the kind's to emit
    expect(tgChangedNumbers([], { rule: 'RPR-REPORT-001', subject: 'x' })).toEqual([]);
    expect(tgFail('RPR-TG-001', 'x')).toEqual({ rule: 'RPR-TG-001', severity: 'fail', message: 'x' });
  });
});
