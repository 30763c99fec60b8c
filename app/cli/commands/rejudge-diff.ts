/**
 * `reprise rejudge diff OLD NEW`: every artifact whose verdict changed between two
 * re-judgements, and why (the rules that came and went), then every one whose content or
 * rules changed under the same verdict; exit 0 when no artifact changed, 1 when one did or is
 * in one side only (as diff(1) does), 3 when either side is not a complete judgement.
 */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { UsageError } from '../../core/errors.js';
import { diffJudgements, type ArtifactChange, type JudgementDiff } from '../../jobs/rejudge/diff.js';
import type { RuleHit } from '../../rejudge/index.js';
import { safeText } from '../../core/text.js';
import { parse } from '../args.js';
import type { CliIO } from '../io.js';
import { INFO } from './info.js';

const hits = (h: RuleHit[]): string => h.map((x) => `${x.rule} (${x.severity})`).join(', ');

function changeLine(c: ArtifactChange): string {
  const why = [
    c.added.length > 0 ? `now ${hits(c.added)}` : '',
    c.removed.length > 0 ? `no longer ${hits(c.removed)}` : '',
    c.sha256.old !== c.sha256.new ? `content changed (${c.sha256.old} -> ${c.sha256.new})` : '',
  ].filter(Boolean);
  return `${c.verdict.old} -> ${c.verdict.new}  ${safeText(c.path)}${why.length > 0 ? `: ${why.join('; ')}` : ''}\n`;
}

function diffText(d: JudgementDiff): string {
  const lines: string[] = [];
  if (d.engine) lines.push(`engine: ${d.engine.old} -> ${d.engine.new}\n`);
  for (const o of d.options) lines.push(`option ${o.name}: ${o.old ?? '(none)'} -> ${o.new ?? '(none)'}\n`);
  lines.push(...d.changed.map(changeLine), ...d.sameVerdict.map(changeLine));
  for (const n of d.added) lines.push(`only in NEW  ${safeText(n)}\n`);
  for (const n of d.removed) lines.push(`only in OLD  ${safeText(n)}\n`);
  lines.push(
    `${d.changed.length} verdict(s) changed, ${d.sameVerdict.length} changed under the same verdict (content or rules), ${d.unchanged} unchanged, ${d.added.length} artifact(s) only in NEW, ${d.removed.length} only in OLD\n`,
  );
  return lines.join('');
}

export async function diffCommand(args: string[], io: CliIO): Promise<ExitCode> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } }, INFO.rejudge.usage);
  if (positionals.length !== 2)
    throw new UsageError(
      `diff takes OLD and NEW (each a shard file, a records file or a directory of shard files)\nusage: ${INFO.rejudge.usage}`,
    );
  const d = await diffJudgements(positionals[0]!, positionals[1]!);
  io.out(values['json'] ? JSON.stringify(d, null, 2) + '\n' : diffText(d));
  // A changed option (the new trust store) is what a re-judgement tries, not a difference in what it judged.
  const differs = d.changed.length + d.sameVerdict.length + d.added.length + d.removed.length > 0;
  return differs ? EXIT.fail : EXIT.pass;
}
