/**
 * Reads ROM text (`*.rom.md`) into the dump model, canonicalizing as AIKernel.NET's ROM
 * core spec (docs/specs/03.ROM_CORE_SPEC.md §4, AC1) requires; docs/rom-mapping.md says
 * exactly what is ignored and what is Reprise's own decision:
 * - bullets under one heading, the headings, the artifacts and the front-matter keys are
 *   sets: their order is no part of the document (no RDS-004; the model, and so every
 *   hash and the signed payload, does not depend on it);
 * - indentation, blanks around and inside a line's markup, blank lines, CRLF line ends
 *   and heading numbering (`# 2. Frozen Buffers`) are formatting noise;
 * - identifiers (headings, keys) compare after NFKC and case folding (canonicalId).
 * Values are never normalized: a changed value changes the model and breaks the chain.
 * A key, heading or artifact given twice is refused (RPR-DUMP-003), never merged.
 * Lines are scanned by position (rom-lines.ts), never split into an array.
 */
import type * as YamlModule from 'yaml';
import type { Finding } from '../../../shared/report.js';
import { changedNumbers } from './findings.js';
import { cutShort } from '../../core/findings.js';
import { JcsError, parseCanonical } from '../../core/jcs.js';
import type { RuleId } from './findings.js';
import { checkOrder, DUMP_NUMBERS, type DumpModel } from './model.js';
import { canonicalId, HEADINGS, placeByKey, sectionOf, type BodySection, type Form } from './rom-mapping.js';
import type { RomEnd } from './rom-end.js';
import { lineAt, LineScanner } from './rom-lines.js';

/** The front matter holds six keys; a longer one is refused before YAML reads it. */
export const MAX_FRONT_MATTER_LINES = 64;
/**
 * Characters of the front matter, and of one of its lines (one key and its scalar), looked
 * at before YAML reads them: YAML holds about 37 bytes per byte of a scalar (a 40 MB line
 * took 1.8 GB and 11 s), and no value of the six is near these lengths (the 64 KiB match
 * the window detection reads the `type` line in).
 */
export const MAX_FRONT_MATTER_CHARS = 64 * 1024;
export const MAX_FRONT_MATTER_LINE = 16 * 1024;
/** No identifier of the format is longer; a longer heading or key is unknown without being normalized. */
const MAX_ID = 256;

/**
 * A syntax error at an offset of the text (its line is counted only when reported), or at a
 * known line. `cut` says why the text looks cut short, when it does: it ends inside the
 * front matter, a fenced block, before an artifact's block, or in the line that fails.
 */
export class RomError extends Error {
  constructor(
    readonly rule: RuleId,
    message: string,
    readonly offset: number,
    readonly knownLine?: number,
    readonly cut?: string,
  ) {
    super(cut ? `${cutShort(message)}: ${cut}` : message);
  }

  lineIn(text: string): number {
    return this.knownLine ?? lineAt(text, this.offset);
  }
}
/** An error at a line of the front matter (YAML counts from the line after the opening `---`). */
const atLine = (rule: RuleId, message: string, line: number) => new RomError(rule, message, 0, line);

