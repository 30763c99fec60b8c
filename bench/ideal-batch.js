// The machine's two-core ceiling for the dump batch, measured by bench/dump.bench.js in the
// same run as the CLI: `node bench/ideal-batch.js DIR W` splits DIR's files into W equal
// slices, one worker thread each, and does for every file only the native core of what
// `reprise verify` does to a small dump: read it, JSON.parse it, SHA-256 its bytes and one
// Ed25519 verification (which alone is ~40% of the CLI's time per dump). It has no JIT
// warm-up to speak of, no report and no ordering, so `W=1 / W=2` is what two cores give a
// perfectly parallel job of the same size at that moment; the CLI's ratio is read against it.
import { createHash, generateKeyPairSync, sign, verify } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

if (isMainThread) {
  const [dir, w] = [process.argv[2], Number(process.argv[3])];
  if (!dir || !(w >= 1)) {
    process.stderr.write('usage: node bench/ideal-batch.js DIR WORKERS\n');
    process.exit(3);
  }
  const files = readdirSync(dir)
    .sort()
    .map((f) => join(dir, f));
  const per = Math.ceil(files.length / w);
  const seen = await Promise.all(
    Array.from(
      { length: w },
      (_, i) =>
        new Promise((resolve, reject) => {
          const t = new Worker(new URL(import.meta.url), { workerData: files.slice(i * per, (i + 1) * per) });
          t.once('message', resolve);
          t.once('error', reject);
        }),
    ),
  );
  if (seen.reduce((a, b) => a + b, 0) !== files.length) throw new Error('ideal batch: a file was missed');
} else {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  // A signature over other bytes: verifying it costs the same as a valid one, and fails.
  const sig = sign(null, Buffer.from('ideal-batch'), privateKey);
  let n = 0;
  for (const f of workerData) {
    const bytes = readFileSync(f);
    JSON.parse(bytes.toString('utf8'));
    createHash('sha256').update(bytes).digest();
    verify(null, bytes, publicKey, sig);
    n++;
  }
  parentPort.postMessage(n);
}
