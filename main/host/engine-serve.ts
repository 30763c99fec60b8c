/**
 * The engine's process side of engine-remote.ts: answers the shell's wire messages with
 * an EngineHost (`{id, method, params}` through dispatch, `{id, grant}` through
 * EngineHost.grant, `{id, upload}` through EngineHost.adoptUpload) and forwards its events. The same for Electron's utilityProcess and
 * for the Node child of `reprise serve`.
 */
import type { ApiResponse } from '../../shared/api.js';
import { dispatch } from './dispatch.js';
import type { EngineHost } from './engine-host.js';
import { ApiError } from './api-error.js';
import type { Grant, UploadFile } from './engine-remote.js';

export interface ShellPort {
  send(message: unknown): void;
  onMessage(listener: (m: unknown) => void): void;
}

function isGrant(m: unknown): m is { id: number; grant: Grant } {
  if (typeof m !== 'object' || m === null || !('grant' in m)) return false;
  const g = (m as { grant: unknown }).grant;
  const list = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
  return (
    typeof g === 'object' &&
    g !== null &&
    list((g as Grant).roots) &&
    list((g as Grant).files) &&
    list((g as Grant).keys) &&
    list((g as Grant).adapters)
  );
}

function isUploadFile(m: unknown): m is { id: number; upload: UploadFile } {
  if (typeof m !== 'object' || m === null || !('upload' in m)) return false;
  const u = (m as { upload: unknown }).upload;
  return (
    typeof u === 'object' &&
    u !== null &&
    typeof (u as UploadFile).uploadId === 'string' &&
    typeof (u as UploadFile).path === 'string'
  );
}

export function serveEngine(host: EngineHost, port: ShellPort): void {
  host.subscribe((event) => port.send({ event }));
  port.onMessage((m) => {
    if (isGrant(m)) {
      host.grant(m.grant).then(
        () => port.send({ id: m.id, result: null } satisfies ApiResponse),
        (e: unknown) =>
          port.send({
            id: m.id,
            error: { message: `cannot grant access: ${e instanceof Error ? e.message : String(e)}`, usage: true },
          } satisfies ApiResponse),
      );
      return;
    }
    if (isUploadFile(m)) {
      host.adoptUpload(m.upload).then(
        (result) => port.send({ id: m.id, result } satisfies ApiResponse),
        (e: unknown) =>
          port.send({
            id: m.id,
            error: { message: e instanceof Error ? e.message : String(e), usage: e instanceof ApiError && e.usage },
          } satisfies ApiResponse),
      );
      return;
    }
    void dispatch(host, m).then((resp) => {
      if (resp) port.send(resp);
    });
  });
}
