/** The few browser globals the window's store touches, stubbed for a test in Node (one set for every renderer test). */
import { afterAll, beforeAll, vi } from 'vitest';

/** Stubs them for the file's tests; `at` is the location whose hash `history.replaceState` writes. */
export function stubBrowser(at: { hash: string } = { hash: '' }): void {
  beforeAll(() => {
    vi.stubGlobal('location', at);
    vi.stubGlobal('history', { replaceState: (_s: unknown, _t: unknown, h: string) => void (at.hash = h) });
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined });
    vi.stubGlobal('document', {
      getElementById: () => null,
      documentElement: { dataset: {} },
      querySelector: () => null,
    });
    // Never calls back: focusing what is shown (lib/focus.ts) waits for frames no test draws.
    vi.stubGlobal('requestAnimationFrame', () => 0);
  });
  afterAll(() => vi.unstubAllGlobals());
}
