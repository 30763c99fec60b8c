/**
 * DL-104 (docs-lint, TG-RP §6 and tg-replay.md): every engine specification (Markdown or
 * MDX with YAML front matter holding `engine`, `outputs` and `replay_profile`) declares
 * exactly one replay mode per output. Errors: an output with no mode (not listed and no
 * `default`), a mode outside EXACT/BANDED/RECORDED, an output listed twice, a BANDED
 * output without `policy_refs.epsilon`. Warning: a CSI in `replay_profile.outputs` that
 * the engine does not list. YAML is parsed by the `yaml` package with duplicate keys
 * kept (so "listed twice" is seen, with its line), never by a home-made parser.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';

export const DL104 = 'DL-104';
export const MODES = ['EXACT', 'BANDED', 'RECORDED'] as const;

export interface Diagnostic {
  rule: string;
  level: 'error' | 'warning';
  message: string;
  /** 1-based line in the file. */
  line: number;
}

export interface LintResult {
  path: string;
  /** False when the file has no front matter with `engine` (not an engine specification). */
  isSpec: boolean;
  engine: string | null;
  diagnostics: Diagnostic[];
}

interface FrontMatter {
  text: string;
  /** Line of the file where the front matter text starts (1-based). */
  firstLine: number;
}

/** The YAML between a leading `---` line and the next `---` line, or null. */
export function frontMatter(source: string): FrontMatter | null {
  const text = source.replace(/^\uFEFF/, '');
  const m = /^---[ \t]*\r?\n/.exec(text);
  if (!m) return null;
  const rest = text.slice(m[0].length);
  const end = /^---[ \t]*$/m.exec(rest);
  if (!end) return null;
  return { text: rest.slice(0, end.index), firstLine: 2 };
}

type Diag = (level: Diagnostic['level'], message: string, node?: Node | null) => void;
type Mode = (typeof MODES)[number];
const isMode = (v: unknown): v is Mode => typeof v === 'string' && (MODES as readonly string[]).includes(v);

export function lintText(path: string, source: string): LintResult {
  const fm = frontMatter(source);
  const result: LintResult = { path, isSpec: false, engine: null, diagnostics: [] };
  if (!fm) return result;
  const lc = new LineCounter();
  const doc = parseDocument(fm.text, { uniqueKeys: false, lineCounter: lc, prettyErrors: false });
  const lineOf = (n: Node | null | undefined): number =>
    n?.range ? lc.linePos(n.range[0]).line + fm.firstLine - 1 : fm.firstLine - 1;
  const diag: Diag = (level, message, node) =>
    result.diagnostics.push({ rule: DL104, level, message, line: lineOf(node) });
  const root = doc.contents;
  if (doc.errors.length > 0) {
    // A broken front matter that names an engine is an engine spec we cannot read: an error.
    if (/^engine\s*:/m.test(fm.text)) {
      result.isSpec = true;
      for (const e of doc.errors)
        result.diagnostics.push({
          rule: DL104,
          level: 'error',
          message: `front matter is not valid YAML: ${e.message.split('\n')[0]}`,
          line: (e.linePos?.[0]?.line ?? 1) + fm.firstLine - 1,
        });
    }
    return result;
  }
  if (!isMap(root) || !root.has('engine')) return result;
  result.isSpec = true;
  const engineNode = root.get('engine', true);
  result.engine = isScalar(engineNode) && typeof engineNode.value === 'string' ? engineNode.value : null;
  if (result.engine === null) diag('error', '`engine` must be a string (the engine id)', engineNode as Node);
  const outputs = engineOutputs(root, diag);
  const profile = root.get('replay_profile', true);
  if (!isMap(profile)) {
    diag(
      'error',
      `no \`replay_profile\` block: ${outputs.size > 0 ? `outputs ${[...outputs.keys()].join(', ')} have no replay mode` : 'no output declares a replay mode'}`,
      (profile as Node) ?? root,
    );
    return result;
  }
  checkProfile(profile, outputs, diag);
  result.diagnostics.sort((a, b) => a.line - b.line || a.message.localeCompare(b.message));
  return result;
}

