/**
 * The options a case ran without that would decide findings of its UNAVAILABLE artifacts
 * (CaseArtifact.needs, which each kind declares: app/kinds/types.ts KindOption.decides), and
 * where the reviewer gives each: a field of the Open view, which the next case opened takes
 * (case-store.ts caseOptions), an artifact the case holds, or the command line. Pure.
 */
import type { OptionNeeded } from '../../../shared/case-needs';

export { optionsNeeded, type OptionNeeded } from '../../../shared/case-needs';

/** The Open view's fields a case takes its options from (OpenPanel.tsx, PackageOptions.tsx), by option. */
export const OPTION_FIELDS: Readonly<Record<string, { id: string; label: string }>> = {
  trustStore: { id: 'opt-trust', label: 'Trust store' },
  providers: { id: 'opt-providers', label: 'Providers registry' },
  profiles: { id: 'opt-profiles', label: 'Profile registry' },
  kernelAdapter: { id: 'opt-adapter', label: 'Kernel adapter' },
};

/** The Open view's field for an option, or undefined when it has none. */
export const fieldOf = (option: string): { id: string; label: string } | undefined =>
  Object.hasOwn(OPTION_FIELDS, option) ? OPTION_FIELDS[option] : undefined;

/** Options a case sets by itself to an artifact it holds (app/engine/case/rechecks.ts), and which one. */
const HELD: Readonly<Record<string, string>> = {
  journal: 'the journal holding the anchors',
  artifact: 'the artifact the report is about',
};

/** Where the reviewer gives the option, in a sentence. */
export function whereGiven(o: Pick<OptionNeeded, 'option' | 'flag'>): string {
  const field = fieldOf(o.option);
  if (field) return `Give it in the ${field.label} field of the Open view's engine options, then open the case again.`;
  const held = Object.hasOwn(HELD, o.option) ? HELD[o.option] : undefined;
  if (held)
    return `Put ${held} in the case folder (a case gives it to the artifacts that name it), or run the case on the command line with --${o.flag}.`;
  return `The workbench has no field for it: run the case on the command line with --${o.flag}.`;
}
