/**
 * Verifies an investigation package in RFC 0009's order: (1) the archive, strictly,
 * before any entry is parsed; (2) version dispatch and the manifest's per-version rules;
 * (3) entry digests, dataset identity, closed envelope parsing; (4) bundle/manifest
 * identity agreement; then, only if nothing failed, (5) consumers against the authority's
 * profile registry and (6) the investigation digest through a kernel adapter.
 * Steps 1-4 yield `fail`; steps 5-6 yield `unavailable` when they cannot be decided here.
 */
import type { ChainNode, ChainStatus, Finding, JsonValue } from '../../../shared/report.js';
import { replayRefusals } from './replay-refusals.js';
import { isBareHex64 } from '../../../shared/hash-format.js';
import { fail, info, unavailable, warning, type RuleId, changedNumbers } from './findings.js';
import { formatHash, hashBytes, hashValue, sha256Hex } from '../../core/hash.js';
import { decodeJsonBytes, JcsError, parseCanonical } from '../../core/jcs.js';
import type { KindResult } from '../../core/report.js';
import type { KindContext } from '../types.js';
import { resolveLimits, ZIP_WORKERS_LIMIT } from '../../zip/limits.js';
import { readStructure, type ZipEntry } from '../../zip/reader.js';
import { readEntries } from '../../zip/parallel.js';
import type { EntryContent } from '../../zip/inflate.js';
import { SourceError, type ZipSource } from '../../zip/source.js';
import { UsageError } from '../../core/errors.js';
import { isPlainObject } from '../../core/closed.js';
import { DATASET_IDENTITY_ALGORITHM, datasetIdentityHex, DatasetShapeError } from './dataset-identity.js';
import { investigationDigest, investigationRoot } from './digest.js';
import { checkEnvelope, type Envelope } from './envelope.js';
import { AdapterError, runAdapter } from './kernel-adapter.js';
import { checkManifest, DIGEST_V2, type Manifest } from './manifest.js';
import { bindConsumers, loadProfiles } from './profiles.js';
import { CHANGED_NUMBER_NOTE, upstreamReadingNote } from './upstream-reading.js';
import { TIMELINE_DEFAULT, TIMELINE_LIMIT } from './limits.js';
import { packageTimes } from './times.js';
import type { ForCase } from './case-facts.js';

/**
 * How a finding names the option that resolves it: in the words of both the CLI and the
 * workbench, since a finding is part of the report, whose digest a judgement binds; a report
 * must be the same bytes whichever of them verified the package.
 */
const PROFILES_WORDS =
  "--profiles FILE; in the workbench, the Profile registry field of the Open view's engine options";
const KERNEL_ADAPTER_WORDS =
  "--kernel-adapter FILE; in the workbench, the Kernel adapter field of the Open view's engine options";

export const ENTRY = {
  manifest: 'manifest.json',
  dataset: 'data/dataset.raw',
  commands: 'investigation/commands.log',
  representation: 'investigation/representation.json',
  discoveries: 'investigation/discoveries.json',
  nilOutcomes: 'investigation/nil-outcomes.json',
  receipts: 'investigation/evidence-receipts.json',
  forma: 'investigation/forma.json',
} as const;

const KNOWN_ENTRIES = new Set<string>(Object.values(ENTRY));
/** Entries upstream decodes with a fatal UTF-8 decoder (the rest with fflate's lenient strFromU8). */
const FATALLY_DECODED = new Set<string>([ENTRY.receipts, ENTRY.forma]);
/** Entries whose bytes the checks (and a kernel adapter) need in memory (each bounded by maxEntryBytes). */
const KEEP = new Set<string>(Object.values(ENTRY));

export const CONSISTENCY_STATEMENT =
  'Self-contained hashes establish consistency, not origin: an attacker who rewrites the whole archive, its declarations and every digest can make a different, internally consistent package. Authenticity needs separately signed evidence.';

const show = (v: string | null): string | null => (v === null ? null : isBareHex64(v) ? formatHash(v) : v);

interface State {
  findings: Finding[];
  chain: ChainNode[];
  details: { [k: string]: JsonValue };
  /** What the checks read that a case's facts use (case-facts.ts), when a case may ask. */
  forCase?: ForCase;
}

function node(
  st: State,
  id: string,
  label: string,
  recorded: string | null,
  recomputed: string | null,
  status: ChainStatus,
  parents: string[],
  pointer?: string,
): void {
  const n: ChainNode = { id, label, recorded, recomputed, status, parents };
  if (pointer) n.pointer = pointer;
  st.chain.push(n);
}

const hasFail = (fs: readonly Finding[]) => fs.some((f) => f.severity === 'fail');

