/**
 * How the artifact's text marks the selected place. A failing finding or a node whose hashes
 * do not match is a problem, marked as one (red, wavy); any other place (a matching node, the
 * field a case's timeline event names) is only where to look, and a red wavy line there
 * would read as an error on an artifact that passed.
 */
import type { ChainNode, Finding } from '../../../shared/report';

export type HighlightTone = 'problem' | 'place';

/** The decoration of each tone: its classes (styles.css) and its mark in the overview ruler. */
export const HIGHLIGHT: Record<HighlightTone, { className: string; inlineClassName: string; ruler: string }> = {
  problem: { className: 'finding-region', inlineClassName: 'finding-region-inline', ruler: '#d33' },
  place: { className: 'place-region', inlineClassName: 'place-region-inline', ruler: '#0969da' },
};

/** A finding is a problem unless it only informs; a node is one when its hashes do not match. */
export function highlightTone(finding: Pick<Finding, 'severity'> | undefined, node: ChainNode | null): HighlightTone {
  if (finding) return finding.severity === 'info' ? 'place' : 'problem';
  return node && node.status !== 'match' ? 'problem' : 'place';
}

/**
 * What the detail panel says above the text when neither a node nor a finding is shown: the
 * place a case's timeline event opened (the only selection made of a pointer alone), or how
 * to choose one. Null when a node or a finding says what is shown.
 */
export function placeHeading(shown: { node: boolean; finding: boolean; pointer: string | null }): string | null {
  if (shown.node || shown.finding) return null;
  return shown.pointer
    ? "The case event's place in the artifact (highlighted below):"
    : 'Select a node (or open a finding) to see it in the artifact.';
}
