import { copyFileSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { signBytes } from '../../app/core/keys.js';
import {
  appendEntry,
  checkHeldCheckpoint,
  checkInclusionProof,
  inclusionProof,
  JournalError,
  JournalWriter,
  repairJournal,
  signEntry,
  unsignedDigest,
  unsignedDigestOfLine,
  verifyFiles,
  verifyJournal,
  type Entry,
} from '../../app/journal/index.js';
import { splitLines } from '../../app/journal/read.js';
import { makeKeys, tmp, type Keys } from './helpers.js';

async function build(dir: string, k: Keys, n = 6): Promise<void> {
  for (let i = 0; i < n; i++) {
    await appendEntry(
      dir,
      {
        kind: i % 2 ? 'replay-drift' : 'review-rationale',
        subject: { claimRef: `claim:${i}` },
        body: { rationale: `reason number ${i}`, n: i },
      },
      i % 3 === 2 ? k.officer : k.reviewer,
    );
  }
}

const fails = (v: Awaited<ReturnType<typeof verifyJournal>>) => v.findings.filter((f) => f.severity === 'fail');

describe('journal write and verify', () => {
  let base: string;
  let k: Keys;
  let dir: string;
  beforeAll(async () => {
    base = tmp();
    k = makeKeys(base);
    dir = join(base, 'j');
    await build(dir, k);
  });

  it('a fresh journal verifies: chained, signed, one checkpoint per write', async () => {
    const v = await verifyJournal(dir, k.trust);
    expect(fails(v)).toEqual([]);
    expect(v.findings.map((f) => f.severity)).toEqual(['info']);
    expect(v.entryLines).toBe(6);
    expect(v.checkpointLines).toBe(6);
    expect(v.checkpoints.map((c) => c.checkpoint.treeSize)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(v.latestCheckpoint?.rootHash).toBe(v.root);
    expect(v.entries[0]!.entry.prev).toBe('sha256:' + '0'.repeat(64));
    for (let i = 1; i < 6; i++) expect(v.entries[i]!.entry.prev).toBe(v.entries[i - 1]!.hash);
  });

  it('without a trust store the verdict is unavailable, never pass', async () => {
    const v = await verifyJournal(dir, null);
    expect(v.findings.find((f) => f.severity === 'unavailable')?.rule).toBe('RPR-JOURNAL-011');
    expect(fails(v)).toEqual([]);
  });

  it('flipping one bit of a byte anywhere in any entry line fails naming that line (every 3rd byte, all lines)', async () => {
    const text = readFileSync(join(dir, 'entries.jsonl'));
    const cps = splitLines('checkpoints.jsonl', readFileSync(join(dir, 'checkpoints.jsonl')));
    const lines: [number, number][] = [];
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      if (text[i] !== 0x0a) continue;
      lines.push([s, i]);
      s = i + 1;
    }
    let n = 0;
    for (const [ln, [a, b]] of lines.entries()) {
      for (let pos = a + (ln % 3); pos < b; pos += 3) {
        const c = Buffer.from(text);
        c[pos]! ^= pos % 2 ? 0x01 : 0x20;
        if (c[pos] === 0x0a) continue;
        const v = verifyFiles(
          dir,
          { ...splitLines('entries.jsonl', c), exists: true },
          { ...cps, exists: true },
          k.trust,
        );
        const named = fails(v).filter((f) => f.pointer === `line:${ln + 1}`);
        if (named.length === 0)
          throw new Error(
            `byte ${pos - a} of line ${ln + 1} flipped undetected at its line: ${JSON.stringify(v.findings)}`,
          );
        n++;
      }
    }
    expect(n).toBeGreaterThan(500);
  });

  it('an altered checkpoint fails: root mismatch and inconsistency with its neighbours', async () => {
    const t = join(base, 'cp');
    mkdirSync(t);
    copyFileSync(join(dir, 'entries.jsonl'), join(t, 'entries.jsonl'));
    const cps = readFileSync(join(dir, 'checkpoints.jsonl'), 'utf8').split('\n');
    const cp = JSON.parse(cps[2]!);
    cp.rootHash = 'sha256:' + 'ab'.repeat(32);
    const { sig: _s, ...rest } = cp;
    cp.sig = signBytes(k.officer, unsignedDigest(rest)); // re-signed by the right key: still caught
    const sorted = Object.fromEntries(Object.entries(cp).sort(([x], [y]) => (x < y ? -1 : 1)));
    cps[2] = JSON.stringify(sorted);
    writeFileSync(join(t, 'checkpoints.jsonl'), cps.join('\n'));
    const v = await verifyJournal(t, k.trust);
    const rules = fails(v).map((f) => `${f.rule}@${f.pointer}`);
    expect(rules).toContain('RPR-JOURNAL-015@entry:checkpoints.jsonl:line:3');
    expect(rules).toContain('RPR-JOURNAL-017@entry:checkpoints.jsonl:line:3');
    expect(rules).toContain('RPR-JOURNAL-017@entry:checkpoints.jsonl:line:4');
  });

  it('timestamps going backwards are a finding naming the line', async () => {
    const t = join(base, 'ts');
    const w = await JournalWriter.open(t, { clock: () => Date.parse('2026-05-04T10:00:00Z') });
    await w.append({ kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, k.reviewer);
    await w.close();
    // Forge an entry dated earlier, correctly chained and signed (a writer with a bad clock).
    const v0 = await verifyJournal(t, k.trust);
    const { line } = signEntry(
      {
        seq: 1,
        prev: v0.entries[0]!.hash,
        recordedAtUtc: '2026-05-04T09:59:59.999Z',
        kind: 'review-rationale',
        subject: { claimRef: 'c' },
        body: {},
        author: k.reviewer.keyId,
      },
      k.reviewer,
    );
    appendFileSync(join(t, 'entries.jsonl'), line + '\n');
    const v = await verifyJournal(t, k.trust);
    const f = v.findings.find((x) => x.rule === 'RPR-JOURNAL-012');
    expect(f?.pointer).toBe('line:2');
    expect(f?.actual).toBe('2026-05-04T09:59:59.999Z');
    // The writer itself never goes backwards even when the clock does.
    const t2 = join(base, 'ts2');
    let now = Date.parse('2026-05-04T10:00:00Z');
    const w2 = await JournalWriter.open(t2, { clock: () => now });
    await w2.append({ kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, k.reviewer);
    now -= 60_000;
    const r = await w2.append({ kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, k.reviewer);
    await w2.close();
    expect(r.entry.recordedAtUtc).toBe('2026-05-04T10:00:00.000Z');
    expect(fails(await verifyJournal(t2, k.trust))).toEqual([]);
  });

  it('revoked authors fail, retired ones warn, unknown ones fail', async () => {
    const b = tmp();
    const { generateSigner } = await import('../../app/core/keys.js');
    const revoked = generateSigner();
    const retired = generateSigner();
    const kk = makeKeys(b, [
      { signer: revoked, role: 'reviewer', status: 'revoked' },
      { signer: retired, role: 'reviewer', status: 'retired' },
    ]);
    const t = join(b, 'j');
    await appendEntry(t, { kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, retired);
    await appendEntry(t, { kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, revoked);
    await appendEntry(t, { kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, kk.outsider);
    const v = await verifyJournal(t, kk.trust);
    const at = (rule: string) => v.findings.filter((f) => f.rule === rule).map((f) => f.pointer);
    expect(at('RPR-JOURNAL-010')).toEqual(['line:1', 'entry:checkpoints.jsonl:line:1']);
    expect(at('RPR-JOURNAL-009')).toEqual(['line:2', 'entry:checkpoints.jsonl:line:2']);
    expect(at('RPR-JOURNAL-008')).toEqual(['line:3', 'entry:checkpoints.jsonl:line:3']);
  });
});

describe('torn tail, repair, lock', () => {
  it('a torn last line is a finding; appends are refused until an explicit, journaled repair', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    const acked = [];
    for (let i = 0; i < 3; i++)
      acked.push(
        await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: `c${i}` }, body: { i } }, k.reviewer),
      );
    const torn = '{"author":"ed25519:0123","body":{"i":3';
    appendFileSync(join(dir, 'entries.jsonl'), torn);
    const v = await verifyJournal(dir, k.trust);
    expect(fails(v).map((f) => `${f.rule}@${f.pointer}`)).toEqual(['RPR-JOURNAL-013@line:4']);
    await expect(
      appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: 'x' }, body: {} }, k.reviewer),
    ).rejects.toMatchObject({ code: 'TORN' });
    // Nothing changed on disk by the refused append.
    expect(readFileSync(join(dir, 'entries.jsonl'), 'utf8').endsWith(torn)).toBe(true);
    const r = await repairJournal(dir, k.officer);
    expect(r?.truncated).toEqual([
      {
        file: 'entries.jsonl',
        offset: expect.any(Number),
        length: torn.length,
        sha256: expect.stringMatching(/^sha256:/),
      },
    ]);
    const after = await verifyJournal(dir, k.trust);
    expect(fails(after)).toEqual([]);
    expect(after.entryLines).toBe(4);
    const rep = after.entries[3]!.entry as Entry;
    expect(rep.kind).toBe('journal-repair');
    const kept = (rep.body['truncated'] as { bytesBase64: string }[])[0]!.bytesBase64;
    expect(Buffer.from(kept, 'base64').toString()).toBe(torn);
    // Every acknowledged entry survived, byte for byte.
    for (const a of acked) expect(after.entries[a.seq]!.hash).toBe(a.entryHash);
    expect(await repairJournal(dir, k.officer)).toBeNull();
  });

  it('a torn checkpoint line is reported and repaired the same way', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, k.reviewer);
    appendFileSync(join(dir, 'checkpoints.jsonl'), '{"rootHash":"sha');
    const v = await verifyJournal(dir, k.trust);
    expect(fails(v).map((f) => `${f.rule}@${f.pointer}`)).toEqual(['RPR-JOURNAL-013@entry:checkpoints.jsonl:line:2']);
    await repairJournal(dir, k.reviewer);
    expect(fails(await verifyJournal(dir, k.trust))).toEqual([]);
  });

  it('a second writer gets a clear lock error while the first holds the journal', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    const w = await JournalWriter.open(dir);
    await w.append({ kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, k.reviewer);
    const err = await appendEntry(
      dir,
      { kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} },
      k.officer,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JournalError);
    expect((err as JournalError).code).toBe('LOCKED');
    expect((err as JournalError).message).toContain(`pid ${process.pid}`);
    await w.append({ kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, k.reviewer);
    await w.close();
    await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, k.officer);
    const v = await verifyJournal(dir, k.trust);
    expect(fails(v)).toEqual([]);
    expect(v.entryLines).toBe(3);
  });

  it('uncovered entries: one (an interrupted write) warns, several fail', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    for (let i = 0; i < 4; i++)
      await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: 'c' }, body: { i } }, k.reviewer);
    const cps = readFileSync(join(dir, 'checkpoints.jsonl'), 'utf8').split('\n');
    writeFileSync(join(dir, 'checkpoints.jsonl'), cps.slice(0, 3).join('\n') + '\n');
    let v = await verifyJournal(dir, k.trust);
    expect(v.findings.filter((f) => f.severity !== 'info').map((f) => `${f.rule}@${f.pointer}`)).toEqual([
      'RPR-JOURNAL-020@line:4',
    ]);
    writeFileSync(join(dir, 'checkpoints.jsonl'), cps.slice(0, 2).join('\n') + '\n');
    v = await verifyJournal(dir, k.trust);
    expect(fails(v).map((f) => `${f.rule}@${f.pointer}`)).toEqual(['RPR-JOURNAL-021@line:3']);
  });
});

