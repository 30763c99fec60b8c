/**
 * A case running when the engine's process stops ends with why (case-failed), as a job
 * does (engine-remote.ts): the shell keeps which cases its child runs, and a case that
 * ended before the child stopped is not failed again. The child here is a stand-in that
 * answers startCase and can be made to exit.
 */
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api.js';
import { createRemoteEngine, type EngineChild, type ToEngine } from '../../main/host/engine-remote.js';

function fakeChild() {
  let onMessage: (m: unknown) => void = () => undefined;
  let onExit: (why: string) => void = () => undefined;
  let next = 1;
  const child: EngineChild = {
    send(m: ToEngine) {
      if ('method' in m && m.method === 'startCase')
        queueMicrotask(() => onMessage({ id: m.id, result: { caseId: `case-${next++}`, dir: '/cases/x' } }));
      else if (!('method' in m)) queueMicrotask(() => onMessage({ id: m.id, result: null }));
    },
    onMessage: (l) => void (onMessage = l),
    onExit: (l) => void (onExit = l),
    kill: () => undefined,
  };
  return { child, event: (event: ApiEvent) => onMessage({ event }), exit: (why: string) => onExit(why) };
}

describe('cases and the engine process', () => {
  it('a running case fails when the child stops; one that ended does not', async () => {
    const fake = fakeChild();
    const engine = createRemoteEngine({ start: () => fake.child });
    const events: ApiEvent[] = [];
    engine.subscribe((e) => events.push(e));
    const a = await engine.startCase({ source: { type: 'path', path: '/cases/x' }, mode: 'verify' });
    const b = await engine.startCase({ source: { type: 'path', path: '/cases/x' }, mode: 'verify' });
    fake.event({
      type: 'case-done',
      caseId: a.caseId,
      report: {
        schema: 'reprise.case/v1',
        verdict: 'pass',
        artifacts: [],
        links: [],
        timeline: [],
        judgements: [],
        findings: [],
      },
    });
    fake.exit('signal SIGKILL');
    expect(events.map((e) => [e.type, 'caseId' in e ? e.caseId : null])).toEqual([
      ['case-done', a.caseId],
      ['case-failed', b.caseId],
    ]);
    expect(events[1]).toMatchObject({
      message: 'internal error: the engine process stopped (signal SIGKILL) during this case; it has been restarted',
      cancelled: false,
    });
  });
});
