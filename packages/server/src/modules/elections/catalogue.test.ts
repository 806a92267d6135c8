import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rule } from '@kura/contract';
import { apiClient, bodyOf, signedIn, type ApiClient } from '../../../test/client';
import { branchId, createCandidate, createMember, createPosition } from '../../../test/factories';
import { createTestApp, databaseKind, type TestApp } from '../../../test/harness';
import { createVoter } from '../../../test/voting/election';
import { whileHeld, type HoldingSession } from '../../../test/two-sessions';
import { ELECTION_LOCK, ELECTION_LOCK_NAMESPACE } from '../../db/locks';
import { activityLogs, branches, election } from '../../db/schema';
import { openOnSchedule } from '../lifecycle';

/** The organisation and its elections: create, edit, delete, copy, archive (docs/api.md "Many elections"). */
let t: TestApp;
let admin: ApiClient;
let anon: ApiClient;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  ({ api: admin } = await signedIn(t, 'admin'));
  anon = apiClient(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** An instant `days` from the test clock's now: no test here depends on the day it runs. */
const inDays = (days: number, hours = 0) => new Date(t.clock.now().getTime() + (days * 24 + hours) * 3_600_000).toISOString();

const positionsOf = async (id: number) => bodyOf(await anon.members.listPositions({ query: { election_id: id } }), 200).data;
const candidatesOf = async (id: number) =>
  bodyOf(await admin.candidates.listCandidates({ query: { election_id: id } }), 200).data.data.candidates;
const candidatePositionsOf = async (id: number) =>
  bodyOf(await admin.members.listCandidatePositions({ query: { election_id: id } }), 200).data.data;
const toggleOn = (id: number) => admin.elections.toggleElection({ query: { election_id: id }, body: { status: true } });
const close = (id: number) => admin.lifecycle.closeElection({ query: { election_id: id } });

/** The `data` of each activity-log row of one activity, oldest first. */
const logData = async (activity: string) =>
  (
    await t.ctx.database.db
      .select({ data: activityLogs.data })
      .from(activityLogs)
      .where(eq(activityLogs.activity, activity))
      .orderBy(asc(activityLogs.id))
  ).map((r) => r.data);

describe('the organisation', () => {
  it('reads and edits the texts, time zone and current election; the current election must exist and not be archived', async () => {
    const put = await admin.organisation.updateOrganisation({ body: { name: 'Umoja Sacco', time_zone: 'Africa/Nairobi' } });
    expect(bodyOf(put, 200).data).toMatchObject({ name: 'Umoja Sacco', time_zone: 'Africa/Nairobi', current_election_id: 1 });
    expect(bodyOf(await anon.organisation.getOrganisation(), 200).data.name).toBe('Umoja Sacco');
    // GET election keeps its shape, the organisation's texts joined back.
    expect(bodyOf(await anon.elections.getElection(), 200).data).toMatchObject({
      organisation: 'Umoja Sacco',
      time_zone: 'Africa/Nairobi',
    });
    const bad = await admin.organisation.updateOrganisation({ body: { current_election_id: 424242 } });
    expect(bodyOf(bad, 422).errors!.current_election_id).toEqual(['The current election must be an election that is not archived']);
    expect((await anon.organisation.updateOrganisation({ body: { name: 'x' } })).status).toBe(401);
  });
});

describe('elections', () => {
  it('creates one in set-up, lists it newest first, reads and edits it; 404 for an unknown id', async () => {
    const nairobi = await branchId(t.ctx, 'Nairobi');
    const created = bodyOf(
      await admin.organisation.createElection({
        body: { title: 'By-election', description: 'Nairobi seat', electorate: { branch_ids: [nairobi] } },
      }),
      201,
    ).data;
    expect(created).toMatchObject({
      title: 'By-election',
      description: 'Nairobi seat',
      phase: 'setup',
      archived: false,
      electorate: { branch_ids: [nairobi] },
    });
    const list = bodyOf(await anon.organisation.listElections(), 200).data;
    expect(list[0]!.id).toBe(created.id);
    expect(list.map((e) => e.id)).toContain(1);
    const patched = await admin.organisation.updateElectionById({
      params: { id: created.id! },
      body: { title: 'By-election 2026', opens_at: inDays(30), closes_at: inDays(30, 12) },
    });
    expect(bodyOf(patched, 200).data).toMatchObject({ title: 'By-election 2026', phase: 'scheduled' });
    const backwards = await admin.organisation.updateElectionById({
      params: { id: created.id! },
      body: { closes_at: inDays(29) },
    });
    expect(bodyOf(backwards, 422).errors!.closes_at).toEqual(['The closing time must be after the opening time']);
    const unknownBranch = await admin.organisation.createElection({ body: { title: 'X', electorate: { branch_ids: [987654] } } });
    expect(bodyOf(unknownBranch, 422).errors!['electorate.branch_ids']).toEqual(['No branch has the id 987654']);
    expect((await anon.organisation.getElectionById({ params: { id: 424242 } })).status).toBe(404);
    expect((await anon.organisation.createElection({ body: { title: 'Nope' } })).status).toBe(401);
  });

  it('copies positions, motions with their options, seats, methods and electorate; candidates only when asked; no schedule', async () => {
    const source = bodyOf(await admin.organisation.createElection({ body: { title: 'AGM 2026', results_visibility: 'staff' } }), 201).data;
    const chair = await createPosition(t.ctx, { name: 'Chair', electionId: source.id! });
    await createCandidate(t.ctx, [chair.id], { name: 'Copied Candidate' });
    const motion = await admin.setup.createPosition({
      query: { election_id: source.id! },
      body: { name: 'Adopt the accounts', kind: 'motion', quorum_percent: 20 },
    });
    expect(motion.status).toBe(201);
    await admin.organisation.updateElectionById({ params: { id: source.id! }, body: { opens_at: inDays(60) } });

    const bare = bodyOf(await admin.organisation.copyElection({ params: { id: source.id! }, body: { title: 'AGM 2027' } }), 201).data;
    expect(bare).toMatchObject({ title: 'AGM 2027', phase: 'setup', opens_at: null, closes_at: null, results_visibility: 'staff' });
    const copied = await positionsOf(bare.id!);
    expect(copied.map((p) => [p.name, p.kind]).sort()).toEqual([
      ['Adopt the accounts', 'motion'],
      ['Chair', 'candidates'],
    ]);
    expect(copied.map((p) => p.id)).not.toContain(chair.id);
    const ballotOptions = await candidatesOf(bare.id!);
    expect(ballotOptions).toEqual([]);

    const withCandidates = bodyOf(
      await admin.organisation.copyElection({
        params: { id: source.id! },
        body: { title: 'AGM 2027 (with candidates)', candidates: true },
      }),
      201,
    ).data;
    const standing = await candidatesOf(withCandidates.id!);
    expect(standing.map((c) => c.name)).toEqual(['Copied Candidate']);
    // The copied motion has its three options.
    const { token } = await createVoter(t.ctx);
    await toggleOn(withCandidates.id!);
    const ballot = bodyOf(await apiClient(t.app, token).ballots.getBallot({ query: { election_id: withCandidates.id! } }), 200).data;
    const motionGroup = ballot.find((g) => g.kind === 'motion');
    expect(motionGroup!.candidates.map((c) => c.name)).toEqual(['Yes', 'No', 'Abstain']);
  });

  it("copies the electorate's rules and elected_in and each position's eligibility rules and nomination rule; not the windows", async () => {
    const put = await admin.register.putAttributes({
      body: {
        data: [
          { key: 'shares', label: 'Shares (KSh)', type: 'number' },
          { key: 'date_joined', label: 'Joined', type: 'date' },
          { key: 'paid', label: 'Subscription paid', type: 'boolean' },
        ],
      },
    });
    expect(put.status).toBe(200);
    const branches = bodyOf(await admin.organisation.createElection({ body: { title: 'Branch delegates 2026' } }), 201).data;
    const delegate = await createPosition(t.ctx, { name: 'Delegate', electionId: branches.id! });
    const electorate = {
      branch_ids: null,
      rules: [
        { attribute: 'paid', op: 'equals' as const, value: true },
        { attribute: 'date_joined', op: 'on_or_before' as const, value: { years_before: 1 } },
      ],
      elected_in: { election_id: branches.id!, position_ids: [delegate.id] },
    };
    const window = { opens_at: inDays(10), closes_at: inDays(20), appeal_days: 5 };
    const source = bodyOf(
      await admin.organisation.createElection({
        body: { title: 'Delegates AGM 2026', electorate, nominations: window, register: { opens_at: inDays(21), closes_at: inDays(25) } },
      }),
      201,
    ).data;
    expect(source).toMatchObject({ electorate, nominations: { appeal_days: 5 } });
    const eligibility: Rule[] = [{ attribute: 'shares', op: 'at_least', value: 20000 }];
    const nomination = { proposers: 2, seconders: 1, same_branch: true, self: false };
    const chair = await admin.setup.createPosition({
      query: { election_id: source.id! },
      body: { name: 'Chair', eligibility, nomination },
    });
    expect(chair.status).toBe(201);
    const staffOnly = await admin.setup.createPosition({ query: { election_id: source.id! }, body: { name: 'Secretary' } });
    expect(staffOnly.status).toBe(201);

    const copy = bodyOf(
      await admin.organisation.copyElection({ params: { id: source.id! }, body: { title: 'Delegates AGM 2027' } }),
      201,
    ).data;
    expect(copy.electorate).toEqual(electorate);
    // The windows are dates of the source's year: the copy has none, as it has no schedule.
    expect(copy).toMatchObject({ nominations: null, register: null, opens_at: null, closes_at: null });
    const copied = await candidatePositionsOf(copy.id!);
    expect(copied.map((p) => [p.name, p.eligibility, p.nomination])).toEqual([
      ['Chair', eligibility, nomination],
      ['Secretary', [], null],
    ]);
    // Its own rows, which the source's edits do not reach.
    const sourceChair = bodyOf(chair, 201).data[0]!.id;
    expect(copied.map((p) => p.id)).not.toContain(sourceChair);
    const edit = await admin.setup.updatePosition({ params: { id: sourceChair }, body: { eligibility: [], nomination: null } });
    expect(edit.status).toBe(200);
    const after = await candidatePositionsOf(copy.id!);
    expect(after[0]).toMatchObject({ name: 'Chair', eligibility, nomination });
    expect((await logData('Election copied')).at(-1)).toBe(`election ${source.id} to ${copy.id}: Delegates AGM 2027`);
  });

  it('deletes only while no vote was ever cast (409 after)', async () => {
    const empty = bodyOf(await admin.organisation.createElection({ body: { title: 'Mistake' } }), 201).data;
    expect((await admin.organisation.deleteElection({ params: { id: empty.id! } })).status).toBe(204);
    expect((await anon.organisation.getElectionById({ params: { id: empty.id! } })).status).toBe(404);
    // The log keeps the name of what went.
    expect(await logData('Election deleted')).toContain(`election ${empty.id}: Mistake`);

    const used = bodyOf(await admin.organisation.createElection({ body: { title: 'Used' } }), 201).data;
    const p = await createPosition(t.ctx, { name: 'Seat', electionId: used.id! });
    const c = await createCandidate(t.ctx, [p.id]);
    const { token } = await createVoter(t.ctx);
    await toggleOn(used.id!);
    expect(
      (await apiClient(t.app, token).ballots.castVote({ query: { election_id: used.id! }, body: { candidates: { [p.id]: c.id } } })).status,
    ).toBe(201);
    const refused = await admin.organisation.deleteElection({ params: { id: used.id! } });
    expect(bodyOf(refused, 409).message).toBe('Votes have been cast in this election, so it can no longer be deleted');
    expect((await anon.organisation.getElectionById({ params: { id: used.id! } })).status).toBe(200);
  });

  it('archives closed elections only (409 before); an archived one leaves the public list, stays readable, is no longer current', async () => {
    const e = bodyOf(await admin.organisation.createElection({ body: { title: 'Last year' } }), 201).data;
    expect(bodyOf(await admin.organisation.archiveElection({ params: { id: e.id! } }), 409).message).toBe(
      'Only a closed election can be archived',
    );
    await admin.organisation.updateOrganisation({ body: { current_election_id: e.id! } });
    expect((await close(e.id!)).status).toBe(200);
    // Closed: schedule, visibility and electorate are final; the title may still change.
    const late = await admin.organisation.updateElectionById({ params: { id: e.id! }, body: { results_visibility: 'staff' } });
    expect(late.status).toBe(409);
    expect((await admin.organisation.updateElectionById({ params: { id: e.id! }, body: { title: 'Last year (final)' } })).status).toBe(200);

    const archived = bodyOf(await admin.organisation.archiveElection({ params: { id: e.id! } }), 200).data;
    expect(archived).toMatchObject({ archived: true, phase: 'closed' });
    // Closed by hand with no schedule: closed_at says when (the Elections page's "Closed" column).
    expect(archived.closes_at).toBeNull();
    expect(Date.parse(archived.closed_at!)).toBeGreaterThan(Date.parse(e.created_at!));
    expect(e.closed_at).toBeNull();
    expect(bodyOf(await anon.organisation.getOrganisation(), 200).data.current_election_id).toBeNull();
    expect(bodyOf(await anon.organisation.listElections(), 200).data.map((x) => x.id)).not.toContain(e.id);
    expect(bodyOf(await admin.organisation.listElections(), 200).data.map((x) => x.id)).toContain(e.id);
    expect(bodyOf(await anon.organisation.getElectionById({ params: { id: e.id! } }), 200).data.title).toBe('Last year (final)');
    // Its declared result stays reachable by its id.
    expect((await anon.lifecycle.getFinalResults({ query: { election_id: e.id! } })).status).toBe(200);
    const current = await admin.organisation.updateOrganisation({ body: { current_election_id: e.id! } });
    expect(current.status).toBe(422);
    await admin.organisation.updateOrganisation({ body: { current_election_id: 1 } });

    // Each row of its life names the election, refusals too (there are many elections).
    expect(await logData('Closed the election')).toContain(`election ${e.id}: Last year`);
    expect(await logData('Election archived')).toEqual([
      `election ${e.id}: Last year; Only a closed election can be archived`,
      `election ${e.id}: Last year (final)`,
    ]);
  });

  it('a copy leaves out an electorate branch that no longer exists (data from before branch deletions counted electorates) and logs it', async () => {
    const nairobi = await branchId(t.ctx, 'Nairobi');
    const [gone] = await t.ctx.database.db.insert(branches).values({ name: 'Garissa (closed)' }).returning({ id: branches.id });
    const source = bodyOf(
      await admin.organisation.createElection({ body: { title: 'Branch poll 2025', electorate: { branch_ids: [nairobi, gone!.id] } } }),
      201,
    ).data;
    const only = bodyOf(
      await admin.organisation.createElection({ body: { title: 'Garissa poll 2025', electorate: { branch_ids: [gone!.id] } } }),
      201,
    ).data;
    // Deleted as a branch deletion could before it counted electorates: the electorates keep its id.
    await t.ctx.database.db.delete(branches).where(eq(branches.id, gone!.id));
    // The source closed: its own electorate can no longer change, so a copy is the way forward.
    expect((await close(source.id!)).status).toBe(200);

    const copy = bodyOf(
      await admin.organisation.copyElection({ params: { id: source.id! }, body: { title: 'Branch poll 2026' } }),
      201,
    ).data;
    // The same members: no member could be in the branch when it went (members.branch_id restricts it).
    expect(copy).toMatchObject({ electorate: { branch_ids: [nairobi] }, roll_size: source.roll_size });
    const none = bodyOf(
      await admin.organisation.copyElection({ params: { id: only.id! }, body: { title: 'Garissa poll 2026' } }),
      201,
    ).data;
    expect(none).toMatchObject({ electorate: { branch_ids: [] }, roll_size: 0 });
    expect((await logData('Election copied')).slice(-2)).toEqual([
      `election ${source.id} to ${copy.id}: Branch poll 2026; left out of the electorate: no branch has the id ${gone!.id}`,
      `election ${only.id} to ${none.id}: Garissa poll 2026; left out of the electorate: no branch has the id ${gone!.id}`,
    ]);
  });

  it("PUT election's log row names the election when it sets the election's own fields, refusals too; not for the organisation's alone", async () => {
    const e = bodyOf(await admin.organisation.createElection({ body: { title: 'Board 2026' } }), 201).data;
    const put = (body: NonNullable<Parameters<ApiClient['elections']['updateElection']>[0]>['body']) =>
      admin.elections.updateElection({ query: { election_id: e.id! }, body });
    expect((await put({ title: 'Board 2026/27', website: 'https://umoja.example', opens_at: inDays(30) })).status).toBe(200);
    expect((await put({ support_email: 'help@umoja.example' })).status).toBe(200);
    expect((await put({ results_visibility: 'staff' })).status).toBe(200);
    expect((await put({ closes_at: inDays(29) })).status).toBe(422);
    expect((await logData('Election settings updated')).slice(-4)).toEqual([
      // Named as the change found it.
      `election ${e.id}: Board 2026; title, website, opening time`,
      'support email',
      `election ${e.id}: Board 2026/27; results visibility`,
      `election ${e.id}: Board 2026/27; closing time; The closing time must be after the opening time`,
    ]);
  });
});

describe.skipIf(databaseKind !== 'postgres')('the lifecycle rows name the election as the action found it (two sessions)', () => {
  /**
   * Starts `action` while another session holds what it waits for (`hold`: the election lock
   * shared, as a vote in flight does, or the election's row), renames the election meanwhile
   * (through the API; in the holding session when it holds the row), then lets the action go.
   */
  async function renamedWhileWaiting<T extends { status: number }>(
    id: number,
    title: string,
    hold: 'vote in flight' | 'row',
    action: () => Promise<T>,
  ): Promise<T> {
    return whileHeld(t.ctx.database.sql, {
      hold: (s) =>
        hold === 'vote in flight'
          ? s`select pg_advisory_xact_lock_shared(${ELECTION_LOCK}::bigint), pg_advisory_xact_lock_shared(${ELECTION_LOCK_NAMESPACE}::int, ${id}::int)`
          : s`select id from election where id = ${id} for update`,
      action,
      meanwhile: async (s) => {
        if (hold === 'row') await s`update election set title = ${title} where id = ${id}`;
        else expect((await admin.organisation.updateElectionById({ params: { id }, body: { title } })).status).toBe(200);
      },
      what: 'the action',
    });
  }
  const last = async (activity: string) => (await logData(activity)).at(-1);

  it('toggle, close, archive and delete, and a refusal, name the title the election had when they acted', async () => {
    const e = bodyOf(await admin.organisation.createElection({ body: { title: 'Ward poll' } }), 201).data;
    const toggle = () => toggleOn(e.id!);
    const closeIt = () => close(e.id!);

    expect((await renamedWhileWaiting(e.id!, 'Ward poll (1)', 'vote in flight', toggle)).status).toBe(200);
    expect(await last('Enabled voting')).toBe(`election ${e.id}: Ward poll (1)`);
    expect((await renamedWhileWaiting(e.id!, 'Ward poll (2)', 'vote in flight', closeIt)).status).toBe(200);
    expect(await last('Closed the election')).toBe(`election ${e.id}: Ward poll (2)`);
    const again = await renamedWhileWaiting(e.id!, 'Ward poll (3)', 'vote in flight', closeIt);
    expect(again.status).toBe(409);
    expect(await last('Closed the election')).toBe(`election ${e.id}: Ward poll (3); The election is already closed`);
    const archive = () => admin.organisation.archiveElection({ params: { id: e.id! } });
    expect((await renamedWhileWaiting(e.id!, 'Ward poll (4)', 'row', archive)).status).toBe(200);
    expect(await last('Election archived')).toBe(`election ${e.id}: Ward poll (4)`);

    const d = bodyOf(await admin.organisation.createElection({ body: { title: 'Draft' } }), 201).data;
    const remove = () => admin.organisation.deleteElection({ params: { id: d.id! } });
    expect((await renamedWhileWaiting(d.id!, 'Draft (renamed)', 'vote in flight', remove)).status).toBe(204);
    expect(await last('Election deleted')).toBe(`election ${d.id}: Draft (renamed)`);
  });
});

describe.skipIf(databaseKind !== 'postgres')('an edit judges the election as its lock finds it (two sessions)', () => {
  /** Runs `edit` while another session holds the election's row and commits `change` to it meanwhile. */
  const editedWhileChanging = <T>(id: number, change: (session: HoldingSession) => Promise<unknown>, edit: () => PromiseLike<T>) =>
    whileHeld(t.ctx.database.sql, {
      hold: (s) => s`select id from election where id = ${id} for update`,
      action: edit,
      meanwhile: change,
      what: 'the edit',
    });

  it('an electorate edit that waited while voting opened (the roll frozen) is refused, and the electorate stays as frozen', async () => {
    const e = bodyOf(await admin.organisation.createElection({ body: { title: 'Opening meanwhile' } }), 201).data;
    const branch = await branchId(t.ctx);
    const patch = () => admin.organisation.updateElectionById({ params: { id: e.id! }, body: { electorate: { branch_ids: [branch] } } });
    const res = await editedWhileChanging(e.id!, (s) => s`update election set roll_frozen_at = now() where id = ${e.id!}`, patch);
    expect(res.status).toBe(409);
    expect(bodyOf(res, 409).message).toBe('Voting has opened; the roll is frozen and its electorate can no longer change');
    const after = bodyOf(await admin.organisation.getElectionById({ params: { id: e.id! } }), 200).data;
    expect(after.electorate?.branch_ids ?? null).toBeNull();
  });

  /** The frozen roll of an opening that waited while the electorate changed to one branch: that branch's members, as the election says. */
  async function openedWhileNarrowing(open: (id: number) => Promise<unknown>, prepare?: (id: number) => Promise<void>) {
    const e = bodyOf(await admin.organisation.createElection({ body: { title: 'Narrowed meanwhile' } }), 201).data;
    await prepare?.(e.id!);
    const nairobi = await branchId(t.ctx);
    await createMember(t.ctx, { branch: 'Nairobi' });
    await createMember(t.ctx, { branch: 'Kisumu' });
    await editedWhileChanging(
      e.id!,
      (s) => s`update election set electorate_branch_ids = ${[nairobi]} where id = ${e.id!}`,
      () => Promise.resolve(open(e.id!)),
    );
    const roll = await t.ctx.database.sql<{ branch_id: number }[]>`
      select m.branch_id from election_roll r join members m on m.id = r.member_id where r.election_id = ${e.id!}`;
    const [inBranch] = await t.ctx.database.sql<{ n: number }[]>`select count(*)::int as n from members where branch_id = ${nairobi}`;
    const after = bodyOf(await admin.organisation.getElectionById({ params: { id: e.id! } }), 200).data;
    expect(after.electorate?.branch_ids).toEqual([nairobi]);
    expect(after.roll_frozen_at).not.toBeNull();
    expect(new Set(roll.map((r) => r.branch_id))).toEqual(new Set([nairobi]));
    expect(roll.length).toBe(inBranch!.n);
  }

  it('an opening that waited while the electorate changed freezes the roll of the electorate it finds', async () => {
    await openedWhileNarrowing(async (id) => {
      const res = await toggleOn(id);
      expect(res.status).toBe(200);
    });
  });

  it('a scheduled opening that waited while the electorate changed freezes the roll of the electorate it finds', async () => {
    await openedWhileNarrowing(
      // Due an hour from now (the running scheduler leaves it alone), opened by a clock two hours on.
      async (id) => expect(await openOnSchedule({ ...t.ctx, now: () => new Date(t.ctx.now().getTime() + 7_200_000) }, id)).toBe(true),
      async (id) => {
        await t.ctx.database.db
          .update(election)
          .set({ opensAt: new Date(t.ctx.now().getTime() + 3_600_000) })
          .where(eq(election.id, id));
      },
    );
  });

  it('making current an election that was archived while the change waited is refused (422), and the current election stays', async () => {
    const e = bodyOf(await admin.organisation.createElection({ body: { title: 'Archived meanwhile' } }), 201).data;
    await t.ctx.database.db.update(election).set({ closedAt: new Date() }).where(eq(election.id, e.id!));
    const before = bodyOf(await admin.organisation.getOrganisation(), 200).data.current_election_id;
    const put = () => admin.organisation.updateOrganisation({ body: { current_election_id: e.id! } });
    try {
      const res = await editedWhileChanging(e.id!, (s) => s`update election set archived = true where id = ${e.id!}`, put);
      expect(res.status).toBe(422);
      expect(bodyOf(res, 422).errors?.current_election_id).toEqual(['The current election must be an election that is not archived']);
      expect(bodyOf(await admin.organisation.getOrganisation(), 200).data.current_election_id).toBe(before);
    } finally {
      await t.ctx.database.sql`update organisation set current_election_id = ${before} where id = 1`;
    }
  });

  it('a schedule edit that waited while the election closed is refused', async () => {
    const e = bodyOf(await admin.organisation.createElection({ body: { title: 'Closing meanwhile' } }), 201).data;
    const patch = () => admin.organisation.updateElectionById({ params: { id: e.id! }, body: { results_visibility: 'staff' } });
    const res = await editedWhileChanging(e.id!, (s) => s`update election set closed_at = now() where id = ${e.id!}`, patch);
    expect(res.status).toBe(409);
  });
});
