/**
 * A case folder as a red team leaves it (docs/case.md): each entry the walk cannot follow
 * is an RPR-CASE-002 while the rest is checked, in the CLI and in the engine's driveCase; a
 * device that reads as nothing is refused as /dev/zero is; the report names files by their
 * path in the case only, whatever the folder's spelling; what the run writes never lands
 * where the case reads, a folder linked from inside it included; and the exit code never
 * says less than the case's verdict.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExamples } from '../../app/examples/index.js';
import { runCase } from '../../app/jobs/case.js';
import { BIN, runCli, type CliResult } from '../helpers/cli.js';

type Finding = { rule: string; message: string; pointer: string };
type CaseOut = { verdict: string; artifacts: { path: string; verdict: string }[]; findings: Finding[] };

const ROOT = process.getuid?.() === 0;
let root = '';
let ex = '';
let seq = 0;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'reprise-hostile-'));
  ex = join(root, 'examples');
  await writeExamples(ex);
}, 120_000);

// A folder nested past PATH_MAX is removed by rm, which walks it relative to each folder.
afterAll(() => execFileSync('rm', ['-rf', root]));

/** A fresh case folder holding the example policy bundle. */
function caseDir(): string {
  const dir = join(root, `case-${seq++}`);
  mkdirSync(dir);
  cpSync(join(ex, 'tg', 'bundle.json'), join(dir, 'bundle.json'));
  return dir;
}

/**
 * Folders nested (names of 200 characters) until their path is longer than PATH_MAX (4096
 * on Linux), with a file at the bottom: made by a child that goes down one folder at a
 * time, as only a relative path can reach there.
 */
function nestPastPathMax(dir: string): string {
  const name = 'n'.repeat(200);
  const down = `process.chdir(process.argv[1]); for (let i = 0; i < 25; i++) { fs.mkdirSync('${name}'); process.chdir('${name}'); } fs.writeFileSync('deep.json', '{}');`;
  execFileSync(process.execPath, ['-e', down, dir]);
  return name;
}

const caseOf = (r: CliResult): CaseOut => JSON.parse(r.stdout) as CaseOut;
const unreadable = (c: CaseOut) => c.findings.filter((f) => f.rule === 'RPR-CASE-002');

describe('an entry the walk cannot follow', () => {
  it('is an RPR-CASE-002 naming it while the rest is checked: a link to nothing, a loop of links, a nesting past PATH_MAX', async () => {
    const dir = caseDir();
    symlinkSync('/nonexistent', join(dir, 'x.json'));
    symlinkSync('b', join(dir, 'a'));
    symlinkSync('a', join(dir, 'b'));
    const name = nestPastPathMax(dir);
    const expected = [
      ['a', 'cannot read a: a loop of symbolic links (ELOOP)'],
      ['b', 'cannot read b: a loop of symbolic links (ELOOP)'],
      [expect.stringMatching(new RegExp(`^${name}(/${name})+$`)), expect.stringContaining('(ENAMETOOLONG)')],
      ['x.json', 'no such file or directory: x.json (a symbolic link whose target does not exist)'],
    ];
    const check = (c: CaseOut): void => {
      expect(c.artifacts.map((a) => [a.path, a.verdict])).toEqual([['bundle.json', 'pass']]);
      expect(c.verdict).toBe('fail');
      expect(
        unreadable(c).map((f) => [f.pointer.slice('entry:'.length), f.message.split(' could not be verified: ')[1]]),
      ).toEqual(expected);
    };
    for (const w of ['0', '2']) {
      const r = await runCli(['verify', dir, '--case', '-', '--workers', w]);
      expect(r.code, r.stderr).toBe(3);
      check(caseOf(r));
    }
    // The engine's driveCase (the workbench's and export's) lands the same.
    check((await runCase(dir)) as unknown as CaseOut);
    // A batch without --case: each is an error line, the rest verified, never exit 0.
    const plain = await runCli(['verify', dir]);
    expect(plain.code).toBe(3);
    expect(plain.stdout).toMatch(/^PASS .*bundle\.json/m);
    expect(plain.stderr).toContain(`reprise: no such file or directory: ${join(dir, 'x.json')} (a symbolic link`);
    expect(plain.stderr.trim().split('\n')).toHaveLength(4);
  }, 120_000);

  it(
    ROOT
      ? 'is an RPR-CASE-002 for a folder the user cannot read (run as nobody)'
      : 'is an RPR-CASE-002 for a folder the user cannot read (mode 000)',
    async () => {
      const dir = caseDir();
      mkdirSync(join(dir, 'locked'));
      cpSync(join(ex, 'tg', 'bundle.json'), join(dir, 'locked', 'bundle.json'));
      chmodSync(join(dir, 'locked'), 0o000);
      let r: CliResult;
      if (ROOT) {
        // root reads any folder: the user who cannot is nobody, who must reach the case.
        for (let p = dir; p !== dirname(p); p = dirname(p)) if (p.startsWith(root)) chmodSync(p, 0o755);
        r = await runAsNobody(['verify', dir, '--case', '-']);
      } else r = await runCli(['verify', dir, '--case', '-']);
      chmodSync(join(dir, 'locked'), 0o755);
      expect(r.code, r.stderr).toBe(3);
      const c = caseOf(r);
      expect(c.artifacts.map((a) => a.path)).toEqual(['bundle.json']);
      expect(unreadable(c).map((f) => f.message)).toEqual([
        'locked could not be verified: cannot read locked: permission denied (EACCES)',
      ]);
    },
    120_000,
  );
});

