/**
 * The layering of the house is enforced by ESLint (eslint.config.js). This test proves
 * the rule fires: each forbidden import, placed in a file of the room it is forbidden in,
 * is an error; each allowed one is not. And the real tree has no violation.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

const eslint = new ESLint({ cwd: ROOT });

async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [res] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return (res?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message);
}

describe('layering rule', () => {
  const forbidden: [string, string][] = [
    ['app/core/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['app/core/x.ts', "import React from 'react';\nexport const r = React;\n"],
    ['app/core/x.ts', "import { EngineHost } from '../../main/host/engine-host.js';\nexport const e = EngineHost;\n"],
    ['app/core/x.ts', 'export function f(e: HTMLElement): void { void e; }\n'],
    ['app/core/x.ts', 'export const w = window;\n'],
    ['renderer/src/x.ts', "import { runBytes } from '../../app/engine/run.js';\nexport const r = runBytes;\n"],
    ['renderer/src/x.ts', "import { EngineHost } from '../../main/host/engine-host.js';\nexport const e = EngineHost;\n"],
    ['renderer/src/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n"],
    ['shared/x.ts', "import { hashBytes } from '../app/core/hash.js';\nexport const h = hashBytes;\n"],
    ['shared/x.ts', "import { createHash } from 'node:crypto';\nexport const c = createHash;\n"],
    ['main/x.ts', "import { App } from '../renderer/src/App';\nexport const a = App;\n"],
  ];
  for (const [file, code] of forbidden) {
    it(`refuses in ${file}: ${code.split('\n')[0]}`, async () => {
      const errs = await layeringErrors(file, code);
      expect(errs.length).toBeGreaterThan(0);
    });
  }
  const allowed: [string, string][] = [
    ['app/core/x.ts', "import { verdictOf } from '../../shared/report.js';\nexport const v = verdictOf;\n"],
    ['main/x.ts', "import { runBytes } from '../app/engine/run.js';\nimport { app } from 'electron';\nexport const r = [runBytes, app];\n"],
    ['renderer/src/x.ts', "import { API_METHODS } from '../../shared/api';\nexport const m = API_METHODS;\n"],
  ];
  for (const [file, code] of allowed) {
    it(`allows in ${file}: ${code.split('\n')[0]}`, async () => {
      expect(await layeringErrors(file, code)).toEqual([]);
    });
  }
  it('the real tree has no layering violation', async () => {
    const results = await eslint.lintFiles(['shared', 'app', 'main', 'renderer']);
    const bad = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(bad).toEqual([]);
    // Linting the whole tree takes seconds alone and over a minute on a loaded 2-core machine.
  }, 300_000);
});
