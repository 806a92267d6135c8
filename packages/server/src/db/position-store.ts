import type { Position, TranslatedText, Translations } from '@kura/contract';
import { and, asc, eq, inArray, isNull, max, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './client';
import type { ElectionId } from './election-store';
import { election, motionOptions, positions } from './schema';
import { storedTranslations } from '../lib/position-title';

/**
 * The position store: the SQL of an election's positions (`positions`, which the setup module
 * owns: db/schema/owners.ts), and the columns and order every list of positions answers them in.
 * Like the election store it sits under `db/`, so the members and candidates modules (which the
 * setup module imports) and the modules below them read positions without importing the table.
 * Each function runs on the handle it is given, inside the caller's unit of work.
 */

type Reader = Db | Tx;

/** National positions first, then branch positions by branch; the admin's order within each. */
export const positionOrder = [sql`${positions.level} <> 'National'`, asc(positions.sortOrder), asc(positions.level), asc(positions.id)];

export const positionColumns = {
  id: positions.id,
  name: positions.name,
  level: positions.level,
  seats: positions.seats,
  description: positions.description,
  branch_id: positions.branchId,
  kind: positions.kind,
  // The method belongs to candidates positions, the threshold and quorum to motions (null otherwise).
  method: sql<'plurality' | 'approval' | 'ranked' | null>`case when ${positions.kind} = 'candidates' then ${positions.method} end`,
  threshold: sql<
    'majority' | 'two_thirds' | 'three_quarters' | null
  >`case when ${positions.kind} = 'motion' then ${positions.threshold} end`,
  quorum_percent: positions.quorumPercent,
};

/** The position columns with the translations of its name and description (the set-up page edits them). */
export const translatedPositionColumns = {
  ...positionColumns,
  rotate_candidates: positions.rotateCandidates,
  translations: positions.translations,
  eligibility: positions.eligibility,
  nomination: positions.nomination,
};

/** A row of `translatedPositionColumns` as the API answers it: `translations` only when there is one. */
export function asPosition<R extends { translations: Translations | null }>(
  row: R,
): Omit<R, 'translations'> & { translations?: TranslatedText } {
  const { translations, ...rest } = row;
  const stored = storedTranslations(translations);
  return stored ? { ...rest, translations: stored } : rest;
}

/** The election's positions as the API answers them, in `positionOrder`. */
export async function electionPositions(db: Reader, electionId: ElectionId): Promise<Position[]> {
  const rows = await db
    .select(translatedPositionColumns)
    .from(positions)
    .where(eq(positions.electionId, electionId))
    .orderBy(...positionOrder);
  return rows.map(asPosition);
}

/** Of these position ids, the election's: id and kind. */
export async function positionKindsIn(
  db: Reader,
  ids: number[],
  electionId: ElectionId,
): Promise<{ id: number; kind: 'candidates' | 'motion' }[]> {
  return db
    .select({ id: positions.id, kind: positions.kind })
    .from(positions)
    .where(and(inArray(positions.id, ids), eq(positions.electionId, electionId)));
}

/** A position's name and level (how a message names it). */
export async function positionName(db: Reader, id: number): Promise<{ name: string; level: string } | undefined> {
  const [row] = await db.select({ name: positions.name, level: positions.level }).from(positions).where(eq(positions.id, id));
  return row;
}

export type PositionRow = typeof positions.$inferSelect;

/** The election a position belongs to; undefined for an unknown id. */
export async function electionOfPositionRow(db: Reader, id: number): Promise<ElectionId | undefined> {
  const [row] = await db.select({ electionId: positions.electionId }).from(positions).where(eq(positions.id, id));
  return row?.electionId;
}

/** Locks the position's row for the rest of the transaction (`for update`); undefined when there is none. */
export async function lockPositionRow(tx: Tx, id: number): Promise<PositionRow | undefined> {
  const [row] = await tx.select().from(positions).where(eq(positions.id, id)).for('update');
  return row;
}

/** The election's positions (id, name, level, order) locked for update, by id: a reorder. */
export async function lockElectionPositions(
  tx: Tx,
  electionId: ElectionId,
): Promise<{ id: number; name: string; level: string; sortOrder: number }[]> {
  return tx
    .select({ id: positions.id, name: positions.name, level: positions.level, sortOrder: positions.sortOrder })
    .from(positions)
    .where(eq(positions.electionId, electionId))
    .orderBy(asc(positions.id))
    .for('update');
}

/** Whether a position of these elections carries this branch (it titles it). */
export async function branchTitlesPositionIn(db: Reader, branchId: number, electionIds: ElectionId[]): Promise<boolean> {
  const [declared] = await db
    .select({ id: positions.id })
    .from(positions)
    .where(and(eq(positions.branchId, branchId), inArray(positions.electionId, electionIds)))
    .limit(1);
  return declared !== undefined;
}

/** How many positions (any election's) belong to the branch. */
export async function positionsOfBranch(db: Reader, branchId: number): Promise<number> {
  const [used] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(positions)
    .where(eq(positions.branchId, branchId));
  return used?.n ?? 0;
}

/** A renamed branch's positions take its new name as their level (their title on ballots and results). */
export async function setBranchLevel(tx: Tx, branchId: number, name: string): Promise<void> {
  await tx.update(positions).set({ level: name }).where(eq(positions.branchId, branchId));
}

/** The levels among `levels` at which the election has a position of this name (any case). */
export async function levelsWithName(db: Reader, electionId: ElectionId, name: string, levels: string[]): Promise<{ level: string }[]> {
  return db
    .select({ level: positions.level })
    .from(positions)
    .where(and(eq(positions.electionId, electionId), sql`lower(${positions.name}) = lower(${name})`, inArray(positions.level, levels)));
}

/** Whether another position (not `exceptId`) of the election has this name (any case) at this level. */
export async function positionNameTaken(
  db: Reader,
  electionId: ElectionId,
  name: string,
  level: string,
  exceptId: number,
): Promise<boolean> {
  const [taken] = await db
    .select({ id: positions.id })
    .from(positions)
    .where(
      and(
        eq(positions.electionId, electionId),
        sql`lower(${positions.name}) = lower(${name})`,
        eq(positions.level, level),
        ne(positions.id, exceptId),
      ),
    );
  return taken !== undefined;
}

/** The highest place in the election's order (null when it has no position). */
export async function lastSortOrder(db: Reader, electionId: ElectionId): Promise<number | null> {
  const [last] = await db
    .select({ n: max(positions.sortOrder) })
    .from(positions)
    .where(eq(positions.electionId, electionId));
  return last?.n ?? null;
}

/** Inserts these positions; answers them as `translatedPositionColumns` read them (before `asPosition`). */
export async function insertPositions(tx: Tx, rows: (typeof positions.$inferInsert)[]) {
  return tx.insert(positions).values(rows).returning(translatedPositionColumns);
}

/** Inserts a motion's options. */
export async function insertMotionOptions(tx: Tx, rows: (typeof motionOptions.$inferInsert)[]): Promise<void> {
  await tx.insert(motionOptions).values(rows);
}

/** The position as `translatedPositionColumns` reads it (before `asPosition`). */
export async function positionColumnsOf(db: Reader, id: number) {
  return (await db.select(translatedPositionColumns).from(positions).where(eq(positions.id, id)))[0];
}

/** The election's positions as `translatedPositionColumns` reads them, in no order. */
export async function positionColumnsIn(db: Reader, electionId: ElectionId) {
  return db.select(translatedPositionColumns).from(positions).where(eq(positions.electionId, electionId));
}

/** Writes these fields of the position; answers it as `translatedPositionColumns` reads it. */
export async function updatePositionRow(tx: Tx, id: number, fields: Partial<Omit<typeof positions.$inferInsert, 'id'>>) {
  const [row] = await tx.update(positions).set(fields).where(eq(positions.id, id)).returning(translatedPositionColumns);
  return row;
}

/** Each listed position's place becomes its index in `ids` (one statement; the ids are whole numbers). */
export async function setPositionOrder(tx: Tx, ids: number[]): Promise<void> {
  await tx.execute(sql`
        update ${positions} set sort_order = o.place - 1
        from unnest(${`{${ids.join(',')}}`}::int[]) with ordinality as o(id, place)
        where ${positions.id} = o.id and ${positions.sortOrder} <> o.place - 1`);
}

/** Deletes the position (its candidacies and options go with it: foreign keys on delete cascade). */
export async function deletePositionRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(positions).where(eq(positions.id, id));
}

