import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client';
import type { ElectionId } from './election-store';
import { nominations, nominationSupporters } from './schema';

/** A nomination that holds voting back: submitted and undecided, or with an appeal pending. */
export type UndecidedNomination = { id: number; nominee: string; position: string; appeal: boolean };

/**
 * The election's nominations that must be decided before voting opens (docs/api.md
 * "Nominations"): the toggle and the schedule refuse to open while there is any. Read from the
 * table directly so the elections module need not import the nominations module (which imports it).
 */
export async function undecidedNominations(db: Db | Tx, electionId: ElectionId): Promise<UndecidedNomination[]> {
  const rows = await db.execute<{ id: number; nominee: string; position: string; appeal: boolean }>(sql`
    select n.id, m.name as nominee, p.name || ' ' || p.level as position, (n.appeal_status = 'pending') as appeal
    from nominations n join members m on m.id = n.nominee_id join positions p on p.id = n.position_id
    where n.election_id = ${electionId} and (n.status = 'submitted' or (n.status = 'invalid' and n.appeal_status = 'pending'))
    order by n.id`);
  return rows.map((r) => ({ id: Number(r.id), nominee: r.nominee, position: r.position, appeal: Boolean(r.appeal) }));
}

/**
 * The election's nominations as its evidence pack keeps them (`nominations.json`): every one, in
 * order, with its supporters by member number and name, its checks, decision and appeal; no
 * contact detail and no photo.
 */
export async function nominationsRecord(db: Db | Tx, electionId: ElectionId): Promise<unknown[]> {
  const rows = await db.execute<{
    id: number;
    position_id: number;
    position: string;
    member_no: string;
    name: string;
    status: string;
    accepted: boolean | null;
    checks: unknown;
    decision_valid: boolean | null;
    decision_reason: string | null;
    decision_at: string | Date | null;
    override_reason: string | null;
    appeal_grounds: string | null;
    appeal_status: string | null;
    appeal_reason: string | null;
    created_at: string | Date;
    supporters: unknown;
  }>(sql`
    select n.id, n.position_id, p.name || ' ' || p.level as position, m.member_no, m.name, n.status, n.accepted, n.checks,
      n.decision_valid, n.decision_reason, n.decision_at, n.override_reason, n.appeal_grounds, n.appeal_status, n.appeal_reason,
      n.created_at,
      coalesce((select json_agg(json_build_object('member_no', sm.member_no, 'name', sm.name, 'role', s.role, 'confirmed', s.confirmed)
                  order by s.role <> 'proposer', s.sort)
                from nomination_supporters s join members sm on sm.id = s.member_id where s.nomination_id = n.id), '[]'::json) as supporters
    from nominations n join members m on m.id = n.nominee_id join positions p on p.id = n.position_id
    where n.election_id = ${electionId}
    order by n.id`);
  const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());
  return rows.map((r) => ({
    id: Number(r.id),
    position_id: Number(r.position_id),
    position: r.position,
    nominee: { member_no: r.member_no, name: r.name },
    supporters: typeof r.supporters === 'string' ? (JSON.parse(r.supporters) as unknown) : r.supporters,
    accepted: r.accepted,
    status: r.status,
    checks: typeof r.checks === 'string' ? (JSON.parse(r.checks) as unknown) : r.checks,
    decision:
      r.decision_valid === null
        ? null
        : { valid: r.decision_valid, reason: r.decision_reason, at: iso(r.decision_at), override_reason: r.override_reason },
    appeal: r.appeal_status ? { grounds: r.appeal_grounds, status: r.appeal_status, reason: r.appeal_reason } : null,
    created_at: iso(r.created_at),
  }));
}

/** Whether a nomination names the member (nominee, author or supporter; withdrawn ones included): the evidence pack lists them, so they stay on the register. */
export async function namedInNomination(db: Db | Tx, memberId: number): Promise<boolean> {
  const [named] = await db.execute(sql`
    select 1 from ${nominations} n where n.nominee_id = ${memberId} or n.created_by = ${memberId}
    union all select 1 from ${nominationSupporters} s where s.member_id = ${memberId}
    limit 1`);
  return named !== undefined;
}
