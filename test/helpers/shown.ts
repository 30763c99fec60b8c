/**
 * What a confirmation shows before a case decision or a judgement is signed, as the window
 * sends it: the case's opening entry hash (read from the journal's verification) and the key
 * id the key file holds now.
 */
import { loadSigner } from '../../app/core/keys.js';
import { journalStatus } from '../../main/host/journal-ops.js';

/** The key id a key file holds now ('' when it holds none: the engine refuses that on its own). */
export const keyIdOf = (keyFile: string): Promise<string> =>
  loadSigner(keyFile).then(
    (s) => s.keyId,
    () => '',
  );

/** A case and key as the window shows them: `{openHash, shownLast, keyId}` to spread into a DecideCaseRequest. */
export async function asShown(req: {
  dir: string;
  trustStore: string;
  keyFile: string;
  caseId: string;
}): Promise<{ openHash: string; shownLast: string; keyId: string }> {
  const st = await journalStatus({ dir: req.dir, trustStore: req.trustStore });
  const c = st.cases.find((x) => x.caseId === req.caseId);
  if (!c?.openHash) throw new Error(`no ${req.caseId} in ${req.dir}`);
  return { openHash: c.openHash, shownLast: c.history.at(-1)!.entryHash, keyId: await keyIdOf(req.keyFile) };
}
