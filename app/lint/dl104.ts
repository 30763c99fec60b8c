/**
 * DL-104 (docs-lint, TG-RP §6 and tg-replay.md): every engine specification (Markdown or
 * MDX with YAML front matter holding `engine`, `outputs` and `replay_profile`) declares
 * exactly one replay mode per output. Errors: an output with no mode (not listed and no
 * `default`), a mode outside EXACT/BANDED/RECORDED, an output listed twice, a BANDED
 * output without `policy_refs.epsilon`. Warning: a CSI in `replay_profile.outputs` that
 * the engine does not list. Refused (errors, nothing else checked): a key repeated in a
 * mapping DL-104 reads, a `<<` merge key or an alias there. YAML is parsed by the `yaml`
 * package with duplicate keys kept (so a repeat is seen, with its lines), never by a
 * home-made parser.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';

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
  refuseAmbiguous(root, READS, [], { refuse: (message, node) => diag('error', message, node), lineOf });
  // What readers disagree on has no one meaning to check: the refusals are the whole verdict.
  if (result.diagnostics.length > 0) return sorted(result);
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
  return sorted(result);
}

function sorted(result: LintResult): LintResult {
  result.diagnostics.sort((a, b) => a.line - b.line || a.message.localeCompare(b.message));
  return result;
}

/**
 * The part of the front matter DL-104 reads: 'leaf' a value taken as it is, 'list' a sequence
 * of those, a record a mapping read under those keys (`*`: under every key).
 */
type Shape = 'leaf' | 'list' | { readonly [key: string]: Shape };
const READS: Shape = {
  engine: 'leaf',
  outputs: 'list',
  replay_profile: { default: 'leaf', outputs: { '*': 'leaf' }, policy_refs: { epsilon: 'leaf' } },
};
/** Where refusals go, and the file line of a node (to name both lines of a repeated key). */
interface Refuser {
  refuse(message: string, node: Node): void;
  lineOf(node: Node): number;
}
const named = (path: readonly string[]) => (path.length === 0 ? 'the front matter' : path.join('.'));
// YAML 1.2 reads `<<` as a plain key; under YAML 1.1 the `yaml` package marks it with a symbol.
const isMergeKey = (k: unknown) => isScalar(k) && (k.value === '<<' || typeof k.value === 'symbol');

/**
 * Refuses, where DL-104 reads, what YAML readers disagree on: a repeated key (js-yaml and
 * PyYAML keep the last, YAMLMap.get the first), a `<<` merge key and an alias (some readers
 * expand them; this lint reads the nodes as written, so it would check another spec).
 */
function refuseAmbiguous(node: unknown, shape: Shape, path: readonly string[], r: Refuser): void {
  if (isAlias(node))
    return r.refuse(
      `${named(path)} is an alias (*${node.source}): DL-104 does not read aliases and refuses them`,
      node,
    );
  if (shape === 'list' && isSeq(node))
    for (const item of node.items) refuseAmbiguous(item, 'leaf', [`an entry of ${named(path)}`], r);
  if (typeof shape === 'string' || !isMap(node)) return;
  refuseRepeatedKeys(node, path, r);
  for (const { key, value } of node.items) {
    if (isAlias(key) || isMergeKey(key)) {
      const what = isAlias(key) ? `an alias key (*${key.source})` : 'a merge key (<<)';
      r.refuse(`${named(path)} has ${what}: DL-104 does not read merge keys or aliases and refuses them`, key as Node);
      continue;
    }
    const k = isScalar(key) ? String(key.value) : null;
    // Own keys only: `constructor` or `__proto__` must not find Object.prototype's.
    const sub = k === null ? undefined : Object.hasOwn(shape, k) ? shape[k] : shape['*'];
    if (sub !== undefined) refuseAmbiguous(value, sub, [...path, k as string], r);
  }
}

/** Each key once, compared as text (`"a"`, `? a` and `a` are one key; to js-yaml so are `1` and `"1"`). */
function refuseRepeatedKeys(map: YAMLMap, path: readonly string[], r: Refuser): void {
  const first = new Map<string, Node>();
  for (const { key } of map.items) {
    if (!isScalar(key) || isMergeKey(key)) continue; // a merge key is refused as such
    const k = String(key.value);
    const earlier = first.get(k);
    if (earlier === undefined) first.set(k, key);
    else r.refuse(repeated(k, path, linesOf(r.lineOf(earlier), r.lineOf(key))), key);
  }
}

const linesOf = (a: number, b: number) => (a === b ? `twice on line ${a}` : `lines ${a} and ${b}`);

function repeated(key: string, path: readonly string[], lines: string): string {
  if (path.join('.') === 'replay_profile.outputs')
    return `output ${key} is listed twice in replay_profile.outputs (${lines}): exactly one mode per output`;
  return `key ${key} is repeated in ${named(path)} (${lines}): YAML readers disagree on which one wins`;
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
