import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../src/context';
import { branches, candidacies, members, positions, staff } from '../src/db/schema';
import { createSession, type Role } from '../src/auth/sessions';
import { CURRENT_ELECTION } from '../src/modules/elections';

/** Factories for test data: each makes a valid row with unique fields unless told otherwise. */

let seq = 0;
const next = () => ++seq + Math.floor(Math.random() * 1000) * 1000;

export async function branchId(ctx: AppContext, name = 'Nairobi'): Promise<number> {
  const [found] = await ctx.database.db.select().from(branches).where(eq(branches.name, name));
  if (found) return found.id;
  const [row] = await ctx.database.db.insert(branches).values({ name }).returning();
  return row!.id;
}

export async function createPosition(ctx: AppContext, input: { name?: string; level?: string; electionId?: number } = {}) {
  const level = input.level ?? 'National';
  const branch = level === 'National' ? null : await branchId(ctx, level);
  const [row] = await ctx.database.db
    .insert(positions)
    .values({ electionId: input.electionId ?? CURRENT_ELECTION, name: input.name ?? `Position ${next()}`, level, branchId: branch })
    .returning();
  return row!;
}

export async function createMember(
  ctx: AppContext,
  input: Partial<{
    memberNo: string;
    name: string;
    email: string;
    phone: string;
    branch: string;
    verified: boolean;
    onRoll: boolean;
    language: string | null;
  }> = {},
) {
  const n = next();
  const [row] = await ctx.database.db
    .insert(members)
    .values({
      memberNo: input.memberNo ?? String(100_000 + n),
      name: input.name ?? `Member ${n}`,
      email: (input.email ?? `member${n}@example.org`).toLowerCase(),
      // Stored in E.164, as the register stores every phone (docs/api.md "Register formats").
      phone: input.phone ?? `+2547${String(n).padStart(8, '0').slice(-8)}`,
      branchId: await branchId(ctx, input.branch ?? 'Nairobi'),
      verifiedAt: input.verified ? new Date() : null,
      language: input.language ?? null,
    })
    .returning();
  // As if registered before every roll froze (the usual test member): on the roll of each election
  // already opened whose electorate takes their branch. `onRoll: false` is a member who joined after.
  if (input.onRoll !== false) {
    await ctx.database.db.execute(sql`
      insert into election_roll (election_id, member_id, branch_id, member_no, branch)
      select e.id, ${row!.id}::int, ${row!.branchId}::int, ${row!.memberNo}, (select b.name from branches b where b.id = ${row!.branchId}::int)
      from election e
      where e.roll_frozen_at is not null and (e.electorate_branch_ids is null or ${row!.branchId}::int = any(e.electorate_branch_ids))
      on conflict do nothing`);
    // The frozen roll's hash follows (db/election-store.ts's formula), as if the member had been there at the freeze.
    await ctx.database.db.execute(sql`
      update election e set roll_hash = (
        select encode(sha256(convert_to(coalesce(string_agg(r.member_no || E'\n', '' order by r.member_no collate "C"), ''), 'UTF8')), 'hex')
        from election_roll r where r.election_id = e.id)
      where e.roll_frozen_at is not null and (e.electorate_branch_ids is null or ${row!.branchId}::int = any(e.electorate_branch_ids))`);
  }
  // A factory member always has an e-mail (the register allows none).
  return { ...row!, email: row!.email! };
}

/** A member standing for the given positions. */
export async function createCandidate(ctx: AppContext, positionIds: number[], input: Parameters<typeof createMember>[1] = {}) {
  const member = await createMember(ctx, input);
  if (positionIds.length) {
    await ctx.database.db.insert(candidacies).values(positionIds.map((positionId) => ({ memberId: member.id, positionId })));
  }
  return member;
}

export async function createStaff(ctx: AppContext, input: { role: 'admin' | 'agent'; email?: string; password?: string; name?: string }) {
  const n = next();
  const [row] = await ctx.database.db
    .insert(staff)
    .values({
      email: (input.email ?? `${input.role}${n}@example.org`).toLowerCase(),
      name: input.name ?? `${input.role === 'admin' ? 'Admin' : 'Agent'} ${n}`,
      role: input.role,
      passwordHash: input.password ? await ctx.passwords.hash(input.password) : null,
    })
    .returning();
  return row!;
}

/** A bearer token for a fresh subject of the role (or the given subject). */
export async function tokenFor(ctx: AppContext, role: Role, subjectId?: number): Promise<string> {
  const id = subjectId ?? (role === 'voter' ? (await createMember(ctx)).id : (await createStaff(ctx, { role })).id);
  return (await createSession(ctx, { role, subjectId: id })).token;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
