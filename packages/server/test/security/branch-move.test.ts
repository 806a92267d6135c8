import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../src/db/schema';
import { apiClient, bodyOf, multipart } from '../client';
import { tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { createElection, createVoter, setVoting, vote, type Election } from '../voting/election';

/**
 * Security hardening: a member who voted for their branch's position, then was moved to another
 * branch (admin edit or CSV re-import), could vote for the new branch's position too. The move is
 * refused with 409 once they voted for a branch position; a member who voted only nationally may move.
 */

let t: TestApp;
let e: Election;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  e = await createElection(t.ctx);
  await setVoting(t.ctx, true);
  admin = await tokenFor(t.ctx, 'admin');
});
afterAll(async () => {
  await t?.close();
});

const editBody = (m: typeof members.$inferSelect, county: string) => ({
  name: m.name,
  phone: m.phone,
  email: m.email,
  member_no: m.memberNo,
  county,
});
const csv = (m: typeof members.$inferSelect, branch: string) =>
  `member_no,name,email,phone,branch\n${m.memberNo},${m.name},${m.email},${m.phone},${branch}\n`;
const importCsv = (text: string) =>
  apiClient(t.app, admin).members.importMembers({
    query: {},
    body: multipart({ file: { file: Buffer.from(text), filename: 'members.csv', contentType: 'text/csv' } }),
  });
const edit = (m: typeof members.$inferSelect, body: ReturnType<typeof editBody>) =>
  apiClient(t.app, admin).members.updateMember({ params: { id: m.id }, body });
const branchOf = async (id: number) =>
  (await t.ctx.database.db.select({ b: members.branchId }).from(members).where(eq(members.id, id)))[0]!.b;

describe('a member who voted for a branch position stays in that branch', () => {
  it('admin edit: 409, the branch unchanged, and no second branch vote', async () => {
    const { member, token } = await createVoter(t.ctx, 'Nairobi');
    expect((await vote(t.app, token, { [e.nairobi.id]: e.erin.id })).status).toBe(201);
    const before = await branchOf(member.id);
    const res = await edit(member, editBody(member, 'Mombasa'));
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(bodyOf(res, 409).message).toMatch(/branch/);
    expect(await branchOf(member.id)).toBe(before);
    const second = await vote(t.app, token, { [e.mombasa.id]: e.fred.id });
    expect(second.status).toBe(422);
    // Other fields may still change, as long as the branch stays.
    const rename = await edit(member, { ...editBody(member, 'Nairobi'), name: 'Renamed Member' });
    expect(rename.status, JSON.stringify(rename.body)).toBe(200);
  });

  it('CSV re-import: 409, nothing written', async () => {
    const { member, token } = await createVoter(t.ctx, 'Nairobi');
    expect((await vote(t.app, token, { [e.nairobi.id]: e.erin.id })).status).toBe(201);
    const before = await branchOf(member.id);
    const res = await importCsv(csv(member, 'Mombasa'));
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(bodyOf(res, 409).message).toContain('line 2');
    expect(await branchOf(member.id)).toBe(before);
    expect(before).not.toBe(await branchOf(e.fred.id));
    expect((await vote(t.app, token, { [e.mombasa.id]: e.fred.id })).status).toBe(422);
  });

  it('a member who voted only for national positions, or not at all, may move', async () => {
    const national = await createVoter(t.ctx, 'Nairobi');
    expect((await vote(t.app, national.token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    const res = await edit(national.member, editBody(national.member, 'Mombasa'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh = await createVoter(t.ctx, 'Nairobi');
    const imported = await importCsv(csv(fresh.member, 'Mombasa'));
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(bodyOf(imported, 200).updated).toBe(1);
  });
});
