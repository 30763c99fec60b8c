import { useShallow } from 'zustand/react/shallow';
import { useJudgement } from '../judgement-store';
import { PathField } from './PathField';

/**
 * The Nemosyne options (`--profiles`, `--kernel-adapter` on the command line): the
 * authority's profile registry and the kernel adapter that restores a V3+ package's
 * semantic state. Remembered until changed; sent with every job, examples included.
 * The adapter is code the engine runs: name only one you trust, under a folder this
 * workbench may read.
 */
export function PackageOptions() {
  const { pkg, setPackageOptions } = useJudgement(
    useShallow((s) => ({ pkg: s.pkg, setPackageOptions: s.setPackageOptions })),
  );
  return (
    <div className="package-options" data-testid="package-options">
      <PathField
        id="opt-profiles"
        label="Profile registry (Nemosyne consumers and profiles)"
        kind="file"
        value={pkg.profiles}
        onChange={(v) => setPackageOptions({ profiles: v })}
      />
      <PathField
        id="opt-adapter"
        label="Kernel adapter (restores a Nemosyne package's semantic state; it runs as code)"
        kind="file"
        use="adapter"
        value={pkg.kernelAdapter}
        onChange={(v) => setPackageOptions({ kernelAdapter: v })}
      />
    </div>
  );
}
