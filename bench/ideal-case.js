// The floor of a case's own work, measured by bench/case.bench.js beside the CLI:
// `node bench/ideal-case.js REPORTS.jsonl CASE.json OUT` loads every report of the case (as
// `verify DIR --jsonl` printed them) and the case report, then does, natively and only once,
// what any implementation of `reprise.case/v1` must add to verifying the artifacts one by
// one: each report's JSON text without `run` and its path, hashed with SHA-256 (the report
// digest, as if the report were already in JCS order, so no walk sorts it), and the case
// report's text written to OUT. No facts, no join, no sort: their cost is the CLI's, not the
// floor's. Prints the CPU milliseconds of that work alone (user + system, loading excluded).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const [jsonl, casePath, out] = process.argv.slice(2);
if (!jsonl || !casePath || !out) {
  process.stderr.write('usage: node bench/ideal-case.js REPORTS.jsonl CASE.json OUT\n');
  process.exit(3);
}
const reports = readFileSync(jsonl, 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l));
const caseReport = JSON.parse(readFileSync(casePath, 'utf8'));
const t0 = process.cpuUsage();
for (const r of reports) {
  const { run: _run, artifact, ...rest } = r;
  const { path: _path, ...art } = artifact;
  createHash('sha256')
    .update(JSON.stringify({ ...rest, artifact: art }))
    .digest('hex');
}
writeFileSync(out, JSON.stringify(caseReport) + '\n');
const t = process.cpuUsage(t0);
rmSync(out, { force: true });
process.stdout.write(`${reports.length} ${((t.user + t.system) / 1000).toFixed(1)}\n`);
