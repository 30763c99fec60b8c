// ESLint (flat config) with typescript-eslint. The layering of the house is a lint rule:
// a room importing what it may not fails `npm run lint` (and so `npm test`), in the style of
// VS Code's `code-import-patterns`. test/layering.test.ts proves each restriction fires.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ROOT = dirname(fileURLToPath(import.meta.url));
const NODE_ONLY = [
  'node:*',
  'fs',
  'path',
  'crypto',
  'child_process',
  'worker_threads',
  'os',
  'http',
  'net',
  'zlib',
  'ws',
];

/** The packages each top-level room may not import (our own modules: ROOMS below). */
export const LAYERS = {
  shared: {
    files: ['shared/**/*.ts'],
    patterns: [
      {
        group: ['electron', 'react', 'react-dom', 'react/*', ...NODE_ONLY],
        message: 'shared/ is runtime-neutral: no electron, react or Node built-ins (layering).',
      },
    ],
  },
  app: {
    files: ['app/**/*.ts'],
    patterns: [
      {
        group: ['electron', 'electron/*', 'react', 'react/*', 'react-dom', 'react-dom/*', 'monaco-editor', 'zustand'],
        message: 'app/ is plain Node: no electron, react or UI libraries (layering).',
      },
    ],
  },
  main: {
    files: ['main/**/*.ts'],
    patterns: [
      { group: ['react', 'react/*', 'react-dom', 'react-dom/*'], message: 'main/ has no UI code (layering).' },
    ],
  },
  renderer: {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    patterns: [
      {
        group: ['electron', 'electron/*', ...NODE_ONLY],
        message: 'renderer/ runs in a sandboxed browser: no electron or Node built-ins (layering).',
      },
    ],
  },
};

const CORE = ['shared/**', 'app/core/**', 'app/version.ts'];
/** The floor above the core: rooms that know one format or one piece of plumbing each. */
const FLOOR_1 = [
  ...CORE,
  'app/zip/**',
  'app/journal/**',
  'app/providers/**',
  'app/threads/**',
  'app/attest/**',
  'app/rejudge/**',
];
/** What every kind may use besides the floors below: the kind interface, its operations and the sniffed artifact. */
const KIND_API = ['app/kinds/types.ts', 'app/kinds/sniff.ts', 'app/kinds/operations.ts'];

/**
 * The rooms of the house and what each may import of ours (an allow-list; a module may
 * always import its own room). The first room whose pattern matches a file is its room; in
 * `app/kinds/*` the star is one kind, so a kind may not import another kind. Floors point
 * down: core, then zip/journal/providers/threads/attest, then the kinds, then the engine,
 * the jobs that run it on threads, and the CLI and the shells on top.
 */
export const ROOMS = [
  { room: 'shared/**', may: [] },
  { room: 'app/version.ts', may: [] },
  { room: 'app/core/**', may: CORE },
  { room: 'app/threads/**', may: CORE },
  // The ZIP reader starts its inflate threads through threads/locate.ts.
  { room: 'app/zip/**', may: [...CORE, 'app/threads/locate.ts'] },
  { room: 'app/journal/**', may: CORE },
  { room: 'app/providers/**', may: CORE },
  { room: 'app/attest/**', may: CORE },
  // The re-judgement record's formats: its Merkle root is the journal's RFC 9162 tree.
  { room: 'app/rejudge/**', may: [...CORE, 'app/journal/**'] },
  { room: 'app/lint/**', may: CORE },
  { room: 'app/kinds/sniff.ts', may: FLOOR_1 },
  // Type-only: EngineOptions is derived from the options the registry's kinds declare.
  { room: 'app/kinds/types.ts', may: [...FLOOR_1, ...KIND_API, 'app/kinds/registry.ts'] },
  { room: 'app/kinds/registry.ts', may: [...FLOOR_1, ...KIND_API, 'app/kinds/*/declare.ts'] },
  // A kind's example writer lives in its own folder (examples.ts, KindDeclarations.examples).
  { room: 'app/kinds/*/**', may: [...FLOOR_1, ...KIND_API] },
  // The engine reaches the kinds only through the registry and the kind API: what a kind
  // offers beyond verify and replay is one of its operations (app/kinds/operations.ts).
  { room: 'app/engine/**', may: [...FLOOR_1, ...KIND_API, 'app/kinds/registry.ts'] },
  // The built-in examples: each kind's writer, reached through the registry's declarations.
  { room: 'app/examples/**', may: [...FLOOR_1, 'app/kinds/registry.ts', 'app/kinds/types.ts'] },
  { room: 'app/jobs/**', may: [...FLOOR_1, 'app/kinds/types.ts', 'app/engine/**'] },
  {
    room: 'app/cli/**',
    may: [
      ...FLOOR_1,
      'app/lint/**',
      'app/examples/**',
      'app/kinds/registry.ts',
      'app/kinds/types.ts',
      'app/engine/**',
      'app/jobs/**',
    ],
  },
  {
    room: 'main/**',
    may: [
      ...CORE,
      'app/journal/**',
      'app/providers/**',
      'app/examples/**',
      'app/kinds/registry.ts',
      'app/kinds/types.ts',
      'app/engine/**',
      'app/jobs/**',
    ],
  },
  { room: 'renderer/**', may: ['shared/**'] },
];