/**
 * An entry's strict JSON value. A number the parse changed (`1E-400` read as 0) is a `fail`
 * under the entry's I-JSON rule: digests and identities cover the rounded value, so the
 * number in the package is not the one committed to. The value is still returned, so the
 * other checks run.
 */
function parseJson(
  bytes: Buffer,
  entry: string,
  rule: RuleId,
  st: State,
  upstreamRefusal?: string,
): { ok: true; value: unknown } | { ok: false } {
  try {
    const p = parseCanonical(decodeJsonBytes(bytes));
    st.findings.push(
      ...changedNumbers(
        p.warnings,
        { rule, subject: `${entry} is not I-JSON`, note: CHANGED_NUMBER_NOTE },
        `entry:${entry}#`,
      ),
    );
    // A member whose numbers the parse changed is not the value its canonical hash would name.
    if (p.warnings.length === 0) st.forCase?.json.set(entry, p.value);
    return { ok: true, value: p.value };
  } catch (e) {
    const jcs = e instanceof JcsError ? e : null;
    // Where upstream would have read the file, the finding says so: strictness, not forgery.
    const note =
      (jcs && upstreamReadingNote(jcs.code, FATALLY_DECODED.has(entry) ? 'fatal' : 'lenient')) ?? upstreamRefusal;
    st.findings.push(
      fail(
        rule,
        `${entry} is not valid JSON (I-JSON, UTF-8): ${jcs ? jcs.message : String(e)}${note ? `; ${note}` : ''}`,
        { pointer: `entry:${entry}${jcs?.pointer !== undefined ? '#' + jcs.pointer : ''}` },
      ),
    );
    return { ok: false };
  }
}

/**
 * Verifies a package held in memory, or on disk (a file source: the archive is read by
 * position and never held whole). A file that changes or fails while it is read is a
 * usage error (exit 3), not a finding about the package. `forCase` is given what the
 * checks read that a case's facts use (the times the package carries, its JSON members).
 */
export async function verifyPackage(
  archive: Buffer | ZipSource,
  ctx: KindContext,
  forCase?: ForCase,
  mode: 'verify' | 'replay' = 'verify',
): Promise<KindResult> {
  try {
    return await verifyArchive(archive, ctx, forCase, mode);
  } catch (e) {
    if (e instanceof SourceError) throw new UsageError(`${ctx.path}: ${e.message}`, 'path');
    throw e;
  }
}

