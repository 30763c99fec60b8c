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
 * The writer emits every place in the canonical order of the JSON member it holds; the
 * reader (rom-reader.ts) canonicalizes, so order and formatting noise are no part of the
 * document there.
 */
import type { Finding, JsonValue } from '../../../shared/report.js';
import { fail } from './findings.js';
import { checkJsonData, decodeJsonBytes, JcsError } from '../../core/jcs.js';
import type { Sniffed } from '../sniff.js';
import { UTF8_BOM } from './declare.js';
import type { Decoded } from './json-encoding.js';
import { DUMP_TYPE, isObject, namesToWrite, valueToWrite, type DumpModel, type WriteOrder } from './model.js';
import { HEADINGS, placeByPath, type Form, type Section } from './rom-mapping.js';
import type { RomEnd } from './rom-end.js';
import { MAX_FRONT_MATTER_CHARS, readRom, readRomFrontMatter, RomError } from './rom-reader.js';

export { HEADINGS, PLACES } from './rom-mapping.js';
export { loadRomParser, MAX_FRONT_MATTER_LINES } from './rom-reader.js';

const SAFE_LINK = /^[^[\]\n\r\s](?:[^[\]\n\r]*[^[\]\n\r\s])?$/;

// ---------------------------------------------------------------------------
// Reading (rom-reader.ts)

/**
 * Why a ROM dump is not read as text (RPR-DUMP-005). A byte-order mark is refused by name:
 * AIKernel.Core's RomLoader decodes the bytes with Encoding.UTF8.GetString, which keeps the
 * mark, and its MarkdownFrontMatterParser then requires the text to start with "---"
 * (ordinal), so upstream refuses such a file ("YAML front matter is required").
 */
function notText(s: Sniffed): Finding {
  if (!s.startsWith(UTF8_BOM)) return fail('RPR-DUMP-005', 'the ROM file is not UTF-8 text');
  return fail(
    'RPR-DUMP-005',
    'the ROM dump begins with a byte-order mark (U+FEFF, bytes EF BB BF) before its front matter: a ROM text starts with its "---" line, as AIKernel.Core\'s ROM loader requires, so the dump is not read; save it as UTF-8 without a byte-order mark',
    { pointer: 'line:1', expected: 'the front matter\'s "---" line at byte 0', actual: 'a byte-order mark (EF BB BF)' },
  );
}

/**
 * Bytes after a byte-order mark looked at for the dump's id: the front matter's bound at up
 * to 4 bytes a character, and 64 KiB for the blanks around its lines, which it does not count.
 */
const ID_WINDOW = 4 * MAX_FRONT_MATTER_CHARS + 64 * 1024;

/**
 * The `id` of a ROM dump refused for its byte-order mark, read from its front matter behind
 * the mark as the reader reads a front matter (rom-reader.ts), so that the report names the
 * dump refused, as its JSON twin's does (Sniffed.topLevelString). Undefined when that front
 * matter would be refused (or is not whole, strict UTF-8 within ID_WINDOW): then no id is
 * shown. Only the id: the dump stays refused, its verdict unchanged.
 */
function idBehindBom(s: Sniffed): string | undefined {
  const b = s.bytes;
  const from = UTF8_BOM.length;
  let end = Math.min(b.length, from + ID_WINDOW);
  // A line the window cuts is no line of the text: only whole lines are read.
  if (end < b.length) end = b.lastIndexOf(0x0a, end - 1) + 1;
  if (end <= from) return undefined;
  try {
    const id = readRomFrontMatter(decodeJsonBytes(b.subarray(from, end)))['dumpId'];
    return typeof id === 'string' ? id : undefined;
  } catch (e) {
    if (e instanceof RomError || e instanceof JcsError) return undefined;
    throw e;
  }
}

/**
 * Reads ROM text into the dump model; syntax errors become RPR-DUMP-005 (`line:n`). `end`
 * is where the text stops in the writer's order (rom-end.ts).
 */
export function decodeRom(s: Sniffed): Decoded & { end?: RomEnd } {
  const text = s.text();
  if (text === null) {
    const bom = s.startsWith(UTF8_BOM);
    const id = bom ? idBehindBom(s) : undefined;
    return { model: null, findings: [notText(s)], ...(id !== undefined && { id }) };
  }
  const findings: Finding[] = [];
  try {
    const { model, end } = readRom(text, findings);
    // Each value was parsed on its own: nesting is checked here against the whole dump
    // (an artifact's JSON sits three levels down), as the JSON encoding's one parse does.
    checkJsonData(model);
    return { model, findings, end };
  } catch (e) {
    if (e instanceof RomError)
      return {
        model: null,
        findings: [...findings, fail(e.rule, e.message, { pointer: `line:${e.lineIn(text)}` })],
      };
    if (e instanceof JcsError)
      return {
        model: null,
        findings: [
          ...findings,
          fail(
            'RPR-DUMP-003',
            `a value is not I-JSON: ${e.message}`,
            e.pointer !== undefined ? { pointer: e.pointer } : {},
          ),
        ],
      };
    throw e;
  }
}

// ---------------------------------------------------------------------------
// Writing

function formatValue(v: unknown, form: Form, order: WriteOrder): string {
  if (form === 'link' && typeof v === 'string' && SAFE_LINK.test(v)) return `[[${v}]]`;
  if (
    form === 'links' &&
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((x) => typeof x === 'string' && SAFE_LINK.test(x))
  )
    return v.map((x) => `[[${x as string}]]`).join(', ');
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
      out[top.section].push(
        top.section === 'front'
          ? `${top.key}: ${JSON.stringify(v)}`
          : `* [${top.key}]: ${formatValue(v, top.form, order)}`,
      );
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