describe('inclusion proofs of a journal', () => {
  it('proves every entry against the latest checkpoint, and refuses altered proofs', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    for (let i = 0; i < 11; i++)
      await appendEntry(dir, { kind: 'replay-comparison', subject: { claimRef: `c${i}` }, body: { i } }, k.reviewer);
    for (let i = 0; i < 11; i++) {
      const p = await inclusionProof(dir, i);
      expect(p.treeSize).toBe(11);
      const ok = checkInclusionProof(JSON.parse(JSON.stringify(p)), k.trust);
      expect(ok.findings.filter((f) => f.severity !== 'info')).toEqual([]);
      const bad1 = { ...p, leafIndex: (i + 1) % 11 };
      expect(checkInclusionProof(bad1, k.trust).findings.map((f) => f.rule)).toContain('RPR-JOURNAL-033');
      const bad2 = {
        ...p,
        auditPath: p.auditPath.map((h, j) => (j === 0 ? h.slice(0, -1) + (h.endsWith('0') ? '1' : '0') : h)),
      };
      expect(checkInclusionProof(bad2, k.trust).findings.map((f) => f.rule)).toContain('RPR-JOURNAL-033');
      const bad3 = { ...p, entry: p.entry.replace(`"i":${i}`, `"i":${i + 100}`) };
      expect(checkInclusionProof(bad3, k.trust).findings.map((f) => f.rule)).toEqual(
        expect.arrayContaining(['RPR-JOURNAL-033', 'RPR-JOURNAL-007']),
      );
      const bad4 = { ...p, checkpoint: { ...p.checkpoint, rootHash: 'sha256:' + '1'.repeat(64) } };
      expect(checkInclusionProof(bad4, k.trust).findings.map((f) => f.rule)).toEqual(
        expect.arrayContaining(['RPR-JOURNAL-033', 'RPR-JOURNAL-007']),
      );
    }
    await expect(inclusionProof(dir, 11)).rejects.toBeInstanceOf(JournalError);
    expect(
      checkInclusionProof(JSON.parse(JSON.stringify(await inclusionProof(dir, 3))), null).findings.map((f) => f.rule),
    ).toEqual(['RPR-JOURNAL-011']);
  });
});

