/**
 * The engine host's journal concern: journal status, case decisions and the reviewer's
 * judgements, every path through the gate first, then run in the journal worker
 * (journal-client.ts, journal-ops.ts, judgement-ops.ts).
 */
import type {
  AnchorReceipt,
  BundleExport,
  DecideCaseRequest,
  DemoJournal,
  ExportBundleRequest,
  JournalRequest,
  JournalStatus,
  JudgementJournalRequest,
  JudgementList,
  JudgementReceipt,
  JudgementRules,
  ListJudgementsRequest,
  NoteReceipt,
  RecordJudgementRequest,
  RecordNoteRequest,
  SigningKey,
} from '../../shared/api.js';
import { dirname } from 'node:path';
import { JUDGEMENT_DECISIONS, RATIONALE_RULE } from '../../shared/rationale.js';
import { ApiError } from './api-error.js';
import { isWithin } from './path-gate.js';
import type { Grant, GrantedGate } from './granted-gate.js';
import type { JournalWorker } from './journal-client.js';
import type { ConfinedOp } from './confined-op.js';
import type { EmittedReports } from './emitted-reports.js';

export class JournalSide {
  constructor(
    private readonly gate: GrantedGate,
    private readonly journal: JournalWorker,
    private readonly emitted: EmittedReports,
  ) {}

  /**
   * Runs an operation on the journal worker confined to what was granted: the folders, and the
   * key files picked for signing (each a root of its own), checked on every file it opens.
   */
  private async confined<T>(op: ConfinedOp): Promise<T> {
    return this.journal.run<T>({ ...op, readRoots: await this.gate.readable() });
  }

  /**
   * A demonstration journal and its key, made by the host, which grants itself both (`grant`:
   * the shell's own widening): the journal and its trust store's folder to read, the key to
   * sign with and never to read, so no folder holding the key is granted.
   */
  async createDemoJournal(grant: (g: Grant) => Promise<void>): Promise<DemoJournal> {
    const demo = await this.journal.run<DemoJournal>({ op: 'demo' });
    const roots = [demo.dir, dirname(demo.trustStore)];
    if (roots.some((r) => isWithin(r, demo.keyFile)))
      throw new ApiError(
        'internal error: the training journal lies beside its private key; nothing was granted',
        false,
      );
    await grant({ roots, keys: [demo.keyFile] });
    return demo;
  }

  async journalStatus(req: JournalRequest): Promise<JournalStatus> {
    if (typeof req?.dir !== 'string' || req.dir === '') throw new ApiError('choose a journal directory', true);
    const dir = await this.gate.confine(req.dir, 'the journal directory');
    const trustStore = req.trustStore ? await this.gate.confine(req.trustStore, 'the trust store') : undefined;
    const st = await this.confined<JournalStatus>({
      op: 'status',
      req: { dir, ...(trustStore ? { trustStore } : {}) },
    });
    return { ...st, dir: req.dir };
  }

  async decideCase(req: DecideCaseRequest): Promise<AnchorReceipt> {
    if (!req || typeof req.dir !== 'string' || typeof req.keyFile !== 'string' || req.keyFile === '')
      throw new ApiError('a decision needs the journal directory, the case, and the officer key file', true);
    if (typeof req.trustStore !== 'string' || req.trustStore === '')
      throw new ApiError('a decision needs the trust store that names the officer', true);
    const dir = await this.gate.confine(req.dir, 'the journal directory');
    const trustStore = await this.gate.confine(req.trustStore, 'the trust store');
    const keyFile = await this.gate.keyFile(req.keyFile, 'officer key file');
    return this.confined<AnchorReceipt>({ op: 'decide', req: { ...req, dir, trustStore, keyFile } });
  }

  // Judgements (judgement-ops.ts): journal writes and proofs run in the journal worker.
  // Every path goes through the gate first, as the case decisions do: a token holder may
  // neither write a journal outside the chosen roots nor sign with a key nobody picked.
  private async judgementPaths<T extends { dir: string; trustStore?: string }>(req: T, what: string): Promise<T> {
    if (typeof req?.dir !== 'string' || req.dir === '') throw new ApiError(`${what} needs the journal directory`, true);
    const dir = await this.gate.confine(req.dir, 'the journal directory');
    const trustStore =
      typeof req.trustStore === 'string' && req.trustStore !== ''
        ? await this.gate.confine(req.trustStore, 'the trust store')
        : undefined;
    return { ...req, dir, ...(trustStore ? { trustStore } : {}) };
  }

  async openJudgementJournal(req: JudgementJournalRequest): Promise<JournalStatus> {
    const st = await this.confined<JournalStatus>({
      op: 'judge-open',
      req: await this.judgementPaths(req, 'opening a journal'),
    });
    return { ...st, dir: req.dir };
  }

  async recordJudgement(req: RecordJudgementRequest): Promise<JudgementReceipt> {
    this.emitted.checkReport(req?.report, 'A judgement');
    const paths = await this.judgementPaths(req, 'a judgement');
    const keyFile = await this.gate.keyFile(req?.keyFile, 'reviewer key file that signs the judgement');
    return this.confined<JudgementReceipt>({ op: 'judge-record', req: { ...paths, keyFile } });
  }

  async recordNote(req: RecordNoteRequest): Promise<NoteReceipt> {
    this.emitted.checkArtifact(req?.artifact, 'A note');
    const paths = await this.judgementPaths(req, 'a note');
    const keyFile = await this.gate.keyFile(req?.keyFile, 'reviewer key file that signs the note');
    return this.confined<NoteReceipt>({ op: 'judge-note', req: { ...paths, keyFile } });
  }

  async listJudgements(req: ListJudgementsRequest): Promise<JudgementList> {
    return this.confined<JudgementList>({
      op: 'judge-list',
      req: await this.judgementPaths(req, 'listing judgements'),
    });
  }

  async exportBundle(req: ExportBundleRequest): Promise<BundleExport> {
    this.emitted.checkReport(req?.report, 'An export');
    return this.confined<BundleExport>({ op: 'judge-export', req: await this.judgementPaths(req, 'an export') });
  }

  async judgementRules(): Promise<JudgementRules> {
    return { ...RATIONALE_RULE, decisions: [...JUDGEMENT_DECISIONS] };
  }

  async signingKeys(req: { trustStore?: string }): Promise<SigningKey[]> {
    const keys = await this.gate.grantedKeys();
    const trustStore =
      typeof req?.trustStore === 'string' && req.trustStore !== ''
        ? await this.gate.confine(req.trustStore, 'the trust store')
        : undefined;
    return this.confined<SigningKey[]>({ op: 'judge-keys', keys, ...(trustStore ? { trustStore } : {}) });
  }
}