const LINK = /^\[\[([^[\]\n\r]+)\]\]$/;
const LINKS = /^\[\[[^[\]\n\r]+\]\](?:, \[\[[^[\]\n\r]+\]\])*$/;
const HEADING = /^(#+)[ \t]+([^]+)$/;
/** Heading numbering (`1.`, `2.3`, `4)`), noise by §4's notes. */
const NUMBERING = /^\d+(?:\.\d+)*[.)]?[ \t]+/;
const BULLET = /^[*+-][ \t]+\[([^\]]*)\][ \t]*:[ \t]*/;
const FENCE = /^(`{3,})[ \t]*(text|json)$/i;

/** A string for a message: at most 60 characters of it. */
const quote = (s: string): string => JSON.stringify(s.length > 60 ? s.slice(0, 60) + '…' : s);
/** A parser's message, which may quote the input (a 128 MiB number): at most 200 characters. */
const why = (e: unknown): string =>
  e instanceof JcsError ? (e.message.length > 200 ? e.message.slice(0, 200) + '…' : e.message) : 'invalid';

interface Artifact {
  key: string;
  mediaType?: unknown;
  done: boolean;
  /** Offset of its heading. */
  at: number;
}

interface ReadState {
  model: DumpModel;
  findings: Finding[];
  section: BodySection | null;
  seenSections: Set<BodySection>;
  seenKeys: Set<string>;
  artifacts: Record<string, unknown> | null;
  /** Artifact keys in the order the text gives them (rom-end.ts). */
  artifactOrder: string[];
  current: Artifact | null;
}

function setPath(model: DumpModel, path: readonly string[], v: unknown): void {
  if (path.length === 1) {
    model[path[0]!] = v;
    return;
  }
  const g = (model[path[0]!] ??= {}) as Record<string, unknown>;
  g[path[1]!] = v;
}

export function parseValue(raw: string, form: Form, at: number, pointer: string, findings: Finding[]): unknown {
  const one = LINK.exec(raw);
  if (form === 'links' && LINKS.test(raw)) return raw.split(', ').map((l) => l.slice(2, -2));
  if (one && form !== 'links') return one[1];
  let value: unknown;
  try {
    const parsed = parseCanonical(raw, { lazy: true }); // only the value is read: no canonical text
    value = parsed.value;
    if (parsed.warnings.length > 0) findings.push(...changedNumbers(parsed.warnings, DUMP_NUMBERS, pointer));
  } catch (e) {
    throw new RomError('RPR-DUMP-005', `the value is neither JSON nor a [[ref]] link (${why(e)})`, at);
  }
  // Members inside one value are no ROM set: their order is the JSON encoding's (RDS-004).
  const order = checkOrder(raw, pointer);
  if (order) findings.push(order);
  return value;
}

/**
 * Reads ROM text into the dump model; syntax errors throw RomError. `end` is where the text
 * stops in the writer's order (rom-end.ts words what is missing after it).
 */
export function readRom(text: string, findings: Finding[]): { model: DumpModel; end: RomEnd } {
  try {
    return readRomText(text, findings);
  } catch (e) {
    // An error in a last line that has no newline after it: the text stops where reading failed.
    if (
      e instanceof RomError &&
      !e.cut &&
      e.knownLine === undefined &&
      !text.endsWith('\n') &&
      text.indexOf('\n', e.offset) === -1
    ) {
      throw new RomError(
        e.rule,
        e.message,
        e.offset,
        undefined,
        'the text ends inside this line, with no newline after it',
      );
    }
    throw e;
  }
}

/**
 * The members a ROM text's front matter gives, read as readRom reads them (the same bounds
 * and refusals: RomError, or JcsError for a value). For naming a dump refused before it is
 * read (rom-encoding.ts, behind a byte-order mark), never for accepting one.
 */
export function readRomFrontMatter(text: string): DumpModel {
  const model: DumpModel = {};
  readFrontMatter(frontMatterSource(new LineScanner(text)), model, []);
  return model;
}

function readRomText(text: string, findings: Finding[]): { model: DumpModel; end: RomEnd } {
  const lines = new LineScanner(text);
  const model: DumpModel = {};
  readFrontMatter(frontMatterSource(lines), model, findings);
  const st: ReadState = {
    model,
    findings,
    section: null,
    seenSections: new Set(),
    seenKeys: new Set(),
    artifacts: null,
    artifactOrder: [],
    current: null,
  };
  for (lines.skipBlankLines(); lines.next(); lines.skipBlankLines()) {
    const first = lines.firstCode();
    if (first === -1) continue; // blank lines carry nothing
    const line = lines.trimmed();
    if (first === 0x23 /* # */) readHeading(st, line, lines.start);
    else if (first === 0x60 /* ` */ && FENCE.test(line)) readFence(st, lines, FENCE.exec(line)!);
    else {
      const m = BULLET.exec(line);
      if (!m)
        throw new RomError(
          'RPR-DUMP-005',
          `unexpected line (a ROM dump holds only headings, "* [key]: value" bullets and fenced artifact blocks): ${quote(line)}`,
          lines.start,
        );
      readBullet(st, m[1]!, line.slice(m[0].length), lines.start);
    }
  }
  finishArtifact(st, 'the text ends before its block');
  return { model: inCanonicalOrder(model), end: { sections: [...st.seenSections], artifacts: st.artifactOrder } };
}

