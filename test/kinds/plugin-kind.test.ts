/**
 * A kind is a plug-in: registering a kind that exists only in the test tree (fixtures/
 * plugin-kind.ts) makes it reach the CLI's help and flags, the engine, the report schema's
 * kind enum and the host API's options, without touching any other file. Its declarations
 * are all those rooms read: its verify (fixtures/plugin-kind-code.ts) loads only when a
 * job of the kind runs.
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { kindNames, registerKind } from '../../app/kinds/registry.js';
import { ARTIFACT_KINDS } from '../../shared/report.js';
import { ROOT } from '../helpers/cli.js';
import { codeLoads, pluginKind } from './fixtures/plugin-kind.js';

registerKind(pluginKind);
// The rooms are loaded after the registration, as they would be with a built-in kind.
const { runCli } = await import('../../app/cli/main.js');
const { runBytes } = await import('../../app/engine/run.js');
const { buildExamples } = await import('../../app/examples/index.js');
const { EngineHost } = await import('../../main/host/engine-host.js');

const dir = await mkdtemp(join(tmpdir(), 'reprise-plugin-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: (s) => void (out += s),
    err: (s) => void (err += s),
    stderrIsTTY: false,
    cwd: dir,
  });
  return { code, out, err };
}

/** The schema with its kind enum built from the registry (what test/core/report-schema.test.ts pins). */
async function schemaFromRegistry() {
  const schema = JSON.parse(await readFile(`${ROOT}docs/report.schema.json`, 'utf8'));
  schema.properties.artifact.properties.kind.enum = [...kindNames(), 'unknown'];
  return new Ajv2020({ allErrors: true, strict: true }).compile(schema);
}

describe('a kind registered from the test tree', () => {
  it('shows its flag and its limit in the CLI help, from its declarations alone', async () => {
    const r = await cli(['verify', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\[--plugin-table FILE\]/);
    expect(r.out).toMatch(/--plugin-table FILE +the plug-in kind's lookup table/);
    expect(r.out).toMatch(/plugin-items=7 +items a plug-in document may hold/);
    // Help, the host's options and another kind's job never load its code.
    await new EngineHost({
      workerUrl: new URL('file:///nonexistent'),
      journalWorkerUrl: new URL('file:///nonexistent'),
      transport: 'web',
    }).engineInfo();
    await runBytes('x.json', Buffer.from('{"type":"something else"}'), 'verify', {});
    expect(codeLoads.count).toBe(0);
  });

  it('gets its option and limit from the CLI, and its own authenticity wording', async () => {
    const doc = join(dir, 'p.json');
    const table = join(dir, 'table.json');
    await writeFile(doc, '{"type":"test.plugin/v1","items":[1,2,3]}');
    await writeFile(table, '{}');
    const ok = await cli(['verify', doc, '--plugin-table', table, '--json']);
    expect(ok.code, ok.err).toBe(0);
    expect(codeLoads.count).toBe(1); // its job loaded its code
    const report = JSON.parse(ok.out);
    expect(report.artifact.kind).toBe('test-plugin');
    expect(report.authenticity.statement).toBe(
      'Consistency only, origin not established: a plug-in document carries no signature.',
    );
    const over = await cli(['verify', doc, '--limit', 'plugin-items=2', '--json']);
    expect(over.code).toBe(1);
    expect(JSON.parse(over.out).findings[0].rule).toBe('TEST-PLUGIN-001');
    // Its file flag is checked like every other: a missing file is bad usage (exit 3).
    const missing = await cli(['verify', doc, '--plugin-table', join(dir, 'nope.json')]);
    expect(missing.code).toBe(3);
    expect(missing.err).toMatch(/cannot read --plugin-table/);
  });

  it('is in the schema built from the registry, which its report satisfies', async () => {
    const validate = await schemaFromRegistry();
    const r = await runBytes('p.json', Buffer.from('{"type":"test.plugin/v1","items":[]}'), 'verify', {});
    expect(r.artifact.kind).toBe('test-plugin');
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    // shared/report.ts lists the built-in names only: a new kind adds its name there too.
    expect(ARTIFACT_KINDS).not.toContain('test-plugin');
  });

  it('brings its example', async () => {
    const files = await buildExamples();
    expect(files.map((f) => f.path)).toContain('plugin/one.json');
  });

  it('is in the host API: its kind and its workbench option', async () => {
    const host = new EngineHost({
      workerUrl: new URL('file:///nonexistent'),
      journalWorkerUrl: new URL('file:///nonexistent'),
      transport: 'web',
    });
    const info = await host.engineInfo();
    expect(info.kinds).toContain('test-plugin');
    expect(info.options.map((o) => o.name)).toEqual(expect.arrayContaining(['pluginTable', 'trustStore']));
  });
});
