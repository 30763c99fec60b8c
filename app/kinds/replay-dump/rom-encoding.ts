/**
 * The ROM encoding (`*.rom.md`), the seed's §7 form of the same model (docs/rom-mapping.md
 * is the exact mapping):
 *
 *   ---                                   YAML front matter (core schema, unique keys,
 *   created_at_utc: "…"                   no custom tags, no aliases)
 *   id: "dump.exec.…"
 *   …
 *   ---
 *   # Frozen Execution Environment        bullets `* [key]: value`, value = JSON text,
 *   * [shape_advisor]: [[advisor.cpu_v1]] a `[[ref]]` link, or (material) a list of links
 *   # Hash Integrity Chain
 *   # Frozen Buffers
 *   # Embedded Artifacts
 *   ## sha256:…                           one per artifact: media type bullet, then a
 *   * [media_type]: "text/markdown"       fenced block (info string text|json) holding the
 *   ```text                               exact content
 *   …
 *   ```
 *
 * Every place is ordered by the canonical order of the JSON member it holds (RDS-004).
 */
import type * as YamlModule from 'yaml';
import type { Finding, JsonValue } from '../../../shared/report.js';
import { fail } from '../../core/findings.js';
import { checkJsonData, JcsError, parseCanonical } from '../../core/jcs.js';
import type { Sniffed } from '../sniff.js';
import { signedPayload, type Decoded } from './json-encoding.js';
import { checkOrder, DUMP_TYPE, isObject, namesToWrite, orderFinding, precisionFindings, valueToWrite, type DumpModel, type WriteOrder } from './model.js';

type Section = 'front' | 'env' | 'chain' | 'buffers';
type Form = 'json' | 'link' | 'links';

interface Place {
  section: Section;
  key: string;
  /** Path in the model: a top-level member, or a member of a closed sub-object. */
  path: readonly [string] | readonly [string, string];
  form: Form;
}

/** The mapping, listed in the order each section's keys must appear (canonical JSON order of the paths). */
export const PLACES: readonly Place[] = [
  { section: 'front', key: 'created_at_utc', path: ['createdAtUtc'], form: 'json' },
  { section: 'front', key: 'id', path: ['dumpId'], form: 'json' },
  { section: 'front', key: 'format_version', path: ['formatVersion'], form: 'json' },
  { section: 'front', key: 'kernel_version', path: ['kernelVersion'], form: 'json' },
  { section: 'front', key: 'seed', path: ['seed'], form: 'json' },
  { section: 'front', key: 'type', path: ['type'], form: 'json' },
  { section: 'env', key: 'shape_advisor', path: ['computeShape', 'advisor'], form: 'link' },
  { section: 'env', key: 'arity', path: ['computeShape', 'arity'], form: 'json' },
  { section: 'env', key: 'tensor_type', path: ['computeShape', 'tensorType'], form: 'json' },
  { section: 'env', key: 'max_tokens', path: ['inferenceParameters', 'maxTokens'], form: 'json' },
  { section: 'env', key: 'temperature', path: ['inferenceParameters', 'temperature'], form: 'json' },
  { section: 'env', key: 'top_p', path: ['inferenceParameters', 'topP'], form: 'json' },
  { section: 'env', key: 'capacity_snapshot', path: ['lockedProviderInfo', 'capacitySnapshot'], form: 'json' },
  { section: 'env', key: 'captured_at_utc', path: ['lockedProviderInfo', 'capturedAtUtc'], form: 'json' },
  { section: 'env', key: 'model', path: ['lockedProviderInfo', 'modelId'], form: 'link' },
  { section: 'env', key: 'locked_provider', path: ['lockedProviderInfo', 'providerId'], form: 'link' },
  { section: 'env', key: 'quantization', path: ['lockedProviderInfo', 'quantizationProfile'], form: 'json' },
  { section: 'chain', key: 'outcome_hash', path: ['executionOutcomeHash'], form: 'json' },
  { section: 'chain', key: 'key_id', path: ['keyId'], form: 'json' },
  { section: 'chain', key: 'material_hashes', path: ['materialSnapshotHashSet'], form: 'json' },
  { section: 'chain', key: 'pipeline_hash', path: ['pipelineDefinitionHash'], form: 'json' },
  { section: 'chain', key: 'prompt_hash', path: ['promptArtifactHash'], form: 'json' },
  { section: 'chain', key: 'signature', path: ['signature'], form: 'json' },
  { section: 'chain', key: 'trust_decision', path: ['trustDecision', 'decision'], form: 'json' },
  { section: 'chain', key: 'trust_evaluated_at_utc', path: ['trustDecision', 'evaluatedAtUtc'], form: 'json' },
  { section: 'chain', key: 'trust_key_id', path: ['trustDecision', 'keyId'], form: 'json' },
  { section: 'buffers', key: 'expression', path: ['buffers', 'expression'], form: 'link' },
  { section: 'buffers', key: 'material', path: ['buffers', 'material'], form: 'links' },
  { section: 'buffers', key: 'orchestration', path: ['buffers', 'orchestration'], form: 'link' },
];

