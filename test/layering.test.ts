/**
 * The layering of the house is enforced by ESLint (eslint.config.js): LAYERS names the
 * packages a top-level room may not use, ROOMS the allow-list of our own modules each room
 * may import (reprise/rooms). This test proves every restriction fires: for each room a
 * forbidden import, planted in a file of that room, is an error, and an allowed one is not.
 * And the real tree has no violation.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';
// @ts-expect-error: the ESLint config is plain JavaScript without type declarations.
import { ROOMS } from '../eslint.config.js';

const eslint = new ESLint({ cwd: ROOT });
const RULES = new Set([
  '@typescript-eslint/no-restricted-imports',
  'no-restricted-syntax',
  'no-restricted-globals',
  'reprise/rooms',
]);

async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [res] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return (res?.messages ?? []).filter((m) => m.ruleId !== null && RULES.has(m.ruleId)).map((m) => m.message);
}

const imp = (from: string): string => `import { x } from '${from}';\nexport const y = x;\n`;

/** [room in ROOMS, file in it, code that imports what the room may not]. */
const FORBIDDEN_ROOMS: [string, string, string][] = [
  ['shared/**', 'shared/x.ts', imp('../app/core/hash.js')],
  ['app/version.ts', 'app/version.ts', imp('./core/hash.js')],
  ['app/core/**', 'app/core/x.ts', imp('../engine/run.js')],
  ['app/core/**', 'app/core/x.ts', imp('../../main/host/engine-host.js')],
  ['app/threads/**', 'app/threads/x.ts', imp('../zip/reader.js')],
  ['app/zip/**', 'app/zip/x.ts', imp('../jobs/pool.js')],
  ['app/zip/**', 'app/zip/x.ts', imp('../threads/canonical.js')],
  ['app/journal/**', 'app/journal/x.ts', imp('../kinds/journal/index.js')],
  ['app/providers/**', 'app/providers/x.ts', imp('../kinds/replay-dump/replay.js')],
  ['app/attest/**', 'app/attest/x.ts', imp('../kinds/tg/bundle.js')],
  ['app/lint/**', 'app/lint/x.ts', imp('../engine/run.js')],
  ['app/kinds/sniff.ts', 'app/kinds/sniff.ts', imp('./registry.js')],
  ['app/kinds/types.ts', 'app/kinds/types.ts', imp('../engine/run.js')],
  ['app/kinds/registry.ts', 'app/kinds/registry.ts', imp('./tg/replay.js')],
  // The registry reads declarations only: a kind's verify and replay load with its jobs.
  ['app/kinds/registry.ts', 'app/kinds/registry.ts', imp('./tg/index.js')],
  // A kind never imports another kind, nor the registry that lists them all.
  ['app/kinds/*/**', 'app/kinds/tg/x.ts', imp('../replay-dump/replay.js')],
  ['app/kinds/*/**', 'app/kinds/tg/engines/x.ts', imp('../../acgp/limits.js')],
  ['app/kinds/*/**', 'app/kinds/nemosyne/x.ts', imp('../registry.js')],
  ['app/kinds/*/**', 'app/kinds/replay-dump/x.ts', imp('../../threads/../jobs/execute.js')],
  ['app/engine/**', 'app/engine/x.ts', imp('../jobs/pool.js')],
  ['app/engine/**', 'app/engine/x.ts', imp('../cli/output.js')],
  // The engine, the examples, the CLI and the shells reach a kind only through the registry.
  ['app/engine/**', 'app/engine/x.ts', imp('../kinds/tg/replay.js')],
  ['app/engine/**', 'app/engine/x.ts', imp('../kinds/nemosyne/declare.js')],
  ['app/engine/**', 'app/engine/x.ts', imp('../kinds/rejudgement/index.js')],
  // A format room of floor 1 reaches no kind.
  ['app/rejudge/**', 'app/rejudge/x.ts', imp('../kinds/rejudgement/verify.js')],
  ['app/examples/**', 'app/examples/x.ts', imp('../engine/run.js')],
  ['app/examples/**', 'app/examples/x.ts', imp('../kinds/tg/examples.js')],
  ['app/jobs/**', 'app/jobs/x.ts', imp('../cli/output.js')],
  ['app/jobs/**', 'app/jobs/x.ts', imp('../kinds/tg/replay.js')],
  // The CLI reaches the kinds through the engine and the registry, never a kind's folder.
  ['app/cli/**', 'app/cli/commands/x.ts', imp('../../kinds/tg/replay.js')],
  ['app/cli/**', 'app/cli/commands/x.ts', imp('../../kinds/sniff.js')],
  ['app/cli/**', 'app/cli/x.ts', imp('../../main/host/engine-host.js')],
  ['main/**', 'main/host/x.ts', imp('../../app/cli/commands/attest.js')],
  ['main/**', 'main/host/x.ts', imp('../../app/kinds/evidence-bundle/index.js')],
  ['main/**', 'main/x.ts', imp('../renderer/src/App')],
  ['renderer/**', 'renderer/src/x.ts', imp('../../app/engine/run.js')],
  ['renderer/**', 'renderer/src/x.ts', imp('../../main/host/engine-host.js')],
];

