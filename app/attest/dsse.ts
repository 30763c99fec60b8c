/**
 * DSSE (Dead Simple Signing Envelope, secure-systems-lab/dsse v1): the signature covers
 * PAE(payloadType, payload) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, with
 * LEN the decimal byte length. Ed25519 through app/core/keys.ts (node:crypto).
 */
import { signBytes, verifyBytes, type Signer } from '../core/keys.js';

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

export interface Envelope {
  payload: string;
  payloadType: string;
  signatures: { keyid: string; sig: string }[];
}

export function pae(payloadType: string, body: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'utf8'),
    type,
    Buffer.from(` ${body.length} `, 'utf8'),
    body,
  ]);
}

export function signEnvelope(payloadType: string, body: Uint8Array, signer: Signer): Envelope {
  return {
    payload: Buffer.from(body).toString('base64'),
    payloadType,
    signatures: [{ keyid: signer.keyId, sig: signBytes(signer, pae(payloadType, body)) }],
  };
}

export { verifyBytes };
