/** A package's members as the workbench browses them: digests recorded and recomputed, content, the strict reader's refusal. */
import { describe, expect, it } from 'vitest';
import { hashBytes } from '../../app/core/hash.js';
import { packageMembers, PackageMembersError } from '../../app/kinds/nemosyne/members.js';
import { buildPackageParts, packPackage, SAMPLE_DATASET } from '../../app/kinds/nemosyne/package-writer.js';
import { datasetIdentityHex } from '../../app/kinds/nemosyne/dataset-identity.js';

describe('packageMembers', () => {
  const parts = buildPackageParts(3);
  const zip = packPackage(parts);
  const file = (name: string) => parts.files.find((f) => f.name === name)!.data;

  it('lists every member with the digest the manifest records and the one recomputed', async () => {
    const { members, member } = await packageMembers(zip);
    expect(member).toBeNull();
    const by = new Map(members.map((m) => [m.path, m]));
    expect([...by.keys()]).toEqual(
      expect.arrayContaining([
        'manifest.json',
        'data/dataset.raw',
        'investigation/commands.log',
        'investigation/evidence-receipts.json',
      ]),
    );
    const env = by.get('investigation/evidence-receipts.json')!;
    expect(env.role).toBe('envelope');
    expect(env.recomputedDigest).toBe(hashBytes(file('investigation/evidence-receipts.json')));
    expect(env.recordedDigest).toBe(`sha256:${parts.manifest['evidenceReceiptDigest'] as string}`);
    const ds = by.get('data/dataset.raw')!;
    expect(ds.recomputedDigest).toBe(`sha256:${datasetIdentityHex(SAMPLE_DATASET)}`);
    expect(ds.recordedDigest).toBe(ds.recomputedDigest);
    expect(ds.sha256).toBe(hashBytes(file('data/dataset.raw')));
    expect(by.get('manifest.json')!.recordedDigest).toBeNull();
  });

  it('shows a recorded digest that the bytes do not match', async () => {
    const bad = buildPackageParts(3, { manifest: (m) => void (m['evidenceReceiptDigest'] = '0'.repeat(64)) });
    const env = (await packageMembers(packPackage(bad))).members.find((m) => m.role === 'envelope')!;
    expect(env.recordedDigest).toBe(`sha256:${'0'.repeat(64)}`);
    expect(env.recomputedDigest).not.toBe(env.recordedDigest);
  });

  it('reads a JSON member raw and canonical, and the dataset as a table', async () => {
    const log = (await packageMembers(zip, 'investigation/commands.log')).member!;
    expect(log.raw).toBe(file('investigation/commands.log').toString('utf8'));
    expect(log.canonical).not.toBeNull();
    expect(log.table).toBeNull();
    const ds = (await packageMembers(zip, 'data/dataset.raw')).member!;
    expect(ds.table!.columns).toEqual(SAMPLE_DATASET.columns.map((c) => c.name));
    expect(ds.table!.rows.length).toBe(SAMPLE_DATASET.rows.length);
    expect(ds.table!.totalRows).toBe(SAMPLE_DATASET.rows.length);
  });

  it('refuses a member the package does not have, and an archive the strict reader refuses', async () => {
    await expect(packageMembers(zip, 'nope.json')).rejects.toThrow(PackageMembersError);
    const trailing = Buffer.concat([Buffer.from('junk before the archive'), zip]);
    await expect(packageMembers(trailing)).rejects.toThrow(/strict ZIP reader refuses this archive.*RPR-ZIP/);
  });
});
