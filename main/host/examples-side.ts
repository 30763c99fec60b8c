/**
 * The engine host's built-in examples: written once, on first use, to a private folder the
 * host grants itself (so a job may open them by path), and listed for the Open view.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExampleSummary } from '../../shared/api.js';
import { writeExamples, type ExampleFile } from '../../app/examples/index.js';
import type { GrantedGate } from './granted-gate.js';

export class ExamplesSide {
  private written: Promise<{ dir: string; files: ExampleFile[] }> | null = null;

  constructor(private readonly gate: GrantedGate) {}

  files(): Promise<{ dir: string; files: ExampleFile[] }> {
    if (!this.written) {
      this.written = (async () => {
        const dir = await mkdtemp(join(tmpdir(), 'reprise-examples-'));
        const files = await writeExamples(dir);
        await this.gate.grant({ roots: [dir] });
        return { dir, files };
      })();
    }
    return this.written;
  }

  async listExamples(): Promise<ExampleSummary[]> {
    const { files } = await this.files();
    return files.map((f) => ({
      path: f.path,
      note: f.note,
      ...(f.expect ? { expect: f.expect } : {}),
      ...(f.options ? { options: { ...f.options } } : {}),
    }));
  }
}
