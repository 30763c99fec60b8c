import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';

/** A file or directory path: typed, or chosen with the native dialog where there is one (Electron). */
export function PathField({
  id,
  label,
  value,
  kind,
  use,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  kind: 'file' | 'directory';
  /** What the picked file is for (PickRequest.use): it is granted as that. */
  use?: 'key' | 'adapter';
  onChange: (v: string) => void;
}) {
  const { info, api } = useStore(useShallow((s) => ({ info: s.info, api: s.api })));
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        className="mono"
        placeholder={kind === 'directory' ? '/path/to/journal' : '/path/to/file'}
      />
      {info?.nativeDialogs && (
        <button
          type="button"
          onClick={() =>
            void api?.pickPath({ kind, title: label, ...(use ? { use } : {}) }).then((p) => p && onChange(p))
          }
        >
          Choose…
        </button>
      )}
    </div>
  );
}
