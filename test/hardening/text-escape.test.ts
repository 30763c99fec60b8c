/** Lint's and quarantine's text output escape terminal controls from artifact data, as reports do. */
import { describe, expect, it } from 'vitest';
import { formatText } from '../../app/lint/format.js';

describe('text output escapes terminal controls', () => {
  it('a lint diagnostic quoting an artifact name with ESC and CR shows them as escapes', () => {
    const out = formatText([
      {
        path: 'spec\u001b[2K.md',
        isSpec: true,
        engine: 'E',
        diagnostics: [{ rule: 'DL-104', level: 'error', message: 'output "x\r\u001b[32mok" has no mode', line: 3 }],
      },
    ]);
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('spec\\x1b[2K.md:3: error DL-104 output "x\\x0d\\x1b[32mok" has no mode\n');
  });
});
