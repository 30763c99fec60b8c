/**
 * Nothing in a case folder passes unseen (docs/case.md, "What is in a case"): every file that
 * could not be verified is named by its own RPR-CASE-002, however many there are, where the
 * case's other findings are bounded per rule; and a case report on stdout that cannot be
 * written whole says it is cut short, never leaving a script half a document in silence.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import { assembleCase } from '../../app/engine/case/assemble.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { writeCase } from '../../app/cli/commands/check-case.js';
import type { CliIO } from '../../app/cli/io.js';
import { writeExamples } from '../../app/examples/index.js';
import { tmp } from '../journal/helpers.js';

describe('files of a case that could not be verified', () => {
  it('are each named, past the bound on findings per rule, in path order', () => {
    const unreadable = Array.from({ length: 150 }, (_, i) => ({
      path: `f${String(150 - i).padStart(3, '0')}`,
      message: 'cannot read: a FIFO (named pipe), not a regular file',
      usage: true,
    }));
    const c = assembleCase([], unreadable, 'verify');
    expect(c.findings.map((f) => f.rule)).toEqual(Array(150).fill('RPR-CASE-002'));
    expect(c.findings.map((f) => f.pointer)).toEqual(
      Array.from({ length: 150 }, (_, i) => `entry:f${String(i + 1).padStart(3, '0')}`),
    );
    expect(c.verdict).toBe('fail');
  });

  it('are each named in a folder of FIFOs beside a good dump, past a bound of two findings per rule', async () => {
    const root = tmp('reprise-case-fifos-');
    await writeExamples(join(root, 'ex'));
    const dir = join(root, 'case');
    mkdirSync(dir);
    cpSync(join(root, 'ex', 'dumps', 'intact.dump.json'), join(dir, 'dump.json'));
    for (let i = 1; i <= 5; i++) execFileSync('mkfifo', [join(dir, `f${i}`)]);
    const c = await driveCase(dir, inlineExecutor, { options: { limits: { 'findings-per-rule': 2 } } });
    expect(c.findings.map((f) => [f.rule, f.pointer])).toEqual(
      [1, 2, 3, 4, 5].map((i) => ['RPR-CASE-002', `entry:f${i}`]),
    );
    expect(c.artifacts.map((a) => a.path)).toEqual(['dump.json']);
  }, 120_000);
});

describe('a case report printed on stdout', () => {
  it('says it is cut short when its writing fails after a piece of it was printed', async () => {
    const printed: string[] = [];
    const io = {
      out: (s: string) => printed.push(s),
      err: () => undefined,
      bytes: () => undefined,
      progress: () => undefined,
      stderrIsTTY: false,
      cwd: '/',
    } satisfies CliIO;
    const link = {
      from: { artifact: 'a', pointer: '/x' },
      to: { artifact: 'b', pointer: null },
      relation: 'r',
      value: 'v',
    };
    // A value JSON cannot write, far past the first piece: what fails after writing began.
    const links = [...Array.from({ length: 5000 }, () => ({ ...link, status: 'found' })), { ...link, status: 1n }];
    const report = { schema: 'reprise.case/v1', links } as unknown as CaseReport;
    await expect(writeCase(io, '-', report)).rejects.toThrow(
      /^the case report on stdout is cut short after \d+ characters, not a whole document: /,
    );
    expect(printed.length).toBeGreaterThan(0);
  });
});
