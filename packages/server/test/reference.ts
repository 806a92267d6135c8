import type { Db } from '../src/db/client';
import { branches, positions } from '../src/db/schema';
import { CURRENT_ELECTION } from '../src/modules/elections';
import { BRANCH_POSITION, KENYA_COUNTIES, NATIONAL_POSITIONS } from '../src/seed';

/**
 * The sample structure most tests start from (the demo's branches and positions, written
 * directly). The product itself seeds nothing: an install without SEED_DEMO is empty.
 */
export async function seedSampleStructure(db: Db): Promise<void> {
  await db
    .insert(branches)
    .values(KENYA_COUNTIES.map((name) => ({ name })))
    .onConflictDoNothing();
  const branchRows = await db.select().from(branches);
  await db
    .insert(positions)
    .values([
      ...NATIONAL_POSITIONS.map((name, i) => ({ electionId: CURRENT_ELECTION, name, level: 'National', branchId: null, sortOrder: i })),
      ...branchRows.map((b) => ({ electionId: CURRENT_ELECTION, name: BRANCH_POSITION, level: b.name, branchId: b.id, sortOrder: 100 })),
    ])
    .onConflictDoNothing();
}
