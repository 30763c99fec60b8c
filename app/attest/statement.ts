/**
 * The attestation's in-toto Statement v1 type and its predicate type: what verify.ts
 * checks an exported attestation against. The statement itself is built by the engine's
 * attestation operation (app/kinds/tg/attest.ts), which knows the TG replay it attests.
 */
import type { JsonValue } from '../../shared/report.js';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://reprise.dev/attestations/tg-replay/v1';
/**
 * The type of the manifest an attestation is about (app/kinds/tg/constants.ts spells it for
 * the kind; test/tg holds the two equal): `attest --verify --manifest` names a file of
 * another type as such, rather than comparing the statement with members it does not have.
 */
export const ATTESTED_MANIFEST_TYPE = 'comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0';

/** A RECORDED execution as the manifest records it. */
export interface RecordedRecord {
  executionId?: unknown;
  output?: unknown;
  artifactHash?: unknown;
  anchor?: unknown;
}

/**
 * A `recordedOutputs` entry but for `replayable`: what the manifest records of the output. One
 * definition for the writer (app/kinds/tg/attest.ts) and the verifier, which derives it from
 * the `--manifest` and requires it member for member: an anchor the manifest does not hold
 * must never appear in an attestation.
 */
export function recordedEntry(e: RecordedRecord): Record<string, JsonValue> {
  return {
    executionId: (e.executionId ?? null) as JsonValue,
    output: (e.output ?? null) as JsonValue,
    artifactHash: (e.artifactHash ?? null) as JsonValue,
    anchor: (e.anchor ?? null) as JsonValue,
  };
}
