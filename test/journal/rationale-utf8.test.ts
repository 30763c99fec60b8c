/**
 * A rationale or note read from a file is signed as the person wrote it: bytes that are not
 * UTF-8 are refused (exit 3, one line, nothing written), never decoded into U+FFFD and signed
 * as a text nobody wrote. `quarantine release --rationale-file` and `journal note --body-file`
 * read it alike (core/files.ts readUtf8File).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCase } from '../../app/journal/index.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp } from './helpers.js';

describe.skipIf(!cliBuilt())('a rationale file that is not UTF-8', () => {
  it('is refused by quarantine release and journal note; the journal is unchanged', async () => {
    const base = tmp('reprise-rationale-utf8-');
    const keys = makeKeys(base);
    const dir = join(base, 'j');
    await openCase(dir, { claimRef: 'claim:a', reason: 'drift seen' }, keys.reviewer, { trustStore: keys.trust });
    const file = join(base, 'r.txt');
    // Latin-1, as an editor set to it saves German text.
    writeFileSync(
      file,
      Buffer.from('Modell-Eigent\xfcmer best\xe4tigt die Rekalibrierung v2.3 vollst\xe4ndig.\n', 'latin1'),
    );
    const entries = () => readFileSync(join(dir, 'entries.jsonl'), 'utf8');
    const before = entries();
    const trust = ['--trust-store', keys.trustPath];
    const release = await runCli([
      'quarantine',
      'release',
      dir,
      'case-0',
      '--rationale-file',
      file,
      '--key',
      keys.officerPem,
      ...trust,
    ]);
    expect(release.code).toBe(3);
    expect(release.stderr.trim()).toBe(`reprise: --rationale-file ${file} is not UTF-8 text`);
    const note = await runCli([
      'journal',
      'note',
      dir,
      '--artifact',
      `sha256:${'a'.repeat(64)}`,
      '--body-file',
      file,
      '--key',
      keys.reviewerPem,
      ...trust,
    ]);
    expect(note.code).toBe(3);
    expect(note.stderr.trim()).toBe(`reprise: --body-file ${file} is not UTF-8 text`);
    expect(entries()).toBe(before);
  });
});
