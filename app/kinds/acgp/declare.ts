/**
 * Kinds `acgp-eval` (one EVAL payload) and `acgp-trace` (a JSON array or a JSON Lines
 * file of one trace's EVALs in time order), detected by content. Their checks (index.ts)
 * load when a job of theirs runs.
 */
import type { Sniffed } from '../sniff.js';
import type { KindHandler, KindLimit, KindOption } from '../types.js';
import { ACGP_RULES } from './rule-ids.js';
import { ACGP_LIMITS, LINE_LIMIT, PRIVATE_PROVIDERS_LIMIT } from './limits.js';

/** An object that looks like an EVAL payload (its distinctive members). */
export function isEvalLike(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  return 'ctq_dimensions' in v || ('ctq_score' in v && 'trust_debt' in v);
}

/**
 * Whether the first line looks like an EVAL. A line longer than the line limit is never
 * parsed (its parse could take gigabytes: lines.ts); it looks like one when it names an
 * EVAL's distinctive members, and the check then refuses it for its length.
 */
function firstLineEvalLike(s: Sniffed): boolean {
  const b = s.bytes;
  let end = b.indexOf(0x0a);
  if (end === -1) return false;
  if (end > 0 && b[end - 1] === 0x0d) end--;
  const line = b.subarray(0, end);
  if (line.length > ACGP_LIMITS[LINE_LIMIT])
    return line.includes('"ctq_dimensions"') || (line.includes('"ctq_score"') && line.includes('"trust_debt"'));
  try {
    return isEvalLike(JSON.parse(line.toString('utf8')));
  } catch {
    return false;
  }
}

export function isJsonLinesTrace(s: Sniffed): boolean {
  if (s.firstChar() !== '{') return false;
  const j = s.json();
  if (j && (j.ok || j.loose !== undefined)) return false;
  return firstLineEvalLike(s);
}

/**
 * A JSON Lines trace's lines as a diff compares them (KindDeclarations.contentDocuments): an
 * array of their values, line i + 1 at index i, as its findings point (`/3/review_required`)
 * and as a JSON array trace is compared. Split as the check splits them (lines.ts): at LF, a
 * CR before it dropped, blank lines at the end not lines of the trace.
 */
function traceLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const ACGP_OPTIONS = [
  {
    name: 'policy',
    flag: 'policy',
    arg: 'FILE',
    path: 'file',
    workbench: true,
    help: 'a policy (a TG policy bundle, an ACGP policy) the artifact is checked against',
    // A tripwire whose action neither the EVAL nor a policy gives is undecided (recompute.ts).
    decides: ['RPR-ACGP-018'],
  },
] as const satisfies readonly KindOption[];
const ACGP_LIMIT_HELP: Record<keyof typeof ACGP_LIMITS, string> = {
  'acgp-findings': 'findings kept in one ACGP report',
  'acgp-comparisons': 'comparisons kept in one ACGP report',
  'acgp-trajectory': 'trust-debt points kept in one ACGP report',
  [LINE_LIMIT]: 'bytes of one line of a JSON Lines trace; a longer line is refused unread',
  [PRIVATE_PROVIDERS_LIMIT]:
    'private trust-debt providers one ACGP report names; the EVALs of the rest are counted (RPR-ACGP-013)',
};
const ACGP_LIMIT_LIST: readonly KindLimit[] = Object.entries(ACGP_LIMITS).map(([name, d]) => ({
  name,
  default: d,
  help: ACGP_LIMIT_HELP[name as keyof typeof ACGP_LIMITS],
}));
/**
 * ACGP's value checks (recompute.ts, eval-form.ts, debt-replay.ts; docs/rules/acgp.md): each
 * carries the recomputed value as `expected` and the recorded one as `actual`. ACGP's other
 * findings with both values hold the content against a rule or a reference (weights
 * summing to 1, the trace's id, a digest's form), not against a recomputation.
 */
const ACGP_RECOMPUTED = [
  'RPR-ACGP-005',
  'RPR-ACGP-006',
  'RPR-ACGP-007',
  'RPR-ACGP-010',
  'RPR-ACGP-020',
  'RPR-ACGP-021',
  'RPR-ACGP-022',
  'RPR-ACGP-023',
] as const;
/** The statement of both ACGP kinds (acgp-trace's streamed reports included). */
const ACGP_CONSISTENCY = 'carry no signature; the engine checks their internal consistency and recomputation only.';

export const acgpEvalKind: KindHandler<typeof ACGP_OPTIONS> = {
  kind: 'acgp-eval',
  rules: { doc: 'docs/rules/acgp.md', ids: ACGP_RULES },
  options: ACGP_OPTIONS,
  limits: ACGP_LIMIT_LIST,
  examples: async () => (await import('./examples.js')).acgpWriter,
  consistencyOnly: `ACGP evaluations ${ACGP_CONSISTENCY}`,
  recomputedRules: ACGP_RECOMPUTED,
  detect(s) {
    const j = s.json();
    return j !== null && isEvalLike(j.ok ? j.value : j.loose);
  },
  load: async () => (await import('./index.js')).evalCode,
};

export const acgpTraceKind: KindHandler<typeof ACGP_OPTIONS> = {
  kind: 'acgp-trace',
  rules: { doc: 'docs/rules/acgp.md', ids: ACGP_RULES },
  options: ACGP_OPTIONS,
  limits: ACGP_LIMIT_LIST,
  consistencyOnly: `ACGP traces ${ACGP_CONSISTENCY}`,
  recomputedRules: ACGP_RECOMPUTED,
  contentDocuments: { unit: 'line', split: traceLines },
  detect(s) {
    const j = s.json();
    if (j !== null) {
      const v = j.ok ? j.value : j.loose;
      if (Array.isArray(v)) return v.length > 0 && isEvalLike(v[0]);
    }
    return isJsonLinesTrace(s);
  },
  load: async () => (await import('./index.js')).traceCode,
};