/**
 * §4 step 2 (structural sorting): the model's members, its closed sub-objects' members and
 * the artifacts are put in canonical (code-unit) order, whatever order the file gave them,
 * so that everything read from the model (the chain's artifact nodes included) is the same
 * for every ordering of the document.
 */
function inCanonicalOrder(model: DumpModel): DumpModel {
  const sorted = (o: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    // defineProperty: an artifact named "__proto__" must stay an own member, not a prototype.
    for (const k of Object.keys(o).sort())
      Object.defineProperty(out, k, { value: o[k], enumerable: true, writable: true, configurable: true });
    return out;
  };
  const out = sorted(model);
  for (const [k, v] of Object.entries(out))
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out[k] = sorted(v as Record<string, unknown>);
  return out;
}

/**
 * The front matter between the `---` lines, each line without the blanks around it (at
 * most MAX_FRONT_MATTER_LINES lines are looked at). It holds only flat `key: scalar`
 * lines, so indentation there is formatting noise too, not YAML structure.
 */
function frontMatterSource(lines: LineScanner): string {
  if (!lines.next() || lines.trimmed() !== '---')
    throw new RomError('RPR-DUMP-005', 'a ROM dump starts with a "---" front-matter line', 0);
  const src: string[] = [];
  let chars = 0;
  while (lines.next()) {
    const line = lines.trimmed(); // a slice: the line's characters are not copied
    if (line === '---') return src.join('\n');
    chars += line.length + 1;
    boundFrontMatter(src.length, line.length, chars, lines.start);
    src.push(line);
  }
  throw new RomError(
    'RPR-DUMP-005',
    'the front matter is not closed by a "---" line',
    0,
    undefined,
    'the text ends inside it',
  );
}

/**
 * Refuses a front matter too long for YAML to read within bounded time and memory: more
 * lines than six keys need (YAML's unique-key check is quadratic in the number of keys),
 * a line longer than any key and scalar of the six, or more characters in all.
 */
function boundFrontMatter(linesBefore: number, lineLength: number, chars: number, at: number): void {
  const refuse = (what: string) =>
    new RomError(
      'RPR-DUMP-005',
      `${what}; a ROM dump's front matter holds six keys with short scalar values, and is bounded before YAML reads it`,
      at,
    );
  if (linesBefore >= MAX_FRONT_MATTER_LINES)
    throw refuse(`the front matter is longer than ${MAX_FRONT_MATTER_LINES} lines`);
  if (lineLength > MAX_FRONT_MATTER_LINE)
    throw refuse(`this front-matter line is ${lineLength} characters long, more than ${MAX_FRONT_MATTER_LINE}`);
  if (chars > MAX_FRONT_MATTER_CHARS)
    throw refuse(`the front matter is longer than ${MAX_FRONT_MATTER_CHARS} characters`);
}

/** `end` says why the text looks cut short when it is the end of the text that finishes the artifact. */
function finishArtifact(st: ReadState, end?: string): void {
  const c = st.current;
  if (c && !c.done)
    throw new RomError('RPR-DUMP-005', `artifact ${c.key} has no fenced content block`, c.at, undefined, end);
}

function readHeading(st: ReadState, line: string, at: number): void {
  const m = HEADING.exec(line);
  if (!m || m[1]!.length > 2)
    throw new RomError(
      'RPR-DUMP-005',
      `unexpected line (a ROM dump's headings are "# section" and "## artifact"): ${quote(line)}`,
      at,
    );
  const title = m[2]!.replace(NUMBERING, '');
  if (m[1]!.length === 2) return readArtifactHeading(st, title, at);
  const name = title.length <= MAX_ID ? sectionOf(title) : undefined;
  if (!name)
    throw new RomError(
      'RPR-DUMP-001',
      `unknown heading "# ${quote(title).slice(1, -1)}": the ROM dump format is closed`,
      at,
    );
  if (st.seenSections.has(name)) throw new RomError('RPR-DUMP-003', `heading "# ${HEADINGS[name]}" appears twice`, at);
  finishArtifact(st);
  st.seenSections.add(name);
  st.section = name;
  st.current = null;
  if (name === 'artifacts') st.artifacts = st.model['artifacts'] = {};
}