/** A pattern as a regular expression: `**` any path, `*` one path segment. */
function globRegExp(glob) {
  const body = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

const COMPILED = ROOMS.map((r) => ({
  ...r,
  re: globRegExp(r.room),
  mayRe: r.may.map(globRegExp),
  prefix: r.room.replace(/\/\*\*$/, ''),
}));

/** The room of a file (a path relative to the repository, with /), and its own folder. */
function roomOf(file) {
  const r = COMPILED.find((c) => c.re.test(file));
  if (!r) return null;
  // `app/kinds/*/**`: the room is that one kind's folder.
  const own = r.prefix.includes('*') ? file.split('/').slice(0, r.prefix.split('/').length).join('/') : r.prefix;
  return { ...r, own };
}

/** The module a relative import names, as a path of the repository with / (`x.js` is `x.ts`, as tsc resolves it). */
const importedPath = (filename, spec) =>
  relative(ROOT, resolve(dirname(filename), spec))
    .split(sep)
    .join('/')
    .replace(/\.js$/, '.ts');

/** The reprise/rooms rule: every relative import, type-only or dynamic, must be on its room's list. */
const roomsRule = {
  meta: {
    type: 'problem',
    schema: [],
    docs: { description: 'each room imports only what its allow-list in eslint.config.js names' },
  },
  create(context) {
    const file = relative(ROOT, context.filename).split(sep).join('/');
    const room = roomOf(file);
    if (!room) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = importedPath(context.filename, spec);
      if (target === room.own || target.startsWith(`${room.own}/`)) return;
      if (room.mayRe.some((re) => re.test(target))) return;
      context.report({
        node,
        message: `${room.room} may not import ${target} (rooms in eslint.config.js: it may import ${room.may.join(', ') || 'nothing of ours'}).`,
      });
    };
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      TSImportType: (node) => check(node, node.argument?.literal?.value ?? node.argument?.value),
    };
  },
};

/**
 * The reprise/one-printer rule: in app/, text reaches stdout and stderr only through the
 * CLI's printer (app/cli/output.ts), which escapes every terminal control. So no other
 * module names process.stdout or process.stderr (nor through globalThis or node:process),
 * calls console, writes to descriptors 1 and 2, or opens /dev/stdout, /dev/stderr or /dev/tty.
 */
const STD_STREAMS = new Set(['stdout', 'stderr']);
const STD_PATHS = /^(\/dev\/(stdout|stderr|tty)|\/proc\/self\/fd\/[12])$/;
const propertyName = (node) =>
  node.computed ? (node.property.type === 'Literal' ? node.property.value : null) : node.property.name;
const isProcess = (node) =>
  (node.type === 'Identifier' && node.name === 'process') ||
  (node.type === 'MemberExpression' && propertyName(node) === 'process');
