/**
 * A rationale or note read from a file is signed as the person wrote it: bytes that are not
 * UTF-8 are refused (exit 3, one line, nothing written), never decoded into U+FFFD and signed
 * as a text nobody wrote. `quarantine release --rationale-file` and `journal note --body-file`
 * read it alike (core/files.ts readUtf8File). A UTF-8 file that begins with a byte order mark
 * is signed without it, and the signer is told so: what is signed is not every byte of the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCase } from '../../app/journal/index.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp } from './helpers.js';

/** A journal with one open quarantine case, and the two commands that sign a text read from `file`. */
async function journalWithCase(prefix: string) {
  const base = tmp(prefix);
  const keys = makeKeys(base);
  const dir = join(base, 'j');
  await openCase(dir, { claimRef: 'claim:a', reason: 'drift seen on the replayed score' }, keys.reviewer, {
    trustStore: keys.trust,
  });
  const file = join(base, 'r.txt');
  const trust = ['--trust-store', keys.trustPath];
  const release = () =>
    runCli(['quarantine', 'release', dir, 'case-0', '--rationale-file', file, '--key', keys.officerPem, ...trust]);
  const artifact = `sha256:${'a'.repeat(64)}`;
  const note = () =>
    runCli(['journal', 'note', dir, '--artifact', artifact, '--body-file', file, '--key', keys.reviewerPem, ...trust]);
  const entries = () => readFileSync(join(dir, 'entries.jsonl'), 'utf8');
  return { file, release, note, entries };
}

describe.skipIf(!cliBuilt())('a rationale file that is not UTF-8', () => {
  it('is refused by quarantine release and journal note; the journal is unchanged', async () => {
    const j = await journalWithCase('reprise-rationale-utf8-');
    // Latin-1, as an editor set to it saves German text.
    writeFileSync(
      j.file,
      Buffer.from('Modell-Eigent\xfcmer best\xe4tigt die Rekalibrierung v2.3 vollst\xe4ndig.\n', 'latin1'),
    );
    const before = j.entries();
    const release = await j.release();
    expect(release.code).toBe(3);
    expect(release.stderr.trim()).toBe(`reprise: --rationale-file ${j.file} is not UTF-8 text`);
    const note = await j.note();
    expect(note.code).toBe(3);
    expect(note.stderr.trim()).toBe(`reprise: --body-file ${j.file} is not UTF-8 text`);
    expect(j.entries()).toBe(before);
  });
});

describe.skipIf(!cliBuilt())('a rationale file that begins with a UTF-8 byte order mark', () => {
  it('is signed without the mark, and each command says so on stderr', async () => {
    const j = await journalWithCase('reprise-rationale-bom-');
    const text = 'Model owner confirms recalibration v2.3 in full; evidence attached.';
    writeFileSync(j.file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
    const said = (what: string) =>
      `reprise: note: ${what} ${j.file} begins with a UTF-8 byte order mark (EF BB BF): it marks the encoding, and was not signed with the text`;
    const release = await j.release();
    expect(release.code).toBe(0);
    expect(release.stderr.trim()).toBe(said('--rationale-file'));
    const note = await j.note();
    expect(note.code).toBe(0);
    expect(note.stderr.trim()).toBe(said('--body-file'));
    const signed = j
      .entries()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { body: { rationale?: string } });
    // The release and the note, each with the text as written and no U+FEFF.
    expect(signed.slice(-2).map((e) => e.body.rationale)).toEqual([text, text]);
    // A file that is only the mark signs nothing, and says nothing of a mark it did not sign.
    writeFileSync(j.file, Buffer.from([0xef, 0xbb, 0xbf]));
    const blank = await j.note();
    expect(blank.code).toBe(3);
    expect(blank.stderr).toMatch(/^reprise: note refused: .*blank/);
    expect(blank.stderr).not.toContain('byte order mark');
    // A file without the mark says nothing.
    writeFileSync(j.file, text);
    const plain = await j.note();
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
  });
});
