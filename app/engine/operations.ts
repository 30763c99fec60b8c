/**
 * The kinds' operations beyond verify and replay (app/kinds/operations.ts), asked for by
 * name: the engine finds the kind that offers one in the registry and loads its code,
 * without knowing which kind answers.
 */
import { UsageError } from '../core/errors.js';
import type { KindOperations, OperationName } from '../kinds/operations.js';
import { KINDS } from '../kinds/registry.js';
import type { Sniffed } from '../kinds/sniff.js';

/**
 * The operation `op` of the first kind, in registry order, that offers it and (given an
 * artifact) detects it. Refused as a usage error in the words of every offer when no kind
 * claims the artifact.
 */
export async function operationFor<N extends OperationName>(op: N, s?: Sniffed): Promise<NonNullable<KindOperations[N]>> {
  const offering = KINDS.filter((k) => k.operations?.[op]);
  const kind = s ? offering.find((k) => k.detect(s)) : offering[0];
  if (!kind) {
    const what = offering.map((k) => k.operations?.[op]?.what).join(' or ');
    throw new UsageError(s && what ? `${s.path} is not ${what}` : `no kind offers ${op}`, 'refused');
  }
  const code = (await kind.load()).operations?.[op];
  if (!code) throw new Error(`kind ${kind.kind} declares ${op} but its code does not offer it`);
  return code;
}
