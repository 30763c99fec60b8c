/** Monaco views (loaded lazily): an artifact's raw/canonical text with a highlighted region, and a diff. */
import { DiffEditor, Editor, type DiffOnMount, type OnMount } from '@monaco-editor/react';
import { useEffect, useRef, useState } from 'react';
import { monaco } from '../lib/monaco-setup';
import { locate } from '../lib/pointer';
import { HIGHLIGHT, type HighlightTone } from '../lib/highlight';

type StandaloneEditor = Parameters<OnMount>[0];

export function ArtifactEditor({
  text,
  pointer,
  tone = 'problem',
  theme,
  label,
}: {
  text: string;
  pointer: string | null;
  /** How the place is marked (lib/highlight.ts): a problem unless the caller knows it is only a place. */
  tone?: HighlightTone;
  theme: 'light' | 'dark';
  label: string;
}) {
  const ed = useRef<StandaloneEditor | null>(null);
  const decorations = useRef<{ clear(): void } | null>(null);
  // What to mark, as of the latest render: Monaco may mount after the pointer changed, and
  // the onMount it calls then can be an earlier render's, which would mark the old pointer.
  const latest = useRef({ text, pointer, tone });
  latest.current = { text, pointer, tone };

  const highlight = (): void => {
    const e = ed.current;
    const model = e?.getModel();
    if (!e || !model) return;
    decorations.current?.clear();
    const region = locate(latest.current.text, latest.current.pointer);
    if (!region) return;
    const a = model.getPositionAt(region.start);
    const b = model.getPositionAt(region.end);
    const range = new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column);
    const mark = HIGHLIGHT[latest.current.tone];
    decorations.current = e.createDecorationsCollection([
      {
        range,
        options: {
          className: mark.className,
          isWholeLine: false,
          inlineClassName: mark.inlineClassName,
          overviewRuler: { color: mark.ruler, position: monaco.editor.OverviewRulerLane.Full },
        },
      },
    ]);
    e.revealRangeInCenter(range);
    e.setSelection(range);
  };

  useEffect(highlight, [text, pointer, tone]);

  return (
    <div
      className="editor-frame"
      data-testid="artifact-editor"
      data-pointer={pointer ?? ''}
      data-highlight={tone}
      aria-label={label}
      role="region"
    >
      <Editor
        height="360px"
        language="json"
        value={text}
        theme={theme === 'dark' ? 'reprise-dark' : 'reprise-light'}
        options={{
          readOnly: true,
          minimap: { enabled: false },
          wordWrap: 'on',
          scrollBeyondLastLine: false,
          fontSize: 13,
          ariaLabel: label,
        }}
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
/**
 * One object: a new one each render would make the wrapper push the options again.
 *
 * No gutter menu (`renderGutterMenu`): its hunk toolbar (revert, stage) offers nothing on a
 * read-only diff, and Monaco 0.57 never disposes the gutter with the editor (the gutter lives
 * in a derived observable its disposal does not reach), so its menu outlives the editor's
 * context keys. A context key the editor changed just before its disposal (the view hidden
 * and the editor unmounted in one step, as a link or Back leaving the Replay view does:
 * its width falls to 0 and the inline-view breakpoint flips) reaches that menu 50 ms later,
 * and it asks the disposed keys: "AbstractContextKeyService has been disposed", uncaught.
 */
const DIFF_OPTIONS = {
  readOnly: true,
  renderSideBySide: true,
  renderGutterMenu: false,
  minimap: { enabled: false },
  wordWrap: 'on',
  originalEditable: false,
  fontSize: 13,
  ariaLabel: 'Original against replayed expression',
  originalAriaLabel: ORIGINAL_LABEL,
  modifiedAriaLabel: MODIFIED_LABEL,
} as const;

/**
 * Keeps a side's text box named. Monaco 0.57's diff editor passes each option change on to
 * both sides with `ariaLabel` recomputed as "" unless that very change carries the side's
 * label (diffEditorEditors.js, _adjustOptionsForLeftHandSide), so a name set once is lost
 * at the next change (the view shown again, a layout): it is set again after each.
 */
function keepNamed(side: StandaloneEditor, label: string): void {
  const name = (): void => {
    if (side.getOption(monaco.editor.EditorOption.ariaLabel) !== label) side.updateOptions({ ariaLabel: label });
  };
  name();
  side.onDidChangeConfiguration(name);
}

export function ExpressionDiff({
  original,
  modified,
  theme,
}: {
  original: string;
  modified: string;
  theme: 'light' | 'dark';
}) {
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
  // The wrapper shows the editor as soon as it exists, but onMount runs in a later effect,
  // and in between Monaco's first option pass has left both text boxes unnamed: the frame
  // stays invisible (so out of the accessibility tree) until both sides are named, and
  // says it is busy meanwhile (under load that lasts a second or more).
  const [named, setNamed] = useState(false);
  const onMount = (e: DiffEditorInstance): void => {
    const m = e.getModel();
    if (m) models.current = [m.original, m.modified];
    keepNamed(e.getOriginalEditor(), ORIGINAL_LABEL);
    keepNamed(e.getModifiedEditor(), MODIFIED_LABEL);
    setNamed(true);
  };
  return (
    <div
      className="editor-frame"
      data-testid="diff-editor"
      role="region"
      aria-label="Original against replayed expression"
      style={named ? undefined : { visibility: 'hidden' }}
      aria-busy={named ? undefined : true}
    >
      <DiffEditor
        height="320px"
        language="json"
        original={original}
        modified={modified}
        theme={theme === 'dark' ? 'reprise-dark' : 'reprise-light'}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={onMount}
        options={DIFF_OPTIONS}
      />
    </div>
  );
}
