/**
 * The canonical-stripping thread (app/threads/canonical.ts), run from dist/ (npm test
 * builds it first): stripped bytes, the document's hash, hashes of long string values,
 * and a StripWork (the signature member cut out, the check made with the work's key).
 * Everything it gives must equal what the caller would compute on its own thread.
 */
import { describe, expect, it } from 'vitest';
import type { KeyObject } from 'node:crypto';
import type { MemberSpan } from '../../app/core/jcs.js';
import { canonicalizeText, canonicalizeValue } from '../../app/core/jcs.js';
import { hashBytes } from '../../app/core/hash.js';
import { signBytes } from '../../app/core/keys.js';
import { sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import type { ArrivingStripJob, StripWork, StripJob, StripResult } from '../../app/threads/canonical.js';

const mod = (await import(new URL('../../dist/app/threads/canonical.js', import.meta.url).href)) as {
  stripInWorker: (b: Uint8Array, plan?: StripWork, hashOnly?: boolean) => StripJob;
  stripWhileArriving: (b: Uint8Array) => ArrivingStripJob | null;
};
const LONG = 64 * 1024;
const signer = sampleSigner('active');
const other = sampleSigner('revoked');
const keys = (...ss: (typeof signer)[]): Map<string, KeyObject> => new Map(ss.map((s) => [s.keyId, s.publicKey]));
const plan = (k = keys(signer)): StripWork => ({ omit: 'signature', keyIdMember: 'keyId', keys: k });
const utf8 = (s: string) => Buffer.from(s, 'utf8');
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

/** A signed document: `signature` over the canonical document without it. */
function signed(doc: Record<string, unknown>, indent = 2): { body: string; payload: string } {
  const payload = canonicalizeValue(doc);
  const sig = signBytes(signer, utf8(payload));
  const withSig = JSON.parse(canonicalizeValue({ ...doc, signature: sig })) as unknown;
  return { body: JSON.stringify(withSig, null, indent), payload };
}

const find = (ms: MemberSpan[], ...path: string[]): MemberSpan | undefined => {
  let m: MemberSpan | undefined;
  let list: MemberSpan[] | undefined = ms;
  for (const p of path) {
    m = list?.find((x) => x.name === p);
    list = m?.members;
  }
  return m;
};

describe('the stripping thread', () => {
  it('hashes only, without stripping, when no kind would use the stripped bytes', async () => {
    const body = JSON.stringify({ b: 1, a: 'x'.repeat(LONG) }, null, 2);
    const r = await mod.stripInWorker(utf8(body), undefined, true).result;
    expect(r.sha256).toBe(hashBytes(utf8(body)));
    expect(r.stripped).toBeNull();
  });

  it('stops stripping when cancelled (a refused document), and still hashes it', async () => {
    // 40 MiB in shared memory: the thread looks at the cancel flag every 8 MiB stripped.
    const bytes = Buffer.from(new SharedArrayBuffer(40 * 1024 * 1024)).fill(0x20);
    bytes.write('{"a": "', 0);
    bytes.fill(0x61, 7, bytes.length - 2);
    bytes.write('"}', bytes.length - 2);
    const whole = await mod.stripInWorker(bytes).result;
    expect(whole.stripped?.bytes.length).toBe(bytes.length - 1);
    const job = mod.stripInWorker(bytes);
    job.cancel();
    const r = await job.result;
    expect(r.stripped).toBeNull();
    expect(r.sha256).toBe(hashBytes(bytes));
  });

  it('hashes the document and strips it, as the caller would', async () => {
    const body = JSON.stringify({ a: [1, 0.1, -2.5e-7, 1.2345678901234568e21], b: { c: 'x y' } }, null, 2);
    const r = await mod.stripInWorker(utf8(body)).result;
    expect(r.sha256).toBe(hashBytes(utf8(body)));
    expect(text(r.stripped!.bytes)).toBe(canonicalizeText(body));
    expect(r.omitted).toBeNull();
    expect(r.signature).toBeNull();
  });

  it('hashes long escape-free string values (non-ASCII too) exactly as H_bytes of the parsed string', async () => {
    const long = Array.from({ length: 4000 }, (_, i) => `- q C:/p é ✓ 😀 #${i} `).join('');
    const escaped = long.replace('#17 ', '#17\n');
    const plain = 'x'.repeat(LONG + 3);
    const doc = {
      artifacts: {
        a: { text: long },
        b: { text: plain },
        c: { text: 'short' },
        d: { json: { text: long } },
        e: { text: escaped },
      },
      z: long,
    };
    const r = await mod.stripInWorker(utf8(JSON.stringify(doc, null, 1))).result;
    const ms = r.stripped!.members;
    expect(find(ms, 'artifacts', 'a', 'text')?.stringHash).toBe(hashBytes(long));
    expect(find(ms, 'artifacts', 'b', 'text')?.stringHash).toBe(hashBytes(plain));
    expect(find(ms, 'z')?.stringHash).toBe(hashBytes(long));
    // Short strings, strings with escapes and strings deeper than the spans are left to the caller.
    expect(find(ms, 'artifacts', 'c', 'text')?.stringHash).toBeUndefined();
    expect(find(ms, 'artifacts', 'd', 'json')?.stringHash).toBeUndefined();
    expect(find(ms, 'artifacts', 'e', 'text')?.stringHash).toBeUndefined();
  });

  it('with a plan: cuts the signature out and checks it with the named key', async () => {
    const { body, payload } = signed({
      artifacts: { a: { text: 'é'.repeat(10) } },
      keyId: signer.keyId,
      type: 't',
      zz: { y: 1 },
    });
    const p = plan();
    const r = await mod.stripInWorker(utf8(body), p).result;
    expect(r.omitted).toBe('signature');
    expect(text(r.stripped!.bytes)).toBe(payload);
    expect(r.signature).toMatchObject({ keyId: signer.keyId, ok: true });
    // The caller's own KeyObject, so that the caller can tell it is the key it would use.
    expect(r.signature!.publicKey).toBe(p.keys.get(signer.keyId));
    // The spans (byte offsets) after the cut moved with the bytes.
    const span = (...path: string[]) => {
      const m = find(r.stripped!.members, ...path)!;
      return text(r.stripped!.bytes.subarray(m.start, m.end));
    };
    expect(span('zz')).toBe('"zz":{"y":1}');
    expect(span('zz', 'y')).toBe('"y":1');
    expect(span('type')).toBe('"type":"t"');
    expect(span('artifacts', 'a', 'text')).toBe(`"text":"${'é'.repeat(10)}"`);
    expect(r.stripped!.members.map((m) => m.name)).toEqual(['artifacts', 'keyId', 'type', 'zz']);
  });

  it('a signature first or alone in the document is cut out too; none, nothing is cut', async () => {
    const sig = signBytes(signer, utf8('{"b":1}'));
    const none = await mod.stripInWorker(utf8(`{ "a": 1, "keyId": "${signer.keyId}" }`), plan()).result;
    expect(none.omitted).toBeNull();
    expect(none.signature).toBeNull();
    expect(text(none.stripped!.bytes)).toBe(`{"a":1,"keyId":"${signer.keyId}"}`);
    const r = await mod.stripInWorker(utf8(`{"a": "${sig}", "b": 1}`), {
      omit: 'a',
      keyIdMember: 'k',
      keys: keys(signer),
    }).result;
    expect(r.omitted).toBe('a');
    expect(text(r.stripped!.bytes)).toBe('{"b":1}');
    expect(r.signature).toBeNull(); // no key named: no check
    const alone = await mod.stripInWorker(utf8(`{"signature": "${sig}"}`), plan()).result;
    expect(text(alone.stripped!.bytes)).toBe('{}');
  });

  it('a tampered document, another key, or a key not in the plan never verifies', async () => {
    const { body } = signed({ data: 'original', keyId: signer.keyId });
    const tampered = await mod.stripInWorker(utf8(body.replace('original', 'originaL')), plan()).result;
    expect(tampered.signature).toMatchObject({ ok: false });
    const signedByOther = JSON.parse(body) as Record<string, unknown>;
    signedByOther['keyId'] = other.keyId;
    const wrongKey = await mod.stripInWorker(utf8(JSON.stringify(signedByOther)), plan(keys(signer, other))).result;
    expect(wrongKey.signature).toMatchObject({ keyId: other.keyId, ok: false });
    const unknown = await mod.stripInWorker(utf8(body), plan(keys(other))).result;
    expect(unknown.signature).toBeNull();
    expect(unknown.omitted).toBe('signature');
    const notString = await mod.stripInWorker(utf8(body.replace(/"signature": "[^"]*"/, '"signature": 5')), plan())
      .result;
    expect(notString.signature).toBeNull();
  });

  it('publishes whether it proved the member order, readable without waiting', async () => {
    const job = mod.stripInWorker(utf8(JSON.stringify({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, null, 2)));
    const r = await job.result;
    expect(r.stripped!.ordered).toBe(true);
    expect(job.proven()).toBe(true);
    for (const t of [
      '{"b": 1, "a": 2}',
      '{"a": 1, "a": 1}',
      '{"a": {"y": 1, "x": 2}}',
      '{"1": 0}',
      '{"é": 0}',
      '{"\\u0061": 0}',
      '[1.0]',
    ]) {
      const j = mod.stripInWorker(utf8(t));
      await j.result;
      expect(j.proven(), t).toBe(false);
    }
  });

  it('a document not written canonically gives no bytes and no check (the caller serializes)', async () => {
    const { body } = signed({ data: 'x', keyId: signer.keyId, n: 1 });
    const r = await mod.stripInWorker(utf8(body.replace('"n": 1', '"n": 1.0')), plan()).result;
    expect(r.stripped).toBeNull();
    expect(r.signature).toBeNull();
    expect(r.sha256).not.toBeNull();
  });
});

/** `bytes` arriving in shared memory in pieces of `piece` bytes, the thread told of each, 10 ms apart. */
async function arriving(bytes: Uint8Array, piece: number, p?: StripWork): Promise<{ job: StripJob; r: StripResult }> {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  const a = mod.stripWhileArriving(shared)!;
  expect(a).not.toBeNull();
  for (let got = 0; got < bytes.length;) {
    const n = Math.min(piece, bytes.length - got);
    shared.set(bytes.subarray(got, got + n), got);
    got += n;
    a.more(got);
    // Time for the thread to take each piece before the next comes (it unescapes only then).
    await new Promise((r) => setTimeout(r, 10));
  }
  const job = a.finish(p);
  a.drop(); // after finish: nothing more happens
  return { job, r: await job.result };
}

/** Spans without their string hashes (see hashedRight). */
const unhashed = (ms: MemberSpan[]): MemberSpan[] =>
  ms.map(({ stringHash: _h, ...m }) => ({ ...m, ...(m.members ? { members: unhashed(m.members) } : {}) }));

/** What a result says, the transferred bytes as text, the string hashes apart. */
const said = (r: StripResult) => ({
  ...r,
  stripped: r.stripped && { ...r.stripped, bytes: text(r.stripped.bytes), members: unhashed(r.stripped.members) },
  signature: r.signature && { ...r.signature, publicKey: undefined },
});

/** Every string hash given is H_bytes of the parsed string (its value in the stripped bytes); the keys of those given. */
function hashedRight(r: StripResult): string[] {
  const given: string[] = [];
  const walk = (ms: MemberSpan[], at: string) => {
    for (const m of ms) {
      if (m.members) walk(m.members, `${at}/${m.name}`);
      if (m.stringHash === undefined) continue;
      const value = JSON.parse(text(r.stripped!.bytes.subarray(m.value, m.end))) as string;
      expect(m.stringHash, `${at}/${m.name}`).toBe(hashBytes(value));
      given.push(`${at}/${m.name}`);
    }
  };
  walk(r.stripped?.members ?? [], '');
  return given;
}

describe('the stripping thread, while the bytes arrive', () => {
  it('gives what it gives for the whole bytes, pieces cutting strings, escapes and characters', async () => {
    // Every escape canonical JSON writes: the short ones and \u00xx for other control characters.
    const long = Array.from({ length: 4000 }, (_, i) => `- "q" C:\\p é ✓ 😀 #${i}\b\f\n\r\t\u0001\u001f `).join('');
    const plain = 'é'.repeat(LONG);
    const { body } = signed(
      {
        artifacts: { a: { text: long }, b: { text: plain }, c: { json: { n: [1, 0.1, 1e21] } } },
        keyId: signer.keyId,
        type: 't',
      },
      1,
    );
    const bytes = utf8(body);
    const whole = await mod.stripInWorker(bytes, plan()).result;
    expect(whole.signature).toMatchObject({ ok: true });
    expect(hashedRight(whole)).toEqual(['/artifacts/b/text']);
    for (const piece of [1_000_003, 65_537, 7_919]) {
      const { job, r } = await arriving(bytes, piece, plan());
      expect(said(r)).toEqual(said(whole));
      expect(job.proven()).toBe(true);
      // Given time between pieces (here, always), the string with escapes is unescaped and hashed too;
      // what is complete only at the last byte is left to the parsing thread.
      expect(hashedRight(r)).toEqual(
        piece < bytes.length ? ['/artifacts/a/text', '/artifacts/b/text'] : ['/artifacts/b/text'],
      );
    }
  });

  it('a document not canonical, or not JSON, gives what the whole bytes give', async () => {
    for (const t of ['{"a": 1.0, "b": "x"}', '{"b": 1, "a": 2}', '{"a": "unterminated', 'not json at all']) {
      const wholeJob = mod.stripInWorker(utf8(t));
      const whole = await wholeJob.result;
      const { job, r } = await arriving(utf8(t), 3);
      expect(said(r), t).toEqual(said(whole));
      expect(r.sha256).toBe(hashBytes(utf8(t)));
      // Proven only where the whole scan proves (text that is not JSON is the parse's to refuse).
      expect(job.proven(), t).toBe(wholeJob.proven());
    }
  });

  it('dropped (the upload failed, or the run needed no parse), the thread forgets it and goes on with others', async () => {
    const shared = new Uint8Array(new SharedArrayBuffer(10));
    const a = mod.stripWhileArriving(shared)!;
    shared.set(utf8('{"a":'));
    a.more(5);
    a.drop();
    // Finished after being dropped: nothing to give, at once.
    expect(await a.finish().result).toMatchObject({ stripped: null, sha256: null });
    const r = await mod.stripInWorker(utf8('{"b": 2}')).result;
    expect(text(r.stripped!.bytes)).toBe('{"b":2}');
  });
});
