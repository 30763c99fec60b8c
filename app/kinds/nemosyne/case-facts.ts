/**
 * What a Nemosyne package offers a reviewer's case (KindOperations.caseFacts, docs/case.md):
 * each member's SHA-256 as its verification recomputed it (the chain's `entry:<name>`
 * nodes), so a replay dump whose material hash is a member's bytes links to that member;
 * each JSON member its verification parsed (the manifest, the dataset, the ledger, the
 * receipt and forma entries, and the representation, discoveries and NIL outcomes a case
 * parses itself) also by H(json), the hash of its canonical JSON, as a dump
 * names a JSON material (upstream writes members with `JSON.stringify`, never canonically);
 * and the times it carries (times.ts), with a count of those it does not offer (which cannot
 * be placed, or past `--limit nemosyne-timeline`), so the case says its timeline lacks them
 * (RPR-CASE-004), as for an ACGP trace's EVALs. All from the parse the verification made, handed
 * over per artifact (ForCase). The package names nothing outside itself.
 */
import type { Report } from '../../../shared/report.js';
import { hashValue } from '../../core/hash.js';
import { decodeJsonBytes, parseCanonical } from '../../core/jcs.js';
import type { CaseFacts, CaseIdentity } from '../operations.js';
import type { Sniffed } from '../sniff.js';
import { TIMELINE_LIMIT } from './limits.js';
import type { PackageTimes, TimesLeftOut } from './times.js';

/** What a package's verification read that its case facts use. */
export interface ForCase {
  times: PackageTimes;
  /** Each JSON member parsed strictly with no number changed, by name. */
  json: Map<string, unknown>;
  /** JSON members verification does not parse (upstream parses them on replay only), by name: parsed here for a case. */
  unparsed: Map<string, Buffer>;
}

/** Each package's, from its verification until its case facts are read. */
const heard = new WeakMap<Sniffed, ForCase>();

/** What verify fills for the package `s`. */
export function forCaseOf(s: Sniffed): ForCase {
  const f: ForCase = { times: [], json: new Map(), unparsed: new Map() };
  heard.set(s, f);
  return f;
}

export function packageCaseFacts(report: Report, s: Sniffed | undefined): CaseFacts {
  const identities: CaseIdentity[] = report.chain
    .filter((n) => n.id.startsWith('entry:') && n.recomputed !== null && n.recomputed.startsWith('sha256:'))
    .map((n) => ({ value: n.recomputed!, pointer: n.pointer ?? n.id }));
  const f = s ? heard.get(s) : undefined;
  if (s) heard.delete(s);
  if (!f) return { identities, references: [], events: [] };
  const byBytes = new Set(identities.map((i) => i.value));
  for (const [name, bytes] of f.unparsed) {
    const value = strictJson(bytes);
    if (value !== undefined) f.json.set(name, value);
  }
  for (const [name, value] of f.json) {
    let h: string;
    try {
      h = hashValue(value);
    } catch {
      continue; // canonical text past what one string holds: the member keeps its bytes' identity
    }
    // A member written canonically already has this identity, by its bytes.
    if (!byBytes.has(h)) identities.push({ value: h, pointer: `entry:${name}` });
  }
  const events = f.times.map((t) => ({ atUtc: t.atUtc, pointer: t.pointer, label: t.label, node: null }));
  const facts: CaseFacts = { identities, references: [], events };
  if (f.times.leftOut) facts.eventsLeftOut = leftOutFacts(f.times.leftOut);
  return facts;
}

/** What the package's times offer no case, in words that say why, and for a limit, how to have them. */
function leftOutFacts(l: TimesLeftOut): NonNullable<CaseFacts['eventsLeftOut']> {
  const why: string[] = [];
  if (l.refused > 0) {
    const each = l.shown.map((s) => `${s.pointer} ${s.value}: ${s.why}`).join('; ');
    const more = l.refused > l.shown.length ? `; and ${l.refused - l.shown.length} more` : '';
    why.push(
      `${l.refused} cannot be placed in time, not being whole epoch milliseconds in years 0000-9999 (RPR-NEM-039): ${each}${more}`,
    );
  }
  if (l.past > 0)
    why.push(
      `${l.past} commands.log time(s) past the first ${l.limit} its report offers a case (limit ${TIMELINE_LIMIT}; --limit ${TIMELINE_LIMIT}=${l.events} keeps every one)`,
    );
  return { count: l.refused + l.past, why: why.join('; ') };
}

/**
 * A member's value when it is I-JSON with no number changed by the parse, else undefined:
 * such a member is named by its bytes only, as one the verification refused would be (a
 * canonical hash of a changed number names content the package does not hold).
 */
function strictJson(bytes: Buffer): unknown {
  try {
    const p = parseCanonical(decodeJsonBytes(bytes));
    return p.warnings.length === 0 ? p.value : undefined;
  } catch {
    return undefined;
  }
}