async function verifyArchive(
  archive: Buffer | ZipSource,
  ctx: KindContext,
  forCase: ForCase | undefined,
  mode: 'verify' | 'replay',
): Promise<KindResult> {
  const st: State = { findings: [], chain: [], details: { format: 'nemosyne-package' }, forCase };
  const result = (id: string | null): KindResult => {
    const failed = hasFail(st.findings);
    st.details['integrity'] = failed ? 'inconsistent' : 'consistent';
    st.details['authenticity'] = 'not established';
    st.details['statement'] = CONSISTENCY_STATEMENT;
    if (!failed) st.findings.push(info('RPR-NEM-090', CONSISTENCY_STATEMENT));
    return { id, findings: st.findings, chain: st.chain, details: st.details };
  };

  // 1. The archive.
  const limits = resolveLimits(ctx.options.limits);
  const zs = readStructure(archive, limits);
  st.findings.push(...zs.findings);
  // The archive's own SHA-256 is the report's artifact.sha256 (computed once, by the engine).
  node(
    st,
    'archive',
    `ZIP archive (${zs.entries.length} entries; its SHA-256 is artifact.sha256)`,
    null,
    null,
    zs.ok ? 'match' : 'mismatch',
    [],
  );
  if (!zs.ok) return result(null);
  const contents = await readEntries(archive, zs.entries, (e) => KEEP.has(e.name), {
    workers: ctx.options.limits?.[ZIP_WORKERS_LIMIT],
  });
  const byName = new Map<string, { entry: ZipEntry; content: EntryContent }>();
  zs.entries.forEach((e, i) => {
    const c = contents[i]!;
    st.findings.push(...c.findings);
    byName.set(e.name, { entry: e, content: c });
  });
  const archiveFailed = hasFail(st.findings);
  const entryNode = (name: string, recorded: string | null) => {
    const x = byName.get(name)!;
    const recomputed = x.content.sha256 === null ? null : formatHash(x.content.sha256);
    const status: ChainStatus = x.content.findings.length
      ? 'mismatch'
      : recorded === null
        ? 'match'
        : recorded === recomputed
          ? 'match'
          : 'mismatch';
    node(
      st,
      `entry:${name}`,
      `${name} (${x.entry.uncompressedSize} bytes, CRC-32 ${x.content.findings.length ? 'bad' : 'verified'})`,
      recorded,
      recomputed,
      status,
      ['archive'],
      `entry:${name}`,
    );
  };
  // A package that stops before its manifest is read: every entry's node, none with a recorded digest.
  const stopBeforeManifest = (): KindResult => {
    for (const e of zs.entries) entryNode(e.name, null);
    return result(null);
  };
  if (archiveFailed) return stopBeforeManifest();
  const get = (name: string): Buffer | null => byName.get(name)?.content.bytes ?? null;
  const has = (name: string) => byName.has(name);

  // 2. Version dispatch and the manifest.
  const manifestBytes = get(ENTRY.manifest);
  if (!manifestBytes) {
    st.findings.push(fail('RPR-NEM-001', 'the package has no manifest.json', { pointer: 'entry:manifest.json' }));
    return stopBeforeManifest();
  }
  const mj = parseJson(manifestBytes, ENTRY.manifest, 'RPR-NEM-002', st);
  const manifest = mj.ok ? checkManifest(mj.value, st.findings) : null;
  if (!manifest) return stopBeforeManifest();
  const v = manifest.formatVersion;
  st.details['formatVersion'] = v;
  const id = typeof manifest.raw['sessionId'] === 'string' ? manifest.raw['sessionId'] : null;
  for (const e of zs.entries) {
    entryNode(
      e.name,
      v >= 3 && e.name === ENTRY.receipts
        ? show(manifest.evidenceReceiptDigest)
        : v === 4 && e.name === ENTRY.forma
          ? show(manifest.formaDigest)
          : null,
    );
  }
  node(
    st,
    'manifest',
    `manifest.json (format V${v})`,
    null,
    hashBytes(manifestBytes),
    hasFail(st.findings) ? 'mismatch' : 'match',
    [`entry:${ENTRY.manifest}`],
    'entry:manifest.json',
  );
  const ledger = checkEntrySet(
    manifest,
    zs.entries.map((e) => e.name),
    has,
    get,
    st,
  );
  const limit = ctx.options.limits?.[TIMELINE_LIMIT];
  const times = packageTimes(
    manifest.raw,
    ledger,
    typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0 ? limit : TIMELINE_DEFAULT,
    st.findings,
  );
  if (forCase) forCase.times = times;

  // 3. Entry digests, dataset identity, closed envelope.
  checkDataset(manifest, get(ENTRY.dataset), st);
  let envelope: Envelope | null = null;
  let envelopeValue: unknown = null;
  if (v >= 3) {
    const eb = get(ENTRY.receipts);
    if (eb) ({ envelope, envelopeValue } = checkReceipts(manifest, eb, st));
    if (v === 4) checkForma(manifest, byName.get(ENTRY.forma), st);
    checkKernelAgreement(manifest, st);
  }

  // Nothing that depends on a failed check runs: no capability on a failed package.
  if (hasFail(st.findings)) return result(id);

  // 5. Consumers against the authority's registry.
  if (v >= 3 && envelope) await checkConsumers(envelope, ctx, st);

  // 6. The investigation digest, through a kernel adapter.
  await checkInvestigationDigest(manifest, envelope, envelopeValue, byName, ctx, st, { mode, ledger });
  return result(id);
}

/** Step 3 for V3+: the receipt entry's digest, then its closed envelope (with step 4, identity agreement). */
function checkReceipts(
  manifest: Manifest,
  eb: Buffer,
  st: State,
): { envelope: Envelope | null; envelopeValue: unknown } {
  const recomputed = sha256Hex(eb);
  node(
    st,
    'evidenceReceiptDigest',
    'manifest evidenceReceiptDigest over the exact bytes of the receipt entry',
    show(manifest.evidenceReceiptDigest),
    formatHash(recomputed),
    manifest.evidenceReceiptDigest === recomputed ? 'match' : 'mismatch',
    ['manifest', `entry:${ENTRY.receipts}`],
  );
  if (manifest.evidenceReceiptDigest !== null && manifest.evidenceReceiptDigest !== recomputed) {
    st.findings.push(
      fail(
        'RPR-NEM-020',
        'evidenceReceiptDigest does not match the exact bytes of investigation/evidence-receipts.json',
        {
          pointer: 'entry:manifest.json#/evidenceReceiptDigest',
          expected: recomputed,
          actual: manifest.evidenceReceiptDigest,
        },
      ),
    );
  }
  const ej = parseJson(eb, ENTRY.receipts, 'RPR-NEM-030', st);
  if (!ej.ok) return { envelope: null, envelopeValue: null };
  const ce = checkEnvelope(ej.value);
  st.findings.push(...ce.findings);
  const envelope = ce.envelope;
  // 4. Identity agreement, bundle vs manifest.
  if (
    envelope.bundleDatasetFingerprint !== null &&
    manifest.analyticalDatasetFingerprint !== null &&
    envelope.bundleDatasetFingerprint !== manifest.analyticalDatasetFingerprint
  ) {
    st.findings.push(
      fail('DATASET_MISMATCH', "the bundle's datasetFingerprint is not the manifest's analyticalDatasetFingerprint", {
        pointer: `entry:${ENTRY.receipts}#/bundle/datasetFingerprint`,
        expected: manifest.analyticalDatasetFingerprint,
        actual: envelope.bundleDatasetFingerprint,
      }),
    );
  }
  if (
    envelope.bundleKernelVersion !== null &&
    manifest.analyticalKernelVersion !== null &&
    envelope.bundleKernelVersion !== manifest.analyticalKernelVersion
  ) {
    st.findings.push(
      fail('KERNEL_MISMATCH', "the bundle's kernelVersion is not the manifest's analyticalKernelVersion", {
        pointer: `entry:${ENTRY.receipts}#/bundle/kernelVersion`,
        expected: manifest.analyticalKernelVersion,
        actual: envelope.bundleKernelVersion,
      }),
    );
  }
  const envOk =
    ce.findings.length === 0 && !st.findings.some((f) => f.rule === 'DATASET_MISMATCH' || f.rule === 'KERNEL_MISMATCH');
  node(
    st,
    'envelope',
    `governed-evidence envelope: ${envelope.receiptIds.length} receipt(s), ${envelope.uses.length} use(s); bundle dataset ${envelope.bundleDatasetFingerprint ?? '?'}, kernel ${envelope.bundleKernelVersion ?? '?'}`,
    null,
    hashValue(ej.value),
    envOk ? 'match' : 'mismatch',
    ['evidenceReceiptDigest'],
    `entry:${ENTRY.receipts}`,
  );
  return { envelope, envelopeValue: ej.value };
}