describe('held checkpoints and the unsigned digest', () => {
  it('a checkpoint held elsewhere detects truncation and rewrites that the journal alone cannot', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    for (let i = 0; i < 7; i++)
      await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: `c${i}` }, body: { i } }, k.reviewer);
    const held = (await verifyJournal(dir, k.trust)).latestCheckpoint!;
    for (let i = 7; i < 10; i++)
      await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: `c${i}` }, body: { i } }, k.reviewer);
    const ok = checkHeldCheckpoint(await verifyJournal(dir, k.trust), held, k.trust);
    expect(ok.map((f) => f.severity)).toEqual(['info']);
    // Truncate to 5 entries and re-sign fresh checkpoints with the writer's key: internally valid...
    const cut = join(base, 'cut');
    for (let i = 0; i < 5; i++)
      await appendEntry(cut, { kind: 'review-rationale', subject: { claimRef: `c${i}` }, body: { i } }, k.reviewer);
    const lines = readFileSync(join(dir, 'entries.jsonl'), 'utf8').split('\n').slice(0, 5).join('\n') + '\n';
    writeFileSync(join(cut, 'entries.jsonl'), lines);
    // ...but not against the held checkpoint.
    const v = await verifyJournal(cut, k.trust);
    const held7 = checkHeldCheckpoint(v, held, k.trust);
    expect(held7.map((f) => f.rule)).toEqual(['RPR-JOURNAL-018']);
    // A rewritten journal of the same size: the root differs.
    const other = join(base, 'other');
    for (let i = 0; i < 8; i++)
      await appendEntry(other, { kind: 'review-rationale', subject: { claimRef: `x${i}` }, body: { i } }, k.reviewer);
    const rules = checkHeldCheckpoint(await verifyJournal(other, k.trust), held, k.trust).map((f) => f.rule);
    expect(rules).toContain('RPR-JOURNAL-018');
  });

  it('the digest cut from the canonical line equals H(entry without sig), whatever the body holds', async () => {
    const { canonicalizeValue } = await import('../../app/core/jcs.js');
    const base = tmp();
    const k = makeKeys(base);
    const bodies = [
      {},
      { sig: 'x', a: ',"sig":"' },
      { z: { sig: 'AAAA', subject: { claimRef: 'q' } } },
      { s: '"sig":"\u00e9\n' },
    ];
    for (const body of bodies) {
      const { entry, line } = signEntry(
        {
          seq: 0,
          prev: 'sha256:' + '0'.repeat(64),
          recordedAtUtc: '2026-05-04T10:00:00Z',
          kind: 'review-rationale',
          subject: { claimRef: 'c,"sig":"', artifact: 'sha256:' + 'f'.repeat(64) },
          body,
          author: k.reviewer.keyId,
        },
        k.reviewer,
      );
      expect(line).toBe(canonicalizeValue(entry));
      expect(unsignedDigestOfLine(line, entry.sig, 'subject')!.equals(unsignedDigest(entry))).toBe(true);
    }
  });
});

