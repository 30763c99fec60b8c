/**
 * A claim reference is free text: a manifest whose `claimRef` reads like a hash (an anchored
 * entry's hash, a bundle's) meets only journal claim references, never an anchor or a policy
 * bundle reference by the same text. Otherwise the anchor read as found (no RPR-CASE-001),
 * and the anchored manifest ran again with `--journal` set to the other manifest.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { writeExamples } from '../../app/examples/index.js';
import { tmp } from '../journal/helpers.js';

let report: CaseReport;
let anchor = '';
let bundleHash = '';

beforeAll(async () => {
  const base = tmp('reprise-claim-space-');
  const ex = join(base, 'ex');
  await writeExamples(ex);
  const dir = join(base, 'case');
  mkdirSync(dir);
  const anchored = JSON.parse(readFileSync(join(ex, 'tg/recorded-anchored/manifest.json'), 'utf8')) as {
    executions: { anchor?: { entryHash: string } }[];
    policyContext: { bundleHash: string };
  };
  anchor = anchored.executions.find((e) => e.anchor)!.anchor!.entryHash;
  bundleHash = anchored.policyContext.bundleHash;
  copyFileSync(join(ex, 'tg/recorded-anchored/manifest.json'), join(dir, 'anchored.json'));
  // Two manifests whose claims read as the anchored entry's hash and as the bundle's; no journal, no bundle.
  for (const [name, claimRef] of [
    ['claims-anchor.json', anchor],
    ['claims-bundle.json', bundleHash],
  ] as const) {
    const m = JSON.parse(readFileSync(join(ex, 'tg/exact-intact/manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, name), JSON.stringify({ ...m, claimRef }));
  }
  report = await driveCase(dir, inlineExecutor, {});
}, 120_000);

describe('claim references and content by the same text', () => {
  it('an anchor whose journal the case lacks is missing and a finding, not found in a claim', () => {
    const anchorLinks = report.links.filter((l) => l.from.artifact === 'anchored.json' && l.relation === 'anchor');
    expect(anchorLinks.length).toBeGreaterThan(0);
    for (const l of anchorLinks) expect(l).toMatchObject({ status: 'missing', to: { artifact: null } });
    expect(report.findings.some((f) => f.rule === 'RPR-CASE-001' && f.expected === anchor)).toBe(true);
  });

  it('a policy bundle reference is not answered by a claim either', () => {
    const targets = report.links
      .filter((l) => l.relation === 'policy-bundle' && l.value === bundleHash && l.status === 'found')
      .map((l) => l.to.pointer);
    expect(targets).not.toContain('/claimRef');
  });

  it('the anchored manifest is not run again against another manifest as its journal', () => {
    const a = report.artifacts.find((x) => x.path === 'anchored.json')!;
    // Alone it cannot prove its anchor: unavailable (RPR-TG-023), never a fail over a manifest read as a journal.
    expect(a.verdict).toBe('unavailable');
  });
});
