/** UI state (zustand): the engine connection, the open artifact, its report. */
import { create } from 'zustand';
import type { CheckMode, EngineInfo, ExampleSummary, RepriseApi } from '../../shared/api';
import type { Report } from '../../shared/report';
import { hashBytesPortable, toBase64 } from './lib/digest';

export interface OpenArtifact {
  name: string;
  localSha256: string | null;
  source: 'file' | 'example';
}

interface State {
  api: RepriseApi | null;
  info: EngineInfo | null;
  examples: ExampleSummary[];
  artifact: OpenArtifact | null;
  report: Report | null;
  busy: boolean;
  error: string | null;
  connect(api: RepriseApi): Promise<void>;
  openFile(file: File, mode: CheckMode): Promise<void>;
  openExample(path: string, mode: CheckMode): Promise<void>;
}

export const useStore = create<State>((set, get) => ({
  api: null,
  info: null,
  examples: [],
  artifact: null,
  report: null,
  busy: false,
  error: null,
  async connect(api) {
    set({ api });
    try {
      const [info, examples] = await Promise.all([api.engineInfo(), api.listExamples()]);
      set({ info, examples });
    } catch (e) {
      set({ error: (e as Error).message });
    }
  },
  async openFile(file, mode) {
    const api = get().api;
    if (!api) return;
    set({ busy: true, error: null, report: null, artifact: { name: file.name, localSha256: null, source: 'file' } });
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const localSha256 = hashBytesPortable(bytes);
      set({ artifact: { name: file.name, localSha256, source: 'file' } });
      const report = await api.checkBytes({ name: file.name, dataBase64: toBase64(bytes), mode });
      set({ report, busy: false });
    } catch (e) {
      set({ error: (e as Error).message, busy: false });
    }
  },
  async openExample(path, mode) {
    const api = get().api;
    if (!api) return;
    set({ busy: true, error: null, report: null, artifact: { name: path, localSha256: null, source: 'example' } });
    try {
      const report = await api.checkExample({ path, mode });
      set({ report, busy: false });
    } catch (e) {
      set({ error: (e as Error).message, busy: false });
    }
  },
}));
