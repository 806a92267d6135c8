import type { AuditOutcome } from '@kura/contract';
import { and, desc, eq, getTableColumns, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type postgres from 'postgres';
import type { Db, Tx } from './client';
import { election, electionRoll, organisation } from './schema';
import { NoSuchElection } from './errors';

/**
 * The election store: every read and write of an election's state (texts, schedule, results
 * visibility, the voting switch, the phase's dates, the close and its statements) and of the
 * organisation's texts goes through these functions (docs/architecture.md "Where state lives").
 * Each takes the election's id, required (no default: a caller that forgets it does not compile),
 * resolved where a call starts (`resolveElection` in http/election-param.ts, `currentElectionId`); election 1 is only the
 * first row, which an admin may delete. (The vote statement, cast_vote in
 * db/schema/functions.ts, reads the switch in SQL from the position's election row.)
 */
export type ElectionId = number;

/** Election 1: the row migration 0005 created, the single election of earlier releases (tests and upgrades name it; no call defaults to it). */
export const CURRENT_ELECTION: ElectionId = 1;

export type ElectionRow = typeof election.$inferSelect;
export type OrganisationRecord = typeof organisation.$inferSelect;

/** The organisation's texts that GET/PUT election keep carrying beside the election's own. */
type OrganisationTexts = {
  organisation: string;
  website: string | null;
  supportEmail: string | null;
  timeZone: string;
  /** The organisation's default language (docs/api.md "Languages"). */
  defaultLanguage: string;
};

/** An election's state with the organisation's texts, as GET election answers them. */
export type ElectionRecord = ElectionRow & OrganisationTexts;

/** What an admin edits (`PUT election`) and the first-start defaults fill in. */
export type ElectionConfiguration = Partial<
  Pick<
    ElectionRecord,
    | 'title'
    | 'description'
    | 'organisation'
    | 'website'
    | 'supportEmail'
    | 'opensAt'
    | 'closesAt'
    | 'timeZone'
    | 'resultsVisibility'
    | 'electorateBranchIds'
    | 'electorateRules'
    | 'electedIn'
    | 'registerOpensAt'
    | 'registerClosesAt'
    | 'nominations'
  >
>;

const organisationTexts = {
  organisation: organisation.name,
  website: organisation.website,
  supportEmail: organisation.supportEmail,
  timeZone: organisation.timeZone,
  defaultLanguage: organisation.defaultLanguage,
};

type Reader = Db | Tx;

const iso = (d: Date) => d.toISOString();
const row = (id: ElectionId) => eq(election.id, id);

/** The election's whole state, read at once (in a transaction: as that transaction sees it); NoSuchElection when there is none with this id. */
export async function readState(db: Reader, id: ElectionId): Promise<ElectionRecord> {
  const [found] = await db
    .select({ ...getTableColumns(election), ...organisationTexts })
    .from(election)
    .innerJoin(organisation, eq(organisation.id, 1))
    .where(row(id));
  // Deleted meanwhile (or never was): the request's 404, never a 500 (docs/api.md "Many elections").
  if (!found) throw new NoSuchElection(id);
  return found;
}

/** How the activity log names an election: `election 3: Annual 2026` (the id alone while it has no title). */
export const nameElection = (id: ElectionId, title: string | null | undefined): string =>
  title ? `election ${id}: ${title}` : `election ${id}`;

/** `nameElection` of the stored election (the id alone when there is none with this id). */
export async function electionSubject(db: Reader, id: ElectionId): Promise<string> {
  const [found] = await db.select({ title: election.title }).from(election).where(row(id));
  return nameElection(id, found?.title);
}

/** The organisation's row (migration 0013 creates it). */
export async function readOrganisation(db: Reader): Promise<OrganisationRecord> {
  const [found] = await db.select().from(organisation).where(eq(organisation.id, 1));
  if (!found) throw new Error('the organisation row is missing (migration 0013 creates it)');
  return found;
}

/** The organisation's member-number pattern (docs/api.md "Register formats"); null: the default rule. */
export async function readMemberNoPattern(db: Reader): Promise<string | null> {
  const [found] = await db.select({ pattern: organisation.memberNoPattern }).from(organisation).where(eq(organisation.id, 1));
  return found?.pattern ?? null;
}

/** The organisation's stored default language (docs/api.md "Languages"); `defaultLanguage()` in i18n makes it a shipped code. */
export async function readDefaultLanguage(db: Reader): Promise<string> {
  const [found] = await db.select({ code: organisation.defaultLanguage }).from(organisation).where(eq(organisation.id, 1));
  return found?.code ?? 'en';
}

/** One of the organisation's values as a subquery, for a statement that reads other tables with it. */
export function organisationValue<K extends keyof OrganisationRecord>(key: K): SQL<OrganisationRecord[K] | null> {
  const column = getTableColumns(organisation)[key];
  return sql<OrganisationRecord[K] | null>`(select ${column} from ${organisation} where ${organisation.id} = 1)`;
}

/** Whether an election with this id exists (the HTTP layer's `resolveElection` answers 404 when not). */
export async function electionExists(db: Reader, id: ElectionId): Promise<boolean> {
  const [found] = await db.select({ id: election.id }).from(election).where(row(id));
  return found !== undefined;
}

/** The current election's id (`CURRENT_ELECTION_SQL`); null when the installation has no election. */
export async function currentElectionId(db: Reader): Promise<ElectionId | null> {
  const [current] = await db.execute<{ id: number | null }>(sql`select ${sql.raw(CURRENT_ELECTION_SQL)} as id`);
  return current?.id === null || current?.id === undefined ? null : Number(current.id);
}

/**
 * The current election's id as one SQL expression, for a statement that resolves it in its own
 * round trip (the vote): the organisation's `current_election_id`; else the only open election;
 * else the newest not archived; else the newest of all. Uncorrelated subqueries inside coalesce
 * run only when the ones before answered null.
 */
export const CURRENT_ELECTION_SQL = `coalesce(
      (select current_election_id from organisation where id = 1),
      (select min(id) from election where voting_active and closed_at is null and not archived having count(*) = 1),
      (select id from election where not archived order by created_at desc, id desc limit 1),
      (select max(id) from election))`;

/**
 * The id of the election a vote names (`requested`: null when it names none), as one expression of
 * a postgres.js statement built on `pg` (the database's `sql`): the named election's id when it
 * exists (else null), the current one's (`CURRENT_ELECTION_SQL`) when none is named. The vote
 * resolves it in its own one statement (modules/ballots/ballots.service.ts `castVote`,
 * BENCHMARKS.md figure 1); the text is the same for every vote, so the statement stays prepared.
 */
export function votedElectionIdSql(pg: postgres.Sql, requested: ElectionId | null) {
  return pg`case when ${requested}::int is null then ${pg.unsafe(CURRENT_ELECTION_SQL)}
                        else (select id from election where id = ${requested}::int) end`;
}

/** The elections the scheduler looks after: every one not archived. */
export async function scheduledElectionIds(db: Reader): Promise<ElectionId[]> {
  const rows = await db.select({ id: election.id }).from(election).where(eq(election.archived, false)).orderBy(election.id);
  return rows.map((r) => r.id);
}

/**
 * The members on the election's roll as it stands (before the freeze), as SQL rows (member_id,
 * branch_id) (docs/api.md "The register"): the members of its branches (every member when
 * `electorate_branch_ids` is null) who meet every rule of `electorate_rules` (`rule_met`, relative
 * dates counted back from `opens_at`'s day in the organisation's time zone, `today` while it has
 * none) and, with `elected_in`, were declared elected in that election (in those positions, or any).
 */
export function rollMembersSql(id: ElectionId, today: Date): SQL {
  // The SQL function roll_members (db/schema/functions.ts) builds the query from the rules.
  return sql`select member_id, branch_id from roll_members(${id}::int, ${iso(today)}::timestamptz)`;
}

/**
 * Freezes the election's roll (nothing when it is frozen already): the members on it now
 * (`rollMembersSql`), each with their branch, number and branch name now (the quorum and turnout
 * count the branch; roll.csv, the hash and the declaration read the number and name), its hash
 * (SHA-256 hex of the member numbers sorted as strings, each followed by "\n") and `roll_frozen_at`,
 * and an activity-log row. At the register's close or the first opening, whichever comes first.
 * The caller holds the election row for update. Answers whether this call froze it.
 */
export async function freezeRoll(tx: Tx, id: ElectionId, at: Date, actor = 'Schedule'): Promise<boolean> {
  const [state] = await tx.execute<{ frozen: boolean }>(sql`select roll_frozen_at is not null as frozen from election where id = ${id}`);
  if (!state || state.frozen) return false;
  await tx.execute(sql`
    insert into election_roll (election_id, member_id, branch_id, member_no, branch)
    select ${id}, roll.member_id, roll.branch_id, m.member_no, b.name from (${rollMembersSql(id, at)}) roll
    join members m on m.id = roll.member_id join branches b on b.id = roll.branch_id
    on conflict do nothing`);
  const [frozen] = await tx.execute<{ size: number; hash: string; title: string }>(sql`
    update election set roll_frozen_at = ${iso(at)}::timestamptz, updated_at = ${iso(at)}::timestamptz,
      roll_hash = (select encode(sha256(convert_to(coalesce(string_agg(r.member_no || E'\n', '' order by r.member_no collate "C"), ''), 'UTF8')), 'hex')
                   from election_roll r where r.election_id = ${id})
    where id = ${id}
    returning (select count(*) from election_roll r where r.election_id = ${id})::int as size, roll_hash as hash, title`);
  await tx.execute(sql`
    insert into activity_logs (name, activity, data, status, created_at, updated_at)
    values (${actor}, 'Roll frozen', ${`${nameElection(id, frozen?.title)}; ${frozen?.size ?? 0} members; hash ${frozen?.hash ?? ''}`}, 'success',
            ${iso(at)}::timestamptz, ${iso(at)}::timestamptz)`);
  return true;
}

/**
 * Freezes the roll of every election whose register has closed and whose roll is not frozen yet
 * (`freezeRoll`, each under its row lock). The scheduler runs it, and so does every change of the
 * register (import, member edit) and of an electorate before it writes: whatever lands after the
 * register's close is never on that roll. Answers the elections it froze.
 */
export async function freezeDueRolls(tx: Tx, now: Date): Promise<ElectionId[]> {
  const due = await tx.execute<{ id: number }>(sql`
    select id from election where roll_frozen_at is null and register_closes_at is not null
      and register_closes_at <= ${iso(now)}::timestamptz order by id for update`);
  const frozen: ElectionId[] = [];
  for (const { id } of due) if (await freezeRoll(tx, Number(id), now)) frozen.push(Number(id));
  return frozen;
}

/**
 * The election's roll as SQL rows (member_id, branch_id): the frozen roll, each member with the
 * branch recorded at the freeze; before the freeze (or for an election closed without ever
 * opening), the roll as it stands (`rollMembersSql`), as `freezeRoll` would freeze it. Never the
 * register as it is after the freeze: a member imported or moved afterwards changes nothing
 * (docs/api.md "The roll").
 */
export function rollRows(id: ElectionId, today: Date = new Date()): SQL {
  return sql`
    select r.member_id, r.branch_id from election_roll r join election e on e.id = r.election_id
    where e.id = ${id} and e.roll_frozen_at is not null
    union all
    select live.member_id, live.branch_id from (${rollMembersSql(id, today)}) live
    where (select roll_frozen_at from election where id = ${id}) is null`;
}

/**
 * The election's roll as SQL rows (member_id, branch_id, member_no, branch) with each member's
 * number and branch name: the frozen roll's as recorded at the freeze (a member renumbered or a
 * branch renamed afterwards changes nothing), before it the register's now. What roll.csv, the
 * roll's hash, the declaration's turnout and the roll's listings read; `rollRows` where only the
 * ids are needed.
 */
export function rollEntries(id: ElectionId, today: Date = new Date()): SQL {
  return sql`
    select r.member_id, r.branch_id, r.member_no, r.branch from election_roll r join election e on e.id = r.election_id
    where e.id = ${id} and e.roll_frozen_at is not null
    union all
    select live.member_id, live.branch_id, m.member_no, b.name from (${rollMembersSql(id, today)}) live
    join members m on m.id = live.member_id join branches b on b.id = live.branch_id
    where (select roll_frozen_at from election where id = ${id}) is null`;
}

/**
 * How many members are on each election's roll: the frozen roll's count once frozen, else the
 * roll as it stands (what `freezeRoll` would freeze).
 */
export async function rollSizes(db: Reader, ids: ElectionId[], today: Date = new Date()): Promise<Map<ElectionId, number>> {
  const out = new Map<ElectionId, number>();
  for (const id of ids) {
    const [row] = await db.execute<{ size: number }>(sql`select count(*)::int as size from (${rollRows(id, today)}) roll`);
    out.set(id, Number(row?.size ?? 0));
  }
  return out;
}

/** How many elections' electorates name this branch (they hold branch ids without a foreign key), closed and archived ones too. */
export async function electoratesNaming(db: Reader, branchId: number): Promise<number> {
  const [used] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(election)
    .where(sql`${branchId}::int = any(${election.electorateBranchIds})`);
  return used?.n ?? 0;
}

/** Whether the member is on a frozen roll (any election's): such a member stays on the register. */
export async function onAFrozenRoll(db: Reader, memberId: number): Promise<boolean> {
  const [onRoll] = await db
    .select({ one: sql`1` })
    .from(electionRoll)
    .where(eq(electionRoll.memberId, memberId))
    .limit(1);
  return onRoll !== undefined;
}

/** Every election not archived, with what its results visibility is decided by (the results gate's list of watchable elections). */
export async function unarchivedVisibilities(
  db: Reader,
): Promise<{ id: ElectionId; visibility: ElectionRow['resultsVisibility']; closedAt: Date | null }[]> {
  return db
    .select({ id: election.id, visibility: election.resultsVisibility, closedAt: election.closedAt })
    .from(election)
    .where(eq(election.archived, false));
}

/** The elections whose voting is switched on. */
export async function openElectionIds(db: Reader): Promise<ElectionId[]> {
  const rows = await db.select({ id: election.id }).from(election).where(eq(election.votingActive, true)).orderBy(election.id);
  return rows.map((r) => r.id);
}

/** The elections that have closed, archived ones included: their declared results are final. */
export async function closedElectionIds(db: Reader): Promise<ElectionId[]> {
  const rows = await db.select({ id: election.id }).from(election).where(isNotNull(election.closedAt)).orderBy(election.id);
  return rows.map((r) => r.id);
}

/**
 * The elections whose voting is under way: opened and not closed, so `open`, `paused`, or paused
 * with a new opening time ahead (an archived election is closed, so never under way).
 */
export async function underWayElectionIds(db: Reader): Promise<ElectionId[]> {
  const rows = await db
    .select({ id: election.id })
    .from(election)
    .where(and(isNull(election.closedAt), eq(election.archived, false), or(eq(election.votingActive, true), isNotNull(election.openedAt))))
    .orderBy(election.id);
  return rows.map((r) => r.id);
}

/** Whether voting is switched on. */
export async function readActive(db: Reader, id: ElectionId): Promise<boolean> {
  const [found] = await db.select({ active: election.votingActive }).from(election).where(row(id));
  return found?.active ?? false;
}

/** One of the election's values as a subquery, for a statement that reads other tables with it. */
export function electionValue<K extends keyof ElectionRow>(key: K, id: ElectionId): SQL<ElectionRow[K] | null> {
  const column = getTableColumns(election)[key];
  return sql<ElectionRow[K] | null>`(select ${column} from ${election} where ${election.id} = ${id})`;
}

/** Locks the row until the transaction ends: edits of the election run one at a time. */
export async function lockForUpdate(tx: Tx, id: ElectionId): Promise<void> {
  await tx.execute(sql`select ${election.id} from ${election} where ${election.id} = ${id} for update`);
}

/**
 * Share-locks the row until the transaction ends and answers when it closed (undefined: no such
 * election). A close in flight (which holds the row for update) commits first and is seen; one that
 * starts later waits for this transaction.
 */
export async function lockForShare(tx: Tx, id: ElectionId): Promise<{ closedAt: Date | null } | undefined> {
  const [found] = await tx.select({ closedAt: election.closedAt }).from(election).where(row(id)).for('share');
  return found;
}

/**
 * Switches voting on or off. The first switch-on also ends set-up (`opened_at`). The caller holds
 * the exclusive election lock, so no vote is in flight.
 */
export async function setActive(tx: Tx, active: boolean, at: Date, id: ElectionId): Promise<void> {
  // The row first: the roll freezes the electorate an edit that commits meanwhile leaves, not the one before it.
  await lockForUpdate(tx, id);
  if (active) await freezeRoll(tx, id, at, 'Voting opened');
  await tx
    .update(election)
    .set({
      votingActive: active,
      updatedAt: at,
      ...(active
        ? {
            openedAt: sql`coalesce(${election.openedAt}, ${iso(at)}::timestamptz)`,
          }
        : {}),
    })
    .where(row(id));
}

/**
 * Switches voting on because `opens_at` has come, once per opening time: the conditional UPDATE
 * records which `opens_at` it acted on, so of several processes (or a restarted one) exactly one
 * opens. Answers whether this call opened it.
 */
export async function openIfDue(tx: Tx, now: Date, id: ElectionId): Promise<boolean> {
  // For update: the roll freezes the electorate an edit that commits meanwhile leaves, not the one before it.
  const [due] = await tx.execute<{ id: number }>(sql`
    select id from election where id = ${id} and closed_at is null and opens_at is not null and opens_at <= ${iso(now)}::timestamptz
      and (closes_at is null or closes_at > ${iso(now)}::timestamptz) and scheduled_open_for is distinct from opens_at
    for update`);
  if (due) await freezeRoll(tx, id, now);
  const rows = await tx.execute<{ id: number }>(sql`
    update election set voting_active = true, scheduled_open_for = opens_at,
      opened_at = coalesce(opened_at, ${iso(now)}::timestamptz),
      updated_at = ${iso(now)}::timestamptz
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
export async function markClosed(tx: Tx, now: Date, options: { dueOnly: boolean }, id: ElectionId): Promise<boolean> {
  const due = options.dueOnly ? sql`and closes_at is not null and closes_at <= ${iso(now)}::timestamptz` : sql``;
  const rows = await tx.execute<{ id: number }>(sql`
    update election set voting_active = false, closed_at = ${iso(now)}::timestamptz, updated_at = ${iso(now)}::timestamptz
    where id = ${id} and closed_at is null ${due} returning id`);
  return rows.length > 0;
}

/**
 * Writes the given configuration (texts, schedule, time zone, visibility); `at` stamps `updated_at`.
 * The organisation's texts and time zone go to the organisation's row, the rest to the election's.
 */
export async function updateConfiguration(db: Reader, patch: ElectionConfiguration, at: Date | undefined, id: ElectionId): Promise<void> {
  const { organisation: name, website, supportEmail, timeZone, ...own } = patch;
  const org = Object.fromEntries(
    Object.entries({ name, website, supportEmail, timeZone }).filter(([, v]) => v !== undefined),
  ) as Partial<OrganisationRecord>;
  if (Object.keys(org).length > 0) {
    await db
      .update(organisation)
      .set({ ...org, ...(at ? { updatedAt: at } : {}) })
      .where(eq(organisation.id, 1));
  }
  if (Object.keys(own).length === 0 && !at) return;
  await db
    .update(election)
    .set({ ...own, ...(at ? { updatedAt: at } : {}) })
    .where(row(id));
}

/** Gives the election a title while it has none (the first-start default, ELECTION_TITLE). */
export async function titleIfUntitled(db: Reader, title: string, id: ElectionId): Promise<void> {
  await db
    .update(election)
    .set({ title })
    .where(and(row(id), eq(election.title, '')));
}

/** Writes the organisation's own fields (`PUT organisation`). */
export async function updateOrganisation(
  db: Reader,
  patch: Partial<
    Pick<OrganisationRecord, 'name' | 'website' | 'supportEmail' | 'timeZone' | 'currentElectionId' | 'defaultLanguage' | 'memberNoPattern'>
  >,
  at: Date,
): Promise<void> {
  await db
    .update(organisation)
    .set({ ...patch, updatedAt: at })
    .where(eq(organisation.id, 1));
}

/** Stores the commitment recorded when the election closed (the closing statements ran). */
export async function setFinalCommitment(tx: Tx, commitmentId: number, id: ElectionId): Promise<void> {
  await tx.update(election).set({ finalCommitmentId: commitmentId }).where(row(id));
}

/** Stores `audit:verify`'s outcome at close, if none is stored yet. Answers whether this call stored it. */
export async function storeAudit(tx: Tx, audit: AuditOutcome, id: ElectionId): Promise<boolean> {
  const rows = await tx
    .update(election)
    .set({ audit })
    .where(and(row(id), isNull(election.audit)))
    .returning({ id: election.id });
  return rows.length > 0;
}

/** Every election's state with the organisation's texts, newest first. */
export async function readAllStates(db: Reader): Promise<ElectionRecord[]> {
  return db
    .select({ ...getTableColumns(election), ...organisationTexts })
    .from(election)
    .innerJoin(organisation, eq(organisation.id, 1))
    .orderBy(desc(election.createdAt), desc(election.id));
}

/** Creates an election in set-up; answers its id. */
export async function insertElection(
  db: Reader,
  values: Pick<ElectionRow, 'title'> &
    Partial<
      Pick<
        ElectionRow,
        | 'description'
        | 'opensAt'
        | 'closesAt'
        | 'resultsVisibility'
        | 'electorateBranchIds'
        | 'electorateRules'
        | 'electedIn'
        | 'registerOpensAt'
        | 'registerClosesAt'
        | 'nominations'
      >
    >,
  at: Date,
): Promise<ElectionId> {
  const [created] = await db
    .insert(election)
    .values({ ...values, createdAt: at, updatedAt: at })
    .returning({ id: election.id });
  return created!.id;
}

/** Archives an election (the caller checked it is closed); it stops being the current one. */
export async function markArchived(tx: Tx, at: Date, id: ElectionId): Promise<void> {
  await tx.update(election).set({ archived: true, updatedAt: at }).where(row(id));
  await tx.update(organisation).set({ currentElectionId: null, updatedAt: at }).where(eq(organisation.currentElectionId, id));
}

/** Deletes an election and its positions (the caller checked no vote was ever cast in it). */
export async function deleteElectionRow(tx: Tx, id: ElectionId): Promise<void> {
  await tx.delete(election).where(row(id));
}

/** The election's nomination window (null: it takes no nominations); undefined when there is no election with this id. */
export async function readNominationsWindow(db: Reader, id: ElectionId): Promise<{ nominations: ElectionRow['nominations'] } | undefined> {
  const [found] = await db.select({ nominations: election.nominations }).from(election).where(row(id));
  return found;
}

/** The ids of the elections not closed (archived ones too), by id: the mixer's pass visits them. */
export async function unclosedElectionIds(db: Reader): Promise<ElectionId[]> {
  const rows = await db.select({ id: election.id }).from(election).where(isNull(election.closedAt)).orderBy(election.id);
  return rows.map((r) => r.id);
}

// ---- the register, the USSD menu and the receipts (register, ussd, vvpat) ----

/** The election's title (undefined when there is none with this id). */
export async function electionTitle(db: Reader, id: ElectionId): Promise<string | undefined> {
  const [found] = await db.select({ title: election.title }).from(election).where(row(id));
  return found?.title;
}

/** The elections not archived, by id: whether voting is on, when they opened and closed (the USSD menu). */
export async function unarchivedElectionStates(
  db: Reader,
): Promise<{ id: ElectionId; title: string; active: boolean; openedAt: Date | null; closedAt: Date | null }[]> {
  return db
    .select({
      id: election.id,
      title: election.title,
      active: election.votingActive,
      openedAt: election.openedAt,
      closedAt: election.closedAt,
    })
    .from(election)
    .where(eq(election.archived, false))
    .orderBy(election.id);
}

/** When the election closed and whether voting is on (undefined when there is none with this id). */
export async function votingStateOf(db: Reader, id: ElectionId): Promise<{ closedAt: Date | null; active: boolean } | undefined> {
  const [found] = await db.select({ closedAt: election.closedAt, active: election.votingActive }).from(election).where(row(id));
  return found;
}

/** When voting in the election opens, as scheduled (null: no date; undefined: no such election). */
export async function electionOpensAt(db: Reader, id: ElectionId): Promise<Date | null | undefined> {
  const [found] = await db.select({ opensAt: election.opensAt }).from(election).where(row(id));
  return found?.opensAt;
}

/** How many rolls are due to freeze at `now`: not frozen, their register closed. */
export async function rollsDueToFreeze(db: Reader, now: Date): Promise<number> {
  const [due] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from election where roll_frozen_at is null and register_closes_at is not null and register_closes_at <= ${iso(now)}::timestamptz`);
  return Number(due?.n ?? 0);
}

/** Whether the election exists, its row `key share` locked (as a foreign key to it would) until the transaction ends. */
export async function keyShareElection(tx: Tx, id: ElectionId): Promise<boolean> {
  const [found] = await tx.select({ id: election.id }).from(election).where(row(id)).for('key share');
  return found !== undefined;
}

/** The elections not closed with their electorate rules, each row share-locked until the transaction ends. */
export async function shareUnclosedElectorateRules(
  tx: Tx,
): Promise<{ id: ElectionId; title: string; rules: ElectionRow['electorateRules'] }[]> {
  return tx
    .select({ id: election.id, title: election.title, rules: election.electorateRules })
    .from(election)
    .where(isNull(election.closedAt))
    .for('share');
}

/** The election's register window and roll freeze, the row share-locked until the transaction ends (undefined: no such election). */
export async function shareRegisterWindow(
  tx: Tx,
  id: ElectionId,
): Promise<{ opens: Date | null; closes: Date | null; frozen: Date | null } | undefined> {
  const [found] = await tx
    .select({ opens: election.registerOpensAt, closes: election.registerClosesAt, frozen: election.rollFrozenAt })
    .from(election)
    .where(row(id))
    .for('share');
  return found;
}

/** When the election first opened, and its title, the row share-locked until the transaction ends (undefined: no such election). */
export async function shareOpenedAtAndTitle(tx: Tx, id: ElectionId): Promise<{ openedAt: Date | null; title: string } | undefined> {
  const [found] = await tx.select({ openedAt: election.openedAt, title: election.title }).from(election).where(row(id)).for('share');
  return found;
}

/** Share-locks the organisation's row until the transaction ends: an attribute change in flight commits first, a later one waits. */
export async function shareOrganisation(tx: Tx): Promise<void> {
  await tx.select({ id: organisation.id }).from(organisation).where(eq(organisation.id, 1)).for('share');
}

/** Locks the organisation's row for update until the transaction ends (an attribute change). */
export async function lockOrganisation(tx: Tx): Promise<void> {
  await tx.select({ id: organisation.id }).from(organisation).where(eq(organisation.id, 1)).for('update');
}

/** Replaces the organisation's member attribute definitions. */
export async function setAttributeDefs(tx: Tx, defs: OrganisationRecord['attributes'], at: Date): Promise<void> {
  await tx.update(organisation).set({ attributes: defs, updatedAt: at }).where(eq(organisation.id, 1));
}

/**
 * The positions of the election in which its stored declaration says the member was elected:
 * the same reading of the declaration as `roll_members`' `elected_in`.
 */
export async function declaredElectedPositions(db: Reader, electionId: ElectionId, memberId: number): Promise<number[]> {
  const rows = await db.execute<{ position_id: number }>(sql`
    select distinct (g ->> 'position_id')::int as position_id
    from declarations d
      cross join lateral json_array_elements(d.declaration -> 'data') g
      cross join lateral json_array_elements(case when json_typeof(g -> 'values') = 'array' then g -> 'values' else '[]'::json end) v
    where d.election_id = ${electionId} and (v ->> 'elected') = 'true' and (v ->> 'candidate_id')::int = ${memberId}`);
  return rows.map((r) => Number(r.position_id));
}
