/**
 * A case part on its way from the worker that read it to the thread that assembles the
 * case. A module of its own so that the assembling thread, which only decodes parts, loads
 * none of what making one needs (the report digest and the journal code behind it).
 */
import type { CasePart } from './part.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A part as a worker sends it (BatchItem.part): its JSON text, UTF-8 encoded. Bytes, not a
 * string, because the main thread keeps every part until the case is assembled: a string
 * lives in its heap, where each scavenge of the run copies it again, while a byte array's
 * contents live outside it and are never copied by the collector.
 */
export function partBytes(part: CasePart): Uint8Array {
  return encoder.encode(JSON.stringify(part));
}

/** The part partBytes encoded (bytes this process wrote, so not checked again). */
export function partFromBytes(bytes: Uint8Array): CasePart {
  return JSON.parse(decoder.decode(bytes)) as CasePart;
}