/** The election's position rows, whole (an election's copy takes them). */
export async function positionRowsOf(db: Reader, electionId: ElectionId): Promise<PositionRow[]> {
  return db.select().from(positions).where(eq(positions.electionId, electionId));
}

/**
 * Copies a position into another election, with its options when it is a motion; answers the
 * copy's id. (Its candidacies, the members module's, are copied by the candidacy store.)
 */
export async function copyPosition(tx: Tx, position: PositionRow, to: ElectionId): Promise<number> {
  const { id: from, electionId: _electionId, ...fields } = position;
  const [copy] = await tx
    .insert(positions)
    .values({ ...fields, electionId: to })
    .returning({ id: positions.id });
  if (position.kind === 'motion') {
    const options = await tx.select().from(motionOptions).where(eq(motionOptions.positionId, from));
    if (options.length)
      await tx.insert(motionOptions).values(options.map((o) => ({ positionId: copy!.id, name: o.name, sortOrder: o.sortOrder })));
  }
  return copy!.id;
}

/** A position's id, name, level, branch and seats (undefined for an unknown id). */
export async function positionSeatsOf(
  db: Reader,
  id: number,
): Promise<{ id: number; name: string; level: string; branchId: number | null; seats: number } | undefined> {
  const [p] = await db
    .select({ id: positions.id, name: positions.name, level: positions.level, branchId: positions.branchId, seats: positions.seats })
    .from(positions)
    .where(eq(positions.id, id));
  return p;
}