function runAsNobody(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const setpriv = ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, BIN, ...args];
    const child = spawn('setpriv', setpriv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

describe('a file of the case that is not a regular file', () => {
  it('a character device that reads as empty (/dev/null, through a link) is refused as a FIFO is', async () => {
    const dir = caseDir();
    symlinkSync('/dev/null', join(dir, 'null.json'));
    const r = await runCli(['verify', dir, '--case', '-']);
    expect(r.code).toBe(3);
    const c = caseOf(r);
    expect(c.artifacts.map((a) => a.path)).toEqual(['bundle.json']);
    expect(unreadable(c).map((f) => f.message)).toEqual([
      'null.json could not be verified: cannot read null.json: a character device, not a regular file',
    ]);
  });

  it.skipIf(!ROOT)(
    'a device node in the folder reads as /dev/zero does, empty or not (needs root: mknod)',
    async () => {
      const dir = caseDir();
      execFileSync('mknod', [join(dir, 'null'), 'c', '1', '3']);
      execFileSync('mknod', [join(dir, 'zero'), 'c', '1', '5']);
      const r = await runCli(['verify', dir, '--case', '-', '--workers', '2']);
      expect(r.code).toBe(3);
      const c = caseOf(r);
      expect(c.artifacts.map((a) => a.path)).toEqual(['bundle.json']);
      expect(unreadable(c).map((f) => f.message)).toEqual(
        ['null', 'zero'].map(
          (n) => `${n} could not be verified: cannot read ${n}: a character device, not a regular file`,
        ),
      );
    },
  );
});

describe('the case report', () => {
  it('names each file by its path in the case, whatever the spelling of the folder', async () => {
    const dir = caseDir();
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    symlinkSync('/nonexistent', join(dir, 'gone.json'));
    // A file inside a directory artifact (a journal's checkpoints, linked) is named under its path in the case too.
    mkdirSync(join(dir, 'j'));
    cpSync(join(ex, 'journal', 'sample', 'entries.jsonl'), join(dir, 'j', 'entries.jsonl'));
    symlinkSync(join(ex, 'journal', 'sample', 'checkpoints.jsonl'), join(dir, 'j', 'checkpoints.jsonl'));
    const parent = dirname(dir);
    const outs = new Set<string>();
    for (const [spelled, cwd] of [
      [dir, undefined],
      [basename(dir), parent],
      [`./${basename(dir)}/`, parent],
      [`../${basename(parent)}/${basename(dir)}`, parent],
    ] as const)
      for (const w of ['0', '2']) {
        const r = await runCli(['verify', spelled, '--case', '-', '--workers', w], { cwd });
        expect(r.code, spelled).toBe(3);
        outs.add(r.stdout);
      }
    expect(outs.size).toBe(1);
    expect(unreadable(JSON.parse([...outs][0]!) as CaseOut).map((f) => f.message)).toEqual([
      'gone.json could not be verified: no such file or directory: gone.json (a symbolic link whose target does not exist)',
      'j could not be verified: cannot read j/checkpoints.jsonl: a symbolic link: a journal file is opened only as a regular file inside its directory',
      'pipe could not be verified: cannot read pipe: a FIFO (named pipe), not a regular file',
    ]);
  }, 120_000);

  it('sets the exit code when it is worse than every artifact alone: an exported report edited beside its artifact', async () => {
    const dir = join(root, `case-${seq++}`);
    mkdirSync(dir);
    cpSync(join(ex, 'tg', 'exact-intact', 'manifest.json'), join(dir, 'manifest.json'));
    const exported = await runCli(['verify', join(dir, 'manifest.json'), '--json']);
    expect(exported.code).toBe(0);
    const report = JSON.parse(exported.stdout) as { chain: { label: string }[] };
    report.chain[0]!.label += ' (edited)';
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report, null, 2));
    // Alone, the report is undecided (no artifact given): exit 2.
    expect((await runCli(['verify', dir])).code).toBe(2);
    // The case checks it against its artifact and fails: so does its exit code.
    const toStdout = await runCli(['verify', dir, '--case', '-']);
    expect(caseOf(toStdout).verdict).toBe('fail');
    expect(toStdout.code).toBe(1);
    const file = join(root, `case-${seq++}.json`);
    const toFile = await runCli(['verify', dir, '--case', file, '--workers', '2']);
    expect(toFile.code).toBe(1);
    expect((JSON.parse(readFileSync(file, 'utf8')) as CaseOut).verdict).toBe('fail');
  }, 120_000);
});

