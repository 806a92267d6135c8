import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness';
import { migrateUpTo } from '../../test/migrations';
import { migrationsApplied, runMigrations } from './migrate';

let database: TestDatabase;
beforeAll(async () => {
  // The migrations themselves, on an empty database (other files copy a migrated template).
  database = await createTestDatabase({ migrate: true });
});
afterAll(async () => {
  await database?.close();
});

describe('migrations', () => {
  it('create every table of the data model', async () => {
    const rows = await database.sql<{ table_name: string }[]>`
      select table_name from information_schema.tables where table_schema = 'public' order by table_name`;
    expect(rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'activity_logs',
        'auth_failures',
        'ballot_queue',
        'ballots',
        'branches',
        'candidacies',
        'commitments',
        'issue_reports',
        'items',
        'members',
        'otp_challenges',
        'participation',
        'positions',
        'sessions',
        'settings',
        'staff',
      ]),
    );
    expect(await migrationsApplied(database)).toBe(true);
  });

  it('are idempotent: a second run applies nothing and fails nothing', async () => {
    await runMigrations(database);
    const [row] = await database.sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(row!.n).toBeGreaterThanOrEqual(2);
  });

  it('keep commitments append-only', async () => {
    await database.sql`insert into commitments (election_id, count, hash, reason) values (1, 0, 'abc', 'test')`;
    await expect(database.sql`update commitments set hash = 'forged'`).rejects.toThrow(/append-only/);
    await expect(database.sql`delete from commitments`).rejects.toThrow(/append-only/);
  });

  it('give ballots no voter, serial or time column (rank is a place in a ranking, 0 for other methods)', async () => {
    const cols = await database.sql<{ column_name: string }[]>`
      select column_name from information_schema.columns where table_name = 'ballots' order by column_name`;
    // election_id: the partition's key (0018), no secret: participation names the position.
    expect(cols.map((c) => c.column_name)).toEqual(['candidate_id', 'election_id', 'position_id', 'rank', 'receipt']);
  });
});

describe('0011: the voting switch moves from settings onto the election row', () => {
  it.each([
    ['1', true],
    ['0', false],
  ])(
    'a database at 0010 with election_active = %s upgrades to voting_active = %s, the key deleted',
    { timeout: 120_000 }, // every migration from an empty database
    async (value, active) => {
      const old = await createTestDatabase({ empty: true });
      try {
        await migrateUpTo(old, '0010_used_id_tokens');
        await old.sql`update settings set value = ${value} where key = 'election_active'`;
        const [before] = await old.sql<{ value: string }[]>`select value from settings where key = 'election_active'`;
        expect(before?.value).toBe(value);

        await runMigrations(old);
        const [row] = await old.sql<{ voting_active: boolean }[]>`select voting_active from election`;
        expect(row?.voting_active).toBe(active);
        expect(await old.sql`select key from settings where key = 'election_active'`).toHaveLength(0);
        expect(await migrationsApplied(old)).toBe(true);
      } finally {
        await old.close();
      }
    },
  );

  it('a new database starts with voting off and no election key in settings', async () => {
    const [row] = await database.sql<{ voting_active: boolean }[]>`select voting_active from election`;
    expect(row?.voting_active).toBe(false);
    expect(await database.sql`select key from settings`).toHaveLength(0);
  });
});

