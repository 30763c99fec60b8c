/** DL-104 output: text for people, JSON for pipelines, SARIF 2.1.0 for code-scanning tools. */
import { sep as hostSep } from 'node:path';
import { safeText } from '../core/text.js';
import { VERSION } from '../version.js';
import { DL104, type LintResult } from './dl104.js';

export function formatText(results: LintResult[]): string {
  let s = '';
  let errors = 0;
  let warnings = 0;
  for (const r of results) {
    for (const d of r.diagnostics) {
      s += safeText(`${r.path}:${d.line}: ${d.level} ${d.rule} ${d.message}`) + '\n';
      if (d.level === 'error') errors++;
      else warnings++;
    }
  }
  const specs = results.filter((r) => r.isSpec).length;
  s += `${specs} engine specification${specs === 1 ? '' : 's'} checked (${results.length - specs} other file${results.length - specs === 1 ? '' : 's'} skipped): ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`;
  return s;
}

export function toJson(results: LintResult[]) {
  const all = results.flatMap((r) => r.diagnostics);
  return {
    schema: 'reprise.lint/v1',
    rule: DL104,
    errors: all.filter((d) => d.level === 'error').length,
    warnings: all.filter((d) => d.level === 'warning').length,
    files: results.map((r) => ({ path: r.path, isSpec: r.isSpec, engine: r.engine, diagnostics: r.diagnostics })),
  };
}

export function toSarif(results: LintResult[]) {
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'reprise',
            version: VERSION,
            informationUri: 'https://example.invalid/reprise/docs/tg-replay.md',
            rules: [
              {
                id: DL104,
                name: 'EveryOutputDeclaresOneReplayMode',
                shortDescription: {
                  text: 'Every engine output declares exactly one replay mode (EXACT, BANDED or RECORDED).',
                },
                fullDescription: {
                  text: 'TG-RP §6: an undeclared output, an unknown mode, an output listed twice, or a BANDED output without policy_refs.epsilon is an error; a profile output the engine does not list is a warning.',
                },
                defaultConfiguration: { level: 'error' },
              },
            ],
          },
        },
        results: results.flatMap((r) =>
          r.diagnostics.map((d) => ({
            ruleId: d.rule,
            ruleIndex: 0,
            level: d.level,
            message: { text: d.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: artifactUri(r.path) },
                  region: { startLine: d.line },
                },
              },
            ],
          })),
        ),
      },
    ],
  };
}

/**
 * A file path as the RFC 3986 URI reference SARIF 2.1.0 requires (§3.4.3), so a consumer
 * resolves it back to the file: each segment percent-encoded (a space, `#`, `%` or `?` would
 * otherwise cut or change the path, a `:` in the first segment read as a scheme). Relative
 * paths stay relative; absolute ones become `file:` URIs. `\` separates only on Windows: on
 * POSIX it is a character of the name.
 */
export function artifactUri(path: string, sep: string = hostSep): string {
  const segments = (sep === '\\' ? path.split(/[\\/]/) : path.split('/')).map(encodeURIComponent);
  const joined = segments.join('/');
  // C:\x\a.md -> file:///C:/x/a.md (the drive's colon kept: it is no scheme after file:///)
  if (sep === '\\' && /^[A-Za-z]:[\\/]/.test(path)) return `file:///${path.slice(0, 2)}/${segments.slice(1).join('/')}`;
  // \\host\share\a.md -> file://host/share/a.md
  if (sep === '\\' && /^[\\/]{2}[^\\/]/.test(path)) return `file:${joined}`;
  return path.startsWith('/') ? `file://${joined}` : joined;
}
