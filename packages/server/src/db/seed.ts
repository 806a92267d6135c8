import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { branches, candidacies, items, members, positions, settings, staff } from './schema';
import { hashPassword } from '../lib/crypto';

export const KENYA_COUNTIES = [
  'Mombasa', 'Kwale', 'Kilifi', 'Tana River', 'Lamu', 'Taita Taveta', 'Garissa', 'Wajir', 'Mandera', 'Marsabit',
  'Isiolo', 'Meru', 'Tharaka Nithi', 'Embu', 'Kitui', 'Machakos', 'Makueni', 'Nyandarua', 'Nyeri', 'Kirinyaga',
  "Murang'a", 'Kiambu', 'Turkana', 'West Pokot', 'Samburu', 'Trans Nzoia', 'Uasin Gishu', 'Elgeyo Marakwet', 'Nandi', 'Baringo',
  'Laikipia', 'Nakuru', 'Narok', 'Kajiado', 'Kericho', 'Bomet', 'Kakamega', 'Vihiga', 'Bungoma', 'Busia',
  'Siaya', 'Kisumu', 'Homa Bay', 'Migori', 'Kisii', 'Nyamira', 'Nairobi',
];

export const NATIONAL_POSITIONS = ['Chairperson', 'President', 'Vice Chairperson', 'Secretary', 'Treasurer'];
export const BRANCH_POSITION = 'Branch Chairperson';
/** Branches whose branch-level position gets candidates in the demo. */
export const DEMO_CONTESTED_BRANCHES = ['Nairobi', 'Mombasa', 'Kisumu', 'Nakuru', 'Kiambu'];

export const DEMO_ADMIN = { email: 'admin@kura.local', password: 'demo-admin-2025', name: 'Demo Admin' };
export const DEMO_AGENT = { email: 'agent@kura.local', name: 'Demo Agent' };
/** The first demo member: a Nairobi voter, handy for trying the sign-in. */
export const DEMO_VOTER_MEMBER_NO = '1001';

const FIRST = ['Amina', 'Brian', 'Cynthia', 'David', 'Esther', 'Felix', 'Grace', 'Hassan', 'Irene', 'James', 'Kevin', 'Lilian', 'Mercy', 'Njeri', 'Otieno', 'Purity', 'Rashid', 'Sharon', 'Tom', 'Wanjiku', 'Yusuf', 'Zawadi', 'Achieng', 'Kiprono', 'Mwangi', 'Nafula', 'Chebet', 'Omondi'];
const LAST = ['Ochieng', 'Kamau', 'Wanjiru', 'Mutua', 'Kiptoo', 'Akinyi', 'Mohamed', 'Njoroge', 'Were', 'Cheruiyot', 'Odhiambo', 'Karanja', 'Wambui', 'Kariuki', 'Barasa', 'Nyambura', 'Onyango', 'Kibet', 'Muthoni', 'Ali'];

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

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(branches);
  return (row?.n ?? 0) === 0;
}

/** Reference data every installation needs: branches, positions, the election flag. */
export async function seedReference(db: Db): Promise<void> {
  await db.insert(branches).values(KENYA_COUNTIES.map((name) => ({ name }))).onConflictDoNothing();
  const branchRows = await db.select().from(branches);
  await db
    .insert(positions)
    .values([
      ...NATIONAL_POSITIONS.map((name, i) => ({ name, level: 'National', branchId: null, sortOrder: i })),
      ...branchRows.map((b) => ({ name: BRANCH_POSITION, level: b.name, branchId: b.id, sortOrder: 100 })),
    ])
    .onConflictDoNothing();
  await db.insert(settings).values({ key: 'election_active', value: '0' }).onConflictDoNothing();
}

export type DemoSummary = { members: number; candidates: number };

/** A realistic demo election: members across branches and 2–4 candidates per contested position. */
export async function seedDemo(db: Db, options: { memberCount?: number } = {}): Promise<DemoSummary> {
  const memberCount = options.memberCount ?? 400;
  const rand = prng(2025);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  await seedReference(db);
  const branchRows = await db.select().from(branches);
  const byName = new Map(branchRows.map((b) => [b.name, b.id]));
  const weighted = [...DEMO_CONTESTED_BRANCHES, ...DEMO_CONTESTED_BRANCHES, ...KENYA_COUNTIES];

  const rows = Array.from({ length: memberCount }, (_, i) => {
    const first = pick(FIRST);
    const last = pick(LAST);
    const branch = i === 0 ? 'Nairobi' : pick(weighted);
    return {
      memberNo: String(1001 + i),
      name: `${first} ${last}`,
      email: `${first}.${last}.${1001 + i}@members.example.org`.toLowerCase(),
      phone: `07${String(10_000_000 + Math.floor(rand() * 89_999_999)).slice(0, 8)}`,
      branchId: byName.get(branch)!,
    };
  });
  const inserted = await db.insert(members).values(rows).onConflictDoNothing().returning({ id: members.id, branchId: members.branchId });

  const positionRows = await db.select().from(positions);
  const taken = new Set<number>();
  const candidacyRows: { memberId: number; positionId: number }[] = [];
  const choose = (pool: typeof inserted, n: number, positionId: number) => {
    for (const m of pool.filter((p) => !taken.has(p.id)).slice(0, n)) {
      taken.add(m.id);
      candidacyRows.push({ memberId: m.id, positionId });
    }
  };
  // Skip the demo voter so their own ballot is never "vote for yourself".
  const pool = inserted.slice(1);
  let offset = 3;
  for (const p of positionRows) {
    const n = 2 + Math.floor(rand() * 3);
    if (p.level === 'National') {
      choose(pool.slice(offset), n, p.id);
      offset += 7;
    } else if (DEMO_CONTESTED_BRANCHES.includes(p.level)) {
      choose(pool.filter((m) => m.branchId === p.branchId), n, p.id);
    }
  }
  if (candidacyRows.length) await db.insert(candidacies).values(candidacyRows).onConflictDoNothing();

  await db
    .insert(items)
    .values([
      { title: 'Annual general meeting venue', description: 'Choose where the next AGM is held.' },
      { title: 'Continuing education theme', description: 'The theme for next year’s CPD programme.' },
      { title: 'Membership fee review', description: 'Whether to review the annual membership fee.' },
    ])
    .onConflictDoNothing();

  await upsertStaff(db, { ...DEMO_ADMIN, role: 'admin' });
  await upsertStaff(db, { ...DEMO_AGENT, role: 'agent' });
  return { members: inserted.length, candidates: candidacyRows.length };
}

/** Creates or updates an admin or agent (ADMIN_EMAIL, AGENT_EMAILS, `cli admin:create`). */
export async function upsertStaff(
  db: Db,
  input: { email: string; name?: string; role: 'admin' | 'agent'; password?: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const name = input.name ?? email.split('@')[0]!;
  await db
    .insert(staff)
    .values({ email, name, role: input.role, passwordHash })
    .onConflictDoUpdate({
      target: staff.email,
      set: { role: input.role, ...(passwordHash ? { passwordHash } : {}), ...(input.name ? { name } : {}) },
    });
}
