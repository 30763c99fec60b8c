// The reviewer's case (issue 28): `reprise verify DIR --workers 2 --case FILE` on a folder of
// 1,000 mixed artifacts against `reprise verify DIR --workers 2` on the same folder (each
// artifact verified one by one in the batch pool, the same per-artifact output), measured in
// the same run, interleaved. Target: at most 1.1 (the case reads each artifact's facts from
// the parse its verification made, in the worker, and the main thread only joins and sorts).
// The ratio is of CPU time (user + system, GNU time) and of the wall clock; on this shared
// machine the wall clock moves with other agents' load, CPU time far less.
// Beside it, the floor of the case's own work (bench/ideal-case.js): what the ratio would be
// if the case added only a native digest of each report and the write of its report.
// REPRISE_BENCH_CASE_N sets the number of artifacts (default 1,000); REPRISE_BENCH_CASE_ROUNDS
// the rounds (default 5).
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDump, sampleSigner, signModel } from '../dist/app/kinds/replay-dump/writer.js';
import { encodeJson } from '../dist/app/kinds/replay-dump/json-encoding.js';
import { sampleSpec } from '../dist/app/kinds/replay-dump/examples.js';
import { writeExamples } from '../dist/app/examples/index.js';

const N = Number(process.env.REPRISE_BENCH_CASE_N ?? 1000);
const ROUNDS = Number(process.env.REPRISE_BENCH_CASE_ROUNDS ?? 5);

/** Files of the examples under `sub` whose names end with `ext` (sorted, so the mix is the same every run). */
function listed(root, sub, ext) {
  return readdirSync(join(root, sub), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => join(root, sub, f));
}

/**
 * A case folder of N artifacts: 40% distinct signed dumps, 20% ACGP traces and EVALs, 15% TG
 * manifests, 15% Nemosyne packages, 2% policy bundles, 2% journals, the rest unknown files;
 * copies of one example keep their bytes (so they link to each other as real copies would).
 */
