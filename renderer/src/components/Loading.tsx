import type { ReactNode } from 'react';

/**
 * What a lazily loaded part (an editor) shows until it is there. It says it is busy, so
 * that a check of the page (axe in the e2e tests) waits for the part rather than reading
 * the page while it is being built.
 */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <p className="muted" aria-busy="true">
      {children}
    </p>
  );
}