const printerRule = {
  meta: {
    type: 'problem',
    schema: [],
    docs: { description: 'text reaches stdout and stderr only through app/cli/output.ts' },
  },
  create(context) {
    const report = (node, what) =>
      context.report({
        node,
        message: `${what}: in app/, text reaches stdout and stderr only through the printer (app/cli/output.ts), which escapes terminal controls.`,
      });
    return {
      MemberExpression(node) {
        if (STD_STREAMS.has(propertyName(node)) && isProcess(node.object))
          report(node, `process.${propertyName(node)}`);
        if ((node.object.type === 'Identifier' && node.object.name === 'console') || propertyName(node) === 'console')
          report(node, 'console');
      },
      VariableDeclarator(node) {
        const names =
          node.id.type === 'ObjectPattern' ? node.id.properties.map((p) => p.key && (p.key.name ?? p.key.value)) : [];
        if (node.init && isProcess(node.init) && names.some((n) => STD_STREAMS.has(n)))
          report(node, 'process.stdout or process.stderr');
      },
      ImportDeclaration(node) {
        if (node.source.value === 'process' || node.source.value === 'node:process')
          report(node, `an import of ${node.source.value}`);
      },
      CallExpression(node) {
        const callee = node.callee.type === 'MemberExpression' ? propertyName(node.callee) : node.callee.name;
        const fd = node.arguments[0];
        if (/^write(Sync)?$/.test(callee ?? '') && fd?.type === 'Literal' && (fd.value === 1 || fd.value === 2))
          report(node, `${callee} to descriptor ${fd.value}`);
      },
      Literal(node) {
        if (typeof node.value === 'string' && STD_PATHS.test(node.value)) report(node, node.value);
      },
    };
  },
};

/**
 * The reprise/typed-findings rule: a kind's findings name only the rule ids it declares
 * (its rule-ids.ts). The constructors of app/core/findings.ts that take any string (fail,
 * unavailable, warning, info, finding, changedNumbers) are not imported under app/kinds/:
 * a kind takes them from findingsOn(its rules) (its findings.ts), typed on its ids, so an
 * id it did not declare does not compile. test/house/typed-findings.test.ts plants each way.
 */
const UNTYPED_FINDINGS = new Set(['fail', 'unavailable', 'warning', 'info', 'finding', 'changedNumbers']);
const CORE_FINDINGS = 'app/core/findings.ts';
const typedFindingsRule = {
  meta: {
    type: 'problem',
    schema: [],
    docs: { description: "a kind's findings come from findingsOn(its rules), never the untyped constructors" },
  },
  create(context) {
    const isCoreFindings = (spec) =>
      typeof spec === 'string' && spec.startsWith('.') && importedPath(context.filename, spec) === CORE_FINDINGS;
    const report = (node, what) =>
      context.report({
        node,
        message: `${what} of ${CORE_FINDINGS} takes any rule id: a kind makes its findings with findingsOn(its rules) (its findings.ts), so an id it did not declare does not compile.`,
      });
    return {
      ImportDeclaration(node) {
        // A type-only import carries no constructor.
        if (node.importKind === 'type' || !isCoreFindings(node.source.value)) return;
        for (const s of node.specifiers) {
          if (s.type === 'ImportNamespaceSpecifier') report(s, `import * as ${s.local.name}`);
          else if (s.type === 'ImportSpecifier' && s.importKind !== 'type') {
            const name = s.imported.name ?? s.imported.value;
            if (UNTYPED_FINDINGS.has(name)) report(s, name);
          }
        }
      },
      ExportNamedDeclaration(node) {
        if (!node.source || !isCoreFindings(node.source.value)) return;
        for (const s of node.specifiers) {
          const name = s.local.name ?? s.local.value;
          if (UNTYPED_FINDINGS.has(name)) report(s, `a re-export of ${name}`);
        }
      },
      ExportAllDeclaration(node) {
        if (isCoreFindings(node.source.value)) report(node, 'export *');
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal' && isCoreFindings(node.source.value)) report(node, 'a dynamic import');
      },
    };
  },
};

/**
 * Lookups keyed by artifact data never reach Object.prototype: a record keyed by strings
 * starts as Object.create(null) (or is a Map), and a membership test is Object.hasOwn, not
 * `in`, so an engine, output or key named `constructor`, `toString` or `__proto__` finds
 * only what the artifact holds. test/hardening/inherited-names.test.ts is the behaviour.
 */
