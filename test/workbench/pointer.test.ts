/**
 * Where the editor marks a pointer: in a journal opened as an artifact (a directory of two
 * files), `entry:NAME:line:N` (a case's older checkpoint) is a line of the file NAME and
 * `line:N` (a case's journal entry) a line of the first file, the entries.
 */
import { describe, expect, it } from 'vitest';
import { directoryLine, locate } from '../../renderer/src/lib/pointer.js';

const names = ['entries.jsonl', 'checkpoints.jsonl'];

describe('directoryLine', () => {
  it('names the file and the line of a case journal event', () => {
    expect(directoryLine(names, 'entry:checkpoints.jsonl:line:3')).toEqual({ file: 1, pointer: 'line:3' });
    expect(directoryLine(names, 'line:12')).toEqual({ file: 0, pointer: 'line:12' });
    expect(directoryLine(names, 'entry:entries.jsonl:line:1')).toEqual({ file: 0, pointer: 'line:1' });
  });
  it('shows the first file with nothing marked for a pointer it cannot place', () => {
    for (const p of [
      null,
      '',
      '/a',
      'entry:other.jsonl:line:2',
      'entry:checkpoints.jsonl',
      'line:0',
      'entry:a/b:line:1',
    ])
      expect(directoryLine(names, p), String(p)).toEqual({ file: 0, pointer: null });
  });
  it("marks the line's text in the file shown", () => {
    const text = '{"seq":0}\n{"seq":1}\n{"seq":2}\n';
    const r = locate(text, directoryLine(names, 'line:2').pointer);
    expect(r && text.slice(r.start, r.end)).toBe('{"seq":1}');
  });
});
