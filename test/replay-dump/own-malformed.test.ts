/**
 * A dump no parse reads (nested too deep for even the loose parse, behind a byte-order mark,
 * with a byte that is not UTF-8) is still detected as a dump from its top-level "type", and
 * refused as one: RPR-DUMP-003 naming the reason, with its dump id. Nothing else is claimed,
 * and a document the strict parse accepts is never scanned.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { KINDS } from '../../app/kinds/registry.js';
import { Sniffed, topLevelStringOf } from '../../app/kinds/sniff.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec } from '../../app/kinds/replay-dump/examples.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const DUMP_ID = sampleSpec().dumpId;
let json: string;

beforeAll(async () => {
  json = encodeJson(await buildDump(sampleSpec(), sampleSigner('active')));
});

const verify = (bytes: Buffer | string): Promise<Report> => runBytes('x', Buffer.from(bytes), 'verify', {});

/** `levels` nested arrays, closed. */
const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

/** The intact dump with one more artifact whose `json` nests `levels` arrays. */
function withDeepArtifact(levels: number): string {
  const at = json.indexOf('"artifacts": {') + '"artifacts": {'.length;
  return `${json.slice(0, at)}"sha256:deep":{"json":${deep(levels)},"mediaType":"application/json"},${json.slice(at)}`;
}

function expectRefusedDump(r: Report, reason: string): void {
  expect(r.artifact.kind).toBe('replay-dump');
  expect(r.verdict).toBe('fail');
  const f = r.findings.filter((x) => x.rule === 'RPR-DUMP-003');
  expect(f).toHaveLength(1);
  expect(f[0]!.message).toMatch(new RegExp(`^the dump is not I-JSON: ${reason}`));
  expect(r.findings.map((x) => x.rule)).not.toContain('RPR-KIND-001');
  expect(r.artifact.id).toBe(DUMP_ID);
}

describe('a dump no parse reads is refused as a dump (RPR-DUMP-003 with the reason)', () => {
  for (const levels of [100_000, 2_000_000]) {
    it(`an artifact nesting ${levels} arrays: ERR_DEPTH`, async () => {
      expectRefusedDump(await verify(withDeepArtifact(levels)), 'ERR_DEPTH');
    });
  }
  it('a byte-order mark before an intact dump: ERR_BOM', async () => {
    expectRefusedDump(await verify(Buffer.concat([BOM, Buffer.from(json)])), 'ERR_BOM');
  });
  it('one byte 0xFF inside the prompt: ERR_UTF8', async () => {
    const b = Buffer.from(json);
    b[b.indexOf('Summarise')] = 0xff;
    expectRefusedDump(await verify(b), 'ERR_UTF8');
  });
});

describe('nothing else is claimed', () => {
  /** Unknown to every kind; `scanned` is what the scan reads as its top-level "type". */
  const unknown = async (bytes: Buffer | string, scanned: string | null): Promise<void> => {
    const r = await verify(bytes);
    expect(r.artifact.kind).toBe('unknown');
    expect(r.findings.map((f) => f.rule)).toEqual(['RPR-KIND-001']);
    expect(new Sniffed('x', Buffer.from(bytes)).topLevelString('type')).toBe(scanned);
  };
  it('a deep document of another type', () => unknown(`{"type":"other","x":${deep(100_000)}}`, 'other'));
  it('a deep document whose "type" is a dump\'s only below the top level', () =>
    unknown(`{"a":{"type":"kernel.replay_dump"},"x":${deep(100_000)},"b":["type","kernel.replay_dump"]}`, null));
  it('a deep array holding a dump', () => unknown(`[{"type":"kernel.replay_dump"},${deep(100_000)}]`, null));
  it('a dump as the second of two documents (JSON Lines), not UTF-8', () =>
    unknown(Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff]), Buffer.from('"}\n'), Buffer.from(json)]), null));
  it('a byte-order mark before a document of another type', () =>
    unknown(Buffer.concat([BOM, Buffer.from('{"type":"kernel.replay_dum","dumpId":"x"}')]), 'kernel.replay_dum'));
  it('a dump cut short (a syntax error, not a reading one) is not scanned: it stays what it was', () =>
    unknown(json.slice(0, Math.floor(json.length / 2)), null));
});

