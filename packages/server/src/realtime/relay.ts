import type { RealtimeContext } from './context';
import type { DomainEvents } from '../events';
import { sql } from 'drizzle-orm';
import { textArray } from '../db/arrays';
import { sealPadded, unseal } from '../lib/crypto';
import { logFailure, type HubUnit, type RealtimeServer } from './hub';

/**
 * Messages between server processes (through the cluster adapter of scale-out.ts: Postgres NOTIFY
 * or Redis, which any database role with LISTEN can read), sealed with BALLOT_KEY and padded to
 * RELAY_BLOCK bytes. A vote travels without its choices: the receiving process reads the vote's
 * sealed queue rows from the database by id (and rebuilds from the database if the mixer moved
 * them meanwhile).
 */
const RELAY_BLOCK = 1024;
/** How long this process gathers its votes before relaying them to the others in one message. */
const RELAY_EVERY_MS = 50;
/**
 * With several processes, a relayed message can be missed (a LISTEN connection that dropped, one
 * not yet listening at start). Each process therefore rebuilds its snapshot now and then; the
 * rebuild is exact (see TallySnapshot), so it only repairs.
 */
const RESYNC_EVERY_MS = 30_000;
const FIRST_RESYNC_MS = 3000;

type Vote = DomainEvents['votes.cast'][0];
type RelayedVote = { electionId: number; xid: string; newVoter: boolean; positionIds: number[]; queueIds: string[] };
type Relayed =
  | { type: 'votes'; votes: RelayedVote[] }
  | { type: 'election.toggled'; active: boolean; electionId: number }
  | { type: 'candidates.changed' | 'members.changed' | 'election.changed' | 'nominations.changed' }
  | { type: 'session.revoked'; tokenHash: string };

/**
 * The relay between processes, for a hub with a cluster adapter: this process's domain events go
 * to the others (votes batched every RELAY_EVERY_MS), and theirs are raised here on ctx.events,
 * so each process's snapshot, caches and clients stay current. An event raised from a relayed
 * message is not relayed back.
 */
export function createRelay(ctx: RealtimeContext, io: RealtimeServer): HubUnit {
  const { voting } = ctx;
  let relaying = false;
  /** Raises relayed events here, marked so that this unit does not send them back. */
  const replay = (raise: () => void) => {
    relaying = true;
    try {
      raise();
    } finally {
      relaying = false;
    }
  };
  const send = (message: Relayed) => io.serverSideEmit('kura:relay', sealPadded(ctx.secrets.ballotKey, message, RELAY_BLOCK));

  const outbox: Vote[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  const flushVotes = () => {
    flushTimer = undefined;
    if (outbox.length)
      send({
        type: 'votes',
        votes: outbox
          .splice(0)
          .map(({ electionId, xid, newVoter, positionIds, queueIds }) => ({ electionId, xid, newVoter, positionIds, queueIds })),
      });
  };

  /** Relayed votes: their choices come from their sealed queue rows, read here by id. */
  const receiveVotes = async (votes: RelayedVote[]) => {
    const ids = votes.flatMap((v) => v.queueIds);
    const rows = ids.length
      ? await ctx.database.db.execute<{ id: string; sealed: string }>(
          sql`select id, sealed from ballot_queue where id = any(${textArray(ids)}::text[])`,
        )
      : [];
    if (rows.length < ids.length) {
      // The mixer moved some meanwhile: the database has them, in `ballots`. Rebuild the snapshot of
      // each election they were cast in, made here if this process had none yet: a process that
      // never counted that election (just started, its watchers only subscribed) would otherwise
      // rebuild nothing and its watchers never hear of the vote (a rebuild announces the change).
      const elections = [...new Set(votes.map((v) => v.electionId))];
      await Promise.all(
        elections.map((id) => {
          const tally = voting.tallyOf(id);
          return tally.loaded ? tally.resync() : tally.whenReady();
        }),
      );
      return;
    }
    // A queue row is one position's ballot: a choice per candidate (several for several seats).
    const byId = new Map(rows.map((r) => [r.id, ctx.ballotQueue.open([r], false)]));
    replay(() => {
      for (const v of votes) {
        const entries = v.queueIds.flatMap((id) => byId.get(id)!.map((b) => ({ positionId: b.positionId, candidateId: b.candidateId })));
        ctx.events.emit('votes.cast', { ...v, entries });
      }
    });
  };

  io.on('kura:relay', (sealed) => {
    let message: Relayed;
    try {
      message = JSON.parse(unseal(ctx.secrets.ballotKey, sealed)) as Relayed;
    } catch (err) {
      return logFailure(ctx, 'unreadable relay message')(err);
    }
    if (message.type === 'votes') return void receiveVotes(message.votes).catch(logFailure(ctx, 'could not apply relayed votes'));
    replay(() => {
      if (message.type === 'election.toggled')
        ctx.events.emit('election.toggled', { active: message.active, electionId: message.electionId });
      else if (message.type === 'session.revoked') ctx.events.emit('session.revoked', { tokenHash: message.tokenHash });
      else ctx.events.emit(message.type);
    });
  });

  const resync = () => void voting.resyncAll().catch(logFailure(ctx, 'periodic results rebuild failed'));
  const timers = [setTimeout(resync, FIRST_RESYNC_MS), setInterval(resync, RESYNC_EVERY_MS)];
  timers.forEach((t) => t.unref());

  return {
    events: {
      'votes.cast': (vote) => {
        if (relaying) return;
        outbox.push(vote);
        flushTimer ??= setTimeout(flushVotes, RELAY_EVERY_MS);
      },
      'election.toggled': ({ active, electionId }) => relaying || send({ type: 'election.toggled', active, electionId }),
      'election.changed': () => relaying || send({ type: 'election.changed' }),
      'candidates.changed': () => relaying || send({ type: 'candidates.changed' }),
      'members.changed': () => relaying || send({ type: 'members.changed' }),
      'nominations.changed': () => relaying || send({ type: 'nominations.changed' }),
      'session.revoked': ({ tokenHash }) => relaying || send({ type: 'session.revoked', tokenHash }),
    },
    stop() {
      timers.forEach((t) => clearTimeout(t));
      if (flushTimer) clearTimeout(flushTimer);
      // What this process gathered still reaches the others.
      flushVotes();
    },
  };
}
