import type { Position } from '@kura/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from './client';
import type { ElectionId } from './election-store';
import { candidacies, members, positions } from './schema';
import { ballotPositionFields, ballotPositionsOf, positionColumns, positionOrder } from './position-store';

/**
 * The candidacy store: the SQL of `candidacies` (a member standing for a position), which the
 * members module owns (db/schema/owners.ts): `replacePositions` in members.service is the one rule
 * that changes a member's candidacies, which the candidates and nominations modules call through
 * the members module's index.ts. Under `db/` beside the member store, for the same reason. Each
 * function runs on the handle it is given, inside the caller's unit of work (the caller takes
 * `lockElection` before a change: members.service `lockElectionForCandidacies`).
 */

type Reader = Db | Tx;

/** The positions each of these members stands for (every election's), by position id. */
export async function positionIdsOf(db: Reader, memberIds: number[]): Promise<{ memberId: number; positionId: number }[]> {
  return db
    .select({ memberId: candidacies.memberId, positionId: candidacies.positionId })
    .from(candidacies)
    .where(inArray(candidacies.memberId, memberIds))
    .orderBy(asc(candidacies.positionId));
}

/** The election's candidacies (those of `memberIds` only, when given), each with its position as the API answers it, in `positionOrder`. */
export async function candidacyPositions(
  db: Reader,
  electionId: ElectionId,
  memberIds?: number[],
): Promise<({ memberId: number } & Position)[]> {
  return db
    .select({ memberId: candidacies.memberId, ...positionColumns })
    .from(candidacies)
    .innerJoin(positions, and(eq(positions.id, candidacies.positionId), eq(positions.electionId, electionId)))
    .where(memberIds ? inArray(candidacies.memberId, memberIds) : undefined)
    .orderBy(...positionOrder);
}

/** The position ids the member stands for in this election (those in other elections aside). */
export async function memberPositionsIn(db: Reader, memberId: number, electionId: ElectionId): Promise<number[]> {
  return (
    await db
      .select({ id: candidacies.positionId })
      .from(candidacies)
      .innerJoin(positions, eq(positions.id, candidacies.positionId))
      .where(and(eq(candidacies.memberId, memberId), eq(positions.electionId, electionId)))
  ).map((r) => r.id);
}

/**
 * The id, member number and name of every member who stands for a position of these elections
 * (`memberIds` narrows to those members), each once.
 */
export async function standingIdentities(
  db: Reader,
  electionIds: ElectionId[],
  memberIds?: number[],
): Promise<{ id: number; memberNo: string; name: string }[]> {
  return db
    .selectDistinct({ id: members.id, memberNo: members.memberNo, name: members.name })
    .from(members)
    .innerJoin(candidacies, eq(candidacies.memberId, members.id))
    .innerJoin(positions, eq(positions.id, candidacies.positionId))
    .where(and(inArray(positions.electionId, electionIds), memberIds ? inArray(members.id, memberIds) : undefined));
}

/** Whether the member stands for any position (any election's). */
export async function standsAnywhere(db: Reader, memberId: number): Promise<boolean> {
  const [stands] = await db
    .select({ one: sql`1` })
    .from(candidacies)
    .where(eq(candidacies.memberId, memberId))
    .limit(1);
  return stands !== undefined;
}

/** The member stands for these positions too. */
export async function addCandidacies(tx: Tx, memberId: number, positionIds: number[]): Promise<void> {
  await tx.insert(candidacies).values(positionIds.map((positionId) => ({ memberId, positionId })));
}

/** The member no longer stands for these positions. */
export async function removeCandidacies(tx: Tx, memberId: number, positionIds: number[]): Promise<void> {
  await tx.delete(candidacies).where(and(eq(candidacies.memberId, memberId), inArray(candidacies.positionId, positionIds)));
}

/** Whoever stands for position `from` stands for position `to` too (an election's copy, with its candidates). */
export async function copyCandidacies(tx: Tx, from: number, to: number): Promise<void> {
  const standing = await tx.select().from(candidacies).where(eq(candidacies.positionId, from));
  if (standing.length) await tx.insert(candidacies).values(standing.map((c) => ({ memberId: c.memberId, positionId: to })));
}

// ---- the ballot (ballots) ----

/**
 * The candidates of a member's ballot (`ballotPositionsOf`: the national positions and their
 * branch's), a row per candidacy with the position's ballot fields and the candidate's name,
 * photo and statement; in the admin's order, then by name.
 */
export async function ballotCandidateRows(db: Reader, electionId: ElectionId, branchId: number) {
  return db
    .select({
      ...ballotPositionFields,
      candidateId: members.id,
      candidateName: members.name,
      photo: members.photoUrl,
      statement: members.statement,
      statementTranslations: members.translations,
    })
    .from(positions)
    .innerJoin(candidacies, eq(candidacies.positionId, positions.id))
    .innerJoin(members, eq(members.id, candidacies.memberId))
    .where(ballotPositionsOf(electionId, branchId))
    .orderBy(asc(positions.sortOrder), asc(positions.id), asc(members.name), asc(members.id));
}

// ---- the candidates as the count, the tally and the audit read them (results, declaration) ----

/** The election's candidacies, each with its member's id, name and number. */
export async function standingCandidatesOf(
  db: Reader,
  electionId: ElectionId,
): Promise<{ positionId: number; id: number; name: string; memberNo: string }[]> {
  return db
    .select({ positionId: candidacies.positionId, id: members.id, name: members.name, memberNo: members.memberNo })
    .from(candidacies)
    .innerJoin(members, eq(members.id, candidacies.memberId))
    .innerJoin(positions, and(eq(positions.id, candidacies.positionId), eq(positions.electionId, electionId)));
}

/** The members standing for the position (ids). */
export async function candidateIdsOf(db: Reader, positionId: number): Promise<{ id: number }[]> {
  return db.select({ id: candidacies.memberId }).from(candidacies).where(eq(candidacies.positionId, positionId));
}

/** Every candidacy (every election's), whole. */
export async function everyCandidacy(db: Reader): Promise<(typeof candidacies.$inferSelect)[]> {
  return db.select().from(candidacies);
}
