// Investigation packages: verify a ~200 MiB package of 2,000 deflated entries (limits
// raised by flags) against `unzip -p PKG | sha256sum` over the same package, interleaved
// in the same run (wall and CPU time); then peak RSS of verify as the package grows (50,
// 100, 200 MiB), from the path (positional reads) and, for contrast, read whole.
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
  for (let i = 0; i < entries - 3; i++)
    extraFiles.push({ name: `extras/part-${String(i).padStart(4, '0')}.csv`, data: entryData(i + 1, entryBytes) });
  const parts = buildPackageParts(2, { digest: false, extraFiles });
  writeFileSync(
    path,
    packPackage(parts, (a) => ({ ...a, fastDeflate: true })),
  );
}

const LIMITS = [
  '--limit',
  'maxArchiveBytes=2000000000',
  '--limit',
  'maxTotalBytes=2000000000',
  '--limit',
  'maxEntries=100000',
];

function verify(root, pkg, extra = []) {
  const r = spawnSync(process.execPath, [join(root, 'bin/reprise.js'), 'verify', '--json', pkg, ...LIMITS, ...extra], {
    encoding: 'utf8',
    maxBuffer: 64 * MiB,
  });
  const rep = JSON.parse(r.stdout);
  if (rep.verdict !== 'pass') throw new Error(`bench package did not pass: ${r.stdout.slice(0, 500)}`);
  return rep;
}

/** Wall and CPU seconds (user + sys of the whole process tree) of one run of a shell command. */
function timedOnce(cmd) {
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%R %U %S'; time ( ${cmd} >/dev/null 2>&1 )`], { encoding: 'utf8' });
  const [wall, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

// Peak RSS of one verification in a child: VmHWM from /proc (the child's own high-water
// mark; getrusage's maxRSS would also count the pages of the process it was forked from).
const RSS_CHILD = `
import { readFileSync } from 'node:fs';
const { runBytes, runPath } = await import(process.env.ROOT + 'dist/app/engine/run.js');
const options = { limits: { maxArchiveBytes: 2e9, maxTotalBytes: 2e9, maxEntries: 100000 } };
const r = process.env.HOW === 'path' ? await runPath(process.env.PKG, 'verify', options) : await runBytes(process.env.PKG, readFileSync(process.env.PKG), 'verify', options);
if (r.verdict !== 'pass') throw new Error('not pass');
const m = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
console.log(m ? Number(m[1]) / 1024 : process.resourceUsage().maxRSS / 1024);
`;

function peakRss(root, pkg, how) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', RSS_CHILD], {
    env: { ...process.env, ROOT: root + '/', PKG: pkg, HOW: how },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return Number(r.stdout.trim());
}

export default async function (ctx) {
  const entryBytes = 200 * 1024; // 2,000 x 200 KiB of content, about 2:1 compressible
  const pkg = join(ctx.work, 'package-2000.nemosyne');
  await makePackage(ctx.root, pkg, 2000, entryBytes);
  const size = statSync(pkg).size;
  const content = 1997 * entryBytes;
  ctx.line(
    'package: entries / archive MiB / content MiB',
    `2000 / ${(size / MiB).toFixed(1)} / ${(content / MiB).toFixed(1)}`,
  );
  verify(ctx.root, pkg);

  // Throughput: subject, inline variant and baseline interleaved, REPS rounds; wall-clock
  // and CPU time (user + sys of the whole process tree, so the baseline's two processes
  // count both). On a shared machine wall time is noisy; CPU time much less so.
  const REPS = 5;
  const L = LIMITS.join(' ');
  const bin = join(ctx.root, 'bin/reprise.js');
  const haveBaseline = which('unzip') && which('sha256sum');
  const runs = { subject: [], inline: [], base: [] };
  const loadBefore = load();
  for (let i = 0; i < REPS; i++) {
    runs.subject.push(timedOnce(`'${process.execPath}' '${bin}' verify -q '${pkg}' ${L}`));
    runs.inline.push(timedOnce(`'${process.execPath}' '${bin}' verify -q '${pkg}' ${L} --limit zipWorkers=0`));
    if (haveBaseline) runs.base.push(timedOnce(`unzip -p '${pkg}' | sha256sum`));
  }
  const loadAfter = load();
  const med = (k, f) => median(runs[k].map((x) => x[f]));
  const show = (label, k) =>
    ctx.line(
      label,
      `${(size / MiB / med(k, 'wall')).toFixed(0)} MiB/s wall (${(med(k, 'wall') * 1000).toFixed(0)} ms), ${(size / MiB / med(k, 'cpu')).toFixed(0)} MiB/s of CPU (${(med(k, 'cpu') * 1000).toFixed(0)} ms)`,
    );
  show(`reprise verify (2 inflate workers), median of ${REPS}`, 'subject');
  show(`reprise verify (inline, zipWorkers=0), median of ${REPS}`, 'inline');
  if (haveBaseline) {
    show(`baseline unzip -p PKG | sha256sum, median of ${REPS}`, 'base');
    // Each round runs subject and baseline back to back: the median of the per-round ratios
    // is robust to the load changing between rounds; the ratio of the medians is not.
    const ratios = (k, f) => runs.base.map((b, i) => b[f] / runs[k][i][f]);
    const per = (k, f) =>
      ratios(k, f)
        .map((x) => x.toFixed(2))
        .join(' ');
    const show2 = (label, f) =>
      ctx.line(
        label,
        `${median(ratios('subject', f)).toFixed(2)}x median of rounds (rounds: ${per('subject', f)}; ratio of medians ${(med('base', f) / med('subject', f)).toFixed(2)}x; inline: ${median(ratios('inline', f)).toFixed(2)}x)`,
      );
    show2('ratio reprise / baseline, wall (target >= 2x)', 'wall');
    show2('ratio reprise / baseline, CPU time', 'cpu');
  } else
    ctx.line('baseline unzip -p | sha256sum', 'SKIPPED: unzip or sha256sum not installed (apt-get install -y unzip)');
  ctx.line('load average (1/5/15 min) before / after, on this 2-core machine', `${loadBefore} / ${loadAfter}`);

  // Peak RSS as the package grows: verify from the path (positional reads) must stay flat;
  // reading the whole file (runBytes, the web host's upload path) grows with the archive.
  const flat = [];
  for (const n of [500, 1000, 2000]) {
    const p = join(ctx.work, `package-${n}.nemosyne`);
    await makePackage(ctx.root, p, n, entryBytes);
    const s = statSync(p).size / MiB;
    const fromPath = peakRss(ctx.root, p, 'path');
    const whole = peakRss(ctx.root, p, 'bytes');
    flat.push(fromPath);
    ctx.line(
      `peak RSS, ${n} entries (${s.toFixed(0)} MiB archive)`,
      `${fromPath.toFixed(0)} MiB from the path; ${whole.toFixed(0)} MiB read whole (runBytes)`,
    );
  }
  const mid = (Math.max(...flat) + Math.min(...flat)) / 2;
  const spread = ((Math.max(...flat) - Math.min(...flat)) / 2 / mid) * 100;
  ctx.line(
    'peak RSS from the path, 50 -> 200 MiB (flat = within +/-15%)',
    `${Math.min(...flat).toFixed(0)}-${Math.max(...flat).toFixed(0)} MiB, +/-${spread.toFixed(1)}%: ${spread <= 15 ? 'flat' : 'NOT flat'}`,
  );
  ctx.line('load average (1/5/15 min) at the end', load());
}
