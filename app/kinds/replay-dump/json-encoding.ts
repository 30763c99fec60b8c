/**
 * The JSON encoding (`*.dump.json`): one JSON object, members in canonical order at every
 * level (RDS-004), whitespace between tokens allowed. Parsing reuses the run's one strict
 * parse (Sniffed.json()); the signed payload comes from the document's own bytes when it was
 * written canonically (strippedDump), else from the model (signedPayload).
 */
import type { Finding } from '../../../shared/report.js';
import { fail, changedNumbers } from './findings.js';
import { decodeJsonBytes, JcsError } from '../../core/jcs.js';
import { canonicalBytesWithout } from '../../core/jcs/pieces.js';
import type { Sniffed } from '../sniff.js';
import type { SignatureCheck } from '../../threads/canonical.js';
import {
  checkOrder,
  isObject,
  namesToWrite,
  DUMP_NUMBERS,
  valueToWrite,
  type DumpModel,
  type WriteOrder,
} from './model.js';

export interface Decoded {
  /** null when the document could not be read as a dump model at all. */
  model: DumpModel | null;
  findings: Finding[];
  /**
   * The dump's id when `model` is null but the refused document still names itself where it
   * can be read safely (a ROM dump behind a byte-order mark: rom-encoding.ts).
   */
  id?: string;
}

/**
 * Why a dump is not I-JSON: the strict parse's refusal, or for text no parse was tried on
 * (detected by its "type" behind a byte-order mark: Sniffed.topLevelString) the decoder's.
 */
function refusal(s: Sniffed): JcsError | null {
  const j = s.json();
  if (j) return j.ok ? null : j.error;
  try {
    decodeJsonBytes(s.bytes);
  } catch (e) {
    if (e instanceof JcsError) return e;
    throw e;
  }
  return null;
}

export function decodeJson(s: Sniffed): Decoded {
  const j = s.json();
  if (!j || !j.ok) {
    const e = refusal(s);
    const f = fail(
      'RPR-DUMP-003',
      `the dump is not I-JSON: ${e ? e.message : 'not JSON'}`,
      e?.pointer !== undefined ? { pointer: e.pointer } : {},
    );
    return { model: null, findings: [f] };
  }
  const model = j.value as DumpModel;
  const findings: Finding[] = j.warnings.length > 0 ? changedNumbers(j.warnings, DUMP_NUMBERS) : [];
  // In order everywhere (the parse saw it while walking) needs no scan; otherwise the
  // text scan names the first member out of order.
  const text = j.inOrder ? null : s.text();
  const order = text === null ? null : checkOrder(text);
  if (order) findings.push(order);
  return { model, findings };
}

/** What a large, canonically written dump's stripped bytes give for free. */
export interface StrippedDump {
  /** The signed payload: the canonical bytes without the "signature" member. */
  payload: Uint8Array;
  /** The canonical bytes of a JSON artifact's value, by artifact key. */
  jsonArtifacts: Map<string, Uint8Array>;
  /** `H_bytes` of a long text artifact's text, by artifact key (hashed by the stripping thread). */
  textHashes: Map<string, string>;
  /** The signature check the stripping thread made (see replayDumpKind.beforeParse), if any. */
  signature: SignatureCheck | null;
}

/**
 * The signed payload, the JSON artifacts' canonical bytes and the long text artifacts'
 * hashes, from the document's stripped canonical bytes (see Sniffed.takeStrippedCanonical)
 * when a large dump was written canonically; else null, and the caller serializes the
 * parsed model.
 */
export async function strippedDump(s: Sniffed): Promise<StrippedDump | null> {
  const st = await s.takeStrippedCanonical();
  if (!st) return null;
  // The stripping thread may have cut the signature out already (the work beforeParse declared).
  const k = st.omitted === 'signature' ? -1 : st.members.findIndex((m) => m.name === 'signature');
  // Cut `,"signature":…` (or `"signature":…,` when it comes first).
  const from = k < 0 ? st.bytes.length : k > 0 ? st.members[k - 1]!.end : st.members[k]!.start;
  const to = k < 0 ? st.bytes.length : k > 0 ? st.members[k]!.end : (st.members[k + 1]?.start ?? st.members[k]!.end);
  const jsonArtifacts = new Map<string, Uint8Array>();
  const textHashes = new Map<string, string>();
  for (const a of st.members.find((m) => m.name === 'artifacts')?.members ?? []) {
    const j = a.members?.find((m) => m.name === 'json');
    // Only bytes before the cut: the cut below moves those after it.
    if (j && j.end <= from) jsonArtifacts.set(a.name, st.bytes.subarray(j.value, j.end));
    const t = a.members?.find((m) => m.name === 'text');
    if (t?.stringHash !== undefined) textHashes.set(a.name, t.stringHash);
  }
  // In place: the members after the signature (a few hundred bytes) move up.
  if (k >= 0) st.bytes.copyWithin(from, to);
  return {
    payload: st.bytes.subarray(0, st.bytes.length - (to - from)),
    jsonArtifacts,
    textHashes,
    signature: st.signature,
  };
}

/**
 * What the signature signs: the canonical UTF-8 of a model without its "signature" member,
 * written piece by piece into one buffer (app/core/jcs/pieces.ts). The model is JSON data
 * already checked (decoded from a dump, or checked by the writer: checkJsonData).
 * `sizeHint`: the bytes expected, a document's own size.
 */
export function signedPayload(model: DumpModel, sizeHint = 0): Uint8Array {
  return canonicalBytesWithout(model, 'signature', sizeHint);
}

/**
 * Writes a model as readable JSON: top level and second level one member per line,
 * deeper values as compact JSON text. Members are in canonical order at every depth
 * unless `order` is 'model' (tests write out-of-order dumps that way): see WriteOrder.
 */
export function encodeJson(model: DumpModel, order: WriteOrder = 'canonical'): string {
  const lines: string[] = ['{'];
  const keys = namesToWrite(model, order);
  keys.forEach((k, i) => {
    const v = model[k];
    const comma = i < keys.length - 1 ? ',' : '';
    if (isObject(v) && Object.keys(v).length > 0) {
      lines.push(`  ${JSON.stringify(k)}: {`);
      const sub = namesToWrite(v, order);
      sub.forEach((sk, j) =>
        lines.push(`    ${JSON.stringify(sk)}: ${valueToWrite(v[sk], order)}${j < sub.length - 1 ? ',' : ''}`),
      );
      lines.push(`  }${comma}`);
    } else lines.push(`  ${JSON.stringify(k)}: ${valueToWrite(v, order)}${comma}`);
  });
  lines.push('}');
  return lines.join('\n') + '\n';
}
