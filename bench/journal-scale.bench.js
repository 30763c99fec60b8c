// The evidence journal at scale (issue 26). Each figure is a ratio against a baseline
// measured in the same run:
// 1. append + judgement receipt (fsync on) on a 1,000,000-entry journal against a 1,000-entry
//    one (target <= 1.5): the cost of a decision must not grow with the journal's age;
// 2. `journal verify --since` of 1,000 new entries on the 1M journal against a full verify of a
//    1,000-entry journal (target <= 2);
// 3. a full verify of the 1M journal against the bare work over the same bytes (SHA-256 of
//    every line and of every signed text, and every Ed25519 verification: entries,
//    checkpoints, notes) (target <= 1.3), each in a child process, whose peak RSS is reported
//    (target < 512 MiB).
// The 1M journal is written by the real writer's code path (JournalWriter.append, fsync off)
// and kept in .bench/ between runs (REPRISE_BENCH_JOURNAL_SCALE_N sets its size).
import { spawnSync } from 'node:child_process';
import { createHash, verify } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { signerFromPem, parseTrustStore, trustStoreEntry, generateSigner } from '../dist/app/core/keys.js';
import { JournalWriter, recordJudgement, verifyJournal } from '../dist/app/journal/index.js';
import { verifyJournalSince } from '../dist/app/journal/verify.js';

const N = Number(process.env.REPRISE_BENCH_JOURNAL_SCALE_N ?? 1_000_000);
const SMALL = 1000;

function keyOf(work) {
  const pem = join(work, 'journal-scale-key.pem');
  if (!existsSync(pem))
    writeFileSync(pem, generateSigner().privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  const signer = signerFromPem(readFileSync(pem));
  const storePath = join(work, 'journal-scale-trust.json');
  writeFileSync(
    storePath,
    JSON.stringify({ type: 'reprise.trust-store/v1', keys: [trustStoreEntry(signer, 'reviewer', 'bench')] }),
  );
  return { signer, storePath, trust: parseTrustStore(readFileSync(storePath), storePath) };
}

const input = (i) => ({
  kind: i % 2 ? 'replay-drift' : 'review-rationale',
  subject: { claimRef: `claim:${i % 977}` },
  body: { rationale: `entry ${i}: the replay matched within its band`, delta: (i % 100) / 1000 },
});

/** Grows the journal in `dir` to at least `n` entries through the writer (fsync off); returns the seconds it took. */
async function grow(dir, n, signer, trust) {
  const t = performance.now();
  const w = await JournalWriter.open(dir, { fsync: false, trustStore: trust, signer });
  for (let i = w.size; i < n; i++) await w.append(input(i), signer);
  await w.close();
  return (performance.now() - t) / 1000;
}

async function judge(dir, signer, trust, i) {
  const report = {
    schema: 'reprise.report/v1',
    artifact: {
      sha256: 'sha256:' + createHash('sha256').update(`artifact ${i}`).digest('hex'),
      id: `claim:bench-${i}`,
    },
    verdict: 'pass',
    findings: [{ rule: 'R', severity: 'info', message: 'm' }],
  };
  const r = await recordJudgement(
    dir,
    { report, pointer: '/findings/0', decision: 'accept', rationale: 'the replay matched the recorded output exactly' },
    signer,
    trust,
  );
  if (!r.proofVerified) throw new Error('receipt proof did not verify: ' + r.proofFindings.join('; '));
}

const med = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];

/** Runs `code` (an ES module body) in a child node; returns its JSON line plus wall time. */
function child(code, root) {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return { ...JSON.parse(r.stdout.trim().split('\n').pop()), wall: performance.now() - t };
}

const USAGE =
  'const u = process.resourceUsage(); console.log(JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssMiB: u.maxRSS / 1024, ...out }));';

function fullVerifyCode(dir, storePath) {
  return `import { verifyJournal } from './dist/app/journal/index.js'; import { loadTrustStore } from './dist/app/core/keys.js';
const v = await verifyJournal(${JSON.stringify(dir)}, await loadTrustStore(${JSON.stringify(storePath)}), { keep: false });
const bad = v.findings.filter((f) => f.severity !== 'info'); if (bad.length) throw new Error(JSON.stringify(bad.slice(0, 3)));
const out = { entries: v.entryLines }; ${USAGE}`;
}

