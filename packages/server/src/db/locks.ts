import { sql } from 'drizzle-orm';
import type { Tx } from './client';
import type { ElectionId } from './election-store';

/**
 * The Postgres advisory lock ids of every module, in one place so no two collide. Advisory locks
 * live in the lock manager (memory), so taking one per vote costs no disk write, unlike
 * `SELECT ... FOR SHARE` on the hot election row. Locks keyed by `hashtext(...)` of a purpose and
 * subject (one-time codes, help reports) are taken where they are used.
 */

/**
 * The installation-wide election lock. Held shared by every vote and by every change within one
 * election (`lockElection`: its state, its positions and candidacies, its nominations' decisions);
 * taken exclusively only by a change that spans elections (`lockAllElections`: a branch rename, a
 * member's removal): it waits for every vote and close in flight, and every later one waits for it.
 */
export const ELECTION_LOCK = 7_262_000_001;
/**
 * Namespace of the per-election lock (two-int form: namespace, election id). Held shared by every
 * vote in that election, exclusively by its toggle, scheduled opening, close and deletion: a vote
 * commits entirely before or after them. Another election's votes never wait for it
 * (docs/decisions/009-a-ballot-box-per-election.md).
 */
export const ELECTION_LOCK_NAMESPACE = 72_620_007;
/** Namespace of the per-member lock (two-int form): one member's concurrent votes run one at a time. */
export const MEMBER_LOCK_NAMESPACE = 72_620_002;
/** Namespace of the per-election mixer lock (two-int form): no two passes (or a pass and the close) move one election's queued ballots. */
export const MIX_LOCK_NAMESPACE = 72_620_003;
/** Namespace of the per-election commitment lock (two-int form): a periodic commitment is recorded once per interval; another election's commitment never waits for it. */
export const COMMITMENT_LOCK_NAMESPACE = 72_620_004;
/** Namespace of the per-member reminder lock (two-int form): two campaigns never reach one member within the hour. */
export const REMINDER_MEMBER_LOCK_NAMESPACE = 72_620_005;
/** Namespace of the per-election closing-statements lock (two-int form): the final commitment is recorded once; another election's close runs alongside. */
export const FINALISE_LOCK_NAMESPACE = 72_620_006;
/** Serialises migrations across server processes starting at once (db/migrate.ts). */
/** Namespace of the per-member register-claims lock (two-int form): one member's claims are counted and filed one at a time. */
export const CLAIM_MEMBER_LOCK_NAMESPACE = 72_620_008;
export const MIGRATION_LOCK = 72_311_905;

// ---- Lock helpers: every advisory lock of a transaction is taken through one of these ----

/**
 * The order every transaction takes its advisory locks in (docs/architecture.md "Locks"): a lock of
 * a lower rank is never asked for after one of a higher rank, and locks of one rank in ascending
 * key order (elections by id, members by id). Two transactions that both follow it can never wait
 * for each other in a cycle. `cast_vote` (SQL) takes the election's, then the member's, in this order too.
 */
export const LOCK_RANK = {
  allElections: 10,
  election: 20,
  finalise: 30,
  mix: 40,
  commitment: 50,
  memberVotes: 60,
  memberClaims: 70,
  memberReminders: 80,
  keyed: 90,
} as const;
export type LockKind = keyof typeof LOCK_RANK;

/** Thrown (in every test run) when a transaction asks for a lock out of LOCK_RANK's order. */
export class LockOrderError extends Error {}

/** Per transaction: the locks it holds, and the highest in LOCK_RANK's order it has asked for. */
const ledgers = new WeakMap<object, { held: Set<string>; last: { kind: LockKind; key: number } }>();

/**
 * Records the lock in the transaction's ledger, checking the order. Asking again for a lock the
 * transaction holds never waits, so it is always in order. Under vitest an out-of-order request
 * throws, so a test of the flow fails; in production it is not checked (the order is the code's,
 * fixed by the tests).
 */
function claim(tx: Tx, kind: LockKind, key: number): void {
  const name = `${kind} ${key}`;
  const ledger = ledgers.get(tx);
  if (!ledger) {
    ledgers.set(tx, { held: new Set([name]), last: { kind, key } });
    return;
  }
  if (ledger.held.has(name)) return;
  const { last } = ledger;
  const rank = LOCK_RANK[kind];
  const lastRank = LOCK_RANK[last.kind];
  if (rank < lastRank || (rank === lastRank && key < last.key)) {
    if (process.env.VITEST) throw new LockOrderError(`lock ${name} asked for after ${last.kind} ${last.key}: out of LOCK_RANK's order`);
  } else ledger.last = { kind, key };
  ledger.held.add(name);
}

