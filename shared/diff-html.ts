/**
 * A structured diff as one self-contained HTML page (the CLI's `reprise diff --html` and the
 * window's export): inline CSS, no script, no external resource, every text escaped, under a
 * Content-Security-Policy that allows nothing else (PAGE_CSP). After diffoscope's HTML
 * output, each difference is a row whose id is its permalink (rowIds: its change and pointer,
 * not its place in the listing) with a `¶` link to itself; a changed string shows its changed
 * span marked as deleted and inserted text.
 */
import {
  cutText,
  lengthWords,
  LITERAL_NOTE,
  literalNote,
  shownEntryPieces,
  shownTokens,
  spanCodePoints,
  spanParts,
  type DiffEntry,
  type DiffResult,
} from './diff.js';
import { escapeControls } from './controls.js';
import { spanStartWords } from './diff-words.js';
import { escHtml, htmlDl, PAGE_END, pageStart } from './report-html.js';
import { sha256TextHex } from './sha256.js';

/**
 * The most differences a page lists (`reprise diff --html` refuses a larger
 * `--max-differences`: a page of about 25 MB; docs/compare.md).
 */
export const PAGE_MAX_DIFFERENCES = 100_000;

/** One side of the comparison as the page names it. */
export interface DiffSideLabel {
  name: string;
  kind?: string;
  sha256?: string | null;
  verdict?: string;
  /** Whether its parsed content was compared, or why not. */
  content?: string;
}

export interface DiffPageInput {
  title: string;
  /** What was compared, in words ("two artifacts", "original against replayed"). */
  what: string;
  left: DiffSideLabel;
  right: DiffSideLabel;
  result: DiffResult;
  /** What the diff alone does not say (a replay that failed, or compared nothing), shown with the result. */
  note?: string;
  /** Nothing was compared (a replay that replayed nothing): the result is the note alone, never "Identical". */
  nothingCompared?: true;
}

/** The page's result line: the note alone when nothing was compared, else the count (or "Identical") and the note. */
function resultLine(input: DiffPageInput): string {
  const r = input.result;
  if (input.nothingCompared) return input.note ?? 'Nothing was compared.';
  const summary = r.identical
    ? 'Identical: no difference.'
    : `${r.total.toLocaleString('en')} difference${r.total === 1 ? '' : 's'}.`;
  return input.note ? `${summary} ${input.note}` : summary;
}

const DIFF_CSS = `
tr:target{outline:3px solid #0550ae;outline-offset:-3px}a.perma{color:#0550ae;text-decoration:underline}
del{background:#ffebe9;color:#82071e}ins{background:#dafbe1;color:#0a3622;text-decoration:none}
.op{font-weight:600}.note{background:#fff8c5;padding:6px 8px;border:1px solid #d4a72c;border-radius:4px}`;

/**
 * One side of a changed string: the span marked, context around it, the string isolated
 * (`<bdi>`, as each string of a value is: valueHtml) and what was cut said outside it.
 */
function spanHtml(s: string, e: DiffEntry, side: 'left' | 'right'): string {
  const p = spanParts(s, e.span!, side);
  const tag = side === 'left' ? 'del' : 'ins';
  const cut =
    p.cutChanged > 0 ? `<bdi>${escHtml(`… (${p.cutChanged.toLocaleString('en')} more characters)`)}</bdi>` : '';
  return (
    `<pre>${p.cutBefore ? '…' : ''}<bdi>${escHtml(p.before)}<${tag}>${escHtml(p.changed)}</${tag}>` +
    `${cut}${escHtml(p.after)}</bdi>${p.cutAfter ? '…' : ''}</pre>` +
    (s.length > 80
      ? `<small>${escHtml(`${s.length.toLocaleString('en')} characters; ${spanStartWords(e.span!.prefix)}`)}</small>`
      : '')
  );
}

function cell(e: DiffEntry, side: 'left' | 'right'): string {
  const v = e[side];
  if (v === undefined) return '<em>absent</em>';
  if (e.span && typeof v === 'string') return spanHtml(v, e, side);
  const literal = side === 'left' ? e.leftLiteral : e.rightLiteral;
  if (literal !== undefined) return `<pre>${escHtml(cutText(literal))}</pre><small>${escHtml(LITERAL_NOTE)}</small>`;
  // Cut before it is escaped (shownEntryPieces): no escape split, the rest counted in the value's
  // characters; a number beyond double precision inside it as written (DiffEntry.leftText).
  const note = literalNote(e, side);
  return `<pre>${valueHtml(e, side)}</pre>${note === null ? '' : `<small>${escHtml(note)}</small>`}`;
}