async function caseFolder(dir) {
  const done = join(dir, 'done');
  if (existsSync(done) && readFileSync(done, 'utf8') === String(N)) return join(dir, 'case');
  rmSync(dir, { recursive: true, force: true });
  const ex = join(dir, 'examples');
  await writeExamples(ex);
  const c = join(dir, 'case');
  mkdirSync(c, { recursive: true });
  const signer = sampleSigner('active');
  const m = await buildDump(sampleSpec(), signer);
  const share = (f) => Math.round(N * f);
  let made = 0;
  const put = (name, from) => {
    mkdirSync(join(c, name, '..'), { recursive: true });
    cpSync(from, join(c, name), { recursive: true });
    made++;
  };
  for (let i = 0; i < share(0.4); i++, made++)
    writeFileSync(
      join(c, `dump-${String(i).padStart(4, '0')}.dump.json`),
      encodeJson(signModel({ ...m, dumpId: `dump.case.${String(i).padStart(6, '0')}` }, signer)),
    );
  const cycle = (files, n, name) => {
    for (let i = 0; i < n; i++) put(name(i, files[i % files.length]), files[i % files.length]);
  };
  const acgp = [...listed(ex, 'acgp', '.jsonl'), ...listed(ex, 'acgp', 'eval.json')];
  cycle(acgp, share(0.2), (i, f) => `agent/${String(i).padStart(4, '0')}-${f.split('/').pop()}`);
  cycle(listed(ex, 'tg', 'manifest.json'), share(0.15), (i) => `tg/${String(i).padStart(4, '0')}.manifest.json`);
  cycle(listed(ex, 'packages/intact', '.nemosyne'), share(0.15), (i) => `pkg/${String(i).padStart(4, '0')}.nemosyne`);
  cycle([join(ex, 'tg/bundle.json')], share(0.02), (i) => `tg/bundle-${i}.json`);
  cycle([join(ex, 'tg/journal'), join(ex, 'journal/sample')], share(0.02), (i) => `journals/j${i}`);
  for (let i = 0; made < N; i++) put(`misc/note-${i}.txt`, join(ex, 'unknown/not-an-artifact.json'));
  writeFileSync(done, String(N));
  return c;
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
/** Runs node with args (stdout discarded); CPU seconds of it and its threads, and wall ms. */
function measured(args) {
  const f = join(tmpdir(), `reprise-bench-case-${process.pid}`);
  const cmd = TIME ? [TIME, ['-f', '%U %S', '-o', f, process.execPath, ...args]] : [process.execPath, args];
  const t0 = performance.now();
  const r = spawnSync(cmd[0], cmd[1], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1 && r.status !== 2) throw new Error(`exit ${r.status}: ${String(r.stderr)}`);
  const cpu = TIME
    ? readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .pop()
        .split(' ')
        .reduce((a, b) => a + Number(b), 0)
    : NaN;
  rmSync(f, { force: true });
  return { ms, cpu };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function (ctx) {
  const dir = join(ctx.work, 'case');
  const folder = await caseFolder(dir);
  const bin = join(ctx.root, 'bin', 'reprise.js');
  const out = join(dir, 'case-report.json');
  ctx.line('artifacts in the case folder', String(N));
  ctx.line('load average (1 min) at start; ratios mean little when it exceeds the 2 cores', loadavg()[0].toFixed(1));
  const one = [];
  const whole = [];
  const jsonl = [];
  const alone = [];
  for (let r = 0; r < ROUNDS; r++) {
    one.push(measured([bin, 'verify', folder, '--workers', '2']));
    whole.push(measured([bin, 'verify', folder, '--workers', '2', '--case', out]));
    jsonl.push(measured([bin, 'verify', folder, '--workers', '2', '--jsonl']));
    alone.push(measured([bin, 'verify', folder, '--workers', '2', '--case', '-']));
  }
  const report = JSON.parse(readFileSync(out, 'utf8'));
  ctx.line(
    'case: links found / missing',
    `${report.links.filter((l) => l.status === 'found').length} / ${report.links.filter((l) => l.status === 'missing').length}`,
  );
  ctx.line('case: timeline events, judgements', `${report.timeline.length}, ${report.judgements.length}`);
  const [oc, wc] = [median(one.map((x) => x.cpu)), median(whole.map((x) => x.cpu))];
  const [om, wm] = [median(one.map((x) => x.ms)), median(whole.map((x) => x.ms))];
  ctx.line('verify DIR --workers 2 (one by one): CPU s, wall ms (median)', `${oc.toFixed(2)}, ${om.toFixed(0)}`);
  ctx.line('verify DIR --workers 2 --case FILE: CPU s, wall ms (median)', `${wc.toFixed(2)}, ${wm.toFixed(0)}`);
  ctx.line('ratio case / one by one, CPU (target <= 1.1)', (wc / oc).toFixed(3));
  ctx.line('ratio case / one by one, wall', (wm / om).toFixed(3));
  // Under load the median moves with other work; the least CPU of each is the closest to its own cost.
  const least = (xs) => Math.min(...xs.map((x) => x.cpu));
  ctx.line('ratio case / one by one, least CPU of each', (least(whole) / least(one)).toFixed(3));
  // Each round runs the two back to back, so their ratio shares that moment's machine: the
  // median of the rounds' ratios is the least moved by other work changing between rounds.
  const paired = median(whole.map((w, i) => w.cpu / one[i].cpu));
  ctx.line('ratio case / one by one, CPU, median of the per-round ratios', paired.toFixed(3));
  floorLines(ctx, { bin, folder, dir, out, one: oc, ratio: wc / oc });
  // Machine-readable output of the same run: every report as JSON Lines, or the case report alone.
  const [jc, ac] = [median(jsonl.map((x) => x.cpu)), median(alone.map((x) => x.cpu))];
  const [jm, am] = [median(jsonl.map((x) => x.ms)), median(alone.map((x) => x.ms))];
  ctx.line('verify DIR --workers 2 --jsonl: CPU s, wall ms (median)', `${jc.toFixed(2)}, ${jm.toFixed(0)}`);
  ctx.line(
    'verify DIR --workers 2 --case - (the case report alone): CPU s, wall ms',
    `${ac.toFixed(2)}, ${am.toFixed(0)}`,
  );
  ctx.line('ratio --case - / --jsonl, CPU', (ac / jc).toFixed(3));
  ctx.line('ratio --case - / --jsonl, wall', (am / jm).toFixed(3));
  ctx.line('ratio --case - / --jsonl, least CPU of each', (least(alone) / least(jsonl)).toFixed(3));
}

/**
 * The floor of the case's extra, beside the CLI (bench/ideal-case.js): every report digested
 * natively and the case report written, in fresh processes; the ratio the case would have
 * if its own work cost only that, and how much of the measured extra that floor explains.
 */
function floorLines(ctx, { bin, folder, dir, out, one, ratio }) {
  const jsonl = join(dir, 'reports.jsonl');
  const fd = openSync(jsonl, 'w');
  try {
    spawnSync(process.execPath, [bin, 'verify', folder, '--workers', '2', '--jsonl'], {
      stdio: ['ignore', fd, 'pipe'],
    });
  } finally {
    closeSync(fd);
  }
  const ms = [];
  for (let i = 0; i < 5; i++) {
    const r = spawnSync(process.execPath, [
      join(ctx.root, 'bench', 'ideal-case.js'),
      jsonl,
      out,
      join(dir, 'floor.json'),
    ]);
    if (r.status !== 0) throw new Error(`ideal case exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
    const [n, cpu] = String(r.stdout).trim().split(' ').map(Number);
    if (!(n > 0)) throw new Error('ideal case: no reports');
    ms.push(cpu);
  }
  rmSync(jsonl, { force: true });
  const floor = median(ms);
  const ideal = 1 + floor / (one * 1000);
  ctx.line("floor of the case's own work (reports digested natively, report written): CPU ms", floor.toFixed(0));
  ctx.line('ratio the case would have at that floor', ideal.toFixed(3));
  // A run whose case cost no more than one by one has no extra to share out.
  const share = ratio > 1 ? ((ideal - 1) / (ratio - 1)).toFixed(2) : 'none (no extra measured)';
  ctx.line("share of the case's measured extra that the floor accounts for", share);
}