export const HEADINGS: Record<Exclude<Section, 'front'> | 'artifacts', string> = {
  env: 'Frozen Execution Environment',
  chain: 'Hash Integrity Chain',
  buffers: 'Frozen Buffers',
  artifacts: 'Embedded Artifacts',
};
const SECTION_ORDER = ['env', 'chain', 'buffers', 'artifacts'] as const;
type BodySection = (typeof SECTION_ORDER)[number];

const placeByKey = new Map(PLACES.map((p, i) => [`${p.section}:${p.key}`, { place: p, index: i }]));
const placeByPath = new Map(PLACES.map((p) => [p.path.join('.'), p]));

const LINK = /^\[\[([^[\]\n\r]+)\]\]$/;
const LINKS = /^\[\[[^[\]\n\r]+\]\](?:, \[\[[^[\]\n\r]+\]\])*$/;
const SAFE_LINK = /^[^[\]\n\r\s](?:[^[\]\n\r]*[^[\]\n\r\s])?$/;

/** Detection looks for the front matter's `type` line within this many bytes. */
export const ROM_DETECT_BYTES = 64 * 1024;
/** The front matter holds six keys; a longer one is refused before YAML reads it. */
export const MAX_FRONT_MATTER_LINES = 64;

export function detectRom(s: Sniffed): boolean {
  if (!s.startsWith([0x2d, 0x2d, 0x2d, 0x0a]) && !s.startsWith([0x2d, 0x2d, 0x2d, 0x0d, 0x0a])) return false;
  const head = s.bytes.subarray(0, ROM_DETECT_BYTES).toString('utf8').replace(/\r\n/g, '\n');
  const end = head.indexOf('\n---\n', 3);
  const fm = end === -1 ? head : head.slice(0, end);
  return /\ntype: *["']?kernel\.replay_dump["']? *\n/.test(fm + '\n');
}

// ---------------------------------------------------------------------------
// Reading

class RomError extends Error {
  constructor(
    readonly rule: string,
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

function setPath(model: DumpModel, path: readonly string[], v: unknown): void {
  if (path.length === 1) {
    model[path[0]!] = v;
    return;
  }
  const g = (model[path[0]!] ??= {}) as Record<string, unknown>;
  g[path[1]!] = v;
}

function parseValue(raw: string, form: Form, line: number, pointer: string, findings: Finding[]): unknown {
  const one = LINK.exec(raw);
  if (form === 'links' && LINKS.test(raw)) return raw.split(', ').map((l) => l.slice(2, -2));
  if (one && form !== 'links') return one[1];
  let value: unknown;
  try {
    const parsed = parseCanonical(raw);
    value = parsed.value;
    if (parsed.warnings.length > 0) findings.push(...precisionFindings(parsed.warnings, pointer));
  } catch (e) {
    throw new RomError('RPR-DUMP-005', `the value is neither JSON nor a [[ref]] link (${e instanceof JcsError ? e.message : 'invalid'})`, line);
  }
  const order = checkOrder(raw, pointer);
  if (order) findings.push(order);
  return value;
}

/** Reads ROM text into the dump model; syntax errors become RPR-DUMP-005 (`line:n`). */
export function decodeRom(s: Sniffed): Decoded {
  const text = s.text();
  if (text === null) return { model: null, canonicalWithoutSignature: () => '', findings: [fail('RPR-DUMP-005', 'the ROM file is not UTF-8 text (or starts with a byte-order mark)')] };
  const findings: Finding[] = [];
  try {
    const model = readRom(text, findings);
    // Each value was parsed on its own: nesting is checked here against the whole dump
    // (an artifact's JSON sits three levels down), as the JSON encoding's one parse does.
    checkJsonData(model);
    let canonical: string | null = null;
    return { model, canonicalWithoutSignature: () => (canonical ??= signedPayload(model)), findings };
  } catch (e) {
    if (e instanceof RomError) return { model: null, canonicalWithoutSignature: () => '', findings: [...findings, fail(e.rule, e.message, { pointer: `line:${e.line}` })] };
    if (e instanceof JcsError) return { model: null, canonicalWithoutSignature: () => '', findings: [...findings, fail('RPR-DUMP-003', `a value is not I-JSON: ${e.message}`, e.pointer !== undefined ? { pointer: e.pointer } : {})] };
    throw e;
  }
}

function readRom(text: string, findings: Finding[]): DumpModel {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines[0] === '---\r') throw new RomError('RPR-DUMP-005', 'ROM dumps use LF line endings; this file uses CRLF', 1);
  if (lines[0] !== '---') throw new RomError('RPR-DUMP-005', 'a ROM dump starts with a "---" front-matter line', 1);
  const fmEnd = lines.indexOf('---', 1);
  if (fmEnd === -1) throw new RomError('RPR-DUMP-005', 'the front matter is not closed by a "---" line', 1);
  // YAML's unique-key check is quadratic in the number of keys: bound the input first.
  if (fmEnd - 1 > MAX_FRONT_MATTER_LINES) {
    throw new RomError('RPR-DUMP-005', `the front matter has ${fmEnd - 1} lines; a ROM dump's front matter holds six keys (at most ${MAX_FRONT_MATTER_LINES} lines are read)`, 2);
  }
  const model: DumpModel = {};
  readFrontMatter(lines.slice(1, fmEnd).join('\n'), model, findings);

  let section: BodySection | null = null;
  let sectionRank = -1;
  const seenSections = new Set<string>();
  let lastIndex = -1;
  const seenKeys = new Set<string>();
  let artifacts: Record<string, unknown> | null = null;
  let current: { key: string; mediaType?: unknown; done: boolean; line: number } | null = null;
  let lastArtifact: string | null = null;

  for (let i = fmEnd + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const n = i + 1;
    if (line === '') continue;
    let m: RegExpExecArray | null;
    if ((m = /^# ([^\r]+)$/.exec(line))) {
      const name = SECTION_ORDER.find((k) => HEADINGS[k] === m![1]);
      if (!name) throw new RomError('RPR-DUMP-001', `unknown heading "# ${m[1]}": the ROM dump format is closed`, n);
      if (seenSections.has(name)) throw new RomError('RPR-DUMP-003', `heading "# ${m[1]}" appears twice`, n);
      const rank = SECTION_ORDER.indexOf(name);
      if (rank < sectionRank) findings.push({ ...orderFinding(`line:${n}`, HEADINGS[SECTION_ORDER[sectionRank]!], HEADINGS[name]), message: `heading "# ${HEADINGS[name]}" is out of order` });
      if (current && !current.done) throw new RomError('RPR-DUMP-005', `artifact ${current.key} has no fenced content block`, current.line);
      seenSections.add(name);
      sectionRank = Math.max(sectionRank, rank);
      section = name;
      lastIndex = -1;
      current = null;
      if (name === 'artifacts') artifacts = model['artifacts'] = {};
      continue;
    }
    if ((m = /^## ([^\r]+)$/.exec(line))) {
      if (section !== 'artifacts' || !artifacts) throw new RomError('RPR-DUMP-005', 'an artifact heading "## …" belongs under "# Embedded Artifacts"', n);
      if (current && !current.done) throw new RomError('RPR-DUMP-005', `artifact ${current.key} has no fenced content block`, current.line);
      const key = m[1]!;
      if (Object.hasOwn(artifacts, key)) throw new RomError('RPR-DUMP-003', `artifact ${key} appears twice`, n);
      if (lastArtifact !== null && !(lastArtifact < key)) findings.push(orderFinding(`/artifacts/${key}`, lastArtifact, key));
      lastArtifact = key;
      current = { key, done: false, line: n };
      continue;
    }
    if ((m = /^\* \[([a-z_]+)\]: ([^\r]+)$/.exec(line))) {
      const [, key, raw] = m as unknown as [string, string, string];
      if (section === 'artifacts') {
        if (!current || current.done || key !== 'media_type' || current.mediaType !== undefined) throw new RomError('RPR-DUMP-005', `unexpected bullet [${key}] in "# Embedded Artifacts" (an artifact has one [media_type] bullet before its block)`, n);
        current.mediaType = parseValue(raw, 'json', n, `/artifacts/${current.key}/mediaType`, findings);
        continue;
      }
      if (!section) throw new RomError('RPR-DUMP-005', 'a bullet before the first heading', n);
      const found = placeByKey.get(`${section}:${key}`);
      if (!found) throw new RomError('RPR-DUMP-001', `unknown key [${key}] under "# ${HEADINGS[section]}": the ROM dump format is closed`, n);
      if (seenKeys.has(key)) throw new RomError('RPR-DUMP-003', `key [${key}] appears twice`, n);
      seenKeys.add(key);
      if (found.index < lastIndex) findings.push({ ...orderFinding(`line:${n}`, PLACES[lastIndex]!.key, key), message: `[${key}] must come before [${PLACES[lastIndex]!.key}] (canonical order of the members they hold)` });
      lastIndex = Math.max(lastIndex, found.index);
      const pointer = '/' + found.place.path.join('/');
      setPath(model, found.place.path, parseValue(raw, found.place.form, n, pointer, findings));
      continue;
    }
    if ((m = /^(`{3,})(text|json)$/.exec(line))) {
      if (section !== 'artifacts' || !current || current.done || !artifacts) throw new RomError('RPR-DUMP-005', 'a fenced block outside an artifact', n);
      const fence = m[1]!;
      let j = i + 1;
      while (j < lines.length && lines[j] !== fence) j++;
      if (j >= lines.length) throw new RomError('RPR-DUMP-005', `the fenced block of artifact ${current.key} is not closed by ${fence}`, n);
      const content = lines.slice(i + 1, j).join('\n');
      const art: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      if (m[2] === 'json') {
        let v: unknown;
        try {
          const parsed = parseCanonical(content);
          v = parsed.value;
          if (parsed.warnings.length > 0) findings.push(...precisionFindings(parsed.warnings, `/artifacts/${current.key}/json`));
        } catch (e) {
          throw new RomError('RPR-DUMP-003', `the JSON content of artifact ${current.key} is not I-JSON: ${e instanceof JcsError ? e.message : 'invalid'}`, n);
        }
        const order = checkOrder(content, `/artifacts/${current.key}/json`);
        if (order) findings.push(order);
        art['json'] = v;
      }
      if (current.mediaType !== undefined) art['mediaType'] = current.mediaType;
      if (m[2] === 'text') art['text'] = content;
      // defineProperty: an artifact named "__proto__" must stay an own member, not a prototype.
      Object.defineProperty(artifacts, current.key, { value: art, enumerable: true, writable: true, configurable: true });
      current.done = true;
      i = j;
      continue;
    }
    throw new RomError('RPR-DUMP-005', `unexpected line (a ROM dump holds only headings, "* [key]: value" bullets and fenced artifact blocks): ${JSON.stringify(line.slice(0, 60))}`, n);
  }
  if (current && !current.done) throw new RomError('RPR-DUMP-005', `artifact ${current.key} has no fenced content block`, current.line);
  return model;
}

/**
 * The YAML parser, loaded on first need: only ROM dumps use it, and it is the largest module
 * the engine would otherwise load at start-up (~60 ms of every CLI run and batch worker).
 */
let yaml: typeof YamlModule | undefined;
export async function loadRomParser(): Promise<void> {
  yaml ??= await import('yaml');
}

function readFrontMatter(src: string, model: DumpModel, findings: Finding[]): void {
  if (!yaml) throw new Error('the ROM front-matter parser was not loaded (call loadRomParser first)');
  const { parseDocument, isMap, isScalar } = yaml;
  const doc = parseDocument(src, { schema: 'core', customTags: [], uniqueKeys: true, strict: true, merge: false, version: '1.2' });
  const first = doc.errors[0] ?? doc.warnings[0];
  if (first) {
    const dup = first.code === 'DUPLICATE_KEY';
    throw new RomError(dup ? 'RPR-DUMP-003' : 'RPR-DUMP-005', `front matter: ${first.message.split('\n')[0]}`, (first.linePos?.[0]?.line ?? 0) + 1);
  }
  const contents = doc.contents;
  if (contents === null) return;
  if (!isMap(contents)) throw new RomError('RPR-DUMP-005', 'the front matter is not a YAML mapping', 2);
  let lastIndex = -1;
  for (const item of contents.items) {
    const k = isScalar(item.key) ? item.key.value : undefined;
    const line = src.slice(0, (item.key as { range?: number[] } | null)?.range?.[0] ?? 0).split('\n').length + 1;
    if (typeof k !== 'string') throw new RomError('RPR-DUMP-005', 'a front-matter key is not a plain string', line);
    const found = placeByKey.get(`front:${k}`);
    if (!found) throw new RomError('RPR-DUMP-001', `unknown front-matter key "${k}": the ROM dump format is closed`, line);
    if (found.index < lastIndex) findings.push({ ...orderFinding(`line:${line}`, PLACES[lastIndex]!.key, k), message: `front-matter key "${k}" must come before "${PLACES[lastIndex]!.key}" (canonical order of the members they hold)` });
    lastIndex = Math.max(lastIndex, found.index);
    if (!isScalar(item.value)) throw new RomError('RPR-DUMP-005', `front-matter value of "${k}" must be a scalar`, line);
    if (item.value.tag !== undefined || item.value.anchor !== undefined || item.key.tag !== undefined) {
      throw new RomError('RPR-DUMP-005', `front-matter value of "${k}" carries a YAML tag or anchor; ROM front matter is plain core-schema YAML`, line);
    }
    // The value is read from its source text as JSON, not as YAML resolved it: YAML's core
    // schema would also take `0x2A`, `+42`, `'single'` or a plain `text`, and round an
    // integer beyond 2^53, each a second spelling of a value that the signature cannot see.
    const range = (item.value as { range?: readonly number[] }).range;
    const raw = range ? src.slice(range[0], range[1]) : '';
    let v: unknown;
    try {
      const parsed = parseCanonical(raw);
      v = parsed.value;
      if (parsed.warnings.length > 0) findings.push(...precisionFindings(parsed.warnings, '/' + found.place.path.join('/')));
    } catch {
      v = undefined;
    }
    if (v === undefined || (typeof v === 'object' && v !== null)) {
      throw new RomError('RPR-DUMP-005', `front-matter value of "${k}" is not written as a JSON scalar (a double-quoted string, a number, true, false or null): ${JSON.stringify(raw.slice(0, 60))}`, line);
    }
    setPath(model, found.place.path, v);
  }
}

// ---------------------------------------------------------------------------
// Writing

function formatValue(v: unknown, form: Form, order: WriteOrder): string {
  if (form === 'link' && typeof v === 'string' && SAFE_LINK.test(v)) return `[[${v}]]`;
  if (form === 'links' && Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' && SAFE_LINK.test(x))) return v.map((x) => `[[${x as string}]]`).join(', ');
  return valueToWrite(v, order);
}

/** The shortest backtick fence (at least 3) longer than any backtick run in the content. */
function fenceFor(content: string): string {
  let longest = 0;
  for (const m of content.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * Writes a model as ROM text. Places, artifacts and members inside values follow canonical
 * order, or the model's own order with `order` 'model' (see WriteOrder). Throws for a
 * member that has no place in the mapping (an unknown member cannot be written as ROM).
 */
export function encodeRom(model: DumpModel, order: WriteOrder = 'canonical'): string {
  const out: Record<Section, string[]> = { front: [], env: [], chain: [], buffers: [] };
  const present: Record<Section, boolean> = { front: true, env: false, chain: false, buffers: false };
  let artifacts: string[] | null = null;
  for (const k of namesToWrite(model, order)) {
    const v = model[k];
    if (k === 'artifacts') {
      artifacts = [];
      if (!isObject(v)) throw new Error('artifacts must be an object to be written as ROM');
      for (const h of namesToWrite(v, order)) {
        const a = v[h];
        if (!isObject(a)) throw new Error(`artifact ${h} must be an object to be written as ROM`);
        artifacts.push('', `## ${h}`);
        if (a['mediaType'] !== undefined) artifacts.push(`* [media_type]: ${JSON.stringify(a['mediaType'])}`);
        const isText = typeof a['text'] === 'string';
        const content = isText ? (a['text'] as string) : valueToWrite(a['json'] as JsonValue, order);
        const fence = fenceFor(content);
        artifacts.push(`${fence}${isText ? 'text' : 'json'}`, content, fence);
      }
      continue;
    }
    const top = placeByPath.get(k);
    if (top) {
      out[top.section].push(top.section === 'front' ? `${top.key}: ${JSON.stringify(v)}` : `* [${top.key}]: ${formatValue(v, top.form, order)}`);
      present[top.section] = true;
      continue;
    }
    if (!isObject(v)) throw new Error(`member ${k} has no place in the ROM mapping`);
    for (const sk of namesToWrite(v, order)) {
      const p = placeByPath.get(`${k}.${sk}`);
      if (!p) throw new Error(`member ${k}.${sk} has no place in the ROM mapping`);
      out[p.section].push(`* [${p.key}]: ${formatValue(v[sk], p.form, order)}`);
      present[p.section] = true;
    }
  }
  const parts = ['---', ...out.front, '---'];
  for (const s of ['env', 'chain', 'buffers'] as const) {
    if (!present[s]) continue;
    parts.push(`# ${HEADINGS[s]}`, ...out[s], '');
  }
  if (artifacts) parts.push(`# ${HEADINGS.artifacts}`, ...(artifacts as string[]));
  return parts.join('\n').replace(/\n*$/, '\n');
}

export { DUMP_TYPE };