/**
 * Step 4 for V3+: the manifest's two kernel declarations agree. Upstream's replay
 * (src/session/InvestigationReplayRunner.ts, replayPayload of the RF-047 runner with V3)
 * holds the kernel it replays with to both: to `kernelVersion` ("Kernel version mismatch:
 * package manifest has …, replay kernel is …", a discrepancy) and to the bundle's
 * `kernelVersion`, which must already be the `analyticalKernelVersion` (`KERNEL_MISMATCH`).
 * When the two differ, every kernel fails one comparison or the other: no replay of the
 * package can succeed, so it fails here, with or without a kernel adapter.
 */
function checkKernelAgreement(m: Manifest, st: State): void {
  if (m.kernelVersion === null || m.analyticalKernelVersion === null) return;
  if (m.kernelVersion === m.analyticalKernelVersion) return;
  st.findings.push(
    fail(
      'KERNEL_MISMATCH',
      `the manifest's kernelVersion ${JSON.stringify(m.kernelVersion)} is not its analyticalKernelVersion ${JSON.stringify(m.analyticalKernelVersion)}: upstream's replay holds the kernel it replays with to both ("Kernel version mismatch" against the first, KERNEL_MISMATCH against the bundle's kernelVersion, which is the second), so no kernel can replay this package`,
      {
        pointer: 'entry:manifest.json#/kernelVersion',
        expected: m.analyticalKernelVersion,
        actual: m.kernelVersion,
      },
    ),
  );
}

const FORMA_REFUSED = 'upstream\'s replay refuses it too ("governed forma integrity failure")';

/**
 * Step 3 for V4: the forma entry's digest, then its content. Upstream's replay parses the
 * entry after its digest matched and reads `staticCapture` from it: bytes that are not
 * JSON, or `null`, are a "governed forma integrity failure" there, so a matching digest
 * over them is no pass here.
 */
function checkForma(manifest: Manifest, fb: { entry: ZipEntry; content: EntryContent } | undefined, st: State): void {
  if (!fb || fb.content.sha256 === null || !fb.content.bytes) return;
  const recomputed = fb.content.sha256;
  node(
    st,
    'formaDigest',
    'manifest formaDigest over the exact bytes of investigation/forma.json',
    show(manifest.formaDigest),
    formatHash(recomputed),
    manifest.formaDigest === recomputed ? 'match' : 'mismatch',
    ['manifest', `entry:${ENTRY.forma}`],
  );
  if (manifest.formaDigest !== null && manifest.formaDigest !== recomputed) {
    st.findings.push(
      fail('RPR-NEM-021', 'formaDigest does not match the exact bytes of investigation/forma.json', {
        pointer: 'entry:manifest.json#/formaDigest',
        expected: recomputed,
        actual: manifest.formaDigest,
      }),
    );
  }
  const fj = parseJson(fb.content.bytes, ENTRY.forma, 'RPR-NEM-029', st, FORMA_REFUSED);
  if (fj.ok && fj.value === null) {
    st.findings.push(
      fail(
        'RPR-NEM-029',
        'investigation/forma.json is null: upstream\'s replay reads staticCapture from it and refuses it ("governed forma integrity failure")',
        { pointer: `entry:${ENTRY.forma}`, expected: 'a JSON value other than null', actual: null },
      ),
    );
  }
}