function readArtifactHeading(st: ReadState, key: string, at: number): void {
  const artifacts = st.artifacts;
  if (st.section !== 'artifacts' || !artifacts)
    throw new RomError('RPR-DUMP-005', 'an artifact heading "## …" belongs under "# Embedded Artifacts"', at);
  finishArtifact(st);
  if (Object.hasOwn(artifacts, key)) throw new RomError('RPR-DUMP-003', `artifact ${quote(key)} appears twice`, at);
  st.current = { key, done: false, at };
  st.artifactOrder.push(key);
}

function readBullet(st: ReadState, rawKey: string, raw: string, at: number): void {
  const key = rawKey.length <= MAX_ID ? canonicalId(rawKey) : rawKey;
  if (raw === '') throw new RomError('RPR-DUMP-005', `bullet [${quote(key).slice(1, -1)}] has no value`, at);
  const c = st.current;
  if (st.section === 'artifacts') {
    if (!c || c.done || key !== 'media_type' || c.mediaType !== undefined)
      throw new RomError(
        'RPR-DUMP-005',
        `unexpected bullet [${quote(key).slice(1, -1)}] in "# Embedded Artifacts" (an artifact has one [media_type] bullet before its block)`,
        at,
      );
    c.mediaType = parseValue(raw, 'json', at, `/artifacts/${c.key}/mediaType`, st.findings);
    return;
  }
  if (!st.section) throw new RomError('RPR-DUMP-005', 'a bullet before the first heading', at);
  const place = placeByKey.get(`${st.section}:${key}`);
  if (!place)
    throw new RomError(
      'RPR-DUMP-001',
      `unknown key [${quote(key).slice(1, -1)}] under "# ${HEADINGS[st.section]}": the ROM dump format is closed`,
      at,
    );
  if (st.seenKeys.has(key)) throw new RomError('RPR-DUMP-003', `key [${key}] appears twice`, at);
  st.seenKeys.add(key);
  setPath(st.model, place.path, parseValue(raw, place.form, at, '/' + place.path.join('/'), st.findings));
}

/** A fenced block: its content is every character between the fence lines, exactly. */
function readFence(st: ReadState, lines: LineScanner, m: RegExpExecArray): void {
  const c = st.current;
  const open = lines.start;
  if (st.section !== 'artifacts' || !c || c.done || !st.artifacts)
    throw new RomError('RPR-DUMP-005', 'a fenced block outside an artifact', open);
  const fence = m[1]!;
  const from = lines.pos;
  if (!lines.seekFence(fence))
    throw new RomError(
      'RPR-DUMP-005',
      `the fenced block of artifact ${c.key} is not closed by ${fence}`,
      open,
      undefined,
      'the text ends inside the block',
    );
  const content = lines.text.slice(from, Math.max(from, lines.start - 1));
  const art: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (m[2]!.toLowerCase() === 'json') art['json'] = artifactJson(st, c.key, content, open);
  if (c.mediaType !== undefined) art['mediaType'] = c.mediaType;
  if (m[2]!.toLowerCase() === 'text') art['text'] = content;
  // defineProperty: an artifact named "__proto__" must stay an own member, not a prototype.
  Object.defineProperty(st.artifacts, c.key, { value: art, enumerable: true, writable: true, configurable: true });
  c.done = true;
}

function artifactJson(st: ReadState, key: string, content: string, n: number): unknown {
  let v: unknown;
  try {
    const parsed = parseCanonical(content, { lazy: true }); // hashed later, from the model
    v = parsed.value;
    if (parsed.warnings.length > 0)
      st.findings.push(...changedNumbers(parsed.warnings, DUMP_NUMBERS, `/artifacts/${key}/json`));
  } catch (e) {
    throw new RomError('RPR-DUMP-003', `the JSON content of artifact ${key} is not I-JSON: ${why(e)}`, n);
  }
  const order = checkOrder(content, `/artifacts/${key}/json`);
  if (order) st.findings.push(order);
  return v;
}

/**
 * The YAML parser, loaded on first need: only ROM dumps use it, and it is the largest module
 * the engine would otherwise load at start-up (~60 ms of every CLI run and batch worker).
 */
let yaml: typeof YamlModule | undefined;
export async function loadRomParser(): Promise<void> {
  yaml ??= await import('yaml');
}