/** Locks the election's position row for the rest of the transaction (`for update`); undefined when the election has none with this id. */
export async function lockPositionIn(tx: Tx, id: number, electionId: ElectionId): Promise<PositionRow | undefined> {
  const [position] = await tx
    .select()
    .from(positions)
    .where(and(eq(positions.id, id), eq(positions.electionId, electionId)))
    .for('update');
  return position;
}

/** The election of every position, by position id (the mixer files queued ballots under their election). */
export async function electionOfEveryPosition(db: Reader): Promise<Map<number, ElectionId>> {
  return new Map(
    (await db.select({ id: positions.id, electionId: positions.electionId }).from(positions)).map((p) => [p.id, p.electionId]),
  );
}

/**
 * Whether the position with this id (an SQL value: a column of the caller's statement) counts
 * ranked ballots (a candidates position whose method is ranked), as an SQL condition: false for an
 * unknown id. The mixer's insert of opened ballots keeps a rank only where it holds, in its one
 * statement.
 */
export function isRankedPosition(positionId: SQL): SQL {
  return sql`exists (select 1 from ${positions} where ${positions.id} = ${positionId} and ${positions.kind} = 'candidates' and ${positions.method} = 'ranked')`;
}

/** The election's position row with this id (undefined when the election has none). */
export async function positionRowIn(db: Reader, id: number, electionId: ElectionId): Promise<PositionRow | undefined> {
  const [p] = await db
    .select()
    .from(positions)
    .where(and(eq(positions.id, id), eq(positions.electionId, electionId)));
  return p;
}

/** A position's name and level with its election's id and title (a receipt check names them). */
export async function positionWithElection(
  db: Reader,
  id: number,
): Promise<{ name: string; level: string; electionId: ElectionId; election: string } | undefined> {
  const [position] = await db
    .select({ name: positions.name, level: positions.level, electionId: positions.electionId, election: election.title })
    .from(positions)
    .innerJoin(election, eq(election.id, positions.electionId))
    .where(eq(positions.id, id));
  return position;
}

// ---- the ballot, the receipts and the register's rules (ballots, vvpat, register) ----

/** A position's fields as the ballot groups them (ballots.service `getBallot`). */
export const ballotPositionFields = {
  positionId: positions.id,
  name: positions.name,
  level: positions.level,
  seats: positions.seats,
  kind: positions.kind,
  method: positions.method,
  threshold: positions.threshold,
  quorumPercent: positions.quorumPercent,
  description: positions.description,
  sortOrder: positions.sortOrder,
  translations: positions.translations,
  rotateCandidates: positions.rotateCandidates,
};

/** The election's positions on the ballot of a member of this branch: the national ones and the branch's. */
export const ballotPositionsOf = (electionId: ElectionId, branchId: number): SQL =>
  and(eq(positions.electionId, electionId), or(eq(positions.level, 'National'), eq(positions.branchId, branchId)))!;