/** Step 5: bind and resolve every use (profiles.ts), recording each binding in the details. */
async function checkConsumers(envelope: Envelope, ctx: KindContext, st: State): Promise<void> {
  if (!ctx.options.profiles) {
    st.findings.push(
      unavailable(
        'RPR-NEM-040',
        `no profile registry given (${PROFILES_WORDS}): the ${envelope.uses.length} recorded use(s) and the receipt-dependent consumers cannot be resolved here`,
      ),
    );
    return;
  }
  const registry = await loadProfiles(ctx.options.profiles);
  st.details['profileAuthority'] = registry.authority;
  const bindings = bindConsumers(envelope, registry);
  st.details['consumers'] = bindings.map((b) => ({
    consumerId: b.consumerId,
    receiptId: b.use?.receiptId ?? null,
    requirementProfileId: b.use?.requirementProfileId ?? null,
    status: b.status,
    code: b.code,
  }));
  // Upstream's loader refuses on the first binding that is not a RESOLVED use.
  const first = bindings.find((b) => b.code !== null);
  if (first) st.details['refusal'] = { code: first.code, status: first.status };
  for (const b of bindings) if (b.finding) st.findings.push(b.finding);
}

/** The entry set's checks; returns the ledger (commands.log) when it is a JSON array. */
function checkEntrySet(
  m: Manifest,
  names: readonly string[],
  has: (n: string) => boolean,
  get: (n: string) => Buffer | null,
  st: State,
): unknown[] | null {
  const v = m.formatVersion;
  let ledger: unknown[] | null = null;
  const dataset = get(ENTRY.dataset);
  if (!dataset || dataset.length === 0)
    st.findings.push(
      fail('RPR-NEM-006', dataset ? 'data/dataset.raw is empty' : 'the package has no data/dataset.raw', {
        pointer: `entry:${ENTRY.dataset}`,
      }),
    );
  const commands = get(ENTRY.commands);
  if (!commands)
    st.findings.push(
      fail('RPR-NEM-006', 'the package has no investigation/commands.log', { pointer: `entry:${ENTRY.commands}` }),
    );
  else {
    const cj = parseJson(commands, ENTRY.commands, 'RPR-NEM-007', st);
    if (cj.ok) {
      if (!Array.isArray(cj.value))
        st.findings.push(
          fail('RPR-NEM-007', 'investigation/commands.log is not a JSON array', { pointer: `entry:${ENTRY.commands}` }),
        );
      else if (m.commandCount !== null && m.commandCount > 0 && cj.value.length === 0) {
        // Upstream's own rule: a declared command count with an empty ledger is refused.
        st.findings.push(
          fail(
            'RPR-NEM-007',
            `the manifest declares ${m.commandCount} commands but investigation/commands.log is empty`,
            { pointer: 'entry:manifest.json#/commandCount', expected: 0, actual: m.commandCount },
          ),
        );
      } else if (m.commandCount !== null && cj.value.length !== m.commandCount) {
        checkCommandCount(m, cj.value.length, st);
      }
      if (Array.isArray(cj.value)) {
        checkEvidenceSummary(m, cj.value, st);
        ledger = cj.value;
      }
    }
  }
  // Members upstream packs as bytes and parses only on replay (NemosynePackage.ts unpack):
  // their H(json) identity (case-facts.ts) is worked out only when a case asks.
  for (const name of [ENTRY.representation, ENTRY.discoveries, ENTRY.nilOutcomes]) {
    const b = get(name);
    if (b) st.forCase?.unparsed.set(name, b);
  }
  if (m.hasRepresentationModel && !has(ENTRY.representation))
    st.findings.push(
      fail(
        'RPR-NEM-008',
        'the manifest declares a representation model but investigation/representation.json is missing',
        { pointer: `entry:${ENTRY.representation}` },
      ),
    );
  if ((m.discoveryCount ?? 0) > 0 && !has(ENTRY.discoveries))
    st.findings.push(
      fail('RPR-NEM-008', 'the manifest declares discoveries but investigation/discoveries.json is missing', {
        pointer: `entry:${ENTRY.discoveries}`,
      }),
    );
  if ((m.nilOutcomeCount ?? 0) > 0 && !has(ENTRY.nilOutcomes))
    st.findings.push(
      fail('RPR-NEM-008', 'the manifest declares NIL outcomes but investigation/nil-outcomes.json is missing', {
        pointer: `entry:${ENTRY.nilOutcomes}`,
      }),
    );
  if (v >= 3 && !has(ENTRY.receipts))
    st.findings.push(
      fail('RPR-NEM-018', `a V${v} package must carry the reserved entry investigation/evidence-receipts.json`, {
        pointer: `entry:${ENTRY.receipts}`,
      }),
    );
  if (v === 4 && !has(ENTRY.forma))
    st.findings.push(
      fail('RPR-NEM-018', 'a V4 package must carry the reserved entry investigation/forma.json', {
        pointer: `entry:${ENTRY.forma}`,
      }),
    );
  for (const name of names) {
    if (!KNOWN_ENTRIES.has(name) && !name.startsWith('extras/') && !name.endsWith('/')) {
      st.findings.push(
        warning(
          'RPR-NEM-009',
          `entry ${JSON.stringify(name)} is not part of the package format: no manifest commitment covers it`,
          { pointer: `entry:${name}` },
        ),
      );
    }
  }
  // What upstream's replay refuses before its kernel runs: nothing else catches it on a V1/V2 without a digest.
  st.findings.push(...replayRefusals(m, ledger, get));
  if (v === 3 && has(ENTRY.forma))
    st.findings.push(
      info(
        'RPR-NEM-025',
        'a V3 package carries investigation/forma.json: only a V4 commits to it (upstream reads it for a V4 alone), so it is data only',
        { pointer: `entry:${ENTRY.forma}` },
      ),
    );
  if (v <= 2 && (has(ENTRY.receipts) || has(ENTRY.forma))) {
    st.findings.push(
      info(
        'RPR-NEM-025',
        `a V${v} package carries a V3/V4 entry: it is data only, and a V${v} package never carries governed-receipt capability`,
      ),
    );
  }
  return ledger;
}