describe('the checkpoint line recognizer agrees with parseCanonical + shape checks', () => {
  it('for a valid line and every single-character deletion, substitution and insertion of it', async () => {
    const { recognizeCheckpoint } = await import('../../app/journal/verify.js');
    const { parseCanonical } = await import('../../app/core/jcs.js');
    const { checkCheckpointShape, signCheckpoint } = await import('../../app/journal/format.js');
    const { generateSigner } = await import('../../app/core/keys.js');
    const s = generateSigner();
    const lines = [1, 9007199254740991, 12].map(
      (n, i) =>
        signCheckpoint(
          {
            treeSize: n,
            rootHash: 'sha256:' + 'a1'.repeat(32),
            timestampUtc: ['2026-05-04T10:00:00Z', '2026-02-28T23:59:59.123456789Z', '2026-05-04T10:00:00.5Z'][i]!,
            signer: s.keyId,
          },
          s,
        ).line,
    );
    const slow = (t: string) => {
      try {
        const p = parseCanonical(t);
        return p.canonical === t && checkCheckpointShape(p.value, '').length === 0 ? p.value : null;
      } catch {
        return null;
      }
    };
    let accepted = 0;
    let checked = 0;
    const subs = ['0', '9', 'a', 'A', '"', ' ', '\\\\', '.', 'Z', '+', '='];
    for (const line of lines) {
      const variants = [
        line,
        line.replace('T10', 'T24'),
        line.replace('-05-04', '-02-30'),
        line.replace(/"treeSize":\d+/, '"treeSize":9007199254740992'),
        line.replace(/"treeSize":\d+/, '"treeSize":0'),
      ];
      for (let i = 0; i < line.length; i++) {
        variants.push(line.slice(0, i) + line.slice(i + 1));
        for (const c of subs)
          variants.push(line.slice(0, i) + c + line.slice(i + 1), line.slice(0, i) + c + line.slice(i));
      }
      for (const v of variants) {
        const fast = recognizeCheckpoint(v);
        const ref = slow(v);
        if (fast) {
          expect(ref, v).not.toBeNull();
          expect(fast.cp).toEqual(ref);
          accepted++;
        }
        checked++;
      }
    }
    expect(accepted).toBeGreaterThanOrEqual(3);
    expect(checked).toBeGreaterThan(5000);
  });
});
