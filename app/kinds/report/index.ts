/** What runs an exported report's job (declare.ts declares and detects the kind). */
import type { KindCode } from '../types.js';
import { verifyReport } from './verify.js';

export const reportCode: KindCode = {
  async verify(s, ctx) {
    const parsed = s.json();
    // Why the strict parse refused it (a duplicate member, a lone surrogate, nesting, a number beyond a double), or null.
    const refused = parsed === null ? 'not UTF-8 JSON text' : parsed.ok ? null : parsed.error.message;
    // Numbers the strict parse changed (beyond 2^53, underflowing to 0): no report Reprise writes holds one.
    return verifyReport(s.jsonObject(), refused, ctx, parsed?.ok ? parsed.warnings : []);
  },
  operations: {
    caseFacts: async (subject) =>
      (await import('./case-facts.js')).reportCaseFacts(subject.sniffed?.jsonObject() ?? null),
  },
};
