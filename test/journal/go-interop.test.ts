/**
 * Interoperability with the reference implementation, not with our own reading: Go's
 * golang.org/x/mod/sumdb/note and sumdb/tlog (Debian's golang-golang-x-mod-dev, GOPATH mode)
 * check what Reprise writes, and write what Reprise must read. test/journal/go/interop is
 * built into a temporary directory and driven with one JSON request (see its main.go).
 *
 * Skipped, with the reason in its name, only where `go` or the package is missing AND the
 * environment variable CI is unset; in CI a missing Go fails (.ci/run installs both).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigner, rawPublicKey } from '../../app/core/keys.js';
import { MerkleTree, leafHash, verifyConsistency, verifyInclusion } from '../../app/journal/merkle.js';
import {
  SIG_TYPE_COSIGNATURE_V1,
  addSignatures,
  checkpointBody,
  cosign,
  parseNote,
  parseVerifierKey,
  signNote,
  verifierKey,
  verifyNote,
} from '../../app/journal/note.js';
import { evaluateQuorum, parseWitnessPolicy } from '../../app/journal/witness-policy.js';
import { JournalWriter } from '../../app/journal/writer.js';
import { consistencyProofOf, inclusionProof } from '../../app/journal/proofs.js';
import { ROOT } from '../helpers/cli.js';

const GOPATH = '/usr/share/gocode';
const PACKAGES = ['note', 'tlog'].map((p) => join(GOPATH, 'src/golang.org/x/mod/sumdb', p));

function goMissing(): string | null {
  const v = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (v.error || v.status !== 0) return '`go` is not installed (Debian: golang-go)';
  const absent = PACKAGES.find((p) => !existsSync(p));
  return absent ? `${absent} is missing (Debian: golang-golang-x-mod-dev)` : null;
}

const missing = goMissing();
const inCI = Boolean(process.env['CI']);

interface Verdict {
  id: string;
  ok: boolean;
  error?: string;
  verified?: string[];
}
interface Signed {
  id: string;
  vkey: string;
  note: string;
}
interface Answer {
  notes: Verdict[];
  records: Verdict[];
  trees: Verdict[];
  roots: string[];
  proofs: string[][];
  signed: Signed[];
  cosigned: Signed[];
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** A copy of a note with one bit of byte `i` flipped; negative i counts from the end. */
function flip(note: string, i: number): string {
  const b = Buffer.from(note, 'utf8');
  b[i < 0 ? b.length + i : i]! ^= 1;
  return b.toString('utf8');
}

/** A copy of a note whose signature line `line` has one bit of decoded byte `at` flipped (re-encoded canonically, so only the signature changes). */
function flipSignature(note: string, line: number, at: number): string {
  const { body, signatures } = parseNote(note);
  const lines = signatures.map((s) => {
    const raw = Buffer.from(s.line.slice(s.line.lastIndexOf(' ') + 1), 'base64');
    return { s, raw };
  });
  lines[line]!.raw[at]! ^= 1;
  return body + '\n' + lines.map(({ s, raw }) => `— ${s.name} ${raw.toString('base64')}\n`).join('');
}

if (missing && !inCI) console.warn(`Go interop tests skipped: ${missing} and CI is not set`);

if (missing && inCI) {
  describe('Go interop (golang.org/x/mod/sumdb note and tlog)', () => {
    it('runs in CI', () => {
      throw new Error(`CI is set and ${missing}: .ci/run installs golang-go and golang-golang-x-mod-dev`);
    });
  });
}

