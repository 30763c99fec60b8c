/**
 * The typed API between the workbench UI and the engine host. One interface, one method
 * list: the Electron preload and the loopback WebSocket transport are both generated
 * from API_METHODS, so the renderer cannot tell them apart.
 */
import type { Report } from './report.js';

export type CheckMode = 'verify' | 'replay';

export interface EngineInfo {
  version: string;
  kinds: string[];
  transport: 'electron' | 'web';
}

export interface ExampleSummary {
  path: string;
  note: string;
  expect?: { verdict: 'pass' | 'fail' | 'unavailable'; rule?: string; command?: CheckMode };
}

export interface CheckBytesRequest {
  /** A display name (the file's name); never used to detect the kind. */
  name: string;
  /** The artifact's bytes, base64. */
  dataBase64: string;
  mode: CheckMode;
}

export interface RepriseApi {
  engineInfo(): Promise<EngineInfo>;
  checkBytes(req: CheckBytesRequest): Promise<Report>;
  listExamples(): Promise<ExampleSummary[]>;
  checkExample(req: { path: string; mode: CheckMode }): Promise<Report>;
}

export const API_METHODS = ['engineInfo', 'checkBytes', 'listExamples', 'checkExample'] as const satisfies readonly (keyof RepriseApi)[];
export type ApiMethod = (typeof API_METHODS)[number];

/** Wire messages of the WebSocket transport (and the IPC channel names). */
export interface ApiRequest {
  id: number;
  method: ApiMethod;
  params: unknown[];
}
export type ApiResponse = { id: number; result: unknown } | { id: number; error: { message: string; usage: boolean } };

export const IPC_PREFIX = 'reprise:';

export function isApiMethod(m: unknown): m is ApiMethod {
  return typeof m === 'string' && (API_METHODS as readonly string[]).includes(m);
}
