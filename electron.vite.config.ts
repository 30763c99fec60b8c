import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// main: the Electron main process plus the engine worker it starts (out/main/engine-worker.js).
// preload: CommonJS, as a sandboxed preload requires. renderer: the React UI, also served
// by `reprise serve`. Relative base so the same build loads from app:// and http://127.0.0.1.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('main/index.ts'),
          'engine-worker': resolve('app/jobs/engine-worker.ts'),
          // The case's worker threads (app/jobs/batch-pool.ts): the Case view runs a case in the engine's process.
          'batch-worker': resolve('app/jobs/batch-worker.ts'),
          'journal-worker': resolve('main/host/journal-worker.ts'),
          'engine-process': resolve('main/engine-process.ts'),
          'canonical-worker': resolve('app/threads/canonical-worker.ts'),
          'inflate-worker': resolve('app/zip/inflate-worker.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('main/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      chunkSizeWarningLimit: 8000,
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
