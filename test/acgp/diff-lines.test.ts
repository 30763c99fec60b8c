/**
 * `reprise diff` of two JSON Lines traces compares their EVALs, as it does two JSON array
 * traces (the kind declares its content as its lines: KindDeclarations.contentDocuments);
 * before, it compared only their digests, beside a label that read as if each were invalid.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContent, type ContentRead } from '../../app/engine/compare-sides.js';
import { cleanTrace } from '../../app/kinds/acgp/examples.js';
import { NumberLiterals, diffJson } from '../../shared/diff.js';
import type { JsonValue } from '../../shared/report.js';
import { inProcessCli } from '../helpers/in-process-cli.js';

const jsonl = (evals: unknown[]) => evals.map((e) => JSON.stringify(e)).join('\n') + '\n';

describe('reprise diff of two JSON Lines ACGP traces', () => {
  it('shows the changed member of the EVAL at its index (/content/3/review_required)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reprise-acgp-diff-'));
    const a = cleanTrace();
    const b = structuredClone(a);
    (b[3] as Record<string, unknown>)['review_required'] = true;
    await writeFile(join(dir, 'a.jsonl'), jsonl(a));
    await writeFile(join(dir, 'b.jsonl'), jsonl(b));
    const r = await inProcessCli(dir, ['diff', join(dir, 'a.jsonl'), join(dir, 'b.jsonl')]);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('  changed  /content/3/review_required  false → true\n');
    expect(r.out).toContain('report and parsed content compared');
    expect(r.out).not.toContain('not one I-JSON document');
  });

  it('compares a number beyond double precision by its literal, and names a line that is not I-JSON', async () => {
    const trace = (n: string) => Buffer.from(`${JSON.stringify(cleanTrace()[0])}\n{"ctq_score":${n}}\n`);
    const literals = new NumberLiterals();
    const valueOf = (c: ContentRead): JsonValue => {
      if (!('value' in c)) throw new Error(c.why);
      return c.value;
    };
    const l = valueOf(await readContent({ bytes: trace('9007199254740993') }, literals));
    const r = valueOf(await readContent({ bytes: trace('9007199254740992') }, literals));
    expect(Array.isArray(l)).toBe(true);
    expect(diffJson(l, r, { literals }).differences.map((e) => e.pointer)).toEqual(['/1/ctq_score']);
    const bad = await readContent({ bytes: Buffer.from(`${JSON.stringify(cleanTrace()[0])}\n{"a"\n`) }, literals);
    expect(bad).toMatchObject({
      why: "report compared; content not (acgp-trace content read line by line: line 2 is not I-JSON: ERR_SYNTAX: expected ':' at /a (column 5 of that line))",
    });
  });
});
