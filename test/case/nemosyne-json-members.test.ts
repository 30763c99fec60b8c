/**
 * A Nemosyne package's JSON members are named in a case by H(json) too, the hash of their
 * canonical JSON (docs/case.md, "Links by content"; app/kinds/nemosyne/case-facts.ts):
 * upstream writes them with JSON.stringify, never canonically, so their bytes' SHA-256 is
 * never the H(json) a dump or a journal names the same dataset by.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashBytes, hashValue } from '../../app/core/hash.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { runPath } from '../../app/engine/run.js';
import type { CaseFacts } from '../../app/kinds/operations.js';
import { recordNote } from '../../app/journal/index.js';
import { buildPackageParts, packPackage, SAMPLE_DATASET } from '../../app/kinds/nemosyne/package-writer.js';
import { makeKeys, tmp } from '../journal/helpers.js';

/** The identities a package offers a case, by the pointer of the part each names. */
async function packageIdentities(path: string): Promise<Map<string, Set<string>>> {
  let facts: CaseFacts | null = null;
  await runPath(
    path,
    'verify',
    {},
    { after: async (report, subject, ops, ctx) => void (facts = await ops!.caseFacts!(subject, report, ctx)) },
  );
  const out = new Map<string, Set<string>>();
  for (const id of facts!.identities) {
    const k = id.pointer ?? '';
    out.set(k, (out.get(k) ?? new Set()).add(id.value));
  }
  return out;
}

describe("a Nemosyne package's JSON members in a case", () => {
  it('are named by H(json) as well as by their bytes, so what names the parsed dataset links to it', async () => {
    const root = tmp('reprise-case-nemosyne-json-');
    const keys = makeKeys(root);
    const dir = join(root, 'case');
    mkdirSync(dir);
    const parts = buildPackageParts(2, { digest: false });
    const dataset = parts.files.find((f) => f.name === 'data/dataset.raw')!.data;
    writeFileSync(join(dir, 'investigation.nemosyne'), packPackage(parts));
    const byJson = hashValue(SAMPLE_DATASET);
    expect(byJson).not.toBe(hashBytes(dataset)); // written pretty, not canonically
    // A reviewer's note on the dataset by H(json) (what a dump's JSON material names it by).
    for (const artifact of [byJson, hashBytes(dataset)])
      await recordNote(
        join(dir, 'review'),
        { artifact, text: 'The dataset is the one scored.' },
        keys.reviewer,
        keys.trust,
        {
          fsync: false,
        },
      );
    const report = await driveCase(dir, inlineExecutor, { options: { trustStore: keys.trustPath } });
    const subject = report.links.filter((l) => l.from.artifact === 'review' && l.relation === 'subject');
    expect(subject.map((l) => [l.value, l.to?.artifact, l.to?.pointer, l.status])).toEqual([
      [byJson, 'investigation.nemosyne', 'entry:data/dataset.raw', 'found'],
      [hashBytes(dataset), 'investigation.nemosyne', 'entry:data/dataset.raw', 'found'],
    ]);
    expect(report.judgements.map((j) => [j.artifact, j.subject])).toEqual([
      ['investigation.nemosyne', byJson],
      ['investigation.nemosyne', hashBytes(dataset)],
    ]);
  });

  it('names the members verification leaves unparsed (representation, discoveries, NIL outcomes) by H(json), unless a number would change', async () => {
    const root = tmp('reprise-case-nemosyne-unparsed-');
    const dir = join(root, 'case');
    mkdirSync(dir);
    const parts = buildPackageParts(2, { digest: false });
    const representation = { datasetSignature: { rows: 2 }, model: 'fitness-1' };
    const discoveries = [{ episode: 1, score: 0.5 }];
    const pretty = (v: unknown) => Buffer.from(JSON.stringify(v, null, 2), 'utf8');
    parts.files.push(
      { name: 'investigation/representation.json', data: pretty(representation) },
      { name: 'investigation/discoveries.json', data: pretty(discoveries) },
      // 1E400 parses to Infinity's neighbour no double holds: its H(json) would name other content.
      { name: 'investigation/nil-outcomes.json', data: Buffer.from('[{"p": 1E400}]', 'utf8') },
    );
    writeFileSync(join(dir, 'investigation.nemosyne'), packPackage(parts));
    const report = await driveCase(dir, inlineExecutor, { options: {} });
    const ids = await packageIdentities(join(dir, 'investigation.nemosyne'));
    expect(ids.get('entry:investigation/representation.json')).toEqual(
      new Set([hashBytes(pretty(representation)), hashValue(representation)]),
    );
    expect(ids.get('entry:investigation/discoveries.json')).toEqual(
      new Set([hashBytes(pretty(discoveries)), hashValue(discoveries)]),
    );
    expect(ids.get('entry:investigation/nil-outcomes.json')).toEqual(
      new Set([hashBytes(Buffer.from('[{"p": 1E400}]', 'utf8'))]),
    );
    expect(report.artifacts).toHaveLength(1);
  });
});