/** outputs: the engine's output CSIs, each once (in order, with the node that names it). */
function engineOutputs(root: YAMLMap, diag: Diag): Map<string, Node> {
  const outputsNode = root.get('outputs', true);
  const outputs = new Map<string, Node>();
  if (!isSeq(outputsNode)) {
    diag('error', '`outputs` must list the output CSIs of the engine', (outputsNode as Node) ?? root);
    return outputs;
  }
  const seen = new Set<string>();
  for (const item of outputsNode.items) {
    if (!isScalar(item) || typeof item.value !== 'string') {
      diag('error', 'every entry of `outputs` must be an output CSI string', item as Node);
      continue;
    }
    if (seen.has(item.value)) diag('error', `output ${item.value} is listed twice in \`outputs\``, item);
    else outputs.set(item.value, item);
    seen.add(item.value);
  }
  return outputs;
}

/** replay_profile: default, outputs (each once, each a mode), policy_refs.epsilon. */
function checkProfile(profile: YAMLMap, outputs: Map<string, Node>, diag: Diag): void {
  const defNode = profile.get('default', true);
  let def: string | undefined;
  if (defNode !== undefined) {
    const v = isScalar(defNode) ? defNode.value : undefined;
    if (!isMode(v))
      diag(
        'error',
        `replay_profile.default ${JSON.stringify(v ?? null)} is not EXACT, BANDED or RECORDED`,
        defNode as Node,
      );
    else def = v;
  }
  const declared = declaredModes(profile, outputs, diag);
  const pr = profile.get('policy_refs', true);
  const eps = isMap(pr) ? pr.get('epsilon') : undefined;
  const hasEpsilonRef = typeof eps === 'string' && eps.length > 0;
  for (const [o, node] of outputs) {
    const mode = declared.get(o) ?? def;
    if (mode === undefined)
      diag('error', `output ${o} has no replay mode (not in replay_profile.outputs, and no default)`, node);
    else if (mode === 'BANDED' && !hasEpsilonRef)
      diag('error', `output ${o} is BANDED but replay_profile.policy_refs.epsilon names no governed ε`, node);
  }
}

/** replay_profile.outputs: each output CSI once, with a mode ('INVALID' when it names none). */
function declaredModes(profile: YAMLMap, outputs: Map<string, Node>, diag: Diag): Map<string, string> {
  const declared = new Map<string, string>();
  const profOutputs = profile.get('outputs', true);
  if (profOutputs !== undefined && !isMap(profOutputs))
    diag('error', 'replay_profile.outputs must map output CSIs to modes', profOutputs as Node);
  if (!isMap(profOutputs)) return declared;
  for (const pair of profOutputs.items) {
    const k = isScalar(pair.key) ? String(pair.key.value) : null;
    const keyNode = pair.key as Node;
    if (k === null) {
      diag('error', 'replay_profile.outputs keys must be output CSIs', keyNode);
      continue;
    }
    const v = isScalar(pair.value) ? pair.value.value : undefined;
    if (declared.has(k)) {
      diag('error', `output ${k} is listed twice in replay_profile.outputs (exactly one mode per output)`, keyNode);
      continue;
    }
    if (!isMode(v)) {
      diag(
        'error',
        `output ${k} has mode ${JSON.stringify(v ?? null)}, not EXACT, BANDED or RECORDED`,
        (pair.value as Node) ?? keyNode,
      );
      declared.set(k, 'INVALID');
      continue;
    }
    declared.set(k, v);
    if (outputs.size > 0 && !outputs.has(k))
      diag('warning', `replay_profile.outputs names ${k}, which the engine does not list in \`outputs\``, keyNode);
  }
  return declared;
}