export const INHERITED_NAMES = [
  {
    selector:
      "VariableDeclarator[init.type='ObjectExpression'][init.properties.length=0] > Identifier > TSTypeAnnotation > TSTypeReference[typeName.name='Record'][typeArguments.params.0.type='TSStringKeyword']",
    message:
      'a Record<string, …> keyed by data starts as Object.create(null) or is a Map: {} inherits constructor, toString, __proto__.',
  },
  {
    selector:
      "TSAsExpression[expression.type='ObjectExpression'][expression.properties.length=0] > TSTypeReference[typeName.name='Record'][typeArguments.params.0.type='TSStringKeyword']",
    message:
      'a Record<string, …> keyed by data starts as Object.create(null) or is a Map: {} inherits constructor, toString, __proto__.',
  },
  {
    selector: "BinaryExpression[operator='in'][left.type!='Literal']",
    message:
      'a computed key is tested with Object.hasOwn(obj, key): `in` also finds inherited names (constructor, toString, __proto__).',
  },
  {
    selector: "MemberExpression[property.name='hasOwnProperty']",
    message: 'use Object.hasOwn(obj, key): hasOwnProperty itself can be shadowed by a member of that name.',
  },
];

/**
 * Text the window did not write (an engine error, which quotes paths and values; a finding's
 * message, which quotes the artifact; a bundle's statement) is shown through <Shown>, which
 * escapes every control and bidirectional character (renderer/src/components/Shown.tsx): a
 * path named "\u202egnp.exe" must never read as "exe.png". So a JSX child, or a template
 * string inside one, may not name an `error`, `message` or `statement` directly.
 * test/house/shown-text.test.ts plants each way.
 */
const SHOWN_NAME = '/(^|[a-z])([eE]rror|[mM]essage|[sS]tatement)$/';
const SHOWN_MESSAGE =
  'show text the window did not write (an error, a finding message, a statement) through <Shown text={...} />, which escapes controls and bidi characters.';
export const SHOWN_TEXT = [
  ':matches(JSXElement, JSXFragment) > JSXExpressionContainer > Identifier',
  ':matches(JSXElement, JSXFragment) > JSXExpressionContainer > MemberExpression > Identifier.property',
  ':matches(JSXElement, JSXFragment) > JSXExpressionContainer TemplateLiteral > Identifier',
  ':matches(JSXElement, JSXFragment) > JSXExpressionContainer TemplateLiteral MemberExpression > Identifier.property',
  ':matches(JSXElement, JSXFragment) > JSXExpressionContainer > ConditionalExpression > :matches(Identifier.consequent, Identifier.alternate)',
].map((s) => ({ selector: `${s}[name=${SHOWN_NAME}]`, message: SHOWN_MESSAGE }));

const REPRISE_PLUGIN = { rules: { rooms: roomsRule, 'one-printer': printerRule, 'typed-findings': typedFindingsRule } };

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      'release/**',
      '.bench/**',
      'test-results/**',
      'playwright-report/**',
      'test/fixtures/**',
      '.tmp-*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        Buffer: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
        globalThis: 'readonly',
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        WebSocket: 'readonly',
        btoa: 'readonly',
        atob: 'readonly',
        self: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'off',
    },
  },
  ...Object.values(LAYERS).map((l) => ({
    files: l.files,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: l.patterns }] },
  })),
  {
    files: ['shared/**/*.ts', 'app/**/*.ts', 'main/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'],
    plugins: { reprise: REPRISE_PLUGIN },
    rules: { 'reprise/rooms': 'error' },
  },
  {
    files: ['app/**/*.ts'],
    ignores: ['app/cli/output.ts'],
    plugins: { reprise: REPRISE_PLUGIN },
    rules: { 'reprise/one-printer': 'error' },
  },
  {
    files: ['app/kinds/**/*.ts'],
    plugins: { reprise: REPRISE_PLUGIN },
    rules: { 'reprise/typed-findings': 'error' },
  },
  {
    // DOM types are a browser room's business: app/ and shared/ code may not name them.
    files: ['app/**/*.ts', 'shared/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'location', 'navigator', 'localStorage', 'HTMLElement'],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSTypeReference[typeName.name=/^(HTML\\w*Element|Document|Window|Navigator|DOMParser)$/]',
          message: 'app/ and shared/ never use DOM types (layering).',
        },
        ...INHERITED_NAMES,
      ],
    },
  },
  {
    files: ['renderer/**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...SHOWN_TEXT, ...INHERITED_NAMES] },
  },
);
