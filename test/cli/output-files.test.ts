/**
 * Files a command writes for the user (core/files.ts checkOutputFile and writeOutputFile):
 * one that cannot be written is refused in one line, exit 3, before any work (a case of
 * thousands of artifacts or an archive's re-judgement must not run to its end to learn
 * that its --out lies in a missing folder), and a write that fails at the end says which
 * file and why, never "internal error" with a private file's name.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkOutputFile, FileWriteError, writeFileAtomic, writeOutputFile } from '../../app/core/files.js';
import { UsageError } from '../../app/core/errors.js';
import { BIN, runCli } from '../helpers/cli.js';
import { archive, ok, type Archive } from '../rejudge/helpers.js';

const ROOT = process.getuid?.() === 0;

let a: Archive;
let shard = '';
let caseDir = '';
beforeAll(() => {
  a = archive('reprise-output-files-');
  caseDir = join(a.dir, 'case');
  mkdirSync(caseDir);
  for (const f of ['intact.dump.json', 'fail/altered-artifact.dump.json'])
    writeFileSync(join(caseDir, f.split('/').pop()!), ok(['canonicalize', join(a.examples, 'dumps', f)]));
  shard = join(a.dir, 'shard.json');
  ok(['rejudge', caseDir, '--out', shard, '--trust-store', a.trust]);
}, 120_000);

describe('a file the user names for output', () => {
  it('is refused before the work when its folder is missing, it is a directory or another file that is not a regular one, or it has no name', async () => {
    const missing = join(a.dir, 'no-such-folder', 'out.json');
    const file = join(a.dir, 'a-file');
    writeFileSync(file, '');
    const journal = join(a.examples, 'journal', 'sample');
    const commands: [string, string[]][] = [
      ['--case', ['verify', caseDir, '--workers', '2', '--case', '@']],
      ['--out', ['export', caseDir, '--journal', journal, '--out', '@']],
      ['--out', ['rejudge', caseDir, '--out', '@', '--trust-store', a.trust]],
      ['--out', ['rejudge', 'merge', shard, '--key', a.keys.reviewerPem, '--out', '@']],
      [
        '--records',
        ['rejudge', 'merge', shard, '--key', a.keys.reviewerPem, '--out', join(a.dir, 'r.json'), '--records', '@'],
      ],
      [
        '--out',
        ['attest', join(a.examples, 'tg', 'exact-intact', 'manifest.json'), '--key', a.keys.reviewerPem, '--out', '@'],
      ],
      [
        '--html',
        ['diff', join(caseDir, 'intact.dump.json'), join(caseDir, 'altered-artifact.dump.json'), '--html', '@'],
      ],
    ];
    // What the rename of an atomic write would replace, and its owner lose: a FIFO, a link
    // to nothing, and (root only: mknod) a character device, a copy of /dev/full.
    const fifo = join(a.dir, 'pipe');
    const dangling = join(a.dir, 'dangling.json');
    execFileSync('mkfifo', [fifo]);
    symlinkSync('no-such-target', dangling);
    const device = join(a.dir, 'full');
    if (ROOT) execFileSync('mknod', [device, 'c', '1', '7']);
    const targets: [string, (flag: string) => string][] = [
      [missing, () => `cannot write ${missing}: its folder ${join(a.dir, 'no-such-folder')}: ENOENT`],
      [a.dir, () => `cannot write ${a.dir}: it is a directory`],
      [join(file, 'out.json'), () => `cannot write ${join(file, 'out.json')}: ENOTDIR`],
      ['', (flag) => `${flag} needs a file name`],
      [fifo, () => `cannot write ${fifo}: it is a FIFO (named pipe), not a regular file`],
      [dangling, () => `cannot write ${dangling}: it is a symbolic link to nothing`],
    ];
    if (ROOT) targets.push([device, () => `cannot write ${device}: it is a character device, not a regular file`]);
    const before = readdirSync(a.dir).sort();
    for (const [flag, args] of commands)
      for (const [target, message] of targets) {
        const argv = args.map((x) => (x === '@' ? target : x));
        const r = await runCli(argv);
        expect(r.code, argv.join(' ')).toBe(3);
        // Nothing ran: no verdict, no progress, nothing signed.
        expect(r.stdout, argv.join(' ')).toBe('');
        // An empty name may meet the command's own "--out FILE is required" first.
        if (target === '')
          expect(r.stderr, argv.join(' ')).toMatch(
            new RegExp(`^reprise: ${flag} (needs a file name|FILE is required)`),
          );
        else expect(r.stderr, argv.join(' ')).toBe(`reprise: ${message(flag)}\n`);
      }
    expect(readdirSync(a.dir).sort()).toEqual(before);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readlinkSync(dangling)).toBe('no-such-target');
    if (ROOT) expect(lstatSync(device).isCharacterDevice()).toBe(true);
  }, 240_000);

  it('is refused again at write time when it is no regular file by then (a FIFO made during the work)', async () => {
    const late = join(a.dir, 'late');
    await checkOutputFile(late, '--out');
    execFileSync('mkfifo', [late]);
    const err = await writeOutputFile(late, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileWriteError);
    expect((err as Error).message).toBe(`cannot write ${late}: it is a FIFO (named pipe), not a regular file`);
    expect(lstatSync(late).isFIFO()).toBe(true);
    // writeFileAtomic itself refuses, for every file Reprise writes (a trust store, a journal's state).
    await expect(writeFileAtomic(late, 'x')).rejects.toThrow(FileWriteError);
    expect(readdirSync(a.dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it.skipIf(!ROOT)('leaves a character device at the path a device (needs root: mknod)', async () => {
    const device = join(a.dir, 'full-at-write');
    execFileSync('mknod', [device, 'c', '1', '7']);
    await expect(writeOutputFile(device, 'x')).rejects.toThrow(
      `cannot write ${device}: it is a character device, not a regular file`,
    );
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it('is written through a link to a regular file: the link stays a link, the file it names is replaced', async () => {
    const dir = join(a.dir, 'linked');
    mkdirSync(dir);
    writeFileSync(join(dir, 'kept.json'), 'old\n');
    symlinkSync('kept.json', join(dir, 'link.json'));
    const r = await runCli(['verify', caseDir, '--case', join(dir, 'link.json')]);
    expect(r.code, r.stderr).toBe(1);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.json'))).toBe('kept.json');
    expect(JSON.parse(readFileSync(join(dir, 'kept.json'), 'utf8'))).toMatchObject({ schema: 'reprise.case/v1' });
    expect(readdirSync(dir).sort()).toEqual(['kept.json', 'link.json']);
  }, 120_000);

  it("is refused when it is this run's own standard output or error: a redirect's file, or /dev/stderr on a pipe", () => {
    const a1 = join(caseDir, 'intact.dump.json');
    const a2 = join(caseDir, 'altered-artifact.dump.json');
    const page = join(a.dir, 'page.html');
    // `--html /dev/stdout > page.html`: the page replaced the file and the text printed after
    // it went to the file it replaced, which nothing names; `--html page.html > page.html` alike.
    for (const target of ['/dev/stdout', page]) {
      const sh = `"$0" "$1" diff "$2" "$3" --html "$4" > "$5"; echo "rc=$?" >&2`;
      const r = spawnSync('sh', ['-c', sh, process.execPath, BIN, a1, a2, target, page], { encoding: 'utf8' });
      expect(r.stderr).toBe(
        `reprise: cannot write ${target}: it is where this run's standard output goes, and writing it would lose what is printed there; name another file\nrc=3\n`,
      );
      expect(readFileSync(page, 'utf8')).toBe('');
    }
    // stderr a shell's pipe: /dev/stderr leads to `pipe:[N]`, which has no real path; it is a
    // pipe (it was "a symbolic link to nothing"). Node's own pipes are sockets, said as such.
    const sh = `"$0" "$1" diff "$2" "$3" --html /dev/stderr 2>&1 >/dev/null | cat`;
    const piped = spawnSync('sh', ['-c', sh, process.execPath, BIN, a1, a2], { encoding: 'utf8' });
    expect(piped.stdout).toBe('reprise: cannot write /dev/stderr: it is a FIFO (named pipe), not a regular file\n');
    const r = spawnSync(process.execPath, [BIN, 'diff', a1, a2, '--html', '/dev/stderr'], { encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stderr).toBe('reprise: cannot write /dev/stderr: it is a socket, not a regular file\n');
  });

  it('a proof written into a missing folder is a usage error naming the file, not an internal error', async () => {
    const out = join(a.dir, 'gone', 'proof.json');
    const r = await runCli(['journal', 'proof', join(a.examples, 'journal', 'sample'), '--entry', '1', '--out', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`reprise: cannot write ${out}: ENOENT\n`);
  });

  it('checkOutputFile accepts a new file in a folder and an existing file; writeOutputFile names a refused write', async () => {
    await expect(checkOutputFile(join(a.dir, 'new.json'), '--out')).resolves.toBeUndefined();
    await expect(checkOutputFile(shard, '--out')).resolves.toBeUndefined();
    const gone = join(a.dir, 'gone-later', 'x.json');
    const err = await writeOutputFile(gone, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(`cannot write ${gone}: ENOENT`);
  });
});
