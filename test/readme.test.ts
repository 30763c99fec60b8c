/** The README's two set-up commands exist exactly once, and .ci/run runs the second verbatim. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

describe('README set-up commands', () => {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const setup = readme.slice(readme.indexOf('## Set-up on a fresh machine'), readme.indexOf('## A short CLI tour'));
  const commands = [...setup.matchAll(/```sh\n([^\n]+)\n```/g)].map((m) => m[1]);
  it('has exactly two set-up commands', () => {
    expect(commands).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });
  it('.ci/run runs the test command verbatim', () => {
    const ci = readFileSync(`${ROOT}.ci/run`, 'utf8');
    expect(ci.split('\n')).toContain(commands[1]);
  });
});