describe.skipIf(missing !== null)(
  `Go interop (golang.org/x/mod/sumdb note and tlog)${missing ? `: skipped, ${missing} and CI is not set` : ''}`,
  () => {
    let dir = '';
    let bin = '';

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'reprise-go-interop-'));
      bin = join(dir, 'interop');
      // Go's build cache: the usual one when HOME's cache is writable, else one inside the temp dir.
      const env: NodeJS.ProcessEnv = { ...process.env, GO111MODULE: 'off', GOPATH, GOFLAGS: '' };
      const cacheHome = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
      try {
        mkdirSync(cacheHome, { recursive: true });
        accessSync(cacheHome, constants.W_OK);
      } catch {
        env['GOCACHE'] = join(dir, 'gocache');
      }
      const built = spawnSync('go', ['build', '-o', bin, './test/journal/go/interop'], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      });
      if (built.status !== 0) throw new Error(`go build failed: ${built.stderr || built.error?.message}`);
    }, 300_000);

    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    function ask(request: object): Answer {
      const r = spawnSync(bin, [], { input: JSON.stringify(request), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (r.status !== 0) throw new Error(`interop exited ${r.status}: ${r.stderr}`);
      return JSON.parse(r.stdout) as Answer;
    }

    // A journal's worth of leaves (entry lines, UTF-8 beyond ASCII included) and its signed checkpoints.
    const N = 13;
    const ORIGIN = 'reprise.example/journal/interop';
    const log = generateSigner();
    const vkey = verifierKey(ORIGIN, rawPublicKey(log.publicKey));
    const lines = Array.from({ length: N }, (_, i) => `{"body":{"note":"entrée ${i} — ✓"},"seq":${i}}`);
    const tree = new MerkleTree();
    for (const l of lines) tree.appendLeaf(l);
    const notes = [''].concat(
      Array.from({ length: N }, (_, i) => signNote(checkpointBody(ORIGIN, i + 1, tree.root(i + 1)), ORIGIN, log)),
    );
    const pairs = (): [number, number][] =>
      Array.from({ length: N }, (_, n) =>
        Array.from({ length: n + 2 }, (_, m) => [m, n + 1] as [number, number]),
      ).flat();

    it('(a) Go verifies a Reprise checkpoint note with the journal key, and refuses every tampered copy', () => {
      const stranger = signNote(checkpointBody(ORIGIN, N, tree.root()), 'stranger.example', generateSigner());
      const withStranger = addSignatures(notes[N]!, [parseNote(stranger).signatures[0]!.line + '\n']);
      const cases = [
        { id: 'good', note: notes[N]!, vkeys: [vkey] },
        { id: 'good, with an unknown key too', note: withStranger, vkeys: [vkey] },
        { id: 'tree size changed', note: notes[N]!.replace(`\n${N}\n`, `\n${N - 1}\n`), vkeys: [vkey] },
        { id: 'root bit flipped', note: flip(notes[N]!, ORIGIN.length + 5), vkeys: [vkey] },
        { id: 'origin bit flipped', note: flip(notes[N]!, 0), vkeys: [vkey] },
        { id: 'signature bit flipped', note: flipSignature(notes[N]!, 0, 20), vkeys: [vkey] },
        { id: 'key id bit flipped', note: flipSignature(notes[N]!, 0, 1), vkeys: [vkey] },
        { id: 'another key', note: notes[N]!, vkeys: [verifierKey(ORIGIN, rawPublicKey(generateSigner().publicKey))] },
      ];
      const got = ask({ notes: cases }).notes;
      expect(got[0]).toEqual({ id: 'good', ok: true, verified: [ORIGIN] });
      expect(got[1]).toEqual({ id: 'good, with an unknown key too', ok: true, verified: [ORIGIN] });
      for (const v of got.slice(2)) expect(v.ok, v.id).toBe(false);
      expect(got.find((v) => v.id === 'signature bit flipped')!.error).toMatch(/invalid signature/);
      expect(got.find((v) => v.id === 'key id bit flipped')!.error).toMatch(/no verifiable signatures/);
      // The same tampered copies fail on Reprise's side.
      for (const c of cases.slice(2))
        expect(
          verifyNote(c.note, [
            {
              name: ORIGIN,
              publicKey: c.id === 'another key' ? parseVerifierKey(c.vkeys[0]!).publicKey : rawPublicKey(log.publicKey),
            },
          ]).ok,
          c.id,
        ).toBe(false);
    });

    it('(b) tlog computes the same roots, and checks every Reprise inclusion and consistency proof against the signed notes', () => {
      const records = pairs()
        .filter(([m, n]) => m < n)
        .map(([index, size]) => ({
          id: `${index}/${size}`,
          note: notes[size]!,
          vkey,
          index,
          leaf: b64(Buffer.from(lines[index]!)),
          proof: tree.inclusionProof(index, size).map(b64),
        }));
      const trees = pairs()
        .filter(([m]) => m >= 1)
        .map(([m, n]) => ({
          id: `${m}->${n}`,
          oldNote: notes[m]!,
          newNote: notes[n]!,
          vkey,
          proof: tree.consistencyProof(m, n).map(b64),
        }));
      const a = ask({ roots: lines.map((l) => b64(Buffer.from(l))), records, trees });
      expect(a.roots).toEqual(Array.from({ length: N }, (_, i) => b64(tree.root(i + 1))));
      expect(a.records.filter((v) => !v.ok)).toEqual([]);
      expect(a.records).toHaveLength((N * (N + 1)) / 2);
      expect(a.trees.filter((v) => !v.ok)).toEqual([]);
      expect(a.trees).toHaveLength((N * (N + 1)) / 2);
    });

    it('(b) a flipped proof, leaf, index or checkpoint fails in tlog and in merkle.ts', () => {
      const proof = tree.inclusionProof(5, N);
      const bad = Buffer.from(proof[1]!);
      bad[0]! ^= 1;
      const leaf = Buffer.from(lines[5]!);
      const record = { note: notes[N]!, vkey, index: 5, leaf: b64(leaf), proof: proof.map(b64) };
      const cons = tree.consistencyProof(6, N);
      const badCons = cons.map((h, i) => (i === 1 ? Buffer.from(h).fill(h[0]! ^ 1, 0, 1) : h));
      const tree6 = { oldNote: notes[6]!, newNote: notes[N]!, vkey, proof: cons.map(b64) };
      const a = ask({
        records: [
          { ...record, id: 'proof' },
          { ...record, id: 'proof hash flipped', proof: [proof[0]!, bad, ...proof.slice(2)].map(b64) },
          { ...record, id: 'leaf flipped', leaf: b64(Buffer.from(flip(lines[5]!, 3))) },
          { ...record, id: 'another index', index: 4 },
          { ...record, id: 'another checkpoint', note: notes[N - 1]! },
          { ...record, id: 'checkpoint tampered', note: flip(notes[N]!, ORIGIN.length + 5) },
        ],
        trees: [
          { ...tree6, id: 'consistency' },
          { ...tree6, id: 'consistency hash flipped', proof: badCons.map(b64) },
          { ...tree6, id: 'old checkpoint of another size', oldNote: notes[7]! },
          { ...tree6, id: 'forked new tree', newNote: signNote(checkpointBody(ORIGIN, N, bad), ORIGIN, log) },
        ],
      });
      expect(a.records.map((v) => [v.id, v.ok])).toEqual([
        ['proof', true],
        ['proof hash flipped', false],
        ['leaf flipped', false],
        ['another index', false],
        ['another checkpoint', false],
        ['checkpoint tampered', false],
      ]);
      expect(a.trees.map((v) => [v.id, v.ok])).toEqual([
        ['consistency', true],
        ['consistency hash flipped', false],
        ['old checkpoint of another size', false],
        ['forked new tree', false],
      ]);
      expect(verifyInclusion(leafHash(leaf), 5, N, proof, tree.root())).toBe(true);
      expect(verifyInclusion(leafHash(leaf), 5, N, [proof[0]!, bad, ...proof.slice(2)], tree.root())).toBe(false);
      expect(verifyConsistency(6, N, tree.root(6), tree.root(), badCons)).toBe(false);
    });

    it('(b) proofs made by tlog are the ones merkle.ts makes, and verify there', () => {
      const incl = pairs().filter(([m, n]) => m < n);
      const cons = pairs().filter(([m]) => m >= 1);
      const a = ask({
        roots: lines.map((l) => b64(Buffer.from(l))),
        prove: [
          ...incl.map(([index, size]) => ({ kind: 'record', size, index })),
          ...cons.map(([m, n]) => ({ kind: 'tree', size: n, index: m })),
        ],
      });
      incl.forEach(([index, size], i) => {
        const p = a.proofs[i]!.map((h) => Buffer.from(h, 'base64'));
        expect(p, `record ${index}/${size}`).toEqual(tree.inclusionProof(index, size));
        expect(verifyInclusion(tree.leaf(index), index, size, p, tree.root(size))).toBe(true);
      });
      cons.forEach(([m, n], i) => {
        const p = a.proofs[incl.length + i]!.map((h) => Buffer.from(h, 'base64'));
        expect(p, `tree ${m}->${n}`).toEqual(tree.consistencyProof(m, n));
        expect(verifyConsistency(m, n, tree.root(m), tree.root(n), p)).toBe(true);
      });
    });

    it('(c) Reprise verifies a note Go signed, and refuses it with any bit flipped', () => {
      const text = checkpointBody('go.example/log', 3, tree.root(3));
      const [signed] = ask({ sign: [{ id: 'go', name: 'go.example/log', text }] }).signed;
      const k = parseVerifierKey(signed!.vkey);
      expect(k).toMatchObject({ name: 'go.example/log', type: 1 });
      const known = [{ name: k.name, publicKey: k.publicKey }];
      expect(verifyNote(signed!.note, known)).toMatchObject({
        ok: true,
        body: text,
        verified: [{ name: 'go.example/log', keyId: k.keyId }],
      });
      const bytes = Buffer.from(signed!.note, 'utf8');
      for (let i = 0; i < bytes.length; i++) {
        const c = Buffer.from(bytes);
        c[i]! ^= 0x01;
        expect(verifyNote(c, known).ok, `byte ${i}`).toBe(false);
      }
      // And Go refuses the same flips of its own note (a sample across text, key id and signature).
      const sample = [0, 10, text.length - 2, text.length + 5, bytes.length - 10];
      const a = ask({
        notes: sample.map((i) => ({ id: String(i), note: flip(signed!.note, i), vkeys: [signed!.vkey] })),
      });
      for (const v of a.notes) expect(v.ok, `Go, byte ${v.id}`).toBe(false);
    });

    it('cosignature/v1: each side checks the other (Go through note.Open/note.Sign with a cosigner written from the spec)', () => {
      const T = 1_700_000_123;
      const witness = generateSigner();
      const wName = 'reprise.example/witness';
      const cvkey = verifierKey(wName, rawPublicKey(witness.publicKey), SIG_TYPE_COSIGNATURE_V1);
      const ours = addSignatures(notes[N]!, [cosign(notes[N]!, wName, witness, T)]);
      const a = ask({
        notes: [
          { id: 'reprise cosignature', note: ours, vkeys: [vkey], cosigners: [cvkey] },
          { id: 'time flipped', note: flipSignature(ours, 1, 11), vkeys: [vkey], cosigners: [cvkey] },
          { id: 'signature flipped', note: flipSignature(ours, 1, 40), vkeys: [vkey], cosigners: [cvkey] },
        ],
        cosign: [{ id: 'go witness', note: notes[N]!, vkey, name: 'go.example/witness', time: T }],
      });
      expect(a.notes.map((v) => [v.id, v.ok, v.verified ?? null])).toEqual([
        ['reprise cosignature', true, [ORIGIN, wName]],
        ['time flipped', false, null],
        ['signature flipped', false, null],
      ]);
      const go = a.cosigned[0]!;
      expect(parseVerifierKey(go.vkey)).toMatchObject({ name: 'go.example/witness', type: SIG_TYPE_COSIGNATURE_V1 });
      expect(parseNote(go.note).signatures.map((s) => s.name)).toEqual([ORIGIN, 'go.example/witness']);
      const policy = parseWitnessPolicy(`witness G ${go.vkey}\nquorum G\n`);
      expect(evaluateQuorum(policy, go.note, { origin: ORIGIN })).toMatchObject({
        ok: true,
        cosigned: [{ witness: 'G', keyName: 'go.example/witness', timestamp: T }],
      });
      expect(verifyNote(go.note, [{ name: ORIGIN, publicKey: rawPublicKey(log.publicKey) }]).ok).toBe(true);
      for (const at of [4, 11, 12, 70])
        expect(evaluateQuorum(policy, flipSignature(go.note, 1, at)).ok, `byte ${at}`).toBe(false);
    });

    it('(a, b) a journal written by JournalWriter: Go verifies its notes.jsonl and the proofs `journal proof` exports (inclusion and consistency)', async () => {
      const jdir = join(dir, 'journal');
      const signer = generateSigner();
      const w = await JournalWriter.open(jdir, { signer, fsync: false });
      for (let i = 0; i < 11; i++)
        await w.append(
          { kind: 'review-rationale', subject: { claimRef: `claim:${i}` }, body: { rationale: `entrée ${i}` } },
          signer,
        );
      await w.close();
      const written = readFileSync(join(jdir, 'notes.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as string);
      const origin = written[0]!.split('\n')[0]!;
      const jkey = verifierKey(origin, rawPublicKey(signer.publicKey));
      const incl = await inclusionProof(jdir, 4);
      const cons = await consistencyProofOf(jdir, 6);
      const h = (x: string) => b64(Buffer.from(x.slice(7), 'hex'));
      const record = {
        note: incl.note!,
        vkey: jkey,
        index: 4,
        leaf: b64(Buffer.from(incl.entry)),
        proof: incl.auditPath.map(h),
      };
      const treeReq = { oldNote: written[5]!, newNote: cons.note!, vkey: jkey, proof: cons.proof.map(h) };
      const a = ask({
        notes: [
          ...written.map((note, i) => ({ id: `note ${i + 1}`, note, vkeys: [jkey] })),
          { id: 'note flipped', note: flip(written[10]!, origin.length + 4), vkeys: [jkey] },
        ],
        records: [
          { ...record, id: 'inclusion' },
          {
            ...record,
            id: 'inclusion, another entry',
            leaf: b64(Buffer.from(incl.entry.replace('claim:4', 'claim:5'))),
          },
        ],
        trees: [
          { ...treeReq, id: 'consistency' },
          { ...treeReq, id: 'consistency, flipped', proof: [b64(Buffer.alloc(32, 7)), ...treeReq.proof.slice(1)] },
        ],
      });
      expect(a.notes.slice(0, 11).filter((v) => !v.ok)).toEqual([]);
      expect(a.notes[11]!.ok).toBe(false);
      expect(a.records.map((v) => [v.id, v.ok])).toEqual([
        ['inclusion', true],
        ['inclusion, another entry', false],
      ]);
      expect(a.trees.map((v) => [v.id, v.ok])).toEqual([
        ['consistency', true],
        ['consistency, flipped', false],
      ]);
    });
  },
);
