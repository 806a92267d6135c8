import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { branches, items, members, motionOptions, positions } from '../db/schema';
import type { Actor } from '../auth/actor';
import { castVote } from '../modules/ballots';
import { addElection, archiveElection, currentElectionId, readState, updateElection } from '../modules/elections';
import { closeElection, toggleElection } from '../modules/lifecycle';
import { assignPositions, importMembers } from '../modules/members';
import { createBranch, createPositions } from '../modules/setup';
import { upsertStaff } from './staff';

export const KENYA_COUNTIES = [
  'Mombasa',
  'Kwale',
  'Kilifi',
  'Tana River',
  'Lamu',
  'Taita Taveta',
  'Garissa',
  'Wajir',
  'Mandera',
  'Marsabit',
  'Isiolo',
  'Meru',
  'Tharaka Nithi',
  'Embu',
  'Kitui',
  'Machakos',
  'Makueni',
  'Nyandarua',
  'Nyeri',
  'Kirinyaga',
  "Murang'a",
  'Kiambu',
  'Turkana',
  'West Pokot',
  'Samburu',
  'Trans Nzoia',
  'Uasin Gishu',
  'Elgeyo Marakwet',
  'Nandi',
  'Baringo',
  'Laikipia',
  'Nakuru',
  'Narok',
  'Kajiado',
  'Kericho',
  'Bomet',
  'Kakamega',
  'Vihiga',
  'Bungoma',
  'Busia',
  'Siaya',
  'Kisumu',
  'Homa Bay',
  'Migori',
  'Kisii',
  'Nyamira',
  'Nairobi',
];

export const NATIONAL_POSITIONS = ['Chairperson', 'President', 'Vice Chairperson', 'Secretary', 'Treasurer'];
export const BRANCH_POSITION = 'Branch Chairperson';
/** Branches whose branch-level position gets candidates in the demo. */
export const DEMO_CONTESTED_BRANCHES = ['Nairobi', 'Mombasa', 'Kisumu', 'Nakuru', 'Kiambu'];

export const DEMO_ADMIN = { email: 'admin@kura.local', password: 'demo-admin-2025', name: 'Demo Admin' };
export const DEMO_AGENT = { email: 'agent@kura.local', name: 'Demo Agent' };
/** The first demo member: a Nairobi voter, handy for trying the sign-in. */
export const DEMO_VOTER_MEMBER_NO = '1001';

const FIRST = [
  'Amina',
  'Brian',
  'Cynthia',
  'David',
  'Esther',
  'Felix',
  'Grace',
  'Hassan',
  'Irene',
  'James',
  'Kevin',
  'Lilian',
  'Mercy',
  'Njeri',
  'Otieno',
  'Purity',
  'Rashid',
  'Sharon',
  'Tom',
  'Wanjiku',
  'Yusuf',
  'Zawadi',
  'Achieng',
  'Kiprono',
  'Mwangi',
  'Nafula',
  'Chebet',
  'Omondi',
];
const LAST = [
  'Ochieng',
  'Kamau',
  'Wanjiru',
  'Mutua',
  'Kiptoo',
  'Akinyi',
  'Mohamed',
  'Njoroge',
  'Were',
  'Cheruiyot',
  'Odhiambo',
  'Karanja',
  'Wambui',
  'Kariuki',
  'Barasa',
  'Nyambura',
  'Onyango',
  'Kibet',
  'Muthoni',
  'Ali',
];

/** A small deterministic PRNG so every demo database looks the same. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Nothing an admin or the demo would have set up: no branches, positions or members. */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.execute<{ n: number }>(sql`
    select ((select count(*) from ${branches}) + (select count(*) from ${positions}) + (select count(*) from ${members}))::int as n`);
  return (row?.n ?? 0) === 0;
}

export type DemoSummary = { branches: number; members: number; candidates: number };

export const DEMO_ELECTION = {
  title: 'PSK Elections 2025',
  organisation: 'Pharmaceutical Society of Kenya',
  website: 'https://psk.or.ke',
  support_email: 'secretariat@psk.or.ke',
  time_zone: 'Africa/Nairobi',
};