describe('what a case run writes', () => {
  it('is refused in one line in a folder linked from inside the case: --case FILE, export --out', async () => {
    const dir = caseDir();
    const ext = join(root, `ext-${seq++}`);
    mkdirSync(ext);
    symlinkSync(ext, join(dir, 'ext'));
    const journal = join(ex, 'tg', 'journal');
    for (const [flag, args] of [
      ['--case', ['verify', dir, '--case', join(ext, 'out.json')]],
      ['--case', ['verify', dir, '--case', join(ext, 'out.json'), '--workers', '2']],
      ['--out', ['export', dir, '--journal', journal, '--out', join(ext, 'out.zip')]],
    ] as const) {
      const r = await runCli([...args]);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stdout).toBe('');
      // Named by where it really is: the path typed lies outside the case folder.
      expect(r.stderr).toBe(
        `reprise: ${flag} ${args[3 + (flag === '--out' ? 2 : 0)]} is in ${realpathSync(ext)}, a folder the case folder links to, so inside the case, where the next run would take it for an artifact\n`,
      );
    }
    expect(existsSync(join(ext, 'out.json')) || existsSync(join(ext, 'out.zip'))).toBe(false);
  }, 120_000);

  it('refuses a journal a replay would append to inside the case, named or linked', async () => {
    const dir = join(root, `case-${seq++}`);
    mkdirSync(dir);
    cpSync(join(ex, 'tg', 'recorded-anchored', 'manifest.json'), join(dir, 'manifest.json'));
    cpSync(join(ex, 'tg', 'journal'), join(dir, 'journal'), { recursive: true });
    const link = join(root, `journal-link-${seq++}`);
    symlinkSync(join(dir, 'journal'), link);
    const before = readFileSync(join(dir, 'journal', 'entries.jsonl'));
    const key = join(ex, 'journal', 'keys', 'reviewer.pem');
    for (const j of [join(dir, 'journal'), link]) {
      const r = await runCli(['replay', dir, '--case', '-', '--journal', j, '--key', key, '--workers', '2']);
      expect(r.code, j).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `reprise: --journal ${j} is inside the case folder, which the replay would append to while the case reads it\n`,
      );
    }
    expect(readFileSync(join(dir, 'journal', 'entries.jsonl'))).toEqual(before);
    // Verifying reads the journal only: nothing to refuse.
    const verify = await runCli(['verify', dir, '--case', '-', '--journal', join(dir, 'journal'), '--key', key]);
    expect(verify.code).not.toBe(3);
    expect(lstatSync(join(dir, 'journal')).isDirectory()).toBe(true);
  }, 120_000);
});
