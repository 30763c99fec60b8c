/**
 * Commands a job runs (a kernel adapter), each in a process group of its own so that its
 * whole tree can be killed, and run by a thread that outlives the job. A worker thread
 * cannot own one: terminating it (a cancelled job, a closed pool) drops its timers and its
 * child handles, and the child runs on, reparented to init once the process ends. So a
 * worker started with `startWorker` asks the thread that started it to run its commands;
 * that thread kills them when it stops the worker (`stopWorker`) or the worker dies, and
 * kills every group it runs when its process ends (exit, SIGTERM, SIGINT, SIGHUP). A thread
 * not started so (the CLI's own, a sandboxed processor) runs its commands itself, under
 * the same rules. A thread that ends with no handler run (its process SIGKILLed, crashed)
 * takes its groups with it too, on Linux with setpriv and wherever /bin/sh runs a watcher
 * (parent-death.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  isMainThread,
  MessageChannel,
  MessagePort,
  receiveMessageOnPort,
  Worker,
  workerData,
  type WorkerOptions,
} from 'node:worker_threads';
import { PendingCalls } from '../../shared/pending-calls.js';
import { deathBound, unwatchGroup, watchGroup } from './parent-death.js';

export interface Command {
  file: string;
  args: string[];
  /** Written to its stdin. */
  input: string;
  timeoutMs: number;
  /** Bytes of stdout at most: at more, it is killed. */
  maxOutput: number;
}

/** Its exit code (null: ended by a signal) and stdout, or why it did not finish. */
export type CommandEnd = { ok: true; code: number | null; output: Uint8Array } | { ok: false; why: string };

interface Request {
  id: number;
  command: Command;
}
interface Answer {
  id: number;
  end: CommandEnd;
}

/** Windows has no process groups: there a command is killed alone. */
const GROUPS = process.platform !== 'win32';
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/** The member of a started worker's workerData holding its port to the thread that started it. */
const PORT = 'reprise.commands';

/** The groups this thread runs for itself. */
const own = new Set<number>();
/** Each worker started here: its port, and the groups running for it. */
const workers = new Map<Worker, { port: MessagePort; groups: Set<number> }>();
const calls = new PendingCalls<CommandEnd>();
const owner = ownerPort();

/** Runs a command to its end, in a thread that outlives this job. */
export function runCommand(command: Command): Promise<CommandEnd> {
  if (!owner) {
    watchProcessEnd();
    return runHere(command, own);
  }
  const { id, answer } = calls.open();
  owner.ref(); // this worker waits on its answer
  owner.postMessage({ id, command } satisfies Request);
  return answer;
}

/** A worker whose commands this thread runs (runCommand). */
export function startWorker(url: URL, options: WorkerOptions = {}): Worker {
  watchProcessEnd();
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(url, { ...options, workerData: { [PORT]: port2 }, transferList: [port2] });
  const groups = new Set<number>();
  workers.set(worker, { port: port1, groups });
  port1.on('message', (r: Request) => {
    void runHere(r.command, groups).then((end) => port1.postMessage({ id: r.id, end } satisfies Answer));
  });
  port1.unref();
  worker.once('exit', () => release(worker));
  return worker;
}

/** Terminates a worker started here, and kills the commands running for it at once. */
export function stopWorker(worker: Worker): Promise<number> {
  const stopped = worker.terminate();
  release(worker);
  return stopped;
}

function release(worker: Worker): void {
  const w = workers.get(worker);
  if (!w) return;
  workers.delete(worker);
  // A command it asked for just before is never started.
  while (receiveMessageOnPort(w.port) !== undefined) continue;
  w.port.close();
  for (const pid of w.groups) killGroup(pid);
  w.groups.clear();
}

function ownerPort(): MessagePort | null {
  const data: unknown = isMainThread ? null : workerData;
  const port = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[PORT] : null;
  if (!(port instanceof MessagePort)) return null;
  port.on('message', (a: Answer) => {
    calls.settle(a.id, { ok: true, value: a.end });
    if (calls.size === 0) port.unref();
  });
  port.unref();
  return port;
}

function runHere(c: Command, groups: Set<number>): Promise<CommandEnd> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      const run = GROUPS ? deathBound(c.file, c.args) : c;
      child = spawn(run.file, run.args, { stdio: ['pipe', 'pipe', 'ignore'], detached: GROUPS });
    } catch (e) {
      resolve({ ok: false, why: `could not be run: ${(e as Error).message}` });
      return;
    }
    const pid = child.pid; // none when it could not start: 'error' follows
    if (pid !== undefined) {
      groups.add(pid);
      if (GROUPS) watchGroup(pid);
    }
    // Only while its group is known to run: a pid freed by its end may be another's soon.
    const kill = (): void => {
      if (pid !== undefined && groups.has(pid)) killGroup(pid);
    };
    const fail = (why: string): void => {
      kill();
      resolve({ ok: false, why });
    };
    const timer = setTimeout(() => fail(`timed out after ${c.timeoutMs} ms`), c.timeoutMs);
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout!.on('data', (b: Buffer) => {
      size += b.length;
      if (size > c.maxOutput) fail(`printed more than ${c.maxOutput} bytes`);
      else chunks.push(b);
    });
    // What it started and left running ends with it.
    child.on('exit', () => {
      kill();
      if (pid !== undefined) groups.delete(pid);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, why: `could not be run: ${e.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: true, code, output: Buffer.concat(chunks) });
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(c.input);
  });
}

function killGroup(pid: number): void {
  try {
    process.kill(GROUPS ? -pid : pid, 'SIGKILL');
  } catch {
    // already ended
  }
  unwatchGroup(pid);
}

let watching = false;
function watchProcessEnd(): void {
  if (watching) return;
  watching = true;
  process.on('exit', killAll);
  // Signals reach the main thread only.
  if (isMainThread) for (const s of SIGNALS) process.on(s, onSignal);
}

function killAll(): void {
  for (const { groups } of workers.values()) for (const pid of groups) killGroup(pid);
  for (const pid of own) killGroup(pid);
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  if (process.listenerCount(signal) > 1) return; // the process's own handler decides its end
  // Alone, this listener would keep the process alive: it ends as the signal would have ended it.
  for (const s of SIGNALS) process.off(s, onSignal);
  process.kill(process.pid, signal);
}
