/** Strict flag parsing over node:util.parseArgs: unknown flags are usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors.js';

export type Flags = NonNullable<ParseArgsConfig['options']>;

export function parse(
  args: string[],
  options: Flags,
  usage: string,
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  try {
    const r = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: r.values as Record<string, string | boolean | string[] | undefined>, positionals: r.positionals };
  } catch (e) {
    // Node's words on one line: an ambiguous value (`--entry -1`) says how to give it (`--entry=-1`) on its later lines.
    throw new UsageError(`${(e as Error).message.split('\n').join(' ')}\nusage: ${usage}`);
  }
}

export function intFlag(v: unknown, name: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || n < min || n > max)
    throw new UsageError(`--${name} takes a whole number from ${min} to ${max}`);
  return n;
}

/** `--limit NAME=N` overrides, each NAME one of `known` (the limits the command applies). */
export function limitOverrides(given: readonly string[], known: readonly string[]): Record<string, number> {
  const limits = Object.create(null) as Record<string, number>;
  for (const l of given) {
    const m = /^([a-zA-Z][\w-]*)=(\d+)$/.exec(l);
    if (!m) throw new UsageError(`--limit takes NAME=INTEGER, not "${l}"`);
    if (!known.includes(m[1]!)) throw new UsageError(`--limit ${m[1]} is no limit Reprise knows (${known.join(', ')})`);
    limits[m[1]!] = Number(m[2]);
  }
  return limits;
}
