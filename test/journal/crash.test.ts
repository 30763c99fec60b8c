/**
 * Crash safety: a child process appends in a loop (fsync on) and is SIGKILLed at random
 * moments, many times. After each kill the journal either verifies or reports only a torn
 * tail (and at most one unacknowledged entry without its checkpoint), and every entry
 * whose append had returned is present, byte for byte. Needs dist/ (tsc -p tsconfig.cli.json).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { breakStaleLock, repairJournal, verifyJournal } from '../../app/journal/index.js';
import { makeKeys, tmp } from './helpers.js';

const DIST = join(__dirname, '..', '..', 'dist', 'app');

describe('SIGKILL during appends', () => {
  it('never loses an acknowledged entry and never leaves more than a torn tail', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    const child = join(base, 'appender.mjs');
    writeFileSync(
      child,
      `import { JournalWriter } from ${JSON.stringify(join(DIST, 'journal', 'index.js'))};
       import { loadSigner } from ${JSON.stringify(join(DIST, 'core', 'keys.js'))};
       const s = await loadSigner(process.argv[2]);
       const w = await JournalWriter.open(process.argv[3]);
       for (let i = 0; ; i++) {
         const r = await w.append({ kind: 'replay-drift', subject: { claimRef: 'claim:' + i }, body: { i, pad: 'x'.repeat(i % 500) } }, s);
         process.stdout.write('ack ' + r.seq + ' ' + r.entryHash + '\\n');
       }`,
    );
    const acked = new Map<number, string>();
    let kills = 0;
    let tornSeen = 0;
    let uncoveredSeen = 0;
    let simulatedCuts = 0;
    const ROUNDS = 16;
    for (let round = 0; round < ROUNDS; round++) {
      const proc = spawn(process.execPath, [child, k.reviewerPem, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
      proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<void>((res) => proc.on('exit', () => res()));
      // Kill at a random moment once it is writing (sometimes right away).
      await new Promise<void>((res) => {
        const delay = Math.floor(Math.random() * 250);
        const arm = () => setTimeout(() => res(), delay);
        if (round % 4 === 0) arm();
        else proc.stdout.once('data', arm);
        proc.once('exit', () => res());
      });
      proc.kill('SIGKILL');
      await exited;
      kills++;
      expect(err, err).not.toMatch(/Error/);
      for (const line of out.split('\n')) {
        const m = /^ack (\d+) (sha256:[0-9a-f]{64})$/.exec(line);
        if (m) acked.set(Number(m[1]), m[2]!);
      }
      // The dead writer's lock is stale: reported, and removed only because its pid is gone.
      await breakStaleLock(dir);
      if (!existsSync(join(dir, 'entries.jsonl'))) {
        // Killed before the journal was even created: nothing can have been acknowledged.
        expect(acked.size).toBe(0);
        continue;
      }
      // Every other round, also simulate a power cut that persisted only part of the first
      // unacknowledged write: cut the file inside the first line after the last ack.
      if (round % 2 === 1) {
        const buf = readFileSync(join(dir, 'entries.jsonl'));
        const maxAck = acked.size === 0 ? -1 : Math.max(...acked.keys());
        let start = 0;
        for (let line = 0; line <= maxAck; line++) start = buf.indexOf(0x0a, start) + 1;
        const end = buf.indexOf(0x0a, start);
        // Only a line no checkpoint covers can be torn by a power cut: the writer fsyncs the
        // entry before it writes the checkpoint that covers it.
        const cps = readFileSync(join(dir, 'checkpoints.jsonl'), 'utf8').split('\n').slice(0, -1);
        const covered = cps.length === 0 ? 0 : (JSON.parse(cps[cps.length - 1]!) as { treeSize: number }).treeSize;
        if (end > start + 1 && maxAck + 1 >= covered) {
          truncateSync(join(dir, 'entries.jsonl'), start + 1 + Math.floor(Math.random() * (end - start - 1)));
          simulatedCuts++;
        }
      }
      const v = await verifyJournal(dir, k.trust);
      // 020 and 043: a kill between the entry and its checkpoint, or between the checkpoint and its note (neither acknowledged).
      const bad = v.findings.filter(
        (f) =>
          (f.severity === 'fail' && f.rule !== 'RPR-JOURNAL-013') ||
          (f.severity === 'warning' && f.rule !== 'RPR-JOURNAL-020' && f.rule !== 'RPR-JOURNAL-043'),
      );
      expect(bad, `round ${round}`).toEqual([]);
      for (const [seq, hash] of acked) expect(v.entries[seq]?.hash, `acked seq ${seq} after round ${round}`).toBe(hash);
      if (v.findings.some((f) => f.rule === 'RPR-JOURNAL-020')) uncoveredSeen++;
      if (v.torn.length > 0) {
        tornSeen++;
        await repairJournal(dir, k.officer);
        const after = await verifyJournal(dir, k.trust);
        expect(after.findings.filter((f) => f.severity === 'fail')).toEqual([]);
      }
    }
    expect(kills).toBe(ROUNDS);
    expect(acked.size).toBeGreaterThan(ROUNDS);
    const final = await verifyJournal(dir, k.trust);
    expect(final.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    console.log(
      `crash test: ${kills} kills, ${acked.size} acknowledged entries, ${final.entryLines} entries on disk, ${tornSeen} torn tails repaired (${simulatedCuts} simulated power cuts), ${uncoveredSeen} interrupted checkpoints`,
    );
  }, 180_000);
});
