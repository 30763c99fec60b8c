/** Worker side of canonical.ts: strips canonically written JSON bytes to canonical bytes. */
import { parentPort } from 'node:worker_threads';
import { stripToCanonical } from '../core/jcs.js';
import type { StripReply, StripRequest } from './canonical.js';

parentPort?.on('message', (m: StripRequest) => {
  let reply: StripReply;
  try {
    const r = stripToCanonical(m.data);
    reply = r ? { id: m.id, data: r.bytes.buffer as ArrayBuffer, length: r.bytes.length, members: r.members } : { id: m.id, data: null, length: 0, members: [] };
  } catch (e) {
    reply = { id: m.id, data: null, length: 0, members: [], error: (e as Error).message };
  }
  parentPort?.postMessage(reply, reply.data ? [reply.data] : []);
});
