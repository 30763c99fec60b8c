import type { EvidenceDelta } from '../../../shared/api';
import { ColumnHeads } from './ColumnHeads';

/**
 * The comparisons in a case's evidence in exact decimals: original and replayed as the entry
 * wrote them, and |replayed − original| as the host computed it in exact decimal arithmetic
 * (the window does no arithmetic on binary floats); a written delta that differs from it is
 * named, since a float subtraction writes 0.09999999999999998 for a difference of 0.1.
 */
export function EvidenceDeltas({ deltas }: { deltas: EvidenceDelta[] | undefined }) {
  if (!deltas?.length) return null;
  return (
    <table className="grid small" data-testid="evidence-deltas">
      <caption>Comparisons in the evidence, in exact decimals</caption>
      <ColumnHeads names={['Output', 'Original', 'Replayed', '|Δ| (exact)', 'Δ as written', 'ε']} />
      <tbody>
        {deltas.map((d) => (
          <tr key={d.pointer}>
            <td className="mono">{d.output ?? d.pointer}</td>
            <td className="mono evidence-num">{d.original}</td>
            <td className="mono evidence-num">{d.replayed}</td>
            <td className="mono evidence-num" data-testid="evidence-delta-exact">
              {d.exact}
            </td>
            <td className={d.agrees || d.written === null ? 'mono evidence-num' : 'mono evidence-num bad'}>
              {d.written === null
                ? 'none written'
                : d.agrees
                  ? d.written
                  : d.floatRounding
                    ? `${d.written}: not the exact difference (it is what a binary float subtraction gives)`
                    : `${d.written}: not the exact difference`}
            </td>
            <td className="mono nowrap">{d.epsilon ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
