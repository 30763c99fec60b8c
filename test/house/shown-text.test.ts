/**
 * Text the window did not write is shown through <Shown> (eslint.config.js SHOWN_TEXT): an
 * engine error quotes paths, a finding's message quotes the artifact, and either may hold a
 * right-to-left override. Each way of showing one raw, planted in a renderer file, is an
 * error; through Shown, or as an attribute, it is not; the real tree has none.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const eslint = new ESLint({ cwd: ROOT });
const FILE = `${ROOT}/renderer/src/components/Planted.tsx`;

async function shownErrors(code: string): Promise<string[]> {
  const [res] = await eslint.lintText(code, { filePath: FILE });
  return (res?.messages ?? []).filter((m) => m.message.includes('<Shown')).map((m) => m.message);
}

const wrap = (body: string) =>
  `import { Shown } from './Shown';\nexport const P = ({ error, f, s }: { error: string; f: { message: string }; s: { statement: string; listError: string } }) => (\n  ${body}\n);\n`;

describe('text the window did not write is shown through Shown', () => {
  for (const raw of [
    '<p>{error}</p>',
    '<p>The note was not signed: {error}</p>',
    '<>{f.message}</>',
    '<p>{s.statement}</p>',
    '<p>{s.listError}</p>',
    '<p>{`could not: ${error}`}</p>',
    '<p>{`at ${f.message}.`}</p>',
    "<p>{error ? error : ''}</p>",
  ])
    it(`refuses ${raw}`, async () => {
      expect(await shownErrors(wrap(raw))).toHaveLength(1);
    });

  for (const fine of [
    '<p><Shown text={error} /></p>',
    '<p title={error}>x</p>',
    '<p data-x={`${f.message}`}>x</p>',
    '<p>{error && <Shown text={error} />}</p>',
  ])
    it(`accepts ${fine}`, async () => {
      expect(await shownErrors(wrap(fine))).toEqual([]);
    });

  it('the renderer has none', async () => {
    const results = await eslint.lintFiles(['renderer/src/**/*.tsx']);
    const found = results.flatMap((r) =>
      r.messages.filter((m) => m.message.includes('<Shown')).map((m) => `${r.filePath}:${m.line}`),
    );
    expect(found).toEqual([]);
  });
});
