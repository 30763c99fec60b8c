/**
 * The CLI's printer (app/cli/output.ts): what it writes holds no raw terminal control, JSON
 * stays JSON with the same value, bytes go to a pipe unchanged, and the progress line is
 * the printer's own to draw and to clear.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROGRESS_END, PROGRESS_START, printer } from '../../app/cli/output.js';
import { terminalSafe } from '../../app/core/text.js';
import { HOSTILE, rawControls } from '../helpers/terminal.js';

function capture(tty: boolean) {
  const streams = { out: '', err: '' };
  const io = printer({
    out: (s) => void (streams.out += s),
    err: (s) => void (streams.err += s),
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    cwd: '/',
  });
  return { io, streams };
}

/** Strings rich in what a terminal acts on: every code unit from C0 to U+206F, and lone surrogates. */
const risky = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0x206f }).map((n) => String.fromCharCode(n)),
    fc.constantFrom('\u202e', '\u2066', '\u0085', '\x1b', '\ud800', '\n'),
  ),
  maxLength: 40,
});

describe('the printer', () => {
  it('escapes every terminal control but the line feed in text, on both streams', () => {
    const { io, streams } = capture(false);
    io.out(`a ${HOSTILE} b\n`);
    io.err(`c ${HOSTILE}\n`);
    expect(rawControls(streams.out)).toEqual([]);
    expect(rawControls(streams.err)).toEqual([]);
    expect(streams.out).toContain('\\u001b[31mRED\\u001b]8;;https://evil.example/\\u0007link');
    expect(streams.out).toContain(
      '\\u202eTXT.EXE\\u2066\\u2069\\u200e\\u200f\\u061c\\u0085\\u009b2J\\u007f\\u000d\\u0009\\u2028\\u2029\\u0000\nFAKED',
    );
  });

  it('keeps JSON valid and its value unchanged (--json, --jsonl), with no raw control left', () => {
    fc.assert(
      fc.property(fc.array(risky, { maxLength: 4 }), fc.constantFrom(undefined, 2), (strings, indent) => {
        const value = { [strings[0] ?? 'k']: strings, nested: { s: strings.join('') } };
        const text = terminalSafe(JSON.stringify(value, null, indent));
        expect(rawControls(text)).toEqual([]);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  it('writes bytes unchanged to a pipe and escaped to a terminal', () => {
    const piped = capture(false);
    piped.io.bytes(`{"k":"${HOSTILE.replace(/[\0-\x1f]/g, '')}"}`);
    expect(piped.streams.out).toContain('\u202eTXT.EXE\u2066');
    const tty = capture(true);
    tty.io.bytes(`{"k":"\u202e\u0085"}`);
    expect(tty.streams.out).toBe('{"k":"\\u202e\\u0085"}');
  });

  it('draws the progress line only on a terminal, escaped, and clears it before anything else is written', () => {
    const { io, streams } = capture(true);
    io.progress(`[1/2] ${HOSTILE}`);
    expect(streams.err.startsWith(PROGRESS_START)).toBe(true);
    expect(streams.err.endsWith(PROGRESS_END)).toBe(true);
    expect(rawControls(streams.err, true)).toEqual([]);
    io.out('PASS x\n');
    expect(streams.err.endsWith(PROGRESS_START + PROGRESS_END)).toBe(true);
    const before = streams.err.length;
    io.out('PASS y\n');
    io.progress(null);
    expect(streams.err.length).toBe(before);
    const pipe = capture(false);
    pipe.io.progress('[1/2] x');
    expect(pipe.streams.err).toBe('');
  });
});
