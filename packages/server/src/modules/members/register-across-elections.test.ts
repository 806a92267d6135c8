import { CONTACT_CHANGE_AFTER_VOTE } from '@kura/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { branches, members } from '../../db/schema';
import { apiClient, bodyOf, importRegisterCsv, multipart, type ApiClient } from '../../../test/client';
import { branchId, createCandidate, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter } from '../../../test/voting/election';

/**
 * The member register and the branches are the organisation's, not one election's (docs/api.md
 * "Many elections"): their rules look at every election. Election A has closed (its result is
 * declared), election B is open. A member who stood in A keeps the name and member number A's
 * declaration shows, whichever election is election 1 or current; a member who stands only in B
 * may still be renamed. While B is under way, a member who voted in B keeps their contact details
 * unless the admin confirms; a vote in the closed A no longer holds them, nor their branch.
 * Each arrangement below puts the closed election on a different id, so neither "election 1" nor
 * "the current election" passes for "any election".
 */

const FROZEN = "The election is closed; a candidate's name and member number can no longer change";
const SETUP_CLOSED = 'The election is closed; the set-up can no longer change';

type Row = typeof members.$inferSelect;

describe.each([
  { label: 'A is election 1, B a new election', closedIsOne: true, archiveA: false },
  { label: 'B is election 1, A a new election, archived', closedIsOne: false, archiveA: true },
])('closed A and open B: $label', ({ closedIsOne, archiveA }) => {
  let t: TestApp;
  let admin: ApiClient;
  let A: number;
  let B: number;
  let bChair: number;
  /** Stands in A (closed) and in B. */
  let x: Row;
  /** Stands only in B. */
  let y: Row;
  /** Voted in B. */
  let votedInB: Row;
  /** Voted only in A, for a national and a Nairobi position. */
  let votedInA: Row;

  const stored = async (id: number) => (await t.ctx.database.db.select().from(members).where(eq(members.id, id)))[0]!;
  const edit = (m: Row, change: Partial<Row & { county: string }> = {}, extra: Record<string, unknown> = {}) => {
    const r = { ...m, county: 'Nairobi', ...change };
    return admin.members.updateMember({
      params: { id: m.id },
      body: { name: r.name, phone: r.phone, email: r.email, member_no: r.memberNo, county: r.county, ...extra },
    });
  };
  const line = (m: Row, change: Partial<Row> = {}) => {
    const r = { ...m, ...change };
    return `${r.memberNo},${r.name},${r.email},${r.phone},Nairobi`;
  };
  const importCsv = (lines: string[], confirm = false) => importRegisterCsv(admin, lines, confirm);
  let phones = 0;
  const freshPhone = () => `+254788${closedIsOne ? 1 : 2}${String(++phones).padStart(5, '0')}`;

  beforeAll(async () => {
    t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
    admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
    const created = await admin.organisation.createElection({ body: { title: 'Another election' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const other = bodyOf(created, 201).data.id!;
    [A, B] = closedIsOne ? [1, other] : [other, 1];
    const aChair = await createPosition(t.ctx, { name: 'A Chair', electionId: A });
    const aRep = await createPosition(t.ctx, { name: 'A Rep', level: 'Nairobi', electionId: A });
    // A Kisumu position of A that nobody stood for: its title still names the branch.
    await createPosition(t.ctx, { name: 'A Kisumu Rep', level: 'Kisumu', electionId: A });
    bChair = (await createPosition(t.ctx, { name: 'B Chair', electionId: B })).id;
    x = await createCandidate(t.ctx, [aChair.id, bChair], { name: 'Xavier Closed' });
    y = await createCandidate(t.ctx, [bChair], { name: 'Yusuf Open' });
    const aRepCandidate = await createCandidate(t.ctx, [aRep.id], { name: 'Zawadi Rep', branch: 'Nairobi' });
    const inA = await createVoter(t.ctx, 'Nairobi');
    const inB = await createVoter(t.ctx, 'Nairobi');
    votedInA = inA.member;
    votedInB = inB.member;

    expect((await admin.elections.toggleElection({ query: { election_id: A }, body: { status: true } })).status).toBe(200);
    const voteA = await apiClient(t.app, inA.token).ballots.castVote({
      query: { election_id: A },
      body: { candidates: { [aChair.id]: x.id, [aRep.id]: aRepCandidate.id } },
    });
    expect(voteA.status, JSON.stringify(voteA.body)).toBe(201);
    expect((await admin.lifecycle.closeElection({ query: { election_id: A } })).status).toBe(200);
    if (archiveA) expect((await admin.organisation.archiveElection({ params: { id: A } })).status).toBe(200);

    expect((await admin.elections.toggleElection({ query: { election_id: B }, body: { status: true } })).status).toBe(200);
    const voteB = await apiClient(t.app, inB.token).ballots.castVote({
      query: { election_id: B },
      body: { candidates: { [bChair]: y.id } },
    });
    expect(voteB.status, JSON.stringify(voteB.body)).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses renaming or renumbering a candidate of the closed election by the member edit, the CSV re-import and B's candidate edit", async () => {
    const rename = await edit(x, { name: 'Xavier Renamed' });
    expect(rename.status, JSON.stringify(rename.body)).toBe(409);
    expect(bodyOf(rename, 409).message).toBe(FROZEN);
    const renumber = await edit(x, { memberNo: '99990001' });
    expect(renumber.status, JSON.stringify(renumber.body)).toBe(409);
    expect(bodyOf(renumber, 409).message).toBe(FROZEN);

    const imported = await importCsv([line(y), line(x, { name: 'Xavier Renamed' })]);
    expect(imported.status, JSON.stringify(imported.body)).toBe(409);
    expect(bodyOf(imported, 409).message).toBe(`${FROZEN}. Nothing imported: line 3 (member ${x.memberNo})`);

    // Standing in the open B too does not free the name A's declaration shows.
    const candidateEdit = await admin.candidates.updateCandidate({
      params: { id: x.id },
      query: { election_id: B },
      body: multipart({ name: 'Xavier Renamed', phone: x.phone, email: x.email!, county: 'Nairobi', 'position_ids[]': String(bChair) }),
    });
    expect(candidateEdit.status, JSON.stringify(candidateEdit.body)).toBe(409);
    expect(bodyOf(candidateEdit, 409).message).toBe(FROZEN);

    const after = await stored(x.id);
    expect(after.name).toBe(x.name);
    expect(after.memberNo).toBe(x.memberNo);

    // What the declaration does not show still changes.
    const newEmail = `xavier.${closedIsOne ? 1 : 2}@example.net`;
    expect((await edit(x, { email: newEmail })).status).toBe(200);
    x = await stored(x.id);
    expect(x.email).toBe(newEmail);
  });

  it('lets a member who stands only in the open election be renamed, by the member edit and the CSV re-import', async () => {
    const renamed = await edit(y, { name: 'Yusuf Renamed' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await stored(y.id)).name).toBe('Yusuf Renamed');
    const imported = await importCsv([line(y, { name: 'Yusuf Imported' })]);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ updated: 1, errors: [] });
    y = await stored(y.id);
    expect(y.name).toBe('Yusuf Imported');
    // members.changed reaches B's live results, whichever election is current.
    await vi.waitFor(async () => {
      const results = await admin.elections.getResults({ query: { election_id: B } });
      expect(JSON.stringify(results.body)).toContain('Yusuf Imported');
    });
  });

  it('keeps the contact details of a member who voted in the open election unless the admin confirms (edit; import while paused)', async () => {
    const newPhone = freshPhone();
    const refused = await edit(votedInB, { phone: newPhone });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(bodyOf(refused, 409).issue).toBe(CONTACT_CHANGE_AFTER_VOTE);
    expect((await stored(votedInB.id)).phone).toBe(votedInB.phone);
    const confirmed = await edit(votedInB, { phone: newPhone }, { confirm_contact_change: true });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    votedInB = await stored(votedInB.id);
    expect(votedInB.phone).toBe(newPhone);

    // Paused is still under way.
    expect((await admin.elections.toggleElection({ query: { election_id: B }, body: { status: false } })).status).toBe(200);
    try {
      const otherPhone = freshPhone();
      const lineError = await importCsv([line(votedInB, { phone: otherPhone })]);
      expect(lineError.status, JSON.stringify(lineError.body)).toBe(200);
      expect(lineError.body).toMatchObject({ created: 0, updated: 0 });
      expect(bodyOf(lineError, 200).errors).toEqual([
        { line: 2, message: expect.stringContaining(votedInB.memberNo), issue: CONTACT_CHANGE_AFTER_VOTE },
      ]);
      expect((await stored(votedInB.id)).phone).toBe(newPhone);
      const withConfirm = await importCsv([line(votedInB, { phone: otherPhone })], true);
      expect(withConfirm.body).toMatchObject({ updated: 1, errors: [] });
      expect((await stored(votedInB.id)).phone).toBe(otherPhone);
    } finally {
      expect((await admin.elections.toggleElection({ query: { election_id: B }, body: { status: true } })).status).toBe(200);
    }
  });

  it('lets a member who voted only in the closed election change contact details and branch', async () => {
    const newPhone = freshPhone();
    const res = await edit(votedInA, { phone: newPhone });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    votedInA = await stored(votedInA.id);
    expect(votedInA.phone).toBe(newPhone);
    const newEmail = `voted.in.a.${closedIsOne ? 1 : 2}@example.net`;
    const imported = await importCsv([line(votedInA, { email: newEmail })]);
    expect(imported.body).toMatchObject({ updated: 1, errors: [] });
    votedInA = await stored(votedInA.id);
    expect(votedInA.email).toBe(newEmail);
    // Their vote for A's Nairobi position no longer ties them to Nairobi: A takes no more votes.
    const moved = await edit(votedInA, { county: 'Mombasa' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await stored(votedInA.id)).branchId).toBe(await branchId(t.ctx, 'Mombasa'));
  });

  it("edits branches after A closed; a branch titling A's positions keeps its name", async () => {
    const created = await admin.setup.createBranch({ body: { name: `Eldoret ${closedIsOne ? 1 : 2}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = bodyOf(created, 201).data.id;
    const renamed = await admin.setup.updateBranch({ params: { id }, body: { name: `Eldoret Town ${closedIsOne ? 1 : 2}` } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await admin.setup.deleteBranch({ params: { id } })).status).toBe(204);

    const kisumu = await branchId(t.ctx, 'Kisumu');
    const refused = await admin.setup.updateBranch({ params: { id: kisumu }, body: { name: 'Kisumu City' } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(bodyOf(refused, 409).message).toBe(SETUP_CLOSED);
    const [row] = await t.ctx.database.db.select().from(branches).where(eq(branches.id, kisumu));
    expect(row!.name).toBe('Kisumu');
  });
});
