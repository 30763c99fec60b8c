/**
 * Terminal injection: artifact strings (a dumpId, finding values, paths, error messages)
 * reach text output with every terminal control escaped. A dumpId holding
 * "ESC[2K\r ESC[32mPASS" must not erase the FAIL line it sits on.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { formatError } from '../../app/cli/output.js';
import { formatFinding, formatReport, safeText } from '../../app/engine/report-text.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { cliBuilt, runCli } from '../helpers/cli.js';

/** Every character a terminal acts on: C0, DEL, C1, bidi controls, line/paragraph separators. */
const CONTROLS: string[] = [];
for (let c = 0; c < 0x20; c++) CONTROLS.push(String.fromCharCode(c));
for (let c = 0x7f; c <= 0x9f; c++) CONTROLS.push(String.fromCharCode(c));
for (const c of [
  0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
])
  CONTROLS.push(String.fromCharCode(c));
const ANY_CONTROL = new RegExp(
  `[${CONTROLS.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`,
  'u',
);

/** Text output with its structural line breaks taken out: nothing of CONTROLS may remain. */
function rawControlsIn(text: string): string[] {
  return [...text.replace(/\n/g, '')].filter((ch) => ANY_CONTROL.test(ch)).map((ch) => ch.charCodeAt(0).toString(16));
}

function report(s: string): Report {
  return {
    verdict: 'fail',
    artifact: { path: `dir/${s}.json`, kind: 'replay-dump', id: `dump${s}`, sha256: 'sha256:' + '0'.repeat(64) },
    authenticity: { statement: `signed by ${s}` },
    findings: [
      {
        rule: 'RDS-001',
        severity: 'fail',
        message: `bad ${s}`,
        pointer: `/a${s}`,
        expected: `e${s}`,
        actual: { k: `a${s}` },
      },
    ],
    comparisons: [{ status: `st${s}` }],
  } as unknown as Report;
}

describe('every terminal control in artifact data is escaped in text output', () => {
  it('each control character in a dumpId, a path, a pointer, a message, expected and actual values', () => {
    expect(CONTROLS.length).toBe(32 + 33 + 14);
    for (const c of CONTROLS) {
      const hex = c.charCodeAt(0).toString(16);
      const text = formatReport(report(`X${c}Y`), false);
      expect(rawControlsIn(text), hex).toEqual([]);
      // One line per part the renderer made (a line feed in the data does not make another).
      expect(text.trimEnd().split('\n'), hex).toHaveLength(6);
      expect(text, hex).toContain(safeText(c));
      expect(rawControlsIn(formatFinding(report(c).findings[0]!)), hex).toEqual([]);
      expect(rawControlsIn(formatError(`cannot read ${c}`)), hex).toEqual([]);
      expect(rawControlsIn(formatReport(report(c), true)), hex).toEqual([]);
    }
  });
  it('escapes are visible and keep the rest of the text as it was', () => {
    expect(safeText('\x1b[2K\r \x1b[32mPASS')).toBe('\\x1b[2K\\x0d \\x1b[32mPASS');
    expect(safeText('a\u202eb\u009bc\u2028')).toBe('a\\u202eb\\x9bc\\u2028');
    expect(safeText('évidence ✓ C:\\path')).toBe('évidence ✓ C:\\path');
    expect(formatError('bad x\x1b[31m\nusage: reprise verify PATH')).toBe(
      'reprise: bad x\\x1b[31m\nusage: reprise verify PATH\n',
    );
  });
});

describe.skipIf(!cliBuilt())('through the CLI', () => {
  let dir: string;
  let store: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reprise-tty-'));
    store = join(dir, 'trust.json');
    await writeFile(store, trustStoreDocument());
  });

  it('a revoked dump whose dumpId fakes a green PASS still shows FAIL, with the escapes visible', async () => {
    const dumpId = `d\x1b[2K\r \x1b[32mPASS ${CONTROLS.join('')}`;
    const f = join(dir, 'evil.dump.json');
    await writeFile(f, encodeJson(await buildDump(sampleSpec({ dumpId }), sampleSigner('revoked'))));
    for (const extra of [[], ['--workers', '1']]) {
      const r = await runCli(['verify', f, '--trust-store', store, ...extra]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toMatch(/^FAIL {8}/);
      expect(r.stdout).toContain('\\x1b[2K\\x0d \\x1b[32mPASS');
      expect(rawControlsIn(r.stdout)).toEqual([]);
      expect(rawControlsIn(r.stderr)).toEqual([]);
    }
  });

  it('a path, a JSON "type" and an error message holding controls', async () => {
    const name = `x\x1b]0;title\x07\u202e\u009b31m.json`;
    const f = join(dir, name);
    await writeFile(f, JSON.stringify({ type: `t\u009b2J\u202e\u2028` }));
    const r = await runCli(['verify', f]);
    expect(r.code).toBe(1);
    expect(rawControlsIn(r.stdout)).toEqual([]);
    expect(r.stdout).toContain('\\x1b]0;title\\x07\\u202e\\x9b31m.json');
    const missing = await runCli(['verify', f, '--trust-store', join(dir, 'no\x1b[2Jsuch')]);
    expect(missing.code).toBe(3);
    expect(rawControlsIn(missing.stderr)).toEqual([]);
    expect(missing.stderr).toContain('no\\x1b[2Jsuch');
    const unknown = await runCli(['verify', join(dir, 'gone\rPASS')]);
    expect(rawControlsIn(unknown.stderr)).toEqual([]);
  });
});