/**
 * A realistic demo election, set up through the same services an admin's Set-up page calls (each
 * step is in the activity log as the "Demo seed"): the society's texts, 47 branches, five national
 * positions and a branch chairperson per branch, members imported from a CSV, and 2–4 candidates
 * per contested position.
 */
export async function seedDemo(ctx: AppContext, options: { memberCount?: number } = {}): Promise<DemoSummary> {
  const db = ctx.database.db;
  const actor: Actor = { role: 'admin', id: null, name: 'Demo seed', ip: '' };
  const memberCount = options.memberCount ?? 400;
  const rand = prng(2025);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

  // The current election (an empty install's untitled one), or a new one when there is none to
  // set up: an admin may have deleted election 1 before any branch, position or member existed.
  const current = await currentElectionId(db);
  const electionId =
    current !== null && (await readState(db, current)).closedAt === null
      ? current
      : ((await addElection(ctx, actor, { title: DEMO_ELECTION.title })) as { id: number }).id;
  await updateElection(ctx, actor, DEMO_ELECTION, electionId);
  for (const name of KENYA_COUNTIES) await createBranch(ctx, actor, name);
  for (const name of NATIONAL_POSITIONS) await createPositions(ctx, actor, { name }, electionId);
  await createPositions(ctx, actor, { name: BRANCH_POSITION, every_branch: true }, electionId);

  const weighted = [...DEMO_CONTESTED_BRANCHES, ...DEMO_CONTESTED_BRANCHES, ...KENYA_COUNTIES];
  const lines = ['member_no,name,email,phone,branch'];
  for (let i = 0; i < memberCount; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const branch = i === 0 ? 'Nairobi' : pick(weighted);
    const email = `${first}.${last}.${1001 + i}@members.example.org`.toLowerCase();
    const phone = `07${String(10_000_000 + Math.floor(rand() * 89_999_999)).slice(0, 8)}`;
    lines.push([String(1001 + i), `${first} ${last}`, email, phone, `"${branch}"`].join(','));
  }
  const imported = await importMembers(ctx, actor, lines.join('\n'));
  if (imported.errors.length > 0) throw new Error(`demo members could not be imported: ${imported.errors[0]!.message}`);

  const memberRows = await db
    .select({ id: members.id, memberNo: members.memberNo, branchId: members.branchId })
    .from(members)
    .orderBy(asc(members.id));
  const positionRows = await db.select().from(positions).orderBy(asc(positions.id));
  const standing = new Map<string, number[]>();
  const taken = new Set<number>();
  const choose = (pool: typeof memberRows, n: number, positionId: number) => {
    for (const m of pool.filter((p) => !taken.has(p.id)).slice(0, n)) {
      taken.add(m.id);
      standing.set(m.memberNo, [...(standing.get(m.memberNo) ?? []), positionId]);
    }
  };
  // Skip the demo voter so their own ballot is never "vote for yourself".
  const pool = memberRows.filter((m) => m.memberNo !== DEMO_VOTER_MEMBER_NO);
  let offset = 3;
  for (const p of positionRows) {
    const n = 2 + Math.floor(rand() * 3);
    if (p.level === 'National') {
      choose(pool.slice(offset), n, p.id);
      offset += 7;
    } else if (DEMO_CONTESTED_BRANCHES.includes(p.level)) {
      choose(
        pool.filter((m) => m.branchId === p.branchId),
        n,
        p.id,
      );
    }
  }
  for (const [memberNo, positionIds] of standing) await assignPositions(ctx, actor, memberNo, positionIds, electionId);

  await db
    .insert(items)
    .values([
      { title: 'Annual general meeting venue', description: 'Choose where the next AGM is held.' },
      { title: 'Continuing education theme', description: 'The theme for next year’s CPD programme.' },
      { title: 'Membership fee review', description: 'Whether to review the annual membership fee.' },
    ])
    .onConflictDoNothing();

  await seedPastElection(ctx, actor, memberRows, rand);

  await upsertStaff(ctx, { ...DEMO_ADMIN, role: 'admin' });
  await upsertStaff(ctx, { ...DEMO_AGENT, role: 'agent' });
  return { branches: KENYA_COUNTIES.length, members: imported.created, candidates: taken.size };
}

