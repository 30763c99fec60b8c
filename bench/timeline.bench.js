// The case's timeline in the workbench (issue 28), in Chromium through the web host
// (`reprise serve`): mounting the Case view with a saved case report (reprise.case/v1) of
// 100,000 timeline events against one of 1,000, and scrolling the timeline end to end,
// measured in the same run. Target: at most 2x (the list is virtualized: only the rows in
// view exist in the DOM).
/* global requestAnimationFrame -- used inside page.evaluate (the browser) */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openWorkbench } from './workbench-page.js';

const KINDS = ['replay-dump', 'tg-replay-manifest', 'acgp-trace', 'nemosyne-package', 'quarantine-journal'];
const SEVERITIES = ['info', 'info', 'info', 'warning', 'fail', 'unavailable'];

/** A case of 20 artifacts whose timeline holds n events (sorted by time, as the engine sorts them). */
function syntheticCase(n) {
  const artifacts = [];
  for (let a = 0; a < 20; a++)
    artifacts.push({
      path: `artifact-${String(a).padStart(2, '0')}.json`,
      kind: KINDS[a % KINDS.length],
      sha256: `sha256:${String(a).padStart(64, '0')}`,
      verdict: a % 7 === 3 ? 'fail' : 'pass',
      id: null,
      reportDigest: `sha256:${String(a).padStart(64, '1')}`,
      counts: { fail: a % 7 === 3 ? 1 : 0, unavailable: 0, warning: 0, info: 0 },
    });
  const timeline = [];
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < n; i++) {
    const a = artifacts[(i * 7) % artifacts.length];
    timeline.push({
      atUtc: new Date(t0 + i * 1000).toISOString(),
      artifact: a.path,
      kind: a.kind,
      node: `node-${i % 97}`,
      pointer: `/events/${i}/at`,
      label: `event ${i} of the bench`,
      severity: SEVERITIES[i % SEVERITIES.length],
    });
  }
  return {
    schema: 'reprise.case/v1',
    verdict: 'fail',
    artifacts,
    links: [],
    timeline,
    judgements: [],
    findings: [],
  };
}

/** Mount the Case view (switch to it) and scroll its timeline to the end in 40 frames; ms. */
async function mountAndScroll(page) {
  return page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const t0 = performance.now();
    document.querySelector('[data-testid="tab-case"]').click();
    const body = () => document.querySelector('[data-testid="timeline-scroll"]');
    while ((body()?.querySelectorAll('[role="row"]').length ?? 0) === 0) await frame();
    const b = body();
    for (let k = 1; k <= 40; k++) {
      b.scrollTop = (b.scrollHeight * k) / 40;
      await frame();
    }
    await frame();
    const t = performance.now() - t0;
    document.querySelector('[data-testid="tab-open"]').click();
    await frame();
    return t;
  });
}

export default async function bench(ctx) {
  const dir = join(ctx.work, 'timeline');
  mkdirSync(dir, { recursive: true });
  const { page, close } = await openWorkbench(ctx.root, { viewport: { width: 1400, height: 1000 } });
  try {
    ctx.line('load average (1 min) at start; ratios mean little when it exceeds the 2 cores', loadavg()[0].toFixed(1));
    const times = {};
    for (const n of [1000, 100_000]) {
      const f = join(dir, `case-${n}.json`);
      writeFileSync(f, JSON.stringify(syntheticCase(n)));
      await page.getByTestId('tab-case').click();
      await page.locator('#case-report-input').setInputFiles(f);
      await page
        .getByTestId('case-verdict')
        .filter({ hasText: `${n.toLocaleString('en')} events` })
        .waitFor();
      await page.getByTestId('tab-open').click();
      const ts = [];
      for (let i = 0; i < 5; i++) ts.push(await mountAndScroll(page));
      ts.sort((a, b) => a - b);
      times[n] = ts[2];
      ctx.line(
        `case view mount + timeline scroll to the end, ${n.toLocaleString('en')} events (ms, median of 5)`,
        times[n].toFixed(0),
      );
    }
    ctx.line('timeline 100,000 events / 1,000 events (target <= 2)', (times[100_000] / times[1000]).toFixed(2));
    await page.getByTestId('tab-case').click();
    const domRows = await page.locator('[data-testid="timeline-scroll"] [role="row"]').count();
    ctx.line('timeline rows in the DOM with 100,000 events (virtualized)', domRows);
  } finally {
    await close();
  }
}