/**
 * Upstream's unpack accepts any count; its replay refuses a mismatch on the semantic
 * digest path (V2 with the v2 algorithm, and V3: "command count mismatch"). V4 extends V3
 * and is held to the same rule. A legacy V1/V2 digest path never compares the count.
 */
function checkCommandCount(m: Manifest, events: number, st: State): void {
  const semantic = m.formatVersion >= 3 || m.investigationDigestAlgorithm === DIGEST_V2;
  const extra = { pointer: 'entry:manifest.json#/commandCount', expected: events, actual: m.commandCount };
  if (semantic)
    st.findings.push(
      fail(
        'RPR-NEM-019',
        `command count mismatch: the manifest declares ${m.commandCount} commands, investigation/commands.log holds ${events} events (upstream's replay refuses this)`,
        extra,
      ),
    );
  else
    st.findings.push(
      warning(
        'RPR-NEM-019',
        `commandCount ${m.commandCount} differs from the ${events} events in investigation/commands.log (a legacy digest path: upstream's replay does not compare them)`,
        extra,
      ),
    );
}

/** The ledger's event kind for each evidenceSummary count, and the member carrying the entity. */
const SUMMARY_COUNTS = [
  {
    count: 'observationsCount',
    kind: 'observation',
    entity: 'observationEntity',
    what: 'observations',
    upstream: 'Observations',
  },
  { count: 'findingsCount', kind: 'finding', entity: 'findingEntity', what: 'findings', upstream: 'Findings' },
  {
    count: 'annotationsCount',
    kind: 'annotation',
    entity: 'annotationEntity',
    what: 'annotations',
    upstream: 'Annotations',
  },
] as const;

/**
 * Upstream's replay compares the manifest's evidenceSummary, on every version and digest
 * path, with the evidence its ledger holds after replay: one entry per event of the kind
 * that carries its entity (EvidenceLedger.restore keeps those, the legacy replay records
 * exactly those), so the counts follow from commands.log alone. A mismatch fails the
 * replay ("Findings count mismatch"), so it fails here.
 */
function checkEvidenceSummary(m: Manifest, ledger: readonly unknown[], st: State): void {
  const summary = m.raw['evidenceSummary'];
  if (!isPlainObject(summary)) return;
  for (const c of SUMMARY_COUNTS) {
    const declared = summary[c.count];
    if (typeof declared !== 'number') continue;
    const recorded = ledger.filter((e) => isPlainObject(e) && e['kind'] === c.kind && Boolean(e[c.entity])).length;
    if (declared === recorded) continue;
    st.findings.push(
      fail(
        'RPR-NEM-028',
        `${c.upstream.toLowerCase()} count mismatch: the manifest's evidenceSummary declares ${declared} ${c.what}, investigation/commands.log records ${recorded} (upstream's replay refuses this: "${c.upstream} count mismatch")`,
        {
          pointer: `entry:manifest.json#/evidenceSummary/${c.count}`,
          expected: recorded,
          actual: declared,
        },
      ),
    );
  }
}

