/** Real reports, produced by the engine, validate against docs/report.schema.json. */
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { runBytes } from '../../app/engine/run.js';
import { buildExamples } from '../../app/examples/index.js';
import { kindNames } from '../../app/kinds/registry.js';
import { ARTIFACT_KINDS } from '../../shared/report.js';
import { ROOT } from '../helpers/cli.js';

const schema = JSON.parse(await readFile(`${ROOT}docs/report.schema.json`, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(schema);
const files = await buildExamples();

describe('reprise.report/v1 schema', () => {
  it('names exactly the kinds of the registry (plus unknown), as shared/report.ts does', () => {
    // shared/ imports nothing, so ARTIFACT_KINDS is the one other place a kind's name is listed.
    const registry = [...kindNames(), 'unknown'].sort();
    expect([...schema.properties.artifact.properties.kind.enum].sort()).toEqual(registry);
    expect([...ARTIFACT_KINDS].sort()).toEqual(registry);
  });
  it('accepts the report of unknown content', async () => {
    const r = await runBytes('x.json', Buffer.from('{"a":1}'), 'verify', {});
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
  });
  it('accepts the report of every built-in example, in verify and replay', async () => {
    let n = 0;
    for (const f of files.slice(0, 400)) {
      if (f.options) continue; // examples that need flags are covered by their kind's tests
      for (const mode of ['verify', 'replay'] as const) {
        const r = await runBytes(f.path, Buffer.from(f.bytes), mode, {});
        expect(validate(r), `${f.path} ${mode}: ${JSON.stringify(validate.errors)}`).toBe(true);
        n++;
      }
    }
    expect(n).toBeGreaterThan(0);
  });
  it('accepts the authenticity of a signed dump, and rejects an unknown status or a malformed key id', async () => {
    const dump = files.find((f) => f.path === 'dumps/intact.dump.json')!;
    const r = await runBytes(dump.path, Buffer.from(dump.bytes), 'verify', {});
    expect(r.authenticity?.status).toBe('unknown-signer');
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...r, authenticity: { ...r.authenticity, status: 'probably-fine' } })).toBe(false);
    expect(validate({ ...r, authenticity: { ...r.authenticity, keyId: 'ed25519:XYZ' } })).toBe(false);
    expect(validate({ ...r, authenticity: { status: 'unsigned' } })).toBe(false);
    expect(
      validate({ ...r, authenticity: { ...r.authenticity, role: 'reviewer', label: 'example reviewer' } }),
      JSON.stringify(validate.errors),
    ).toBe(true);
    expect(validate({ ...r, authenticity: { ...r.authenticity, role: 'admin' } })).toBe(false);
  });
  it('rejects a report with an unknown verdict or a malformed hash', async () => {
    const r = await runBytes('x.json', Buffer.from('{"a":1}'), 'verify', {});
    expect(validate({ ...r, verdict: 'maybe' })).toBe(false);
    expect(validate({ ...r, artifact: { ...r.artifact, sha256: 'sha256:ABC' } })).toBe(false);
  });
});
