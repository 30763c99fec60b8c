/**
 * Strict flag parsing over node:util.parseArgs: unknown flags are usage errors, and so is a
 * flag not declared `multiple` given more than once (parseArgs alone keeps the last one
 * without a word, so `--artifact A --artifact B` would check against B only; the
 * workbench's links refuse a repeated option as ambiguous, and so does the command line).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors.js';

export type Flags = NonNullable<ParseArgsConfig['options']>;

export function parse(
  args: string[],
  options: Flags,
  usage: string,
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  let r: ReturnType<typeof parseArgs<{ options: Flags; allowPositionals: true; strict: true; tokens: true }>>;
  try {
    r = parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    // Node's words on one line: an ambiguous value (`--entry -1`) says how to give it (`--entry=-1`) on its later lines.
    throw new UsageError(`${(e as Error).message.split('\n').join(' ')}\nusage: ${usage}`);
  }
  refuseRepeated(r.tokens, options, usage);
  return { values: r.values as Record<string, string | boolean | string[] | undefined>, positionals: r.positionals };
}

/** A flag given twice that takes one value: which one was meant is ambiguous, so neither is taken. */
function refuseRepeated(tokens: readonly { kind: string; name?: string }[], options: Flags, usage: string): void {
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'option' || t.name === undefined || options[t.name]?.multiple) continue;
    if (seen.has(t.name))
      throw new UsageError(
        `--${t.name} was given more than once; it takes one value, so which one is meant is ambiguous\nusage: ${usage}`,
      );
    seen.add(t.name);
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
    // Two values for one limit: which was meant cannot be told, as for any flag given twice.
    if (Object.hasOwn(limits, m[1]!)) throw new UsageError(`--limit ${m[1]} was given more than once`);
    limits[m[1]!] = Number(m[2]);
  }
  return limits;
}
