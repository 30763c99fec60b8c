/**
 * After an action, focus moves to its result, never to <body> (renderer/src/lib/focus.ts): a
 * signed decision's receipt as soon as the store holds it (not once the journal has been
 * verified again after it), and a closed panel's opener, or the journal header's toggle when
 * that opener is gone (the journal form's Done). Browser globals stubbed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { focusOnArrival, returnFocus } from '../../renderer/src/lib/focus';

/** A focusable element of the stubbed document: it counts its focus() calls. */
class FakeElement {
  focused = 0;
  constructor(public isConnected = true) {}
  focus(): void {
    this.focused++;
  }
}

let shown: Record<string, FakeElement>;
beforeEach(() => {
  shown = {};
  vi.stubGlobal('HTMLElement', FakeElement);
  vi.stubGlobal('document', { body: new FakeElement(), getElementById: (id: string) => shown[id] ?? null });
  vi.stubGlobal('requestAnimationFrame', () => 0);
});
afterEach(() => vi.unstubAllGlobals());

/** A store of one field, as zustand's subscribe calls its listeners. */
function store<S>(initial: S) {
  let state = initial;
  const listeners = new Set<(s: S) => void>();
  return {
    subscribe: (l: (s: S) => void) => (listeners.add(l), () => void listeners.delete(l)),
    set: (s: S) => ((state = s), listeners.forEach((l) => l(state))),
    listening: () => listeners.size,
  };
}

describe('focusOnArrival', () => {
  it('focuses the result the moment the store holds it, once, and stops listening', () => {
    const s = store<{ receipt: string | null }>({ receipt: null });
    const receipt = (shown['decision-receipt'] = new FakeElement());
    focusOnArrival(s.subscribe, (x) => x.receipt !== null, 'decision-receipt');
    s.set({ receipt: null });
    expect(receipt.focused).toBe(0);
    s.set({ receipt: 'r1' });
    expect(receipt.focused).toBe(1);
    expect(s.listening()).toBe(0);
    s.set({ receipt: 'r2' });
    expect(receipt.focused).toBe(1);
  });

  it('stops waiting when told (a refusal brings no result)', () => {
    const s = store<{ receipt: string | null }>({ receipt: null });
    const receipt = (shown['decision-receipt'] = new FakeElement());
    const stop = focusOnArrival(s.subscribe, (x) => x.receipt !== null, 'decision-receipt');
    stop();
    s.set({ receipt: 'late' });
    expect(receipt.focused).toBe(0);
  });
});

describe('returnFocus', () => {
  it('returns focus to the control that opened the panel while it is there', () => {
    const opener = new FakeElement();
    const toggle = (shown['work-journal-toggle'] = new FakeElement());
    returnFocus(opener as unknown as Element, 'work-journal-toggle');
    expect(opener.focused).toBe(1);
    expect(toggle.focused).toBe(0);
  });

  it('falls back to the toggle when the opener is gone, was <body>, or none was focused', () => {
    const toggle = (shown['work-journal-toggle'] = new FakeElement());
    returnFocus(new FakeElement(false) as unknown as Element, 'work-journal-toggle');
    returnFocus((document as unknown as { body: Element }).body, 'work-journal-toggle');
    returnFocus(null, 'work-journal-toggle');
    expect(toggle.focused).toBe(3);
  });
});