/** The motions of a member's ballot (`ballotPositionsOf`), a row per option, in the admin's order then the options' own. */
export async function ballotOptionRows(db: Reader, electionId: ElectionId, branchId: number) {
  return db
    .select({
      ...ballotPositionFields,
      candidateId: motionOptions.id,
      candidateName: motionOptions.name,
      photo: sql<string | null>`null`,
      statement: sql<string | null>`null`,
      statementTranslations: sql<null>`null`,
    })
    .from(positions)
    .innerJoin(motionOptions, eq(motionOptions.positionId, positions.id))
    .where(ballotPositionsOf(electionId, branchId))
    .orderBy(asc(positions.sortOrder), asc(positions.id), asc(motionOptions.sortOrder));
}

/** The options of these positions (a motion's choice names one): id, position, name. */
export async function motionOptionNamesOf(db: Reader, positionIds: number[]): Promise<{ id: number; positionId: number; name: string }[]> {
  return db
    .select({ id: motionOptions.id, positionId: motionOptions.positionId, name: motionOptions.name })
    .from(motionOptions)
    .where(inArray(motionOptions.positionId, positionIds));
}

/** These positions with their election's id and title (the voter's receipts list names them). */
export async function positionsWithElectionTitles(db: Reader, ids: number[]) {
  return db
    .select({
      id: positions.id,
      name: positions.name,
      level: positions.level,
      kind: positions.kind,
      method: positions.method,
      sortOrder: positions.sortOrder,
      electionId: positions.electionId,
      election: election.title,
    })
    .from(positions)
    .innerJoin(election, eq(election.id, positions.electionId))
    .where(inArray(positions.id, ids));
}

/** Of these position ids, the election's. */
export async function positionIdsOfElection(db: Reader, electionId: ElectionId, ids: number[]): Promise<{ id: number }[]> {
  return db
    .select({ id: positions.id })
    .from(positions)
    .where(and(eq(positions.electionId, electionId), inArray(positions.id, ids)));
}

/** The positions of elections not closed that have eligibility rules: id, name, level, rules, election. */
export async function eligibilityRulesOfUnclosed(db: Reader) {
  return db
    .select({
      id: positions.id,
      name: positions.name,
      level: positions.level,
      rules: positions.eligibility,
      electionId: positions.electionId,
    })
    .from(positions)
    .innerJoin(election, eq(election.id, positions.electionId))
    .where(and(isNull(election.closedAt), sql`jsonb_array_length(${positions.eligibility}) > 0`));
}

/** A position's eligibility rules and election (undefined for an unknown id). */
export async function positionEligibility(db: Reader, id: number) {
  const [p] = await db
    .select({ eligibility: positions.eligibility, electionId: positions.electionId })
    .from(positions)
    .where(eq(positions.id, id));
  return p;
}

// ---- the ballot's layout as the count, the tally and the audit read it (results, declaration) ----

/** The election's positions as the tally lays them out (with their translations), in the admin's order, then by id. */
export async function tallyPositionsOf(db: Reader, electionId: ElectionId) {
  return db
    .select({
      id: positions.id,
      name: positions.name,
      level: positions.level,
      kind: positions.kind,
      method: positions.method,
      translations: positions.translations,
    })
    .from(positions)
    .where(eq(positions.electionId, electionId))
    .orderBy(asc(positions.sortOrder), asc(positions.id));
}

/** The motion options of the election's positions, by position and in ballot order. */
export async function motionOptionsOfElection(
  db: Reader,
  electionId: ElectionId,
): Promise<{ positionId: number; id: number; name: string }[]> {
  return db
    .select({ positionId: motionOptions.positionId, id: motionOptions.id, name: motionOptions.name })
    .from(motionOptions)
    .innerJoin(positions, and(eq(positions.id, motionOptions.positionId), eq(positions.electionId, electionId)))
    .orderBy(asc(motionOptions.positionId), asc(motionOptions.sortOrder));
}

/** The election's positions: id, kind and method (the audit judges a ranked ballot's ranks). */
export async function positionMethodsOf(db: Reader, electionId: ElectionId) {
  return db
    .select({ id: positions.id, kind: positions.kind, method: positions.method })
    .from(positions)
    .where(eq(positions.electionId, electionId));
}

/** Every motion option (every election's): its position and id (they stand for the motion in the audit). */
export async function everyMotionOption(db: Reader): Promise<{ positionId: number; id: number }[]> {
  return db.select({ positionId: motionOptions.positionId, id: motionOptions.id }).from(motionOptions);
}

/** The election's position rows, whole, by id (the evidence pack). */
export async function positionRowsById(db: Reader, electionId: ElectionId): Promise<PositionRow[]> {
  return db.select().from(positions).where(eq(positions.electionId, electionId)).orderBy(asc(positions.id));
}
