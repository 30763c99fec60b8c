// The evidence journal (issue 4).
// 1. `journal verify` of an N-entry journal (N checkpoints, one per write) against the bare
//    work it must do, measured in the same run: SHA-256 of every line plus one Ed25519
//    verification per entry and per checkpoint with node:crypto and a cached public
//    KeyObject. Target: verify <= 1.5x bare. N = 20,000 by default, scaled down from the
//    issue's 100,000 to keep the bench under ~3 minutes on this shared 2-core machine
//    (REPRISE_BENCH_JOURNAL_N=100000 runs the full size; REPRISE_BENCH_JOURNAL_REPS sets the
//    repetitions). The journal is generated without fsync, in one buffered write per file.
// 2. Appends with fsync on this machine's disk (entries per second), and without fsync
//    for comparison.
import { createHash, verify } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSigner, parseTrustStore, trustStoreEntry } from '../dist/app/core/keys.js';
import { JournalWriter, MerkleTree, signCheckpoint, signEntry, verifyJournal } from '../dist/app/journal/index.js';

const N = Number(process.env.REPRISE_BENCH_JOURNAL_N ?? 20_000);

function generate(dir, n, signer) {
  const tree = new MerkleTree();
  const entries = [];
  const cps = [];
  let prev = 'sha256:' + '0'.repeat(64);
  const t0 = Date.parse('2026-05-04T10:00:00Z');
  for (let i = 0; i < n; i++) {
    const ts = new Date(t0 + i * 1000).toISOString();
    const { hash, line } = signEntry(
      {
        seq: i,
        prev,
        recordedAtUtc: ts,
        kind: i % 2 ? 'replay-drift' : 'review-rationale',
        subject: { claimRef: `claim:${i % 977}` },
        body: { rationale: `entry ${i}: the replay matched within its band`, delta: (i % 100) / 1000 },
        author: signer.keyId,
      },
      signer,
    );
    entries.push(line);
    tree.appendLeaf(line);
    prev = hash;
    cps.push(
      signCheckpoint(
        { treeSize: i + 1, rootHash: 'sha256:' + tree.root().toString('hex'), timestampUtc: ts, signer: signer.keyId },
        signer,
      ).line,
    );
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'entries.jsonl'), entries.join('\n') + '\n');
  writeFileSync(join(dir, 'checkpoints.jsonl'), cps.join('\n') + '\n');
}

function lines(buf) {
  const out = [];
  let pos = 0;
  for (;;) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl === -1) return out;
    out.push(buf.subarray(pos, nl));
    pos = nl + 1;
  }
}

export default async function (ctx) {
  const signer = generateSigner();
  const trust = parseTrustStore(
    Buffer.from(
      JSON.stringify({ type: 'reprise.trust-store/v1', keys: [trustStoreEntry(signer, 'reviewer', 'bench')] }),
    ),
    'bench',
  );
  const dir = join(ctx.work, `journal-${N}`);
  rmSync(dir, { recursive: true, force: true });
  let t = performance.now();
  generate(dir, N, signer);
  ctx.line(`generate ${N} entries + ${N} checkpoints (no fsync)`, `${((performance.now() - t) / 1000).toFixed(1)} s`);

  // The bare work's inputs: (digest, signature) of every line, prepared outside the timing.
  const pairs = [];
  for (const f of ['entries.jsonl', 'checkpoints.jsonl']) {
    for (const l of lines(readFileSync(join(dir, f)))) {
      const v = JSON.parse(l.toString());
      const { sig, ...rest } = v;
      pairs.push([
        createHash('sha256')
          .update(JSON.stringify(Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)))))
          .digest(),
        Buffer.from(sig, 'base64'),
      ]);
    }
  }
  const key = signer.publicKey; // cached KeyObject
  const bare = () => {
    let ok = 0;
    for (const f of ['entries.jsonl', 'checkpoints.jsonl'])
      for (const l of lines(readFileSync(join(dir, f)))) createHash('sha256').update(l).digest();
    for (const [d, s] of pairs) if (verify(null, d, key, s)) ok++;
    if (ok !== pairs.length) throw new Error(`bare verification failed ${pairs.length - ok} signatures`);
  };
  const subject = async () => {
    const v = await verifyJournal(dir, trust, { keep: false }); // as `reprise journal verify` runs it
    if (v.findings.some((f) => f.severity !== 'info'))
      throw new Error('journal did not verify: ' + JSON.stringify(v.findings.slice(0, 3)));
  };
  // Interleave runs so that load on the machine hits both alike. Wall time is what a user
  // waits; CPU time of this process (user + system) is what the work costs, and is far less
  // disturbed by other processes on a shared machine. Both ratios are printed.
  const REPS = Number(process.env.REPRISE_BENCH_JOURNAL_REPS ?? 3);
  const measure = async (fn) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    const c = process.cpuUsage(c0);
    return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
  };
  const rb = [];
  const rs = [];
  for (let i = 0; i < REPS; i++) {
    rb.push(await measure(bare));
    rs.push(await measure(subject));
  }
  const med = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const bw = med(rb.map((r) => r.wall));
  const sw = med(rs.map((r) => r.wall));
  const bc = med(rb.map((r) => r.cpu));
  const sc = med(rs.map((r) => r.cpu));
  ctx.line(
    `bare work: SHA-256 of ${2 * N} lines + ${2 * N} Ed25519 verifies (median of ${REPS})`,
    `${(bw / 1000).toFixed(2)} s wall, ${(bc / 1000).toFixed(2)} s cpu (${Math.round((2 * N) / (bw / 1000))} verifies/s)`,
  );
  ctx.line(
    `journal verify ${N} entries + ${N} checkpoints (median of ${REPS})`,
    `${(sw / 1000).toFixed(2)} s wall, ${(sc / 1000).toFixed(2)} s cpu`,
  );
  ctx.line('journal verify / bare work, wall (target <= 1.5)', `${(sw / bw).toFixed(3)}x`);
  ctx.line('journal verify / bare work, cpu time (target <= 1.5)', `${(sc / bc).toFixed(3)}x`);

  // Appends.
  for (const fsync of [true, false]) {
    const adir = join(ctx.work, `journal-append-${fsync}`);
    rmSync(adir, { recursive: true, force: true });
    const w = await JournalWriter.open(adir, { fsync });
    const n = fsync ? 300 : 2000;
    t = performance.now();
    for (let i = 0; i < n; i++)
      await w.append(
        { kind: 'review-rationale', subject: { claimRef: `claim:${i}` }, body: { rationale: 'bench append' } },
        signer,
      );
    const el = performance.now() - t;
    await w.close();
    ctx.line(
      `append ${fsync ? 'with fsync (entry + checkpoint)' : 'without fsync'}: ${n} entries`,
      `${Math.round(n / (el / 1000))} entries/s (${(el / n).toFixed(2)} ms each)`,
    );
  }
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}
