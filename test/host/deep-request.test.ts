/**
 * A request nested far deeper than any report or artifact (a report 200,000 arrays deep, sent
 * to recordJudgement, exportBundle or compareArtifacts) is refused as the user's, before any
 * method walks it; it was answered "internal error: Maximum call stack size exceeded" (found
 * by a red team). A report as deep as an artifact may be still reaches its method.
 */
import { describe, expect, it } from 'vitest';
import type { RepriseApi } from '../../shared/api.js';
import { dispatch } from '../../main/host/dispatch.js';
import { MAX_DEPTH } from '../../app/core/jcs.js';

/** A method that walks what it is given, as every report-taking method does. */
const depthOf = (v: unknown): number =>
  typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
const api = { compareArtifacts: async (req: unknown) => depthOf(req) } as unknown as RepriseApi;

/** `{report: {extra: [[[…]]]}}`, `levels` arrays deep, parsed from its text as the web host parses a frame. */
const nested = (levels: number): unknown =>
  JSON.parse(`{"report":{"extra":${'['.repeat(levels)}${']'.repeat(levels)}}}`) as unknown;

describe('a request nested deeper than anything the engine reads', () => {
  it('200,000 levels: a usage error saying so, and the method never runs', async () => {
    const r = await dispatch(api, { id: 7, method: 'compareArtifacts', params: [nested(200_000)] });
    expect(r).toEqual({
      id: 7,
      error: {
        message: `the request nests deeper than ${MAX_DEPTH + 16} levels, which no report or artifact the engine reads does: nothing was done`,
        usage: true,
      },
    });
  });

  it('a report holding a value as deep as an artifact may be is answered', async () => {
    const r = await dispatch(api, { id: 8, method: 'compareArtifacts', params: [nested(MAX_DEPTH)] });
    expect(r).toEqual({ id: 8, result: MAX_DEPTH + 2 });
  });
});
