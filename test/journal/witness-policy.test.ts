import { describe, expect, it } from 'vitest';
import { UsageError } from '../../app/core/errors.js';
import { generateSigner, rawPublicKey, type Signer } from '../../app/core/keys.js';
import {
  SIG_TYPE_COSIGNATURE_V1,
  addSignatures,
  checkpointBody,
  cosign,
  signNote,
  verifierKey,
} from '../../app/journal/note.js';
import { MAX_POLICY_BYTES, evaluateQuorum, parseWitnessPolicy } from '../../app/journal/witness-policy.js';

const ROOT = Buffer.alloc(32, 0xab);
const ORIGIN = 'reprise.example/journal';
const T = 1_700_000_000;

const log = generateSigner();
const W = Object.fromEntries(['X1', 'X2', 'X3', 'Y1', 'Y2'].map((n) => [n, generateSigner()])) as Record<
  string,
  Signer
>;
const hex = (s: Signer) => rawPublicKey(s.publicKey).toString('hex');
const cvkey = (name: string, s: Signer) => verifierKey(name, rawPublicKey(s.publicKey), SIG_TYPE_COSIGNATURE_V1);

const NOTE = signNote(checkpointBody(ORIGIN, 7, ROOT), ORIGIN, log);

/** The checkpoint cosigned by the named witnesses (each under its policy name as key name). */
function cosigned(names: string[], note = NOTE): string {
  return addSignatures(
    note,
    names.map((n) => cosign(note, n, W[n]!, T)),
  );
}

function policyError(text: string): string {
  try {
    parseWitnessPolicy(text, 'p.txt');
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).usageCode).toBe('bad-file');
    return (e as Error).message;
  }
  throw new Error('expected the policy to be refused');
}

const TWO_OF_THREE = `# three witnesses, two needed
witness X1 ${hex(W['X1']!)}
witness X2 ${hex(W['X2']!)} https://x2.example/
witness X3 ${hex(W['X3']!)}   # trailing comment
group X 2 X1 X2 X3
quorum X
`;

