import type { AppContext } from '../../context';
import { startMixer } from '../ballots';
import { startCommitmentLoop } from './commitments';
import { TallySnapshot } from './tally';

/** The voting core's per-process state: the results snapshot and the background loops. */
export type VotingRuntime = { tally: TallySnapshot };

const runtimes = new WeakMap<AppContext, VotingRuntime>();

/** How often positions and candidacies are re-read in case they changed without an event. */
const STRUCTURE_CHECK_MS = 10_000;

/**
 * The runtime of this context, started on first use: snapshot built from the database, kept
 * current by domain events; mixer and commitment loops running until the context closes.
 */
export function votingRuntime(ctx: AppContext): VotingRuntime {
  const existing = runtimes.get(ctx);
  if (existing) return existing;
  const tally = new TallySnapshot(ctx);
  const runtime: VotingRuntime = { tally };
  runtimes.set(ctx, runtime);

  const logFailure = (what: string) => (err: unknown) => ctx.logger.error({ err }, what);
  const onVote = (vote: Parameters<TallySnapshot['applyVote']>[0]) => tally.applyVote(vote);
  const onCandidates = () => void tally.refreshStructure().catch(logFailure('could not reload candidates'));
  const onMembers = () => {
    tally.invalidateMembers();
    onCandidates();
  };
  // After a toggle the queue is flushed and committed: rebuild so every process shows the exact count.
  const onToggle = () => void tally.resync().catch(logFailure('could not rebuild results'));
  ctx.events.on('votes.cast', onVote);
  ctx.events.on('candidates.changed', onCandidates);
  ctx.events.on('members.changed', onMembers);
  ctx.events.on('election.toggled', onToggle);
  // Safety net for changes that raise no event here (an import run by the CLI, an operator's SQL).
  const structureTimer = setInterval(onCandidates, STRUCTURE_CHECK_MS);
  structureTimer.unref();
  const stopMixer = startMixer(ctx);
  const stopCommitments = startCommitmentLoop(ctx);

  ctx.onClose(async () => {
    ctx.events.off('votes.cast', onVote);
    ctx.events.off('candidates.changed', onCandidates);
    ctx.events.off('members.changed', onMembers);
    ctx.events.off('election.toggled', onToggle);
    clearInterval(structureTimer);
    await stopMixer();
    await stopCommitments();
    await tally.idle();
  });
  return runtime;
}
