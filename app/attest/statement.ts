/**
 * The attestation's in-toto Statement v1 type and its predicate type: what verify.ts
 * checks an exported attestation against. The statement itself is built by the engine's
 * attestation operation (app/engine/attest.ts), which knows the TG replay it attests.
 */
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://reprise.dev/attestations/tg-replay/v1';
