/**
 * "View a saved report (JSON)…" (store.ts openSavedReport, the verdict banner): a report
 * carries no signature, so the window shows one only when its form is a report's and its
 * verdict is the one its findings make (the report kind's RPR-RPT-001 and RPR-RPT-002), and
 * shows it as what it states, never as checked: no pass colour, no "every check passed", its
 * authenticity, proofs and judgements marked as the report's claims. The dumps' reports in
 * fixtures/ are the engine's own, as `reprise verify DUMP --trust-store … --json` wrote them
 * for the built-in examples; the evidence bundle's report around one is written here in the
 * form the bundle kind gives (shared/details/bundle.ts), with a trusted signer and verified
 * proofs, as a forger would keep them. Rendered to static markup, browser globals stubbed.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import intactReport from './fixtures/intact.report.json';
import alteredReport from './fixtures/altered-artifact.report.json';
import { carriedVerdictOf } from '../../shared/details/carried';
import type { BundledJudgementDetails } from '../../shared/details/bundle';
import { verdictOf, type Finding, type Report } from '../../shared/report';

stubBrowser();

const KEY = `ed25519:${'c'.repeat(64)}`;
const HASH = (c: string) => `sha256:${c.repeat(64)}`;

/** The engine's report of the intact dump under its trust store (PASS), and of a dump altered after signing (FAIL). */
const intact = () => structuredClone(intactReport) as unknown as Report;
const failing = () => structuredClone(alteredReport) as unknown as Report;

/** A judgement the bundle carries, its proof verified under the signed checkpoint. */
function judgement(seq: number, decision: string, pointer: string): BundledJudgementDetails {
  return {
    seq,
    member: `judgements/${String(seq).padStart(12, '0')}.json`,
    entryHash: HASH(String(seq)),
    recordedAtUtc: '2026-11-02T09:30:00Z',
    author: KEY,
    role: 'reviewer',
    label: 'test reviewer',
    subject: HASH('a'),
    decision,
    supersedes: null,
    pointer,
    rationale: 'Read in full.',
    reportDigest: HASH('d'),
    proof: { leafIndex: seq, treeSize: 3, auditPath: [HASH('e')], verified: true, problems: [] },
  };
}

/** An evidence bundle's report carrying `carried`, with two judgements on it and a trusted signer. */
function bundleReport(carried: Report): Report {
  const findings: Finding[] = [
    { rule: 'RPR-EVB-000', severity: 'info', message: '2 judgement(s) proven under the signed checkpoint' },
  ];
  if (carried.verdict !== 'pass')
    findings.push({ rule: 'RPR-EVB-016', severity: carried.verdict, message: 'the bundled report fails' });
  return {
    schema: 'reprise.report/v1',
    artifact: { path: '/cases/17/bundle.zip', kind: 'evidence-bundle', id: null, sha256: HASH('b') },
    verdict: verdictOf(findings),
    findings,
    chain: [],
    details: {
      integrity: { verdict: 'pass', trustStore: true, statement: 'every member intact' },
      bundle: { artifact: { sha256: HASH('a'), kind: 'replay-dump', id: null }, reportDigest: HASH('d') },
      carried: carriedVerdictOf(carried),
      judgements: [judgement(0, 'note', '/findings/0'), judgement(2, 'accept', '')],
      report: carried,
    } as never,
    authenticity: {
      status: 'trusted-signer',
      keyId: KEY,
      role: 'reviewer',
      label: 'test reviewer',
      statement: `Trusted signer: the checkpoint verifies under ${KEY}, a key in the trust store.`,
    },
    run: { tool: 'reprise', version: '0.1.0', startedAtUtc: '2026-11-02T09:31:00Z', durationMs: 5 },
  } as Report;
}

/** The bundle's report forged consistently: its failing finding gone, both verdicts PASS, the note made an accept. */
function forged(): Report {
  const r = bundleReport(failing());
  r.findings = r.findings.filter((f) => f.severity === 'info');
  r.verdict = 'pass';
  const d = r.details as unknown as {
    carried: { verdict: string; decisive: unknown };
    judgements: { decision: string }[];
  };
  d.carried.verdict = 'pass';
  d.carried.decisive = null;
  for (const j of d.judgements) j.decision = 'accept';
  return r;
}

async function opened(doc: unknown, name = 'saved.report.json') {
  const { useStore } = await import('../../renderer/src/store');
  useStore.setState({ api: null, artifact: null, report: null, error: null } as never);
  await useStore.getState().openSavedReport(new File([JSON.stringify(doc)], name));
  return useStore.getState();
}

async function banner(s: Awaited<ReturnType<typeof opened>>): Promise<string> {
  const { VerdictBanner } = await import('../../renderer/src/components/VerdictBanner');
  return renderToStaticMarkup(createElement(VerdictBanner, { report: s.report!, artifact: s.artifact }));
}