/** The previous year's election: closed, its result declared, archived (docs/api.md "Many elections"). */
export const DEMO_PAST_ELECTION = {
  title: 'PSK Elections 2024',
  description: 'Last year’s national elections and the motion on the audited accounts.',
  positions: ['Chairperson', 'Secretary', 'Treasurer'],
  motion: 'Adopt the audited accounts for 2023',
  voters: 30,
};

/**
 * The previous year's election, so a new user sees the election list, the archive and a copy at
 * once: three positions and a motion, set up, opened, voted in (through castVote, the vote path
 * itself: receipts, commitments, participation), closed (its ballots published, the final
 * commitment, the audit) and archived, each step on a clock of May 2024. Members 1002 to 1031
 * voted in it (their receipts list shows last year's); the demo voter (1001) did not.
 */
async function seedPastElection(
  live: AppContext,
  actor: Actor,
  memberRows: { id: number; memberNo: string; branchId: number | null }[],
  rand: () => number,
): Promise<void> {
  let clock = Date.parse('2024-05-02T06:00:00Z');
  const ctx: AppContext = { ...live, now: () => new Date(clock) };
  const past = DEMO_PAST_ELECTION;
  const { id } = (await addElection(ctx, actor, { title: past.title, description: past.description })) as { id: number };
  const seats: number[] = [];
  for (const name of past.positions) seats.push(...(await createPositions(ctx, actor, { name }, id)).map((p) => p.id));
  const [motion] = await createPositions(ctx, actor, { name: past.motion, kind: 'motion', threshold: 'majority' }, id);
  // Two or three candidates a position, none of them the demo voter.
  const standing = memberRows.filter((m) => m.memberNo !== DEMO_VOTER_MEMBER_NO).slice(200);
  const candidatesOf = new Map<number, number[]>();
  seats.forEach((positionId, i) => {
    const chosen = standing.slice(i * 3, i * 3 + 2 + (i % 2));
    candidatesOf.set(
      positionId,
      chosen.map((m) => m.id),
    );
  });
  for (const [positionId, ids] of candidatesOf)
    for (const m of memberRows.filter((r) => ids.includes(r.id))) await assignPositions(ctx, actor, m.memberNo, [positionId], id);
  const options = await ctx.database.db
    .select({ id: motionOptions.id, name: motionOptions.name })
    .from(motionOptions)
    .where(and(eq(motionOptions.positionId, motion!.id), inArray(motionOptions.name, ['Yes', 'No', 'Abstain'])))
    .orderBy(asc(motionOptions.sortOrder));

  clock = Date.parse('2024-05-03T05:00:00Z');
  await toggleElection(ctx, actor, true, id);
  // Most of the voters favour the first candidate and Yes, so the declaration reads naturally.
  const leaning = <T>(list: T[]): T => list[rand() < 0.55 ? 0 : Math.floor(rand() * list.length)]!;
  // Not the demo voter: their receipts page starts with this year's election only.
  const voters = memberRows.filter((m) => m.memberNo !== DEMO_VOTER_MEMBER_NO).slice(0, past.voters);
  for (const [i, member] of voters.entries()) {
    clock += 6 * 60_000;
    const choices: Record<number, number> = {};
    for (const [positionId, ids] of candidatesOf) if (i % 7 !== 3 || positionId === seats[0]) choices[positionId] = leaning(ids);
    choices[motion!.id] = rand() < 0.7 ? options[0]!.id : leaning(options.slice(1)).id;
    await castVote(ctx, { memberId: member.id, ip: '' }, choices, id);
  }
  clock = Date.parse('2024-05-03T14:00:00Z');
  await closeElection(ctx, actor, 'admin', id);
  clock = Date.parse('2024-06-01T06:00:00Z');
  await archiveElection(ctx, actor, id);
}
