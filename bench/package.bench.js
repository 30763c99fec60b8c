// Investigation packages: verify a ~200 MiB package of 2,000 deflated entries (limits
// raised by flags) against `unzip -p PKG | sha256sum` over the same package, in the same
// run; then peak RSS of verify as the package grows (50, 100, 200 MiB).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';

const MiB = 1024 * 1024;

function which(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

/** Deterministic, moderately compressible content (digits from an LCG: about 2:1). */
function entryData(seed, bytes) {
  const b = Buffer.allocUnsafe(bytes);
  let x = (seed * 2654435761) >>> 0;
  for (let i = 0; i < bytes; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const r = x >>> 24;
    b[i] = i % 16 === 15 ? 0x0a : r < 24 ? 0x2c : 0x30 + (r % 10);
  }
  return b;
}

async function makePackage(root, path, entries, entryBytes) {
  if (existsSync(path)) return;
  const { buildPackageParts, packPackage } = await import(join(root, 'dist/app/kinds/nemosyne/package-writer.js'));
  const extraFiles = [];
  for (let i = 0; i < entries - 3; i++) extraFiles.push({ name: `extras/part-${String(i).padStart(4, '0')}.csv`, data: entryData(i + 1, entryBytes) });
  const parts = buildPackageParts(2, { digest: false, extraFiles });
  writeFileSync(path, packPackage(parts, (a) => ({ ...a, fastDeflate: true })));
}

const LIMITS = ['--limit', 'maxArchiveBytes=2000000000', '--limit', 'maxTotalBytes=2000000000', '--limit', 'maxEntries=100000'];

function verify(root, pkg, extra = []) {
  const r = spawnSync(process.execPath, [join(root, 'bin/reprise.js'), 'verify', '--json', pkg, ...LIMITS, ...extra], { encoding: 'utf8', maxBuffer: 64 * MiB });
  const rep = JSON.parse(r.stdout);
  if (rep.verdict !== 'pass') throw new Error(`bench package did not pass: ${r.stdout.slice(0, 500)}`);
  return rep;
}

/** Median wall and CPU seconds of a shell command over `n` runs (bash's time keyword). */
function timed(cmd, n = 3) {
  const runs = [];
  for (let i = 0; i < n; i++) {
    const r = spawnSync('bash', ['-c', `TIMEFORMAT='%R %U %S'; time ( ${cmd} >/dev/null 2>&1 )`], { encoding: 'utf8' });
    const [wall, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
    runs.push({ wall, cpu: user + sys });
  }
  const med = (k) => runs.map((x) => x[k]).sort((a, b) => a - b)[Math.floor(n / 2)];
  return { wall: med('wall'), cpu: med('cpu') };
}

const RSS_CHILD = `
const { runPath } = await import(process.env.ROOT + 'dist/app/engine/run.js');
const r = await runPath(process.env.PKG, 'verify', { limits: { maxArchiveBytes: 2e9, maxTotalBytes: 2e9, maxEntries: 100000 } });
if (r.verdict !== 'pass') throw new Error('not pass');
console.log(process.resourceUsage().maxRSS / 1024);
`;

export default async function (ctx) {
  const entryBytes = 200 * 1024; // 2,000 x 200 KiB of content, about 2:1 compressible
  const pkg = join(ctx.work, 'package-2000.nemosyne');
  await makePackage(ctx.root, pkg, 2000, entryBytes);
  const size = statSync(pkg).size;
  const content = 1997 * entryBytes;
  ctx.line('package: entries / archive MiB / content MiB', `2000 / ${(size / MiB).toFixed(1)} / ${(content / MiB).toFixed(1)}`);

  // Wall-clock and CPU time (user + sys of the whole process tree) of each command, median
  // of 3 runs: on a shared machine wall time is noisy, CPU time much less so.
  const L = LIMITS.join(' ');
  const bin = join(ctx.root, 'bin/reprise.js');
  const subject = timed(`'${process.execPath}' '${bin}' verify -q '${pkg}' ${L}`);
  const inline = timed(`'${process.execPath}' '${bin}' verify -q '${pkg}' ${L} --limit zipWorkers=0`);
  verify(ctx.root, pkg);
  const show = (label, t) => ctx.line(label, `${(size / MiB / t.wall).toFixed(0)} MiB/s wall (${(t.wall * 1000).toFixed(0)} ms), ${(size / MiB / t.cpu).toFixed(0)} MiB/s of CPU (${(t.cpu * 1000).toFixed(0)} ms)`);
  show('reprise verify (2 inflate workers), archive MiB/s', subject);
  show('reprise verify (inline, zipWorkers=0), archive MiB/s', inline);
  if (which('unzip') && which('sha256sum')) {
    const base = timed(`unzip -p '${pkg}' | sha256sum`);
    show('baseline unzip -p PKG | sha256sum, archive MiB/s', base);
    ctx.line('ratio reprise / baseline, wall-clock throughput (target >= 2x)', `${(base.wall / subject.wall).toFixed(2)}x (inline: ${(base.wall / inline.wall).toFixed(2)}x)`);
    ctx.line('ratio reprise / baseline, CPU-time throughput', `${(base.cpu / subject.cpu).toFixed(2)}x (inline: ${(base.cpu / inline.cpu).toFixed(2)}x)`);
  } else ctx.line('baseline unzip -p | sha256sum', 'SKIPPED: unzip or sha256sum not installed (apt-get install -y unzip)');
  ctx.line('load average (1 min) at the end, on this 2-core machine', String(loadavg()[0].toFixed(1)));

  // Peak RSS as the package grows: the engine holds the archive bytes (runPath reads the
  // file whole); what verification adds on top must stay flat.
  for (const n of [500, 1000, 2000]) {
    const p = join(ctx.work, `package-${n}.nemosyne`);
    await makePackage(ctx.root, p, n, entryBytes);
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', RSS_CHILD], { env: { ...process.env, ROOT: ctx.root + '/', PKG: p }, encoding: 'utf8' });
    const rss = Number(r.stdout.trim());
    const s = statSync(p).size / MiB;
    ctx.line(`peak RSS, ${n} entries (${s.toFixed(0)} MiB archive)`, `${rss.toFixed(0)} MiB total, ${(rss - s).toFixed(0)} MiB beyond the archive bytes`);
  }
}