/** Forbidden whatever the rooms say: packages (LAYERS) and DOM names in app/ and shared/. */
const FORBIDDEN_OTHER: [string, string][] = [
  ['app/core/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
  ['app/core/x.ts', "import React from 'react';\nexport const r = React;\n"],
  ['app/core/x.ts', 'export function f(e: HTMLElement): void { void e; }\n'],
  ['app/core/x.ts', 'export const w = window;\n'],
  ['renderer/src/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n"],
  ['shared/x.ts', "import { createHash } from 'node:crypto';\nexport const c = createHash;\n"],
  ['main/x.ts', "import React from 'react';\nexport const r = React;\n"],
  // Type-only and dynamic imports count too: a type pulls its module's room in all the same.
  ['app/zip/x.ts', "export type T = import('../kinds/types.js').EngineOptions;\n"],
  ['app/core/x.ts', "export const m = (): Promise<unknown> => import('../engine/run.js');\n"],
  ['app/jobs/x.ts', "import type { Flags } from '../cli/args.js';\nexport type F = Flags;\n"],
  ['app/kinds/tg/x.ts', "export { parseWhatIf } from '../replay-dump/replay.js';\n"],
];

const ALLOWED: [string, string][] = [
  ['app/core/x.ts', imp('../../shared/report.js')],
  ['app/core/x.ts', imp('../version.js')],
  ['app/zip/x.ts', imp('../threads/locate.js')],
  ['app/threads/x.ts', imp('../core/jcs.js')],
  [
    'app/kinds/tg/x.ts',
    imp('./replay.js') +
      "import type { Sniffed } from '../sniff.js';\nimport { w } from '../../providers/what-if.js';\nexport const z = [Sniffed, w];\n",
  ],
  ['app/kinds/tg/engines/x.ts', imp('../bundle.js')],
  ['app/kinds/evidence-bundle/x.ts', imp('../../attest/verify.js')],
  ['app/kinds/registry.ts', imp('./tg/declare.js')],
  [
    'app/engine/x.ts',
    imp('../kinds/registry.js') +
      "import { MembersError } from '../kinds/operations.js';\nexport const e = MembersError;\n",
  ],
  ['app/examples/x.ts', imp('../kinds/registry.js')],
  ['app/jobs/x.ts', imp('../engine/report-text.js')],
  [
    'app/cli/commands/x.ts',
    imp('../../engine/attest.js') + "import { K } from '../../kinds/registry.js';\nexport const k = K;\n",
  ],
  [
    'main/x.ts',
    "import { runBytes } from '../app/engine/run.js';\nimport { app } from 'electron';\nexport const r = [runBytes, app];\n",
  ],
  ['main/host/x.ts', imp('../../app/jobs/pool.js')],
  ['renderer/src/x.ts', "import { API_METHODS } from '../../shared/api';\nexport const m = API_METHODS;\n"],
];

describe('layering rule', () => {
  for (const [room, file, code] of FORBIDDEN_ROOMS) {
    it(`${room}: refuses in ${file}: ${code.split('\n')[0]}`, async () => {
      const errs = await layeringErrors(file, code);
      expect(errs.length).toBeGreaterThan(0);
      expect(errs.join('\n')).toContain(`${room} may not import`);
    });
  }
  for (const [file, code] of FORBIDDEN_OTHER) {
    it(`refuses in ${file}: ${code.split('\n')[0]}`, async () => {
      expect((await layeringErrors(file, code)).length).toBeGreaterThan(0);
    });
  }
  for (const [file, code] of ALLOWED) {
    it(`allows in ${file}: ${code.split('\n')[0]}`, async () => {
      expect(await layeringErrors(file, code)).toEqual([]);
    });
  }
  it('every room of the rule has a planted forbidden import above', () => {
    const tested = new Set(FORBIDDEN_ROOMS.map(([room]) => room));
    expect((ROOMS as { room: string }[]).map((r) => r.room).filter((r) => !tested.has(r))).toEqual([]);
  });
  it('the real tree has no layering violation', async () => {
    const results = await eslint.lintFiles(['shared', 'app', 'main', 'renderer']);
    const bad = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId !== null && m.ruleId !== 'no-restricted-globals' && RULES.has(m.ruleId))
        .map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(bad).toEqual([]);
    // Linting the whole tree takes seconds alone and over a minute on a loaded 2-core machine.
  }, 300_000);
});
