import { isTallyResult } from '@kura/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { branches } from '../../db/schema';
import { apiClient, bodyOf, multipart, type FilePart } from '../../../test/client';
import { createMember } from '../../../test/factories';
import { createVoter, vote } from '../../../test/voting/election';
import { useElectionApp } from '../../../test/voting/election-app';

/**
 * The declared result cannot change after close (SECURITY.md "Results visibility"): every edit that
 * would change what `psk/results/final` or its page shows (a candidate's name, member number, photo
 * or positions, a position, a branch that names branch positions, the organisation) answers 409,
 * and the declaration reads the same afterwards.
 */

/** A valid 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const CLOSED = /^The election is closed; .+ can no longer change/;

// One ballot for Alice as chair, then the election is closed: its result is declared.
const f = useElectionApp(async ({ t, e, admin }) => {
  expect((await admin.elections.toggleElection({ body: { status: true } })).status).toBe(200);
  expect((await vote(t.app, (await createVoter(t.ctx)).token, { [e.chair.id]: e.alice.id })).status).toBe(201);
  expect((await admin.lifecycle.closeElection()).status).toBe(200);
});

const declaration = async () => {
  const res = await apiClient(f.t.app).lifecycle.getFinalResults();
  expect(res.status).toBe(200);
  // This election's positions are all plurality: their results carry the candidates' counts.
  return bodyOf(res, 200).data.filter(isTallyResult);
};

/** The candidate edit form as the browser sends it (`position_ids[]`, an optional `image`). */
function candidateForm(id: number, fields: Record<string, string | string[] | FilePart>) {
  return f.admin.candidates.updateCandidate({ params: { id }, body: multipart(fields) });
}

const aliceFields = (over: Record<string, string | string[]> = {}) => ({
  name: f.e.alice.name,
  phone: f.e.alice.phone,
  email: f.e.alice.email,
  county: 'Nairobi',
  'position_ids[]': [String(f.e.chair.id)],
  ...over,
});

const expectRefused = (res: { status: number; body: unknown }, label: string) => {
  expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(409);
  expect((res.body as { message: string }).message, label).toMatch(CLOSED);
};

describe('after close, the declared result cannot change', () => {
  it('refuses renaming an elected candidate, by the candidate edit, the member edit and a CSV re-import', async () => {
    const before = await declaration();
    expect(before.find((p) => p.position_id === f.e.chair.id)!.values[0]).toMatchObject({
      name: f.e.alice.name,
      elected: true,
    });
    expectRefused(await candidateForm(f.e.alice.id, aliceFields({ name: 'Someone Else' })), 'candidate edit rename');
    expectRefused(
      await f.admin.members.updateMember({
        params: { id: f.e.alice.id },
        body: { name: 'Someone Else', phone: f.e.alice.phone, email: f.e.alice.email, county: 'Nairobi', member_no: f.e.alice.memberNo },
      }),
      'member edit rename',
    );
    expectRefused(
      await f.admin.members.updateMember({
        params: { id: f.e.alice.id },
        body: { name: f.e.alice.name, phone: f.e.alice.phone, email: f.e.alice.email, county: 'Nairobi', member_no: '99999999' },
      }),
      'member edit of the member number',
    );
    const csv = `member_no,name,email,phone,branch\n${f.e.alice.memberNo},Someone Else,${f.e.alice.email},${f.e.alice.phone},Nairobi\n`;
    expectRefused(
      await f.admin.members.importMembers({ query: {}, body: multipart({ file: { file: Buffer.from(csv), filename: 'members.csv' } }) }),
      'CSV re-import rename',
    );
    expect(await declaration()).toEqual(before);
  });

  it("refuses a candidate's new photo and a change of the positions they stand for", async () => {
    const before = await declaration();
    expectRefused(await candidateForm(f.e.alice.id, { ...aliceFields(), image: { file: PNG, filename: 'p.png' } }), 'candidate photo');
    expectRefused(
      await candidateForm(f.e.brian.id, { ...aliceFields(), name: f.e.brian.name, 'position_ids[]': [] }),
      'candidate withdrawn',
    );
    expectRefused(
      await f.admin.members.assignPositions({
        body: { member_no: (await createMember(f.t.ctx)).memberNo, position_ids: [f.e.treasurer.id] },
      }),
      'a new candidate assigned',
    );
    expect(await declaration()).toEqual(before);
  });

  it('refuses position, branch and organisation edits', async () => {
    const before = await declaration();
    const setup = f.admin.setup;
    expectRefused(await setup.updatePosition({ params: { id: f.e.treasurer.id }, body: { name: 'Renamed' } }), 'position rename');
    expectRefused(await setup.deletePosition({ params: { id: f.e.treasurer.id } }), 'position delete');
    expectRefused(await setup.createPosition({ body: { name: 'Late Position' } }), 'position create');
    const [nairobi] = await f.t.ctx.database.db.select().from(branches).where(eq(branches.name, 'Nairobi'));
    expect(nairobi).toBeDefined();
    expectRefused(await setup.updateBranch({ params: { id: nairobi!.id }, body: { name: 'Nairobi City' } }), 'branch rename');
    expectRefused(await f.admin.elections.updateElection({ body: { organisation: 'Another Organisation' } }), 'organisation');
    expect(await declaration()).toEqual(before);
  });

  it('still lets an admin correct what the declaration does not show', async () => {
    const other = await createMember(f.t.ctx, { branch: 'Nairobi' });
    const res = await f.admin.members.updateMember({
      params: { id: other.id },
      body: { name: 'Corrected Name', phone: other.phone, email: other.email, county: 'Nairobi', member_no: other.memberNo },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
