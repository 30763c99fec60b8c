/** Strict flag parsing over node:util.parseArgs: unknown flags are usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors.js';

export type Flags = NonNullable<ParseArgsConfig['options']>;

export function parse(args: string[], options: Flags, usage: string): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  try {
    const r = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: r.values as Record<string, string | boolean | string[] | undefined>, positionals: r.positionals };
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split('\n')[0]}\nusage: ${usage}`);
  }
}

export function intFlag(v: unknown, name: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || n < min || n > max) throw new UsageError(`--${name} takes a whole number from ${min} to ${max}`);
  return n;
}