/**
 * Takes the lock a change of one election's state holds (a toggle, a scheduled opening, a close,
 * a deletion, its positions and candidacies): that election's lock exclusively, so its votes in
 * flight commit first and later ones see the change, and the installation-wide one shared, so a
 * change spanning elections (`lockAllElections`) waits for it and it for that change. Votes in
 * other elections hold neither exclusively and never wait for it.
 */
export async function lockElection(tx: Tx, id: ElectionId): Promise<void> {
  claim(tx, 'election', id);
  await tx.execute(
    sql`select pg_advisory_xact_lock_shared(${ELECTION_LOCK}::bigint), pg_advisory_xact_lock(${ELECTION_LOCK_NAMESPACE}::int, ${id}::int)`,
  );
}

/**
 * Takes the lock of a change that spans elections (a branch rename, which retitles positions in
 * every election; a member's removal, which looks at every election's votes and rolls): the
 * installation-wide lock exclusively, so it waits for every vote and election change in flight and
 * every later one waits for it. A change within one election takes `lockElection` instead.
 */
export async function lockAllElections(tx: Tx): Promise<void> {
  claim(tx, 'allElections', 0);
  await tx.execute(sql`select pg_advisory_xact_lock(${ELECTION_LOCK}::bigint)`);
}

/** The namespace (two-int form) of each lock kind keyed by an election or member id. */
const NAMESPACE = {
  finalise: FINALISE_LOCK_NAMESPACE,
  mix: MIX_LOCK_NAMESPACE,
  commitment: COMMITMENT_LOCK_NAMESPACE,
  memberVotes: MEMBER_LOCK_NAMESPACE,
  memberClaims: CLAIM_MEMBER_LOCK_NAMESPACE,
  memberReminders: REMINDER_MEMBER_LOCK_NAMESPACE,
} as const satisfies Partial<Record<LockKind, number>>;
type NamespacedKind = keyof typeof NAMESPACE;

/** Waits for the lock of `kind` for `key` (an election's or a member's id), in order. */
async function take(tx: Tx, kind: NamespacedKind, key: number): Promise<void> {
  claim(tx, kind, key);
  await tx.execute(sql`select pg_advisory_xact_lock(${NAMESPACE[kind]}::int, ${key}::int)`);
}

/** Takes the lock of `kind` for `key` if nobody holds it: false when someone does. */
async function tryTake(tx: Tx, kind: NamespacedKind, key: number): Promise<boolean> {
  claim(tx, kind, key);
  const [row] = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${NAMESPACE[kind]}::int, ${key}::int) as ok`);
  return row?.ok === true;
}

/** One election's closing statements (the final commitment is recorded once; another election's close runs alongside). */
export const lockFinalise = (tx: Tx, id: ElectionId): Promise<void> => take(tx, 'finalise', id);

/** One election's mixer: no two passes (or a pass and the close) move its queued ballots. */
export const lockMix = (tx: Tx, id: ElectionId): Promise<void> => take(tx, 'mix', id);

/** One election's periodic commitment: recorded once per interval. */
export const lockCommitment = (tx: Tx, id: ElectionId): Promise<void> => take(tx, 'commitment', id);

/** Members' vote locks (the lock a vote of theirs holds), in ascending id order: a vote of theirs in flight finishes first. */
export async function lockMemberVotes(tx: Tx, ids: Iterable<number>): Promise<void> {
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) await take(tx, 'memberVotes', id);
}

/** One member's register claims: counted and filed one at a time. */
export const lockMemberClaims = (tx: Tx, id: number): Promise<void> => take(tx, 'memberClaims', id);

/** One member's reminders: two campaigns never reach them within the hour. */
export const lockMemberReminders = (tx: Tx, id: number): Promise<void> => take(tx, 'memberReminders', id);

/**
 * A lock keyed by a purpose and subject's text (`otp:sign-in:42`, `help:voter:7`): one at a time per
 * key. Taken last (its order among keys is not checked: one per transaction).
 */
export async function lockKeyed(tx: Tx, key: string): Promise<void> {
  claim(tx, 'keyed', 0);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** `lockMix` without waiting: false when another pass (or the close) holds it. */
export const tryLockMix = (tx: Tx, id: ElectionId): Promise<boolean> => tryTake(tx, 'mix', id);

/** `lockCommitment` without waiting: false when another process is recording one right now. */
export const tryLockCommitment = (tx: Tx, id: ElectionId): Promise<boolean> => tryTake(tx, 'commitment', id);
