/** Monaco views (loaded lazily): an artifact's raw/canonical text with a highlighted region, and a diff. */
import { DiffEditor, Editor, type DiffOnMount, type OnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import { monaco } from '../lib/monaco-setup';
import { locate } from '../lib/pointer';

type StandaloneEditor = Parameters<OnMount>[0];

export function ArtifactEditor({ text, pointer, theme, label }: { text: string; pointer: string | null; theme: 'light' | 'dark'; label: string }) {
  const ed = useRef<StandaloneEditor | null>(null);
  const decorations = useRef<{ clear(): void } | null>(null);

  const highlight = (): void => {
    const e = ed.current;
    const model = e?.getModel();
    if (!e || !model) return;
    decorations.current?.clear();
    const region = locate(text, pointer);
    if (!region) return;
    const a = model.getPositionAt(region.start);
    const b = model.getPositionAt(region.end);
    const range = new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column);
    decorations.current = e.createDecorationsCollection([{ range, options: { className: 'finding-region', isWholeLine: false, inlineClassName: 'finding-region-inline', overviewRuler: { color: '#d33', position: monaco.editor.OverviewRulerLane.Full } } }]);
    e.revealRangeInCenter(range);
    e.setSelection(range);
  };

  useEffect(highlight, [text, pointer]);

  return (
    <div className="editor-frame" data-testid="artifact-editor" data-pointer={pointer ?? ''} aria-label={label} role="region">
      <Editor
        height="360px"
        language="json"
        value={text}
        theme={theme === 'dark' ? 'reprise-dark' : 'reprise-light'}
        options={{ readOnly: true, minimap: { enabled: false }, wordWrap: 'on', scrollBeyondLastLine: false, fontSize: 13, ariaLabel: label }}
        onMount={(e) => {
          ed.current = e;
          highlight();
        }}
      />
    </div>
  );
}

type DiffEditorInstance = Parameters<DiffOnMount>[0];
const ORIGINAL_LABEL = 'Original expression (recorded)';
const MODIFIED_LABEL = 'Replayed expression';

export function ExpressionDiff({ original, modified, theme }: { original: string; modified: string; theme: 'light' | 'dark' }) {
  // @monaco-editor/react disposes the two models before the diff editor on unmount, and
  // Monaco then logs "TextModel got disposed before DiffEditorWidget model got reset"
  // (every time a report replaces one showing a diff). The models are kept from the
  // library and disposed here, one tick after the editor itself is gone.
  const models = useRef<{ dispose(): void }[]>([]);
  useEffect(
    () => () => {
      const held = models.current;
      models.current = [];
      setTimeout(() => held.forEach((m) => m.dispose()), 0);
    },
    [],
  );
  const onMount = (e: DiffEditorInstance): void => {
    const m = e.getModel();
    if (m) models.current = [m.original, m.modified];
    // monaco 0.57 leaves both sides' text boxes with aria-label="" despite the diff
    // editor's originalAriaLabel / modifiedAriaLabel: name each side on its own editor.
    e.getOriginalEditor().updateOptions({ ariaLabel: ORIGINAL_LABEL });
    e.getModifiedEditor().updateOptions({ ariaLabel: MODIFIED_LABEL });
  };
  return (
    <div className="editor-frame" data-testid="diff-editor" role="region" aria-label="Original against replayed expression">
      <DiffEditor
        height="320px"
        language="json"
        original={original}
        modified={modified}
        theme={theme === 'dark' ? 'reprise-dark' : 'reprise-light'}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={onMount}
        options={{ readOnly: true, renderSideBySide: true, minimap: { enabled: false }, wordWrap: 'on', originalEditable: false, fontSize: 13, ariaLabel: 'Original against replayed expression', originalAriaLabel: ORIGINAL_LABEL, modifiedAriaLabel: MODIFIED_LABEL }}
      />
    </div>
  );
}
