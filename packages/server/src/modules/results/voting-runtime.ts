import type { FinalResultsResponse } from '@kura/contract';
import type { BallotsContext } from '../ballots';
import { type ElectionId } from '../../db/election-store';
import type { DomainEventHandlers } from '../../events';
import type { Service } from '../../lib/service';
import { TallySnapshot } from './tally';

/** How often positions and candidacies are re-read in case they changed without an event. */
const STRUCTURE_CHECK_MS = 10_000;

/** A close's declaration as stored, with its final commitment (`closed_at` and the audit are read when served). */
type StoredDeclaration = Pick<FinalResultsResponse, 'data' | 'turnout' | 'commitment'>;

/**
 * The voting core's per-process state (`ctx.voting`): a results snapshot per election, each built
 * from the database when first read and kept current by domain events until stopped. The mixer
 * and the commitment loop run beside it as services of their own (`ctx.mixer`, `ctx.commitments`).
 */
export class VotingRuntime implements Service {
  private readonly tallies = new Map<ElectionId, TallySnapshot>();
  /** Declarations by final commitment, as stored by the close (immutable, so kept once read). */
  private readonly declarations = new Map<number, Promise<StoredDeclaration>>();
  private structureTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly ctx: BallotsContext) {}

  /** The snapshot of one election, made (and started, once this runtime runs) when first asked for. */
  tallyOf(id: ElectionId): TallySnapshot {
    let tally = this.tallies.get(id);
    if (!tally) {
      this.tallies.set(id, (tally = new TallySnapshot(this.ctx, id)));
      if (this.unsubscribe) tally.start();
    }
    return tally;
  }

  /** Rebuilds every snapshot from the database. */
  async resyncAll(): Promise<void> {
    await Promise.all([...this.tallies.values()].map((t) => t.resync()));
  }

  start(): void {
    if (this.unsubscribe) return;
    const { ctx } = this;
    const all = () => [...this.tallies.values()];
    const logFailure = (what: string) => (err: unknown) => ctx.logger.error({ err }, what);
    const onCandidates = () => void Promise.all(all().map((t) => t.refreshStructure())).catch(logFailure('could not reload candidates'));
    const handlers: DomainEventHandlers = {
      'votes.cast': (vote) => this.tallyOf(vote.electionId).applyVote(vote),
      'candidates.changed': onCandidates,
      'members.changed': () => {
        for (const t of all()) t.invalidateMembers();
        onCandidates();
      },
      // After a toggle (or the close) rebuild from the database, so every process shows the exact count.
      'election.toggled': () => void this.resyncAll().catch(logFailure('could not rebuild results')),
    };
    this.unsubscribe = ctx.events.subscribe(handlers);
    for (const t of all()) t.start();
    // Safety net for changes that raise no event here (an import run by the CLI, an operator's SQL).
    this.structureTimer = setInterval(onCandidates, STRUCTURE_CHECK_MS);
    this.structureTimer.unref();
  }

  /**
   * The declaration of the close whose final commitment is `finalCommitmentId`, read by `read` (from
   * `declarations`, where the close stored it) once per process: it never changes once stored.
   */
  declared(finalCommitmentId: number, read: () => Promise<StoredDeclaration>): Promise<StoredDeclaration> {
    let declaration = this.declarations.get(finalCommitmentId);
    if (!declaration) {
      declaration = read();
      this.declarations.set(finalCommitmentId, declaration);
      // A failed read is not kept: the next read tries again.
      declaration.catch(() => this.declarations.delete(finalCommitmentId));
    }
    return declaration;
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.structureTimer);
    await Promise.all([...this.tallies.values()].map((t) => t.idle()));
  }
}
