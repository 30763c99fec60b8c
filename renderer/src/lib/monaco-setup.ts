/**
 * Monaco from the npm package, never a CDN: @monaco-editor/react is pointed at the
 * bundled `monaco-editor`, and MonacoEnvironment.getWorker returns Vite-bundled workers
 * (without the editor worker the diff editor silently computes nothing).
 */
import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import { loader } from '@monaco-editor/react';

self.MonacoEnvironment = {
  getWorker(_id: string, label: string): Worker {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};
loader.config({ monaco });

export { monaco };