describe('witness policy files', () => {
  it('reads witnesses, groups and the quorum, with comments, blank lines and CRLF', () => {
    const p = parseWitnessPolicy(TWO_OF_THREE.replaceAll('\n', '\r\n'), 'p.txt');
    expect(p.witnesses.map((w) => [w.name, w.keyName, w.url, w.line])).toEqual([
      ['X1', 'X1', null, 2],
      ['X2', 'X2', 'https://x2.example/', 3],
      ['X3', 'X3', null, 4],
    ]);
    expect(p.groups).toEqual([{ name: 'X', threshold: 2, members: ['X1', 'X2', 'X3'], line: 5 }]);
    expect(p.quorum).toBe('X');
  });

  it("takes a cosigner vkey's name as the key name (the torchwood form)", () => {
    const p = parseWitnessPolicy(`witness w1 ${cvkey('witness.example/w1', W['X1']!)}\nquorum w1\n`);
    expect(p.witnesses[0]).toMatchObject({ name: 'w1', keyName: 'witness.example/w1' });
  });

  it('reads any and all, and "quorum none"', () => {
    const p = parseWitnessPolicy(
      `witness A ${hex(W['X1']!)}\nwitness B ${hex(W['X2']!)}\ngroup any1 any A B\ngroup both all A B\nquorum none\n`,
    );
    expect(p.groups.map((g) => g.threshold)).toEqual([1, 2]);
    expect(p.quorum).toBe('none');
  });

  const A = `witness A ${hex(W['X1']!)}\n`;
  const bad: [string, string, RegExp][] = [
    ['an unknown keyword', `${A}witnes B ${hex(W['X2']!)}\nquorum A\n`, /line 2: unknown keyword "witnes"/],
    ['no quorum', A, /no quorum line/],
    ['two quorum lines', `${A}quorum A\nquorum A\n`, /line 3: a second quorum line \(the first is line 2\)/],
    [
      'a quorum naming nothing defined',
      `${A}quorum B\n`,
      /line 2: the quorum "B" is not a witness or group defined above/,
    ],
    ['a quorum before its name', `quorum A\n${A}`, /line 1: the quorum "A"/],
    ['a name defined twice', `${A}witness A ${hex(W['X2']!)}\nquorum A\n`, /line 2: the name "A" is defined twice/],
    ['redefining none', `witness none ${hex(W['X1']!)}\nquorum none\n`, /line 1: "none" is the predefined/],
    [
      'a key used twice',
      `${A}witness B ${hex(W['X1']!)}\nquorum A\n`,
      /line 2: witness B has the same public key as witness A/,
    ],
    ['a short hex key', `witness A ${hex(W['X1']!).slice(2)}\nquorum A\n`, /line 1: verifier key/],
    [
      'a note key (type 0x01) for a witness',
      `witness A ${verifierKey('w', rawPublicKey(W['X1']!.publicKey))}\nquorum A\n`,
      /line 1: the key of witness A is a note signing key \(type 0x01\)/,
    ],
    [
      'a vkey whose id does not match',
      `witness A ${cvkey('w', W['X1']!).replace(/\+[0-9a-f]{8}\+/, '+00000000+')}\nquorum A\n`,
      /line 1: verifier key .* the key id 00000000/,
    ],
    ['a missing key', `witness A\nquorum none\n`, /line 1: a witness line is "witness NAME KEY \[URL\]"/],
    ['too many fields', `witness A ${hex(W['X1']!)} https://a.example/ extra\nquorum none\n`, /line 1: a witness line/],
    [
      'a URL that is not one',
      `witness A ${hex(W['X1']!)} a.example\nquorum none\n`,
      /line 1: "a.example" is not a URL/,
    ],
    [
      'a URL of another scheme',
      `witness A ${hex(W['X1']!)} file:///etc/passwd\nquorum none\n`,
      /line 1: .* is not an http\(s\) URL/,
    ],
    [
      'a group of an undefined member',
      `${A}group G any A B\nquorum G\n`,
      /line 2: group G: "B" is not a witness or group defined above/,
    ],
    ['a group naming itself', `${A}group G any G\nquorum G\n`, /line 2: group G: "G" is not/],
    ['a group naming a member twice', `${A}group G 2 A A\nquorum G\n`, /line 2: group G names A twice/],
    [
      'a threshold of 0',
      `${A}group G 0 A\nquorum G\n`,
      /line 2: group G: the threshold "0" is not all, any or a number from 1 to 1/,
    ],
    ['a threshold above the members', `${A}group G 2 A\nquorum G\n`, /the threshold "2"/],
    ['a threshold with a leading zero', `${A}group G 01 A\nquorum G\n`, /the threshold "01"/],
    ['a group without members', `${A}group G any\nquorum G\n`, /line 2: a group line/],
    ['a quorum line with two names', `${A}quorum A A\n`, /line 2: a quorum line/],
    ['a hex log key', `log ${hex(W['X1']!)}\nquorum none\n`, /line 1: a log key is written as its vkey/],
    [
      'a cosigner vkey as log key',
      `log ${cvkey('l', W['X1']!)}\nquorum none\n`,
      /line 1: the log key l is of type 0x04/,
    ],
    ['a name with "+"', `witness A+B ${hex(W['X1']!)}\nquorum none\n`, /line 1: "A\+B" is not a usable name/],
  ];
  for (const [what, text, why] of bad)
    it(`refuses ${what}, naming the line`, () => expect(policyError(text)).toMatch(why));

  it('refuses a file too large or not UTF-8, before reading a line', () => {
    expect(policyError('#'.repeat(MAX_POLICY_BYTES + 1))).toMatch(/larger than 65536 bytes/);
    expect(() => parseWitnessPolicy(Buffer.from([0x71, 0xff, 0x0a]), 'p.txt')).toThrow(/not valid UTF-8/);
    expect(() => parseWitnessPolicy('quorum none\n\ud800', 'p.txt')).toThrow(/not valid UTF-8/);
  });

  it('bounds the names a file may define', () => {
    const lines = Array.from({ length: 1001 }, (_, i) => `group g${i} any ${i === 0 ? 'A' : `g${i - 1}`}`);
    expect(policyError(`${A}${lines.join('\n')}\nquorum none\n`)).toMatch(
      /line 1001: more than 1000 witnesses and groups/,
    );
  });
});