function checkDataset(m: Manifest, bytes: Buffer | null, st: State): void {
  if (!bytes || bytes.length === 0) return;
  const parents = ['manifest', `entry:${ENTRY.dataset}`];
  if (m.formatVersion === 1) {
    // Upstream's replay runner takes the legacy seed-hash branch only for a V1 with no
    // identity algorithm and a decimal fingerprint; any other V1 is checked against the
    // canonical identity, like a V2, whatever algorithm name it declares.
    const declared = m.raw['datasetIdentityAlgorithm'];
    if (!declared && m.datasetFingerprint !== null && /^\d+$/.test(m.datasetFingerprint)) {
      st.findings.push(
        unavailable(
          'RPR-NEM-012',
          'a V1 datasetFingerprint uses a legacy algorithm that the format does not name: the dataset identity cannot be recomputed here',
          { pointer: 'entry:manifest.json#/datasetFingerprint' },
        ),
      );
      node(
        st,
        'datasetFingerprint',
        'dataset identity (V1 legacy fingerprint)',
        m.datasetFingerprint,
        null,
        'unresolved',
        parents,
      );
      return;
    }
    if (declared !== DATASET_IDENTITY_ALGORITHM) {
      st.findings.push(
        warning(
          'RPR-NEM-011',
          `this V1 manifest declares ${declared ? `datasetIdentityAlgorithm ${JSON.stringify(declared)}` : 'no datasetIdentityAlgorithm and a non-decimal fingerprint'}: upstream's replay checks it as the ${DATASET_IDENTITY_ALGORITHM} identity, and so does Reprise`,
          {
            pointer: 'entry:manifest.json#/datasetIdentityAlgorithm',
            expected: DATASET_IDENTITY_ALGORITHM,
            actual: typeof declared === 'string' ? declared : null,
          },
        ),
      );
    }
  }
  const dj = parseJson(bytes, ENTRY.dataset, 'RPR-NEM-023', st);
  if (!dj.ok) return;
  let recomputed: string;
  try {
    recomputed = datasetIdentityHex(dj.value);
  } catch (e) {
    if (e instanceof DatasetShapeError) {
      st.findings.push(
        fail('RPR-NEM-023', `data/dataset.raw: ${e.message}`, { pointer: `entry:${ENTRY.dataset}#${e.pointer}` }),
      );
      return;
    }
    if (e instanceof JcsError) {
      st.findings.push(
        fail('RPR-NEM-023', `data/dataset.raw cannot be canonicalized: ${e.message}`, {
          pointer: `entry:${ENTRY.dataset}`,
        }),
      );
      return;
    }
    throw e;
  }
  node(
    st,
    'datasetFingerprint',
    'dataset identity sha256-canonical-dataset-v1 of data/dataset.raw',
    show(m.datasetFingerprint),
    formatHash(recomputed),
    m.datasetFingerprint === recomputed ? 'match' : 'mismatch',
    parents,
  );
  if (m.datasetFingerprint !== null && m.datasetFingerprint !== recomputed) {
    st.findings.push(
      fail('RPR-NEM-022', 'datasetFingerprint is not the sha256-canonical-dataset-v1 identity of data/dataset.raw', {
        pointer: 'entry:manifest.json#/datasetFingerprint',
        expected: recomputed,
        actual: m.datasetFingerprint,
      }),
    );
  }
}

/**
 * A V1/V2 package that commits to no digest. Verified, its entries and dataset identity are
 * all it commits to (RPR-NEM-027, info). Replayed, upstream's runner re-runs each analysis
 * of its ledger through the kernel and compares the recorded output hash and provenance
 * (InvestigationReplayRunner.replayPayload: "Analysis drift", "Replay execution failure"):
 * Reprise has no kernel, and no digest to hold an adapter's state to, so those outputs are
 * not re-executed: unavailable, never a PASS for a replay that re-ran nothing (cli.md).
 */
function noDigest(v: number, run: { mode: 'verify' | 'replay'; ledger: readonly unknown[] | null }, st: State): void {
  st.findings.push(
    info(
      'RPR-NEM-027',
      `this V${v} package records no investigationDigest: its semantic state is not committed, only its entries`,
    ),
  );
  const analyses = (run.ledger ?? []).filter(
    (e) => typeof e === 'object' && e !== null && (!('kind' in e) || (e as { kind?: unknown }).kind === 'analysis'),
  ).length;
  if (run.mode === 'replay' && analyses > 0)
    st.findings.push(
      unavailable(
        'KERNEL_MISMATCH',
        `replay: the ledger holds ${analyses} analysis step(s), which upstream's replay re-runs through Nemosyne's analytical kernel to compare each recorded output hash and provenance; Reprise has no kernel, and this package commits to no digest a kernel adapter's state could be checked against, so they were not re-executed`,
        { pointer: `entry:${ENTRY.commands}` },
      ),
    );
}

