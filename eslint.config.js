// ESLint (flat config) with typescript-eslint. The layering of the house is a lint rule:
// a lower room importing a higher one fails `npm run lint` (and so `npm test`), as in
// VS Code's layer checks. test/layering.test.ts proves the rule fires.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_ONLY = ['node:*', 'fs', 'path', 'crypto', 'child_process', 'worker_threads', 'os', 'http', 'net', 'zlib', 'ws'];

/** The layering: which rooms each room may not import. */
export const LAYERS = {
  shared: {
    files: ['shared/**/*.ts'],
    patterns: [
      { group: ['**/app/**', '**/main/**', '**/renderer/**', '../app/*', '../main/*', '../renderer/*'], message: 'shared/ imports nothing of ours (layering).' },
      { group: ['electron', 'react', 'react-dom', 'react/*', ...NODE_ONLY], message: 'shared/ is runtime-neutral: no electron, react or Node built-ins (layering).' },
    ],
  },
  app: {
    files: ['app/**/*.ts'],
    patterns: [
      { group: ['**/main/**', '**/renderer/**', '../main/*', '../renderer/*'], message: 'app/ may import only shared/ (layering).' },
      { group: ['electron', 'electron/*', 'react', 'react/*', 'react-dom', 'react-dom/*', 'monaco-editor', 'zustand'], message: 'app/ is plain Node: no electron, react or UI libraries (layering).' },
    ],
  },
  main: {
    files: ['main/**/*.ts'],
    patterns: [
      { group: ['**/renderer/**', '../renderer/*'], message: 'main/ may import app/, shared/ and electron, not renderer/ (layering).' },
      { group: ['react', 'react/*', 'react-dom', 'react-dom/*'], message: 'main/ has no UI code (layering).' },
    ],
  },
  renderer: {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    patterns: [
      { group: ['**/app/**', '**/main/**', '../app/*', '../main/*'], message: 'renderer/ reaches the engine only through the shared/ API (layering).' },
      { group: ['electron', 'electron/*', ...NODE_ONLY], message: 'renderer/ runs in a sandboxed browser: no electron or Node built-ins (layering).' },
    ],
  },
};

/**
 * Lookups keyed by artifact data never reach Object.prototype: a record keyed by strings
 * starts as Object.create(null) (or is a Map), and a membership test is Object.hasOwn, not
 * `in`, so an engine, output or key named `constructor`, `toString` or `__proto__` finds
 * only what the artifact holds. test/hardening/inherited-names.test.ts is the behaviour.
 */
export const INHERITED_NAMES = [
  { selector: "VariableDeclarator[init.type='ObjectExpression'][init.properties.length=0] > Identifier > TSTypeAnnotation > TSTypeReference[typeName.name='Record'][typeArguments.params.0.type='TSStringKeyword']", message: 'a Record<string, …> keyed by data starts as Object.create(null) or is a Map: {} inherits constructor, toString, __proto__.' },
  { selector: "TSAsExpression[expression.type='ObjectExpression'][expression.properties.length=0] > TSTypeReference[typeName.name='Record'][typeArguments.params.0.type='TSStringKeyword']", message: 'a Record<string, …> keyed by data starts as Object.create(null) or is a Map: {} inherits constructor, toString, __proto__.' },
  { selector: "BinaryExpression[operator='in'][left.type!='Literal']", message: 'a computed key is tested with Object.hasOwn(obj, key): `in` also finds inherited names (constructor, toString, __proto__).' },
  { selector: "MemberExpression[property.name='hasOwnProperty']", message: 'use Object.hasOwn(obj, key): hasOwnProperty itself can be shadowed by a member of that name.' },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'release/**', '.bench/**', 'test-results/**', 'playwright-report/**', 'test/fixtures/**', '.tmp-*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', Buffer: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', queueMicrotask: 'readonly', structuredClone: 'readonly', performance: 'readonly', AbortController: 'readonly', fetch: 'readonly', globalThis: 'readonly', window: 'readonly', document: 'readonly', location: 'readonly', WebSocket: 'readonly', btoa: 'readonly', atob: 'readonly', self: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'off',
    },
  },
  ...Object.values(LAYERS).map((l) => ({ files: l.files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: l.patterns }] } })),
  {
    // DOM types are a browser room's business: app/ and shared/ code may not name them.
    files: ['app/**/*.ts', 'shared/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'location', 'navigator', 'localStorage', 'HTMLElement'],
      'no-restricted-syntax': ['error', { selector: "TSTypeReference[typeName.name=/^(HTML\\w*Element|Document|Window|Navigator|DOMParser)$/]", message: 'app/ and shared/ never use DOM types (layering).' }, ...INHERITED_NAMES],
    },
  },
);