describe('0013: many elections', () => {
  it(
    'a database at 0012 with a vote, a receipt, a commitment and a reminder upgrades to election 1, current, with everything intact',
    { timeout: 120_000 }, // every migration from an empty database
    async () => {
      const old = await createTestDatabase({ empty: true });
      try {
        await migrateUpTo(old, '0012_motions_ranked');
        await old.sql`update election set title = 'PSK Elections 2025', organisation = 'Pharmaceutical Society of Kenya',
          website = 'https://psk.example', support_email = 'help@psk.example', time_zone = 'Africa/Nairobi',
          voting_active = true, opened_at = '2025-06-01T06:00:00Z'`;
        const [branch] = await old.sql<{ id: number }[]>`insert into branches (name) values ('Nairobi') returning id`;
        const [voter] = await old.sql<{ id: number }[]>`
          insert into members (member_no, name, email, phone, branch_id) values ('1001', 'Voter', 'v@example.org', '0700000001', ${branch!.id}) returning id`;
        const [alice] = await old.sql<{ id: number }[]>`
          insert into members (member_no, name, email, phone, branch_id) values ('1002', 'Alice', 'a@example.org', '0700000002', ${branch!.id}) returning id`;
        const [chair] = await old.sql<
          { id: number }[]
        >`insert into positions (name, level) values ('Chairperson', 'National') returning id`;
        await old.sql`insert into candidacies (member_id, position_id) values (${alice!.id}, ${chair!.id})`;
        await old.sql`insert into participation (member_id, position_id, receipt_enc) values (${voter!.id}, ${chair!.id}, 'sealed-receipt')`;
        await old.sql`insert into ballots (receipt, position_id, candidate_id) values ('VP-AAAA-BBBB', ${chair!.id}, ${alice!.id})`;
        await old.sql`insert into commitments (count, hash, reason) values (1, 'abc123', 'periodic')`;
        await old.sql`insert into reminders (channel, message, total, next_send_at) values ('sms', 'Vote, {name}', 1, now())`;

        await runMigrations(old);
        expect(await migrationsApplied(old)).toBe(true);

        const [election] =
          await old.sql`select id, title, voting_active, archived, opened_at, roll_frozen_at, electorate_branch_ids from election`;
        expect(election).toMatchObject({
          id: 1,
          title: 'PSK Elections 2025',
          voting_active: true,
          archived: false,
          electorate_branch_ids: null,
        });
        expect(election!.roll_frozen_at).toEqual(election!.opened_at);
        expect(await old.sql`select count(*)::int as n from election`).toEqual([{ n: 1 }]);
        const [org] = await old.sql`select name, website, support_email, time_zone, current_election_id from organisation`;
        expect(org).toEqual({
          name: 'Pharmaceutical Society of Kenya',
          website: 'https://psk.example',
          support_email: 'help@psk.example',
          time_zone: 'Africa/Nairobi',
          current_election_id: 1,
        });
        expect(await old.sql`select id, election_id from positions`).toEqual([{ id: chair!.id, election_id: 1 }]);
        expect(await old.sql`select receipt, position_id, candidate_id from ballots`).toEqual([
          { receipt: 'VP-AAAA-BBBB', position_id: chair!.id, candidate_id: alice!.id },
        ]);
        expect(await old.sql`select member_id, position_id, receipt_enc from participation`).toEqual([
          { member_id: voter!.id, position_id: chair!.id, receipt_enc: 'sealed-receipt' },
        ]);
        expect(await old.sql`select count, hash, reason, election_id from commitments`).toEqual([
          { count: 1, hash: 'abc123', reason: 'periodic', election_id: 1 },
        ]);
        expect(await old.sql`select election_id from reminders`).toEqual([{ election_id: 1 }]);
        // 0014: an election opened before the roll existed has every member of the day on its roll.
        expect(
          (await old.sql`select member_id from election_roll where election_id = 1 order by member_id`).map((r) => r.member_id),
        ).toEqual([voter!.id, alice!.id].sort((a, b) => a - b));
        // 0017: each roll row frozen before it holds the member's branch at the upgrade.
        expect(
          await old.sql`select r.member_id from election_roll r join members m on m.id = r.member_id where r.branch_id is distinct from m.branch_id`,
        ).toEqual([]);
        expect(await old.sql`select count(*)::int as n from election_roll where branch_id is null`).toEqual([{ n: 0 }]);
        expect(await old.sql`select member_id, position_id from candidacies`).toEqual([{ member_id: alice!.id, position_id: chair!.id }]);
        // Commitments stay append-only; new elections number after election 1.
        await expect(old.sql`update commitments set election_id = 2`).rejects.toThrow(/append-only/);
        const [next] = await old.sql<{ id: number }[]>`insert into election (title) values ('By-election') returning id`;
        expect(next!.id).toBe(2);
        // The same position name may stand in another election.
        await old.sql`insert into positions (election_id, name, level) values (${next!.id}, 'Chairperson', 'National')`;
      } finally {
        await old.close();
      }
    },
  );

  it('a new database starts with election 1, current, in set-up, and empty organisation texts', async () => {
    const [org] = await database.sql`select name, website, support_email, time_zone, current_election_id from organisation`;
    expect(org).toEqual({ name: '', website: null, support_email: null, time_zone: 'UTC', current_election_id: 1 });
    const rows = await database.sql`select id, opened_at, archived from election`;
    expect(rows).toEqual([{ id: 1, opened_at: null, archived: false }]);
  });
});
