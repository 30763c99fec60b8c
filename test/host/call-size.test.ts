/**
 * One bound on a call, for both transports: the web host's WebSocket `maxPayload` and the
 * Electron IPC handler's check of a call's arguments (main/index.ts, oversizedCall) are the
 * one constant. The count is made without recursion and stops at the bound, so a shared or
 * cyclic value cannot make it run long; a Map or a Set (IPC's structured clone carries
 * both) is counted with what it holds.
 */
import { describe, expect, it } from 'vitest';
import { exceedsBytes, MAX_MESSAGE_BYTES, oversizedCall } from '../../main/host/message-size.js';
import { MAX_MESSAGE_BYTES as WS_MAX } from '../../main/webhost/server.js';

const MiB = 1024 * 1024;

describe('the bound on one call', () => {
  it('is the web host message bound, one constant', () => {
    expect(WS_MAX).toBe(MAX_MESSAGE_BYTES);
    expect(MAX_MESSAGE_BYTES).toBe(700 * MiB);
  });

  it('refuses a call whose arguments pass it, with a one-line reason; a call within it passes', () => {
    const text = 'x'.repeat(MiB);
    const bytes = new Uint8Array(MiB);
    expect(oversizedCall([{ uploadId: 'u', dataBase64: text }])).toBeNull();
    expect(oversizedCall([{ chunks: Array<string>(699).fill(text) }])).toBeNull();
    for (const params of [[{ chunks: Array<string>(701).fill(text) }], [{ data: Array(701).fill(bytes) }]]) {
      const why = oversizedCall(params);
      expect(why).toMatch(/^refused: the call's arguments are larger than 734003200 bytes/);
      expect(why).not.toContain('\n');
    }
  });

  it('counts binary data by its bytes, strings by their length, and every place a shared value appears', () => {
    expect(exceedsBytes([new Uint8Array(100)], 100)).toBe(true);
    expect(exceedsBytes([new Uint8Array(90)], 100)).toBe(false);
    expect(exceedsBytes({ a: 'y'.repeat(200) }, 100)).toBe(true);
    const shared = 'z'.repeat(40);
    expect(exceedsBytes([shared, shared, shared], 100)).toBe(true);
  });

  it('counts what a Map or a Set holds', () => {
    expect(exceedsBytes([new Map([['k', 'v'.repeat(200)]])], 100)).toBe(true);
    expect(exceedsBytes([new Set(['s'.repeat(200)])], 100)).toBe(true);
  });

  it('ends on a cycle and on a long array (no recursion, no spread)', () => {
    const cycle: unknown[] = [];
    cycle.push(cycle, cycle);
    expect(exceedsBytes(cycle, 10_000)).toBe(true);
    expect(exceedsBytes(new Array(1_000_000).fill(0), MAX_MESSAGE_BYTES)).toBe(false);
  });
});