describe('topLevelStringOf: a bounded scan, no parse', () => {
  const doc = (t: string) => Buffer.from(t);
  it('finds a top-level string member, escapes decoded, braces and quotes inside strings skipped', () => {
    const t = '{"a":"}\\"{","b":{"type":"no"},"c":["type",{"type":"no"}],"t\\u0079pe":"yes","type":"second"}';
    expect(topLevelStringOf(doc(t), 'type')).toBe('yes');
    expect(topLevelStringOf(doc(t), 'a')).toBe('}"{');
    expect(topLevelStringOf(doc(t), 'b')).toBeNull();
    expect(topLevelStringOf(doc(t), 'missing')).toBeNull();
  });
  it('reads a document larger than both ends from each end, backwards at the end', () => {
    const middle = `"x":${deep(5000)}`;
    const head = `{"type":"head",${middle},"tail":"a\\\\","q":"\\"}{[","y":{"tail":"no"}}`;
    expect(topLevelStringOf(doc(head), 'type', 100)).toBe('head');
    expect(topLevelStringOf(doc(head), 'tail', 100)).toBe('a\\');
    expect(topLevelStringOf(doc(head), 'q', 100)).toBe('"}{[');
    expect(topLevelStringOf(doc(head + '\n \n'), 'q', 100)).toBe('"}{[');
  });
  it('finds nothing where the text is not one object', () => {
    expect(topLevelStringOf(doc('["type","x"]'), 'type')).toBeNull();
    expect(topLevelStringOf(doc(`{"type":"x","a":${deep(500).slice(0, 700)}`), 'type')).toBeNull();
    expect(topLevelStringOf(doc(`{"type":"x","a":"b`), 'type')).toBeNull();
    expect(topLevelStringOf(doc(`{"type":"x","a":${deep(500).slice(0, 700)}`), 'type', 100)).toBeNull();
    expect(topLevelStringOf(doc('{"a":1}\n{"type":"x"}'), 'type')).toBeNull();
    expect(topLevelStringOf(doc('{"type":"x"}\n{"a":1}'), 'type')).toBeNull();
    // Larger than both ends: the start, the end, and what ends a first object early are checked.
    expect(topLevelStringOf(doc(`{"a":1}\n{"type":"x","b":${deep(500)}}`), 'type', 600)).toBeNull();
    expect(topLevelStringOf(doc(`{"type":"x","b":${deep(500)}}\n{"a":1}`), 'type', 600)).toBeNull();
    expect(topLevelStringOf(doc(`{"type":"x"}${' '.repeat(2000)}1`), 'type', 600)).toBeNull();
    expect(topLevelStringOf(doc(`{"type":"x"}${' '.repeat(2000)}`), 'type', 600)).toBe('x');
  });
  it('reads text that is not UTF-8 or starts with a byte-order mark leniently', () => {
    expect(topLevelStringOf(Buffer.concat([BOM, doc('{"type":"x"}')]), 'type')).toBe('x');
    expect(topLevelStringOf(Buffer.concat([doc('{"a":"'), Buffer.from([0xff]), doc('","type":"x"}')]), 'type')).toBe(
      'x',
    );
  });
});

describe('detection costs nothing more for a document the strict parse accepts', () => {
  afterEach(() => vi.restoreAllMocks());
  it('the scan is never run when the strict or the loose parse read the document', () => {
    const scan = vi.spyOn(Sniffed.prototype, 'topLevelString');
    const docs = [
      json,
      '{"type":"reprise.other"}',
      '{"schema":"x","a":[1,2]}',
      '{"a":1,"a":2}',
      `{"type":"kernel.replay_dump","x":${deep(1000)}}`,
    ];
    for (const d of docs) KINDS.find((k) => k.detect(new Sniffed('x', Buffer.from(d))));
    expect(scan).not.toHaveBeenCalled();
  });
  it('a refused document answers for any of its top-level members', () => {
    const s = new Sniffed('x', Buffer.concat([BOM, Buffer.from(json)]));
    expect(s.topLevelString('type')).toBe('kernel.replay_dump');
    expect(s.topLevelString('type')).toBe('kernel.replay_dump');
    expect(s.topLevelString('dumpId')).toBe(DUMP_ID);
  });
});
