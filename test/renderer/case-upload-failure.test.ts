/**
 * A case sent from the window (renderer/src/case-store.ts sendFiles): one file that cannot be
 * sent (unreadable where it was dropped from, or refused by the host's upload limits) is left
 * out of the case and named in its note, as a name the host refuses is; the other files still
 * make the case. Only when no file at all reached the host is it the case's error. The upload
 * itself (lib/file-prep.ts) is stood in for: it is a worker's job, tested through the browser.
 */
import { describe, expect, it, vi } from 'vitest';
import { stubBrowser } from './browser-stubs';

stubBrowser();

const refusedUploads = new Set<string>();
vi.mock('../../renderer/src/lib/file-prep', () => ({
  async uploadFile(_api: unknown, file: File) {
    if (refusedUploads.has(file.name)) throw new Error(`cannot read ${file.name}: NotReadableError`);
    return { uploadId: `u-${file.name}`, arriving: false, sent: Promise.resolve(), hash: async () => '', drop() {} };
  },
}));

function fakeApi() {
  const added: string[] = [];
  const started: unknown[] = [];
  const api = {
    onEvent: () => () => undefined,
    async addCaseUpload(req: { name: string; folderId?: string }) {
      if (req.name.startsWith('bad-name')) throw new Error(`${req.name}: refused by name`);
      added.push(req.name);
      return { folderId: req.folderId ?? 'f1', files: added.length };
    },
    async startCase(req: unknown) {
      started.push(req);
      return { caseId: 'c1', dir: '/host/uploads/f1' };
    },
    cancelCase: async () => ({}),
  };
  return { api, added, started };
}

async function stores(api: unknown) {
  const { useStore } = await import('../../renderer/src/store');
  const { useCase } = await import('../../renderer/src/case-store');
  useStore.setState({ api, info: { options: [] } } as never);
  return useCase;
}

const file = (name: string) => ({ name, file: { name, size: 1 } as File });

describe('a case sent from the window', () => {
  it('leaves out a file that could not be sent, says so, and runs the others', async () => {
    refusedUploads.clear();
    refusedUploads.add('gone.json');
    const { api, added, started } = fakeApi();
    const useCase = await stores(api);
    await useCase
      .getState()
      .openFiles([file('a.json'), file('gone.json'), file('bad-name.json'), file('b.json')], { what: 'files' });
    const s = useCase.getState();
    expect(s.error).toBeNull();
    expect(added).toEqual(['a.json', 'b.json']);
    expect(started).toEqual([{ source: { type: 'uploads', folderId: 'f1' }, mode: 'verify' }]);
    expect(s.notSent).toEqual(['cannot read gone.json: NotReadableError', 'bad-name.json: refused by name']);
  });

  it('is an error of its own when no file could be sent', async () => {
    refusedUploads.clear();
    refusedUploads.add('gone.json');
    const { api, started } = fakeApi();
    const useCase = await stores(api);
    await useCase.getState().openFiles([file('gone.json')], { what: 'files' });
    expect(useCase.getState().error).toContain('cannot read gone.json: NotReadableError');
    expect(started).toEqual([]);
  });
});