async function checkInvestigationDigest(
  m: Manifest,
  envelope: Envelope | null,
  envelopeValue: unknown,
  byName: Map<string, { entry: ZipEntry; content: EntryContent }>,
  ctx: KindContext,
  st: State,
  run: { mode: 'verify' | 'replay'; ledger: readonly unknown[] | null },
): Promise<void> {
  const v = m.formatVersion;
  if (m.investigationDigest === null) {
    if (v <= 2) noDigest(v, run, st);
    return;
  }
  const parents = ['manifest', `entry:${ENTRY.commands}`, ...(v >= 3 ? ['envelope'] : [])];
  const label = (a: string) => `investigation digest (${a}) over the restored semantic state`;
  const unresolved = (why: Finding) => {
    st.findings.push(why);
    node(
      st,
      'investigationDigest',
      label(m.investigationDigestAlgorithm ?? 'legacy schema-v1'),
      show(m.investigationDigest),
      null,
      'unresolved',
      parents,
    );
  };
  if (v === 1 || m.investigationDigestAlgorithm === null) {
    unresolved(
      unavailable(
        'RPR-NEM-026',
        `the V${v} investigationDigest uses the legacy schema-v1 root, which the format does not specify: it cannot be recomputed here`,
        { pointer: 'entry:manifest.json#/investigationDigest' },
      ),
    );
    return;
  }
  const kernelNeeded = (v >= 3 ? m.analyticalKernelVersion : m.kernelVersion) ?? '(undeclared)';
  st.details['kernelNeeded'] = kernelNeeded;
  const adapter = ctx.options.kernelAdapter;
  if (!adapter) {
    unresolved(
      unavailable(
        'KERNEL_MISMATCH',
        `the investigation digest needs the semantic state restored by Nemosyne's analytical kernel ${kernelNeeded}; no kernel adapter was given (${KERNEL_ADAPTER_WORDS})`,
        {
          pointer: 'entry:manifest.json#/investigationDigest',
          expected: kernelNeeded,
          actual: null,
        },
      ),
    );
    return;
  }
  const entries: Record<string, Uint8Array> = Object.create(null) as Record<string, Uint8Array>;
  for (const [name, x] of byName) if (x.content.bytes) entries[name] = x.content.bytes;
  let restored;
  try {
    restored = await runAdapter(adapter, {
      formatVersion: v,
      kernelVersion: kernelNeeded,
      manifest: m.raw,
      packagePath: ctx.path,
      entries,
    });
  } catch (e) {
    if (!(e instanceof AdapterError)) throw e;
    unresolved(unavailable('RPR-NEM-050', `the kernel adapter could not restore the semantic state: ${e.message}`));
    return;
  }
  // For V3+ the manifest's kernelVersion is its analyticalKernelVersion (checkKernelAgreement),
  // so this one comparison holds the adapter's kernel to both, as upstream's replay holds its own.
  if (restored.kernelVersion !== kernelNeeded) {
    unresolved(
      unavailable(
        'KERNEL_MISMATCH',
        `the kernel adapter restored the state with kernel ${restored.kernelVersion}, not the ${kernelNeeded} the package needs`,
        { expected: kernelNeeded, actual: restored.kernelVersion },
      ),
    );
    return;
  }
  if (v >= 3 && envelope) {
    if (restored.analyticalDatasetFingerprint === undefined) {
      unresolved(
        unavailable(
          'RPR-NEM-050',
          'the kernel adapter did not report the reconstructed analytical dataset fingerprint',
        ),
      );
      return;
    }
    if (restored.analyticalDatasetFingerprint !== envelope.bundleDatasetFingerprint) {
      st.findings.push(
        fail('DATASET_MISMATCH', "the replay reconstructed another analytical dataset than the bundle's", {
          pointer: `entry:${ENTRY.receipts}#/bundle/datasetFingerprint`,
          expected: restored.analyticalDatasetFingerprint,
          actual: envelope.bundleDatasetFingerprint,
        }),
      );
    }
  }
  const algorithm = m.investigationDigestAlgorithm ?? DIGEST_V2;
  const root = investigationRoot(
    v === 2 ? 2 : v,
    algorithm,
    restored.state,
    v >= 3 ? { envelope: envelopeValue, memberDigest: m.evidenceReceiptDigest ?? '' } : undefined,
  );
  const recomputed = investigationDigest(root);
  node(
    st,
    'investigationDigest',
    label(algorithm),
    show(m.investigationDigest),
    formatHash(recomputed),
    recomputed === m.investigationDigest ? 'match' : 'mismatch',
    parents,
  );
  if (recomputed !== m.investigationDigest) {
    st.findings.push(
      fail(
        'INVESTIGATION_DIGEST_MISMATCH',
        'the investigation digest recomputed over the restored semantic state differs from the manifest',
        { pointer: 'entry:manifest.json#/investigationDigest', expected: recomputed, actual: m.investigationDigest },
      ),
    );
  }
}
