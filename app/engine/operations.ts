/**
 * The kinds' operations beyond verify and replay (app/kinds/operations.ts), asked for by
 * name: the engine finds the kind that offers one in the registry and loads its code,
 * without knowing which kind answers.
 */
import { UsageError } from '../core/errors.js';
import type { KindOperations, OperationName } from '../kinds/operations.js';
import { KINDS } from '../kinds/registry.js';
import type { Sniffed } from '../kinds/sniff.js';
import type { KindHandler } from '../kinds/types.js';

const offering = (op: OperationName): KindHandler[] => KINDS.filter((k) => k.operations?.[op]);

/** The operation `op` of a kind's code (loaded now); its declaring it without code is a bug. */
async function codeOf<N extends OperationName>(kind: KindHandler, op: N): Promise<NonNullable<KindOperations[N]>> {
  const code = (await kind.load()).operations?.[op];
  if (!code) throw new Error(`kind ${kind.kind} declares ${op} but its code does not offer it`);
  return code;
}

/**
 * The operation `op` of the first kind, in registry order, that offers it and (given an
 * artifact) detects it; null when none does.
 */
export async function operationOf<N extends OperationName>(
  op: N,
  s?: Sniffed,
): Promise<NonNullable<KindOperations[N]> | null> {
  const kind = s ? offering(op).find((k) => k.detect(s)) : offering(op)[0];
  return kind ? codeOf(kind, op) : null;
}

/** As operationOf, refused as a usage error in the words of every offer when no kind claims the artifact. */
export async function operationFor<N extends OperationName>(
  op: N,
  s?: Sniffed,
): Promise<NonNullable<KindOperations[N]>> {
  const code = await operationOf(op, s);
  if (code) return code;
  const what = offering(op)
    .map((k) => k.operations?.[op]?.what)
    .join(' or ');
  throw new UsageError(s && what ? `${s.path} is not ${what}` : `no kind offers ${op}`, 'refused');
}
