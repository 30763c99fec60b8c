/**
 * A ROM dump cut short at a line's end: every line that is there reads well, so nothing in
 * the syntax says the text stopped early (a cut inside a line, a fenced block or the front
 * matter is told by the reader itself, rom-reader.ts). What does say it is where the text
 * ends in the writer's order: the writer (rom-encoding.ts) emits the sections in
 * SECTION_ORDER and the artifacts in ascending key order, so a copy cut at a line's end
 * holds a prefix of that order, and everything missing from it would have come after the
 * last part present. Only then are the findings about what is missing (RDS-001: a
 * mandatory member; RDS-002: an artifact the dump names) worded as a possible cut; a part
 * missing from the middle, or a document not in the writer's order, is told as it is.
 */
import type { Finding } from '../../../shared/report.js';
import { cutShort } from '../../core/findings.js';
import { HEADINGS, PLACES, SECTION_ORDER, type BodySection } from './rom-mapping.js';

/** The parts of a ROM text in the order the text gives them. */
export interface RomEnd {
  sections: BodySection[];
  artifacts: string[];
}

const HASH = /sha256:[0-9a-f]{64}/;
const sectionOfMember = new Map<string, BodySection>([['artifacts', 'artifacts']]);
for (const p of PLACES) if (p.section !== 'front') sectionOfMember.set(p.path[0]!, p.section);

const heading = (s: BodySection): string => `"# ${HEADINGS[s]}"`;

/** True when the text's parts are a prefix of the writer's order (sections, then artifact keys ascending). */
function inWriterOrder(end: RomEnd): boolean {
  if (end.sections.some((s, i) => SECTION_ORDER[i] !== s)) return false;
  return end.artifacts.every((k, i) => i === 0 || end.artifacts[i - 1]! < k);
}

/** Why this finding's missing part may be a cut, or null when it would not have come after the text's end. */
function cutNote(end: RomEnd, f: Finding): string | null {
  const member = f.pointer?.split('/')[1];
  if (f.rule === 'RDS-001' && f.actual === 'missing' && member !== undefined) {
    const s = sectionOfMember.get(member);
    if (!s || end.sections.includes(s)) return null;
    const last = end.sections.at(-1);
    return `the text ends ${last ? `after ${heading(last)}` : 'after its front matter'}, and the writer puts ${heading(s)} after that`;
  }
  const h = typeof f.expected === 'string' ? HASH.exec(f.expected)?.[0] : undefined;
  if (
    f.rule === 'RDS-002' &&
    f.actual === 'no such artifact' &&
    h !== undefined &&
    end.sections.length === SECTION_ORDER.length
  ) {
    const last = end.artifacts.at(-1);
    if (last !== undefined && h <= last) return null;
    return `the text ends ${last ? `after artifact ${last}` : `after ${heading('artifacts')}`}, and the writer puts this artifact after that`;
  }
  return null;
}

/** The findings, with those about parts missing after the text's end worded as a possible cut. */
export function markCutShort(end: RomEnd, findings: Finding[]): Finding[] {
  if (!inWriterOrder(end)) return findings;
  return findings.map((f) => {
    const note = cutNote(end, f);
    return note ? { ...f, message: `${cutShort(f.message)}: ${note}` } : f;
  });
}
