/**
 * JSON Lines over bytes, strictly: lines split at LF (a CR before it is dropped), each
 * line decoded as strict UTF-8 and parsed with the one canonicalizer's strict parser. Works
 * on one buffer or on a stream of chunks, so a trace of any length is checked in memory
 * bounded by its longest line.
 */
import { decodeJsonBytes, JcsError, parseCanonical } from '../../core/jcs.js';
import type { AcgpChecker } from './checker.js';

export class LineFeeder {
  private rest: Buffer | null = null;
  private index = 0;
  private pendingBlank = -1;
  constructor(private readonly checker: AcgpChecker) {}

  get lines(): number {
    return this.index;
  }

  push(chunk: Buffer): void {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    let start = 0;
    for (let nl = buf.indexOf(0x0a, start); nl !== -1; nl = buf.indexOf(0x0a, start)) {
      this.line(buf.subarray(start, nl > start && buf[nl - 1] === 0x0d ? nl - 1 : nl));
      start = nl + 1;
    }
    if (start < buf.length) this.rest = Buffer.from(buf.subarray(start));
  }

  end(): void {
    if (this.rest && this.rest.length > 0) this.line(this.rest);
    this.rest = null;
    // A final newline is allowed; a blank line before the end is not.
    this.pendingBlank = -1;
  }

  private line(bytes: Buffer): void {
    if (this.pendingBlank >= 0) {
      this.checker.parseError(this.pendingBlank, 'a blank line inside a JSON Lines trace');
      this.pendingBlank = -1;
    }
    const i = this.index++;
    if (bytes.length === 0) {
      this.pendingBlank = i;
      return;
    }
    let text: string;
    try {
      text = decodeJsonBytes(bytes);
      const parsed = parseCanonical(text);
      if (parsed.warnings.length > 0) this.checker.precision(i, parsed.warnings);
      this.checker.add(i, parsed.value);
    } catch (e) {
      if (e instanceof JcsError) this.checker.parseError(i, e.message);
      else throw e;
    }
  }
}