describe('quorum', () => {
  const p = parseWitnessPolicy(TWO_OF_THREE, 'p.txt');

  it('2 of 3: none, one, two and three cosigners', () => {
    const none = evaluateQuorum(p, NOTE);
    expect(none).toMatchObject({ ok: false, quorum: 'X', cosigned: [], missing: ['X1', 'X2', 'X3'] });
    expect(none.problems).toEqual(['the quorum X needs 2 of X1, X2, X3; 0 act']);
    const one = evaluateQuorum(p, cosigned(['X2']));
    expect(one).toMatchObject({
      ok: false,
      cosigned: [{ witness: 'X2', keyName: 'X2', timestamp: T }],
      missing: ['X1', 'X3'],
    });
    expect(one.problems).toEqual(['the quorum X needs 2 of X1, X2, X3; 1 acts (X2)']);
    expect(evaluateQuorum(p, cosigned(['X3', 'X1']))).toMatchObject({
      ok: true,
      cosigned: [{ witness: 'X1' }, { witness: 'X3' }],
      missing: ['X2'],
      problems: [],
    });
    expect(evaluateQuorum(p, cosigned(['X1', 'X2', 'X3']))).toMatchObject({ ok: true, missing: [] });
  });

  it('nested groups: 2 of the X witnesses and any Y witness (the Sigsum example)', () => {
    const nested = parseWitnessPolicy(
      `${TWO_OF_THREE.replace('quorum X\n', '')}witness Y1 ${hex(W['Y1']!)}\nwitness Y2 ${hex(W['Y2']!)}\ngroup Y any Y1 Y2\ngroup XY all X Y\nquorum XY\n`,
    );
    expect(evaluateQuorum(nested, cosigned(['X1', 'X2'])).problems).toEqual([
      'the quorum XY needs 2 of X, Y; 1 acts (X)',
    ]);
    expect(evaluateQuorum(nested, cosigned(['X1', 'Y2'])).problems).toEqual([
      'the quorum XY needs 2 of X, Y; 1 acts (Y)',
    ]);
    const ok = evaluateQuorum(nested, cosigned(['X1', 'X3', 'Y2']));
    expect(ok).toMatchObject({ ok: true, missing: ['X2', 'Y1'] });
  });

  it('a single witness as quorum, and quorum none', () => {
    const single = parseWitnessPolicy(`witness X1 ${hex(W['X1']!)}\nquorum X1\n`);
    expect(evaluateQuorum(single, NOTE).problems).toEqual(['the quorum needs witness X1, which did not cosign']);
    expect(evaluateQuorum(single, cosigned(['X1'])).ok).toBe(true);
    expect(evaluateQuorum(parseWitnessPolicy('quorum none\n'), NOTE)).toMatchObject({
      ok: true,
      missing: [],
      cosigned: [],
    });
  });

  it('ignores cosignatures by witnesses outside the policy, and counts a witness once however many lines it added', () => {
    const stranger = generateSigner();
    const note = addSignatures(NOTE, [cosign(NOTE, 'stranger', stranger, T), cosign(NOTE, 'X1', W['X1']!, T)]);
    // A second cosignature by X1 at a later time: a new line (addSignatures replaces by key, so add it by hand).
    const later = note + cosign(NOTE, 'X1', W['X1']!, T + 60);
    const r = evaluateQuorum(p, later);
    expect(r.cosigned).toEqual([{ witness: 'X1', keyName: 'X1', timestamp: T + 60 }]);
    expect(r.problems).toEqual(['the quorum X needs 2 of X1, X2, X3; 1 acts (X1)']);
  });

  it('fails on a policy witness whose cosignature does not verify, even with the quorum met', () => {
    const good = cosigned(['X1', 'X2']);
    const forged = cosign(signNote(checkpointBody(ORIGIN, 8, ROOT), ORIGIN, log), 'X3', W['X3']!, T);
    const r = evaluateQuorum(p, good + forged);
    expect(r.ok).toBe(false);
    expect(r.cosigned.map((c) => c.witness)).toEqual(['X1', 'X2']);
    expect(r.problems).toEqual([
      expect.stringMatching(
        /^witness X3: the cosignature by X3 \(key id [0-9a-f]{8}\) does not verify the checkpoint$/,
      ),
    ]);
  });

  it('refuses cosignatures dated after notAfter, and a checkpoint of another origin', () => {
    expect(evaluateQuorum(p, cosigned(['X1', 'X2']), { notAfter: T - 1 }).problems).toHaveLength(3);
    expect(evaluateQuorum(p, cosigned(['X1', 'X2']), { notAfter: T }).ok).toBe(true);
    expect(evaluateQuorum(p, cosigned(['X1', 'X2']), { origin: 'other.example/log' }).problems).toEqual([
      `the checkpoint's origin is "${ORIGIN}", not "other.example/log"`,
    ]);
  });

  it('reports a note that is not a checkpoint, or not a note, as a problem', () => {
    expect(evaluateQuorum(p, 'garbage').problems).toEqual([
      'the note has no blank line between its text and its signatures',
    ]);
    expect(evaluateQuorum(p, signNote('hello\n', ORIGIN, log)).problems[0]).toMatch(/checkpoint text has 1 line/);
  });

  it('with log lines, one listed log must have signed the note', () => {
    const withLog = parseWitnessPolicy(`log ${verifierKey(ORIGIN, rawPublicKey(log.publicKey))}\n${TWO_OF_THREE}`);
    expect(evaluateQuorum(withLog, cosigned(['X1', 'X2']))).toMatchObject({ ok: true, logsSigned: [ORIGIN] });
    const other = generateSigner();
    const foreign = signNote(checkpointBody(ORIGIN, 7, ROOT), ORIGIN, other);
    const r = evaluateQuorum(withLog, cosigned(['X1', 'X2'], foreign));
    expect(r.ok).toBe(false);
    expect(r.problems[0]).toMatch(/^log signature: no signature by a known key/);
  });

  it('matches witnesses given as cosigner vkeys by their vkey name', () => {
    const vp = parseWitnessPolicy(`witness w1 ${cvkey('witness.example/w1', W['X1']!)}\nquorum w1\n`);
    expect(evaluateQuorum(vp, addSignatures(NOTE, [cosign(NOTE, 'witness.example/w1', W['X1']!, T)]))).toMatchObject({
      ok: true,
      cosigned: [{ witness: 'w1', keyName: 'witness.example/w1' }],
    });
    // The same key under the policy's local name is another key id: not this witness.
    expect(evaluateQuorum(vp, addSignatures(NOTE, [cosign(NOTE, 'w1', W['X1']!, T)])).ok).toBe(false);
  });
});