/** The text of every element carrying `data-testid="id"` (static markup, so a flat match is enough). */
function testIdTexts(html: string, id: string): string[] {
  const re = new RegExp(`data-testid="${id}"[^>]*>(.*?)</(td|p|span|dd)>`, 'gs');
  return [...html.matchAll(re)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
}

describe('a saved report whose verdict its findings do not make', () => {
  it('is refused, saying the stated verdict, the one its findings make, and to open it with Open', async () => {
    const genuine = bundleReport(failing());
    expect(genuine.verdict).toBe('fail');
    const s = await opened({ ...genuine, verdict: 'pass' }, 'edited.report.json');
    expect(s.report).toBeNull();
    expect(s.artifact).toBeNull();
    expect(s.error).toContain('The saved report edited.report.json is refused');
    expect(s.error).toContain('its stated verdict is PASS, but its findings make FAIL (RPR-RPT-002');
    expect(s.error).toContain('open it with Open');
    expect(s.error).toContain('--artifact');
  });

  it('one whose finding was made to fail beside its PASS is refused too (the built-in example’s edit)', async () => {
    const ok = intact();
    const s = await opened({ ...ok, findings: [{ rule: 'RDS-F001', severity: 'fail', message: 'edited' }] });
    expect(s.report).toBeNull();
    expect(s.error).toContain('its stated verdict is PASS, but its findings make FAIL');
  });

  it('one whose verdict is better than the integrity verdict it carries is refused', async () => {
    const r = forged();
    (r.details as unknown as { integrity: { verdict: string } }).integrity.verdict = 'fail';
    const s = await opened(r);
    expect(s.report).toBeNull();
    expect(s.error).toContain('better than the integrity verdict it carries, FAIL (RPR-RPT-002)');
  });

  it('one that is not a report’s shape is refused with its first problems, and what was open goes', async () => {
    const { useStore } = await import('../../renderer/src/store');
    await opened(intact());
    expect(useStore.getState().report).not.toBeNull();
    const { chain: _chain, ...noChain } = intact();
    await useStore.getState().openSavedReport(new File([JSON.stringify(noChain)], 'no-chain.json'));
    const s = useStore.getState();
    expect(s.report).toBeNull();
    expect(s.error).toContain(
      'not a well-formed reprise.report/v1 report (RPR-RPT-001): the report has no member "chain"',
    );
    expect(s.error).toContain('open it with Open');
  });
});

describe('a consistent forgery, well-formed with the verdict its findings make', () => {
  it('opens, but shows no pass colour and no "every check passed"', async () => {
    const r = forged();
    expect(r.verdict).toBe(verdictOf(r.findings));
    const s = await opened(r);
    expect(s.error).toBeNull();
    const html = await banner(s);
    expect(html).not.toMatch(/verdict-banner pass/);
    expect(html).not.toMatch(/class="tag pass"/);
    expect(html).not.toMatch(/every check/i);
    expect(html).toMatch(
      /<h2 id="verdict-h"[^>]*><span class="verdict-word">PASS<\/span><span[^>]*> as stated \(not re-verified\)/,
    );
    expect(testIdTexts(html, 'saved-note')[0]).toContain('not re-verified');
    // The same report as a run here would make it keeps its verdict's colour and words.
    const { VerdictBanner } = await import('../../renderer/src/components/VerdictBanner');
    const run = renderToStaticMarkup(
      createElement(VerdictBanner, { report: r, artifact: { name: 'b.zip', source: null } }),
    );
    expect(run).toMatch(/verdict-banner pass/);
    expect(run).toContain('✓ inclusion verified');
    expect(run).not.toContain('as stated');
  });

  it('marks its authenticity, its proofs and its judgements’ decisions as the saved report’s own claims', async () => {
    const html = await banner(await opened(forged()));
    const auth = testIdTexts(html, 'authenticity');
    expect(auth).toHaveLength(1);
    expect(auth[0]).toContain('Authenticity (as the saved report states it, not checked here):');
    expect(html).toMatch(/data-testid="authenticity" data-status="trusted-signer"/);
    // No tick: a tick reads as a proof checked here.
    expect(html).not.toContain('✓');
    const proofs = testIdTexts(html, 'bundled-proof');
    expect(proofs.length).toBeGreaterThan(0);
    for (const p of proofs) expect(p).toMatch(/^inclusion verified .*as the saved report states it, not checked here$/);
    const decisions = testIdTexts(html, 'bundled-decision');
    expect(decisions.length).toBe(proofs.length);
    for (const d of decisions) expect(d).toContain('accept (as stated, not checked here)');
    expect(html).toContain('Judgements carried by this bundle (2), as the saved report states them, not checked here');
    expect(html).toContain('The report it carries (as the saved report states it, not checked here)');
  });
});

describe('a genuine report from the engine', () => {
  it('opens, its verdict said as stated', async () => {
    expect(failing().verdict).toBe('fail');
    const s = await opened(failing(), 'altered.report.json');
    expect(s.error).toBeNull();
    expect(s.report).toEqual(failing());
    expect(s.artifact).toMatchObject({ name: 'altered.report.json', savedReport: true, source: null });
    const html = await banner(s);
    expect(html).toMatch(/verdict-word">FAIL<\/span><span[^>]*> as stated \(not re-verified\)/);
    expect(html).not.toMatch(/verdict-banner fail/);
    expect(html).toContain('The saved report states that the artifact fails');
  });

  it('a passing one, of the intact dump, opens with no pass colour', async () => {
    const r = intact();
    expect(r.verdict).toBe('pass');
    const s = await opened(JSON.parse(JSON.stringify(r)) as Report, 'intact.report.json');
    expect(s.error).toBeNull();
    const html = await banner(s);
    expect(html).toContain('PASS</span><span data-testid="verdict-stated"> as stated (not re-verified)</span>');
    expect(html).not.toMatch(/verdict-banner pass|Every check passed/);
  });
});
