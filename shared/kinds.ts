// Generated from app/kinds/registry.ts: do not edit. Adding a kind to the registry, run
// UPDATE_KINDS=1 npx vitest run test/kinds/generated.test.ts (the test fails while this differs).
/** Every registered kind's name, in registry order (shared/ imports nothing of app/). */
export const REGISTERED_KINDS = ['replay-dump', 'acgp-trace', 'acgp-eval', 'tg-replay-manifest', 'tg-policy-bundle', 'evidence-bundle', 'nemosyne-package', 'rejudgement', 'reprise-report', 'journal'] as const;
