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

// Monaco's own light and dark themes with diff backgrounds and token colours dark (or
// light) enough that every token on a changed line keeps a 4.5:1 contrast (axe
// color-contrast, nothing excluded): the stock removed-text red under a green number fails.
monaco.editor.defineTheme('reprise-light', {
  base: 'vs',
  inherit: true,
  rules: [
    { token: 'number', foreground: '0a5c3c' },
    { token: 'string.value.json', foreground: '8a1c0c' },
    { token: 'string.key.json', foreground: '0b3f8a' },
  ],
  colors: {
    'diffEditor.removedTextBackground': '#ff000018',
    'diffEditor.insertedTextBackground': '#00a00018',
    'diffEditor.removedLineBackground': '#ff00000c',
    'diffEditor.insertedLineBackground': '#00a0000c',
  },
});
monaco.editor.defineTheme('reprise-dark', {
  base: 'vs-dark',
  inherit: true,
  // Lighter than vs-dark's strings (#ce9178, 3.6:1) and keywords (#569cd6, 3.4:1) under a
  // finding's red region on the unfocused editor's selection (#633a3d).
  rules: [
    { token: 'string.value.json', foreground: 'e6b8a2' },
    { token: 'keyword.json', foreground: '8cc4ff' },
  ],
  colors: {
    'diffEditor.removedTextBackground': '#ff000026',
    'diffEditor.insertedTextBackground': '#00c00020',
    'diffEditor.removedLineBackground': '#ff000014',
    'diffEditor.insertedLineBackground': '#00c00012',
  },
});
