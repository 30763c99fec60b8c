/** What runs an exported report's job (declare.ts declares and detects the kind). */
import type { KindCode } from '../types.js';
import { verifyReport } from './verify.js';

export const reportCode: KindCode = {
  async verify(s, ctx) {
    return verifyReport(s.jsonObject(), s.json()?.ok === true, ctx);
  },
  operations: {
    caseFacts: async (subject) =>
      (await import('./case-facts.js')).reportCaseFacts(subject.sniffed?.jsonObject() ?? null),
  },
};