/** The bare work over the same bytes: every line hashed, every signed text hashed, every signature verified; streamed like the verifier. */
function bareCode(dir, storePath) {
  return `import { createHash, verify, createPublicKey } from 'node:crypto'; import { openSync, readSync } from 'node:fs';
const store = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(storePath)}, 'utf8'));
const key = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(store.keys[0].publicKey, 'base64')]), format: 'der', type: 'spki' });
function* lines(name) { const fd = openSync(${JSON.stringify(dir)} + '/' + name, 'r'); const chunk = Buffer.allocUnsafe(8 << 20); let rest = Buffer.alloc(0);
  for (;;) { const n = readSync(fd, chunk, 0, chunk.length, null); if (n === 0) return; const buf = Buffer.concat([rest, chunk.subarray(0, n)]); let pos = 0;
    for (;;) { const nl = buf.indexOf(10, pos); if (nl === -1) break; yield buf.subarray(pos, nl); pos = nl + 1; } rest = Buffer.from(buf.subarray(pos)); } }
let ok = 0, n = 0;
const cut = (line, next) => { const s = line.toString(); const i = s.indexOf(',"sig":"'); const j = s.indexOf('"', i + 8); return [createHash('sha256').update(s.slice(0, i) + s.slice(j + 1)).digest(), Buffer.from(s.slice(i + 8, j), 'base64')]; };
for (const l of lines('entries.jsonl')) { createHash('sha256').update(Buffer.of(0)).update(l).digest(); const [d, s] = cut(l); n++; if (verify(null, d, key, s)) ok++; }
for (const l of lines('checkpoints.jsonl')) { const [d, s] = cut(l); n++; if (verify(null, d, key, s)) ok++; }
for (const l of lines('notes.jsonl')) { const note = JSON.parse(l.toString()); const k = note.lastIndexOf('\\n\\n'); const sig = Buffer.from(note.slice(note.indexOf(' ', k + 4) + 1, -1), 'base64').subarray(4); n++; if (verify(null, Buffer.from(note.slice(0, k + 1)), key, sig)) ok++; }
if (ok !== n) throw new Error('bare: ' + (n - ok) + ' signatures failed');
const out = { signatures: n }; ${USAGE}`;
}

export default async function (ctx) {
  const { signer, storePath, trust } = keyOf(ctx.work);
  const big = join(ctx.work, `journal-scale-${N}`);
  const small = join(ctx.work, 'journal-scale-small');
  rmSync(small, { recursive: true, force: true });
  ctx.line(
    `grow the ${N}-entry journal through JournalWriter.append (fsync off)`,
    `${(await grow(big, N, signer, trust)).toFixed(1)} s`,
  );
  await grow(small, SMALL, signer, trust);

  // 1. append + receipt, interleaved so that load hits both alike.
  const tb = [];
  const ts = [];
  for (let i = 0; i < 15; i++) {
    let t = performance.now();
    await judge(small, signer, trust, i);
    ts.push(performance.now() - t);
    t = performance.now();
    await judge(big, signer, trust, i);
    tb.push(performance.now() - t);
  }
  ctx.line(`append + receipt, fsync on, ${SMALL}-entry journal (median of 15)`, `${med(ts).toFixed(2)} ms`);
  ctx.line(`append + receipt, fsync on, ${N}-entry journal (median of 15)`, `${med(tb).toFixed(2)} ms`);
  ctx.line(`append + receipt, ${N} / ${SMALL} (target <= 1.5)`, `${(med(tb) / med(ts)).toFixed(3)}x`);

  // 2. verify --since: hold the latest checkpoint, add 1,000 entries, verify only those.
  const held = JSON.parse(readFileSync(join(big, 'state.json'), 'utf8')).checkpoint.line;
  const size = JSON.parse(held).treeSize;
  await grow(big, size + SMALL, signer, trust);
  const ti = [];
  const tf = [];
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    const v = await verifyJournalSince(big, JSON.parse(held), trust, { keep: false });
    ti.push(performance.now() - t);
    if (!v || v.findings.some((f) => f.severity !== 'info'))
      throw new Error('verify --since did not pass: ' + JSON.stringify(v?.findings.slice(0, 3)));
    t = performance.now();
    await verifyJournal(small, trust, { keep: false });
    tf.push(performance.now() - t);
  }
  ctx.line(
    `verify --since of ${SMALL} new entries on the ${size}-entry journal (median of 5)`,
    `${med(ti).toFixed(1)} ms`,
  );
  ctx.line(`full verify of the ${SMALL}-entry journal (median of 5)`, `${med(tf).toFixed(1)} ms`);
  ctx.line(`verify --since / full verify of ${SMALL} (target <= 2)`, `${(med(ti) / med(tf)).toFixed(3)}x`);

  // 3. full verify against the bare work, each in a child process (peak RSS is the child's).
  const bare = child(bareCode(big, storePath), ctx.root);
  const full = child(fullVerifyCode(big, storePath), ctx.root);
  ctx.line(
    `bare work: ${bare.signatures} Ed25519 verifies + the hashes`,
    `${(bare.wall / 1000).toFixed(1)} s wall, ${(bare.cpu / 1000).toFixed(1)} s cpu, peak ${bare.maxRssMiB.toFixed(0)} MiB`,
  );
  ctx.line(
    `full verify of ${full.entries} entries`,
    `${(full.wall / 1000).toFixed(1)} s wall, ${(full.cpu / 1000).toFixed(1)} s cpu, peak ${full.maxRssMiB.toFixed(0)} MiB (target < 512)`,
  );
  ctx.line('full verify / bare work, wall (target <= 1.3)', `${(full.wall / bare.wall).toFixed(3)}x`);
  ctx.line('full verify / bare work, cpu', `${(full.cpu / bare.cpu).toFixed(3)}x`);
  void open;
  void verify;
}
