import type { AuditOutcome } from '@kura/contract';
import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { election } from '../../db/schema';

/**
 * The election store: every read and write of the election's state (texts, schedule, results
 * visibility, the voting switch, the phase's dates, the close and its statements) goes through
 * these functions, and they are the one place that knows which election row is meant
 * (docs/architecture.md "Where state lives"). Each takes the election's id, today always
 * `CURRENT_ELECTION`; running several elections means resolving the id where a call starts and
 * passing it here. (The vote statement, cast_vote in db/schema/functions.ts, reads the switch in
 * SQL from the same row.)
 */
export type ElectionId = number;

/** The election this installation runs: the one row migration 0005 creates. */
export const CURRENT_ELECTION: ElectionId = 1;

export type ElectionRecord = typeof election.$inferSelect;

/** What an admin edits (`PUT election`) and the first-start defaults fill in. */
export type ElectionConfiguration = Partial<
  Pick<ElectionRecord, 'title' | 'organisation' | 'website' | 'supportEmail' | 'opensAt' | 'closesAt' | 'timeZone' | 'resultsVisibility'>
>;

type Reader = Db | Tx;

const iso = (d: Date) => d.toISOString();
const row = (id: ElectionId) => eq(election.id, id);

/** The election's whole state, read at once (in a transaction: as that transaction sees it). */
export async function readState(db: Reader, id: ElectionId = CURRENT_ELECTION): Promise<ElectionRecord> {
  const [found] = await db.select().from(election).where(row(id));
  if (!found) throw new Error(`election ${id} is missing (migration 0005 creates the row)`);
  return found;
}

/** Whether voting is switched on. */
export async function readActive(db: Reader, id: ElectionId = CURRENT_ELECTION): Promise<boolean> {
  const [found] = await db.select({ active: election.votingActive }).from(election).where(row(id));
  return found?.active ?? false;
}

/** One of the election's values as a subquery, for a statement that reads other tables with it. */
export function electionValue<K extends keyof ElectionRecord>(key: K, id: ElectionId = CURRENT_ELECTION): SQL<ElectionRecord[K] | null> {
  const column = getTableColumns(election)[key];
  return sql<ElectionRecord[K] | null>`(select ${column} from ${election} where ${election.id} = ${id})`;
}

/** Locks the row until the transaction ends: edits of the election run one at a time. */
export async function lockForUpdate(tx: Tx, id: ElectionId = CURRENT_ELECTION): Promise<void> {
  await tx.execute(sql`select ${election.id} from ${election} where ${election.id} = ${id} for update`);
}

/**
 * Switches voting on or off. The first switch-on also ends set-up (`opened_at`). The caller holds
 * the exclusive election lock, so no vote is in flight.
 */
export async function setActive(tx: Tx, active: boolean, at: Date, id: ElectionId = CURRENT_ELECTION): Promise<void> {
  await tx
    .update(election)
    .set({
      votingActive: active,
      updatedAt: at,
      ...(active ? { openedAt: sql`coalesce(${election.openedAt}, ${iso(at)}::timestamptz)` } : {}),
    })
    .where(row(id));
}

/**
 * Switches voting on because `opens_at` has come, once per opening time: the conditional UPDATE
 * records which `opens_at` it acted on, so of several processes (or a restarted one) exactly one
 * opens. Answers whether this call opened it.
 */
export async function openIfDue(tx: Tx, now: Date, id: ElectionId = CURRENT_ELECTION): Promise<boolean> {
  const rows = await tx.execute<{ id: number }>(sql`
    update election set voting_active = true, scheduled_open_for = opens_at,
      opened_at = coalesce(opened_at, ${iso(now)}::timestamptz), updated_at = ${iso(now)}::timestamptz
    where id = ${id} and closed_at is null and opens_at is not null and opens_at <= ${iso(now)}::timestamptz
      and (closes_at is null or closes_at > ${iso(now)}::timestamptz)
      and scheduled_open_for is distinct from opens_at
    returning id`);
  return rows.length > 0;
}

/**
 * Closes the election for good (voting off, `closed_at`), once: a conditional UPDATE, so of two
 * closers one closes. `dueOnly`: only if `closes_at` has come (the schedule). Answers whether this
 * call closed it.
 */
export async function markClosed(tx: Tx, now: Date, options: { dueOnly: boolean }, id: ElectionId = CURRENT_ELECTION): Promise<boolean> {
  const due = options.dueOnly ? sql`and closes_at is not null and closes_at <= ${iso(now)}::timestamptz` : sql``;
  const rows = await tx.execute<{ id: number }>(sql`
    update election set voting_active = false, closed_at = ${iso(now)}::timestamptz, updated_at = ${iso(now)}::timestamptz
    where id = ${id} and closed_at is null ${due} returning id`);
  return rows.length > 0;
}

/** Writes the given configuration (texts, schedule, time zone, visibility); `at` stamps `updated_at`. */
export async function updateConfiguration(
  db: Reader,
  patch: ElectionConfiguration,
  at?: Date,
  id: ElectionId = CURRENT_ELECTION,
): Promise<void> {
  if (Object.keys(patch).length === 0 && !at) return;
  await db
    .update(election)
    .set({ ...patch, ...(at ? { updatedAt: at } : {}) })
    .where(row(id));
}

/** Stores the commitment recorded when the election closed (the closing statements ran). */
export async function setFinalCommitment(tx: Tx, commitmentId: number, id: ElectionId = CURRENT_ELECTION): Promise<void> {
  await tx.update(election).set({ finalCommitmentId: commitmentId }).where(row(id));
}

/** Stores `audit:verify`'s outcome at close, if none is stored yet. Answers whether this call stored it. */
export async function storeAudit(tx: Tx, audit: AuditOutcome, id: ElectionId = CURRENT_ELECTION): Promise<boolean> {
  const rows = await tx
    .update(election)
    .set({ audit })
    .where(and(row(id), isNull(election.audit)))
    .returning({ id: election.id });
  return rows.length > 0;
}
