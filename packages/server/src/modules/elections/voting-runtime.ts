import type { FinalResultsResponse } from '@kura/contract';
import type { BallotsContext } from '../ballots';
import type { DomainEventHandlers } from '../../events';
import type { Service } from '../../lib/service';
import { TallySnapshot } from './tally';

/** How often positions and candidacies are re-read in case they changed without an event. */
const STRUCTURE_CHECK_MS = 10_000;

/**
 * The voting core's per-process state (`ctx.voting`): the results snapshot, built from the
 * database at start and kept current by domain events until stopped. The mixer and the
 * commitment loop run beside it as services of their own (`ctx.mixer`, `ctx.commitments`).
 */
export class VotingRuntime implements Service {
  readonly tally: TallySnapshot;
  /** Declared results by final commitment: counted once per close, whoever reads them and how often. */
  private readonly declarations = new Map<number, Promise<FinalResultsResponse>>();
  private structureTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly ctx: BallotsContext) {
    this.tally = new TallySnapshot(ctx);
  }

  start(): void {
    if (this.unsubscribe) return;
    const { ctx, tally } = this;
    const logFailure = (what: string) => (err: unknown) => ctx.logger.error({ err }, what);
    const onCandidates = () => void tally.refreshStructure().catch(logFailure('could not reload candidates'));
    const handlers: DomainEventHandlers = {
      'votes.cast': (vote) => tally.applyVote(vote),
      'candidates.changed': onCandidates,
      'members.changed': () => {
        tally.invalidateMembers();
        onCandidates();
      },
      // After a toggle (or the close) rebuild from the database, so every process shows the exact count.
      'election.toggled': () => void tally.resync().catch(logFailure('could not rebuild results')),
    };
    tally.start();
    this.unsubscribe = ctx.events.subscribe(handlers);
    // Safety net for changes that raise no event here (an import run by the CLI, an operator's SQL).
    this.structureTimer = setInterval(onCandidates, STRUCTURE_CHECK_MS);
    this.structureTimer.unref();
  }

  /** The declaration of the close whose final commitment is `finalCommitmentId`, counted by `count` once. */
  declared(finalCommitmentId: number, count: () => Promise<FinalResultsResponse>): Promise<FinalResultsResponse> {
    let declaration = this.declarations.get(finalCommitmentId);
    if (!declaration) {
      declaration = count();
      this.declarations.set(finalCommitmentId, declaration);
      // A failed count is not kept: the next read counts again.
      declaration.catch(() => this.declarations.delete(finalCommitmentId));
    }
    return declaration;
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.structureTimer);
    await this.tally.idle();
  }
}
