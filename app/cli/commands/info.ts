/**
 * What help shows of each command (name, summary, usage), apart from the commands' code:
 * the command table (index.ts) lists it without importing any implementation, and each
 * command module builds its Command from it. Imports nothing, so importing one command
 * (main/host imports attest.ts) brings in no other. The usage of `verify` and `replay` is
 * built from the kinds' declared options (check.ts, checkUsage), so it is not here.
 */

/** `reprise quarantine` usage; it names the journal's rationale minimum (journal/cases.ts). */
export function quarantineUsage(minRationaleChars: number): string {
  return [
    'reprise quarantine open DIR --claim REF [--artifact HASH] --reason TEXT --key KEYFILE [--trust-store FILE] [--json]',
    'reprise quarantine list DIR [--trust-store FILE] [--state open|escalated|released|upheld] [--json]',
    'reprise quarantine show DIR CASE [--trust-store FILE] [--json]',
    `reprise quarantine release|uphold|escalate DIR CASE (--rationale TEXT | --rationale-file F) --key KEYFILE --trust-store FILE [--json]   (rationale: >= ${minRationaleChars} characters of real content)`,
  ].join('\n       ');
}

/** Name, summary and usage of each command; its module builds its Command from these. */
export const INFO = {
  verify: {
    name: 'verify',
    summary: 'check artifacts fail-closed: structure, hash chain, signatures (no re-execution)',
  },
  replay: { name: 'replay', summary: 'verify, then re-execute and compare every output' },
  canonicalize: {
    name: 'canonicalize',
    summary:
      'print the RFC 8785 canonical bytes of a JSON file (--hash: its sha256: hash), or refuse it with the reason',
    usage: 'reprise canonicalize FILE [--hash] [--json] [--limit NAME=N]',
  },
  keys: {
    name: 'keys',
    summary: 'make an Ed25519 key (PKCS#8 PEM, mode 0600) and print its key id; --trust-store adds it to a store',
    usage:
      'reprise keys generate --out FILE --role reviewer|quarantine-officer|trainer [--label TEXT] [--trust-store FILE] [--json]',
  },
  journal: {
    name: 'journal',
    summary:
      'the evidence journal: verify (in full, or since a held checkpoint), record, reviewer notes, proofs, witness cosignatures, repair a torn tail',
    usage: [
      'reprise journal verify DIR [--trust-store FILE] [--checkpoint FILE | --since FILE] [--witness-policy FILE] [--json] [--quiet]',
      'reprise journal record DIR --kind KIND --claim REF [--artifact HASH] --body-file F --key KEYFILE [--trust-store FILE] [--json]',
      'reprise journal note DIR --artifact HASH --body-file F --key KEYFILE --trust-store FILE [--supersedes ENTRYHASH] [--json]',
      'reprise journal notes DIR --artifact HASH [--trust-store FILE] [--json]',
      'reprise journal proof DIR (--entry N | --from SIZE) [--out FILE]',
      'reprise journal cosign DIR --key WITNESS.pem --name NAME --trust-store FILE [--state FILE] [--json]',
      'reprise journal check-proof FILE [--trust-store FILE] [--json]',
      'reprise journal repair DIR --key KEYFILE [--json]',
      'reprise journal unlock DIR [--force]',
    ].join('\n       '),
  },
  quarantine: {
    name: 'quarantine',
    summary: 'quarantine cases in an evidence journal: open, list, show, release, uphold, escalate',
  },
  lint: {
    name: 'lint',
    summary:
      'DL-104: every engine specification (Markdown/MDX front matter) declares exactly one replay mode per output',
    usage: 'reprise lint PATH... [--format text|json|sarif] [--json]',
  },
  attest: {
    name: 'attest',
    summary:
      'export a TG replay as an in-toto Statement in a DSSE envelope signed by the reviewer; --verify checks one',
    usage:
      'reprise attest MANIFEST --key KEYFILE [--out FILE] [--policy FILE] [--providers FILE] [--journal DIR] [--trust-store FILE]\n       reprise attest --verify FILE --trust-store FILE [--manifest FILE] [--json]',
  },
  drift: {
    name: 'drift',
    summary:
      'drift rate per model version over the governed window; raises (and with --journal --key anchors) the model-recalibration flag',
    usage:
      'reprise drift PATH... [--trust-store FILE [--journal DIR --key KEYFILE]] [--policy FILE] [--providers FILE] [--json]',
  },
  export: {
    name: 'export',
    summary:
      'write the evidence bundle of an artifact (its report, every judgement in --journal with its proof, the signed checkpoint), or of a whole case folder',
    usage: [
      'reprise export PATH --journal DIR --out FILE [--trust-store FILE] [--providers FILE] [--policy FILE] [--profiles FILE] [--kernel-adapter PATH] [--limit NAME=N] [--replay | --report FILE] [--attestation FILE] [--json]',
      'reprise export CASE-DIR --journal DIR --out FILE [--trust-store FILE] [engine flags] [--workers N] [--json]',
    ].join('\n       '),
  },
  rejudge: {
    name: 'rejudge',
    summary:
      're-judge an archive past one machine: deterministic shards or a BullMQ queue, one signed record of every verdict, and what changed',
    usage: [
      'reprise rejudge LIST_OR_DIR --out FILE [--shard I/N] [--workers N] [--replay] [--trust-store FILE] [--policy FILE] [--providers FILE] [--limit NAME=N] [--json]',
      'reprise rejudge LIST_OR_DIR --queue redis://HOST:PORT/NAME [--batch N] [--detach] [the options above]',
      'reprise rejudge merge SHARD_FILE... --key FILE --out FILE [--list LIST_OR_DIR] [--records FILE] [--json]',
      'reprise rejudge merge --queue redis://HOST:PORT/NAME --key FILE --out FILE [--list LIST_OR_DIR] [--records FILE] [--wait] [--json]',
      'reprise rejudge diff OLD NEW [--json]',
    ].join('\n       '),
  },
  worker: {
    name: 'worker',
    summary:
      'take re-judgement jobs from a BullMQ queue (reprise rejudge --queue) in sandboxed processes until stopped or, with --drain, until none is left',
    usage:
      'reprise worker --queue redis://HOST:PORT/NAME [--concurrency N] [--stalled-interval MS] [--lock-duration MS] [--job-timeout MS] [--drain]',
  },
  diff: {
    name: 'diff',
    summary:
      'the structured diff of two artifacts of one kind, two saved reports, two replays, or one replay against its original: by JSON pointer, exact decimal differences; --html writes one self-contained page',
    usage:
      'reprise diff A B [--replay] [--html OUT] [--json] [--max-differences N] [engine options of verify/replay]\n       reprise diff A --replay [--html OUT] [--json] [--max-differences N] [engine options of replay]',
  },
  examples: {
    name: 'examples',
    summary:
      "write the built-in sample and training artifacts (deterministic bytes) and an index examples.json into DIR; a file already there is never overwritten, unless it holds the very bytes it would get (a previous run's)",
    usage: 'reprise examples DIR',
  },
} as const;
