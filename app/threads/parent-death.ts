/**
 * What ends a command's process group (owned-commands.ts) when the thread that runs it dies
 * without running a handler: its process SIGKILLed, crashed or taken by the OOM killer. Two
 * guards, for process groups (POSIX; owned-commands.ts uses neither on Windows):
 *  - On Linux with util-linux's setpriv (2.33 or later: --pdeathsig), a command is started as
 *    `setpriv --pdeathsig KILL -- FILE ARGS`. setpriv asks the kernel (PR_SET_PDEATHSIG) to
 *    SIGKILL it when the thread that spawned it ends, then exec's FILE in its own place: same
 *    pid, same group, and its exit code or signal are the command's. The kernel ties that
 *    signal to the spawning thread, the one that owns the commands: the main thread, which
 *    ends with its process, or a worker running its own, whose commands nothing else would
 *    kill once it ended. It covers that one process: what the command starts does not
 *    inherit it. Elsewhere (another system, no setpriv, an older one) commands start plainly.
 *  - A watcher (/bin/sh, in a session of its own, so that neither a terminal's signals nor
 *    a signal to the engine's group reach it) is told on a pipe each group as it starts and
 *    as it is killed. The pipe's other end is this thread's alone: when it closes, however
 *    the thread ended, the watcher SIGKILLs the groups still listed, the command's children
 *    and grandchildren with it.
 * Left uncovered: a process that leaves its group (setsid, setpgid) as before, and a thread
 * killed in the instant between the command's fork and setpriv's prctl or the line telling
 * the watcher. A watcher killed apart from the thread is replaced, and told every group listed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import type { Socket } from 'node:net';

/** Where util-linux installs setpriv. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'];
/** How deep the kernel follows interpreters naming interpreters (BINPRM_MAX_RECURSION). */
const MAX_INTERPRETERS = 4;

/** The program and arguments that start `file args` so that it dies with this thread, where it can. */
export function deathBound(file: string, args: string[]): { file: string; args: string[] } {
  const tool = execs(file, 0) ? pdeathsigTool() : null;
  return tool ? { file: tool, args: ['--pdeathsig', 'KILL', '--', file, ...args] } : { file, args };
}

let setpriv: string | null | undefined;
/** A setpriv that knows --pdeathsig, looked for once by this thread. */
function pdeathsigTool(): string | null {
  if (setpriv !== undefined) return setpriv;
  setpriv = null;
  if (process.platform !== 'linux') return null;
  for (const path of SETPRIV) {
    const r = spawnSync(path, ['--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
    if (r.status === 0 && r.stdout.includes('--pdeathsig')) return (setpriv = path);
  }
  return null;
}

/**
 * Whether exec would start `file`: an executable regular file named by a path, whose `#!`
 * interpreter, if any, is one too. setpriv tells a file it could not exec by its exit status
 * (126, 127), which a command may exit with as well: such a file is spawned plainly, and
 * Node's spawn error says why it could not be run.
 */
function execs(file: string, depth: number): boolean {
  if (!file.includes('/') || depth > MAX_INTERPRETERS) return false;
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
  } catch {
    return false;
  }
  const interpreter = shebang(file);
  return interpreter === null || execs(interpreter, depth + 1);
}

/** The interpreter a script's `#!` line names; null for none, or a file it cannot read (a binary may be execute-only). */
function shebang(file: string): string | null {
  const head = Buffer.alloc(256);
  try {
    // Not blocking: a file swapped for a FIFO since it was looked at would hang this thread.
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const n = readSync(fd, head, 0, head.length, 0);
      return /^#![ \t]*([^ \t\n]+)/.exec(head.toString('latin1', 0, n))?.[1] ?? null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** The watcher: `+PID` lists a group, `-PID` unlists it; at the end of its input it kills those listed. */
const WATCHER = [
  "g=' '",
  'while read -r l; do',
  '  case $l in',
  '    +*) g="$g${l#+} " ;;',
  '    -*) p=" ${l#-} "; case $g in *"$p"*) g="${g%%"$p"*} ${g#*"$p"}" ;; esac ;;',
  '  esac',
  'done',
  'for p in $g; do kill -s KILL -- "-$p"; done',
].join('\n');

/** The groups this thread has told the watcher of, and not yet unlisted. */
const listed = new Set<number>();
let watcher: ChildProcess | null = null;
let noWatcher = false;

/** Lists group `pid` with the watcher (started at the first). */
export function watchGroup(pid: number): void {
  listed.add(pid);
  if (watcher) tell(`+${pid}`);
  else startWatcher();
}

/** Unlists group `pid`: it is killed (a group SIGKILLed is ended whole), or was never listed. */
export function unwatchGroup(pid: number): void {
  if (listed.delete(pid)) tell(`-${pid}`);
}

function tell(line: string): void {
  watcher?.stdin?.write(`${line}\n`);
}

function startWatcher(): void {
  if (noWatcher) return;
  let w: ChildProcess;
  try {
    w = spawn('/bin/sh', ['-c', WATCHER], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  } catch {
    return; // out of processes for now: the next command tries again
  }
  watcher = w;
  w.on('error', (e: NodeJS.ErrnoException) => {
    // No shell to run it: each command would try again in vain. Out of processes: the next may not be.
    noWatcher = e.code === 'ENOENT' || e.code === 'EACCES';
    if (watcher === w) watcher = null;
  });
  // Killed apart from this thread (its input ends only with the thread): another takes over.
  w.on('exit', () => {
    if (watcher !== w) return;
    watcher = null;
    if (listed.size > 0) startWatcher();
  });
  // Neither it nor its pipe keeps this thread alive.
  w.unref();
  const input = w.stdin as Socket | null; // none when it could not start
  input?.on('error', () => undefined); // it ended: 'exit' follows
  input?.unref();
  for (const pid of listed) tell(`+${pid}`);
}
