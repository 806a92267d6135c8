import type { ResultsContext } from '../results';
import { AppError } from '../../errors';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { lockElection } from '../../db/locks';
import { recordCommitment } from '../results';
import { undecidedNominations } from '../../db/nomination-store';
import { lockForUpdate, nameElection, readActive, readState, setActive, type ElectionId } from '../../db/election-store';

export type ElectionState = '1' | '0';

export async function getElectionStatus(ctx: ResultsContext, id: ElectionId): Promise<ElectionState> {
  return (await readActive(ctx.database.db, id)) ? '1' : '0';
}

/**
 * Enables or disables voting. The exclusive election lock waits for votes in flight, so every vote
 * commits wholly before the switch (and is counted) or after it (and sees the new state). Then
 * a commitment to the published set is recorded. The switch publishes nothing: the ballots cast
 * since the last mixing pass stay sealed in the queue (counted in the results all the same) until
 * MIX_MIN_BATCH of their position are queued or the election closes. Flushing them here would
 * publish a pause's few ballots as a batch of their own, linkable to the few voters since the last
 * pass by anyone holding a dump from before and after the pause.
 */
export async function toggleElection(ctx: ResultsContext, actor: Actor, active: boolean, id: ElectionId): Promise<ElectionState> {
  const value: ElectionState = active ? '1' : '0';
  const activity = active ? 'Enabled voting' : 'Disabled voting';
  await auditedTransaction(ctx, { actor, activity, data: nameElection(id, null) }, async (tx, note) => {
    // The commitment first, then the announcement (whatever the commitment's fate: the switch stands).
    note.afterCommit(() =>
      recordCommitment(ctx, active ? 'voting enabled' : 'voting disabled', {}, id).finally(() =>
        ctx.events.emit('election.toggled', { active, electionId: id }),
      ),
    );
    await lockElection(tx, id);
    // Then the row (the order a close takes them): an edit of its schedule that commits meanwhile is seen.
    await lockForUpdate(tx, id);
    // Under the lock, so a close or a scheduled opening in flight is seen, and the log names the
    // election as the switch found it.
    const e = await readState(tx, id);
    note.data(nameElection(id, e.title));
    if (e.archived) throw AppError.say('CONFLICT', 'election.archived');
    if (e.closedAt) throw AppError.say('CONFLICT', 'error.closed.toggle');
    if (active && e.opensAt && e.opensAt.getTime() > ctx.now().getTime()) {
      throw AppError.say('CONFLICT', 'error.opensByItself', { at: e.opensAt.toISOString() });
    }
    // Voting opens over decided nominations only (docs/api.md "Nominations").
    if (active && !e.openedAt) {
      const undecided = await undecidedNominations(tx, id);
      // The 409 names each one, by id, nominee and position.
      if (undecided.length > 0) {
        const list = undecided.map((n) => ({
          id: 'nominations.undecidedItem' as const,
          values: { id: n.id, nominee: n.nominee, position: n.position, appeal: n.appeal ? 'yes' : 'no' },
        }));
        throw AppError.say('CONFLICT', 'nominations.undecided', { list: { list, join: 'semicolon' } });
      }
    }
    await setActive(tx, active, ctx.now(), id);
  });
  return value;
}
