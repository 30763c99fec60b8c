/**
 * Exporting an evidence bundle (`reprise export`, the workbench's export): the engine's
 * door to the evidence-bundle kind's writer, so neither the CLI nor the host reaches into
 * a kind's folder.
 */
export { bundleFromJournal, type JournalBundle } from '../kinds/evidence-bundle/index.js';