/** A double-quoted JSON string, the one place a front-matter line may hold a `#` that is no comment. */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/**
 * Refuses a YAML comment in the front matter: YAML drops it, so it is text the model, the
 * report and the signature never see ("# APPROVED BY AUDITOR" would ride along in a dump
 * that verifies). The format is closed: every line is a key and its JSON scalar.
 */
function refuseComments(src: string): void {
  src.split('\n').forEach((line, i) => {
    if (line.replace(QUOTED, '').includes('#'))
      throw atLine(
        'RPR-DUMP-005',
        'a YAML comment in the front matter: the ROM dump format is closed, and a comment is text nothing signs',
        i + 2, // a 1-based line after the opening "---"
      );
  });
}

function readFrontMatter(src: string, model: DumpModel, findings: Finding[]): void {
  if (!yaml) throw new Error('the ROM front-matter parser was not loaded (call loadRomParser first)');
  refuseComments(src);
  const { parseDocument, isMap, isScalar } = yaml;
  const doc = parseDocument(src, {
    schema: 'core',
    customTags: [],
    uniqueKeys: true,
    strict: true,
    merge: false,
    version: '1.2',
  });
  const first = doc.errors[0] ?? doc.warnings[0];
  if (first) {
    const dup = first.code === 'DUPLICATE_KEY';
    throw atLine(
      dup ? 'RPR-DUMP-003' : 'RPR-DUMP-005',
      `front matter: ${first.message.split('\n')[0]}`,
      (first.linePos?.[0]?.line ?? 0) + 1,
    );
  }
  const contents = doc.contents;
  if (contents === null) return;
  if (!isMap(contents)) throw atLine('RPR-DUMP-005', 'the front matter is not a YAML mapping', 2);
  const seen = new Set<string>();
  for (const item of contents.items) {
    const k = isScalar(item.key) ? item.key.value : undefined;
    const line = lineAt(src, (item.key as { range?: number[] } | null)?.range?.[0] ?? 0) + 1;
    if (typeof k !== 'string') throw atLine('RPR-DUMP-005', 'a front-matter key is not a plain string', line);
    const id = k.length <= MAX_ID ? canonicalId(k) : k;
    const place = placeByKey.get(`front:${id}`);
    if (!place)
      throw atLine('RPR-DUMP-001', `unknown front-matter key ${quote(k)}: the ROM dump format is closed`, line);
    if (seen.has(id)) throw atLine('RPR-DUMP-003', `front-matter key "${id}" appears twice`, line);
    seen.add(id);
    if (!isScalar(item.value)) throw atLine('RPR-DUMP-005', `front-matter value of "${k}" must be a scalar`, line);
    if (item.value.tag !== undefined || item.value.anchor !== undefined || item.key.tag !== undefined) {
      throw atLine(
        'RPR-DUMP-005',
        `front-matter value of "${k}" carries a YAML tag or anchor; ROM front matter is plain core-schema YAML`,
        line,
      );
    }
    const range = (item.value as { range?: readonly number[] }).range;
    setPath(
      model,
      place.path,
      frontMatterValue(range ? src.slice(range[0], range[1]) : '', k, '/' + place.path.join('/'), line, findings),
    );
  }
}

/**
 * The value is read from its source text as JSON, not as YAML resolved it: YAML's core
 * schema would also take `0x2A`, `+42`, `'single'` or a plain `text`, and round an integer
 * beyond 2^53, each a second spelling of a value that the signature cannot see.
 */
function frontMatterValue(raw: string, k: string, pointer: string, line: number, findings: Finding[]): unknown {
  let v: unknown;
  try {
    const parsed = parseCanonical(raw, { lazy: true }); // only the value is read: no canonical text
    v = parsed.value;
    if (parsed.warnings.length > 0) findings.push(...changedNumbers(parsed.warnings, DUMP_NUMBERS, pointer));
  } catch {
    v = undefined;
  }
  if (v === undefined || (typeof v === 'object' && v !== null)) {
    throw atLine(
      'RPR-DUMP-005',
      `front-matter value of "${k}" is not written as a JSON scalar (a double-quoted string, a number, true, false or null): ${quote(raw)}`,
      line,
    );
  }
  return v;
}
