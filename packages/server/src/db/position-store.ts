import type { Position, TranslatedText, Translations } from '@kura/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from './client';
import type { ElectionId } from './election-store';
import { positions } from './schema';
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
