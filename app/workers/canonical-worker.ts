/**
 * Worker side of canonical.ts: hashes the document's bytes (the report's SHA-256) and strips
 * canonically written JSON bytes to canonical bytes.
 */
import { parentPort } from 'node:worker_threads';
import { hashBytes } from '../core/hash.js';
import { stripToCanonical } from '../core/jcs.js';
import type { StripReply, StripRequest } from './canonical.js';

parentPort?.on('message', (m: StripRequest) => {
  let reply: StripReply;
  try {
    const sha256 = hashBytes(m.data);
    const r = stripToCanonical(m.data);
    reply = r ? { id: m.id, sha256, data: r.bytes.buffer as ArrayBuffer, length: r.bytes.length, members: r.members } : { id: m.id, sha256, data: null, length: 0, members: [] };
  } catch (e) {
    reply = { id: m.id, sha256: null, data: null, length: 0, members: [], error: (e as Error).message };
  }
  parentPort?.postMessage(reply, reply.data ? [reply.data] : []);
});