/**
 * One side shown whole, pretty-printed, each JSON string in it (a member name, a value)
 * isolated in a `<bdi>`: the bidirectional algorithm would otherwise reorder the tokens
 * around a string in a right-to-left script, `"א": "1"` reading as `"1" :"א"`, a member "1"
 * holding a Hebrew value. Markup only, no script, as the rest of the page.
 */
function valueHtml(e: DiffEntry, side: 'left' | 'right'): string {
  const { pieces, more } = shownEntryPieces(e, side, 2);
  const text = pieces.map((p) => (p.string ? `<bdi>${escHtml(p.text)}</bdi>` : escHtml(p.text))).join('');
  return `${text}${escHtml(more)}`;
}

/** The code points of a change that does not read as what it is (spanCodePoints), or nothing. */
function points(e: DiffEntry): string {
  const p = spanCodePoints(e);
  return p === null ? '' : `<small>${escHtml(p)}</small>`;
}

/** One pointer: each token isolated (`<bdi>`), so a right-to-left name never reorders the tokens around it. */
function pointerHtml(pointer: string): string {
  if (pointer === '') return '(the whole value)';
  return shownTokens(pointer)
    .map((t) => `/<bdi>${escHtml(t)}</bdi>`)
    .join('');
}

/**
 * Where a difference (or a length) is, as shownPlace says it, laid out left to right
 * (`dir="ltr"`) with each token isolated: `/content/ב/1/א` shows as written, not as the
 * bidirectional algorithm would reorder it (`/content/א/1/ב`, another member's pointer).
 */
function placeHtml(p: { pointer: string; rightPointer?: string }): string {
  const right = p.rightPointer === undefined ? '' : ` (right: ${pointerHtml(p.rightPointer)})`;
  return `<code dir="ltr">${pointerHtml(p.pointer)}${right}</code>`;
}

/** An id's pointer is at most this many characters from its start and from its end (percent-encoded). */
const ID_HEAD = 48;
const ID_TAIL = 16;

