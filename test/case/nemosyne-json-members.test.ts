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
import { recordNote } from '../../app/journal/index.js';
import { buildPackageParts, packPackage, SAMPLE_DATASET } from '../../app/kinds/nemosyne/package-writer.js';
import { makeKeys, tmp } from '../journal/helpers.js';

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
});
