/**
 * One printer: in app/, text reaches stdout and stderr only through app/cli/output.ts, which
 * escapes every terminal control (eslint.config.js `reprise/one-printer`). Each way around
 * it, planted in a file of app/, is an error; the printer itself may name the process's
 * streams; the real tree has no violation.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const eslint = new ESLint({ cwd: ROOT });
const RULE = 'reprise/one-printer';

async function printerErrors(filePath: string, code: string): Promise<string[]> {
  const [res] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return (res?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const AROUND: string[] = [
  "process.stdout.write('x');\n",
  "process.stderr.write('x');\n",
  "export const f = (): void => console.log('x');\n",
  "export const f = (): void => console.error('x');\n",
  "globalThis.process.stdout.write('x');\n",
  "process['stderr'].write('x');\n",
  "const { stdout } = process;\nstdout.write('x');\n",
  "import { stdout } from 'node:process';\nstdout.write('x');\n",
  "import p from 'process';\np.stderr.write('x');\n",
  "import { writeSync } from 'node:fs';\nwriteSync(1, 'x');\n",
  "import * as fs from 'node:fs';\nfs.writeSync(2, 'x');\n",
  "import { createWriteStream } from 'node:fs';\nexport const s = createWriteStream('/dev/tty');\n",
  "import { openSync } from 'node:fs';\nexport const fd = openSync('/dev/stdout', 'w');\n",
];

describe('one printer', () => {
  for (const file of [
    'app/cli/commands/x.ts',
    'app/cli/main.ts',
    'app/engine/x.ts',
    'app/jobs/x.ts',
    'app/kinds/tg/x.ts',
  ]) {
    for (const code of AROUND) {
      it(`refuses in ${file}: ${code.split('\n').join(' ')}`, async () => {
        expect((await printerErrors(file, code)).join('\n')).toContain('only through the printer (app/cli/output.ts)');
      });
    }
  }
  it('lets the printer name the streams, and others read the process (exit code, environment)', async () => {
    expect(await printerErrors('app/cli/output.ts', AROUND.join(''))).toEqual([]);
    expect(
      await printerErrors(
        'app/cli/main.ts',
        "process.exitCode = 1;\nexport const d = process.env['REPRISE_DEBUG'];\nexport const out = { stdout: 1 }.stdout;\n",
      ),
    ).toEqual([]);
  });
  it('the real tree has no way around the printer', async () => {
    const results = await eslint.lintFiles(['app']);
    const bad = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(bad).toEqual([]);
  }, 300_000);
});