/** A pointer percent-encoded (letters, digits and `-_.%` left; a lone surrogate as U+FFFD). */
function encodedPointer(p: string): string {
  // encodeURIComponent leaves !'()*~ as they are: encoded too, `~` is the id's own.
  return encodeURIComponent(p.toWellFormed()).replace(
    /[!'()*~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Hex digits of a pointer's SHA-256 an id keeps: 128 bits, past any search for two pointers that share them. */
const ID_HASH_HEX = 32;

/**
 * A pointer's hash as its id holds it: `h` and the first 128 bits of the SHA-256 of the
 * pointer written as a JSON string (JSON.stringify writes a lone surrogate as its escape, so
 * no two pointers are written alike), in lowercase hex. It tells apart two pointers an id
 * cannot hold whole (alike at both ends and of one length) or that encode alike (a lone
 * surrogate is encoded as U+FFFD). Cryptographic, since the pointers are the inputs' member
 * names, anyone's to choose: were two names crafted to share an id, the second listed would
 * take the order's `~2`, and a saved link to it would name the other field on the page of a
 * later comparison that lists only that other.
 */
function pointerHash(p: string): string {
  return `h${sha256TextHex(JSON.stringify(p)).slice(0, ID_HASH_HEX)}`;
}

/**
 * A pointer as an id holds it: encoded whole when short, as every page has written it; else
 * its encoded start and end, never cut inside an escape, with its length and its hash between
 * (`~104~h…~`), so a page's ids stay short however long its pointers are (the pointers' own
 * text is what the listing's budget bounds) and two pointers alike at both ends are told
 * apart by what they are, not by which comes first. A pointer that is not well-formed UTF-16
 * (a lone surrogate, encoded as U+FFFD) carries its hash too.
 */
function idPointer(p: string): string {
  const e = encodedPointer(p);
  if (e.length <= ID_HEAD + ID_TAIL + 8) return p.isWellFormed() ? e : `${e}~${pointerHash(p)}`;
  let head = ID_HEAD;
  if (e[head - 1] === '%') head -= 1;
  else if (e[head - 2] === '%') head -= 2;
  let tail = e.length - ID_TAIL;
  if (e[tail - 1] === '%') tail += 2;
  else if (e[tail - 2] === '%') tail += 1;
  return `${e.slice(0, head)}~${p.length}~${pointerHash(p)}~${e.slice(tail)}`;
}

/**
 * Each difference's id, its permalink: `d-` and its change and pointer (and its right-hand
 * pointer when the alignment moved it), percent-encoded, so the id is its own link and a
 * browser matches it as written. A position would name another difference once either input
 * changed before it; a pointer names the same field on every page of the two inputs'
 * comparison. Distinct pointers make distinct ids (128 bits of SHA-256 tell apart those an id
 * cannot hold whole); the count (`~2`) only keeps two rows from ever sharing an id.
 */
export function rowIds(differences: readonly DiffEntry[]): string[] {
  const seen = new Map<string, number>();
  return differences.map((e) => {
    const right = e.rightPointer === undefined ? '' : `-${idPointer(e.rightPointer)}`;
    const base = `d-${e.op}-${idPointer(e.pointer)}${right}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}~${n}`;
  });
}

function row(e: DiffEntry, i: number, id: string): string {
  return (
    `<tr id="${escHtml(id)}"><td><a class="perma" href="#${escHtml(id)}" aria-label="${escHtml(`permalink to difference ${i + 1}`)}">¶</a> ${i + 1}</td>` +
    `<td class="op">${escHtml(e.op)}</td><td>${placeHtml(e)}</td>` +
    `<td>${cell(e, 'left')}</td><td>${cell(e, 'right')}</td>` +
    `<td>${e.difference !== undefined ? `<code>${escHtml(e.difference)}</code>` : ''}${points(e)}</td></tr>`
  );
}

/**
 * A side as its file name, kind, verdict, hash and content. The name is a file's, anyone's
 * to choose: it is shown as values are (a typed `\u202e` with its backslash doubled, so it
 * never reads as an escaped U+202E) and set apart in code, so a name holding " · PASS" never
 * reads as the side's verdict.
 */
const sidePairs = (s: DiffSideLabel): string =>
  [
    `<code>${escHtml(escapeControls(s.name, { everyInvisible: true }))}</code>`,
    ...[s.kind, s.verdict?.toUpperCase(), s.sha256, s.content].filter(Boolean).map(escHtml),
  ].join(' · ');

/**
 * Why the page lists fewer than it counts: the count's limit (which a flag raises), or the
 * listed pointers' total length (DiffResult.pointerBudget, which nothing raises: past it a
 * listing would repeat the long paths above its differences without bound).
 */
function capReason(r: DiffResult): string {
  if (r.truncatedBy === 'pointers')
    return `(their pointers reached ${r.pointerBudget.toLocaleString('en')} characters, the most a listing holds; every one is counted).`;
  const limit = `(limit ${r.limit.toLocaleString('en')}; every one is counted).`;
  // At the page's most, no flag raises it: --html refuses more, and only --json lists them.
  if (r.limit >= PAGE_MAX_DIFFERENCES)
    return `${limit} A page lists at most ${PAGE_MAX_DIFFERENCES.toLocaleString('en')}; <code>reprise diff --json</code> lists more.`;
  return `${limit} Raise the limit with <code>reprise diff --max-differences N</code> (at most ${PAGE_MAX_DIFFERENCES.toLocaleString('en')} with <code>--html</code>).`;
}

function rowsHtml(differences: readonly DiffEntry[]): string {
  const ids = rowIds(differences);
  return differences.map((e, i) => row(e, i, ids[i]!)).join('');
}

/** The page: what was compared, the count, every listed difference with its permalink. */
export function diffPage(input: DiffPageInput): string {
  const r = input.result;
  const cap = r.truncated
    ? `<p class="note" role="note">Showing the first ${r.differences.length.toLocaleString('en')} of ${r.total.toLocaleString('en')} differences ${capReason(r)}</p>`
    : '';
  // As htmlDl lays them out, but each term is a pointer's markup (placeHtml), not text.
  const lengths = r.lengths.map((l) => `<dt>${placeHtml(l)}</dt><dd>${escHtml(lengthWords(l))}</dd>`);
  return [
    ...pageStart(input.title, { csp: true }).map((l) => l.replace('</style>', `${DIFF_CSS}</style>`)),
    `<h1>${escHtml(input.title)}</h1>`,
    htmlDl([
      ['compared', escHtml(input.what)],
      ['left', sidePairs(input.left)],
      ['right', sidePairs(input.right)],
      ['result', escHtml(resultLine(input))],
    ]),
    cap,
    lengths.length ? `<h2>Lengths that differ</h2><dl>${lengths.join('')}</dl>` : '',
    r.differences.length === 0
      ? ''
      : `<h2>Differences</h2><table><thead><tr><th style="width:6%">#</th><th style="width:8%">change</th><th style="width:20%">pointer</th><th>left</th><th>right</th><th style="width:12%">right − left</th></tr></thead><tbody>${rowsHtml(r.differences)}</tbody></table>`,
    PAGE_END,
    '',
  ].join('\n');
}
