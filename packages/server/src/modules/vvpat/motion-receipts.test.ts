import request from 'supertest';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, motionOptions } from '../../db/schema';
import { bearer, createCandidate, createMember, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter, setVoting } from '../../../test/voting/election';
import { mixQueuedBallots } from '../ballots';

/**
 * A row of the audit trail names the choice by the position's kind (docs/api.md "Many elections,
 * motions and ranked counts"): a motion's option by `motion_options` (Yes, No, Abstain), a
 * candidate by the register. A motion option's id is a serial of its own table, so it is also some
 * member's id: looked up in `members`, an Abstain read as that member's name. Each of the three
 * routes is asked, with the ballot still queued and once mixed; a ranked ballot's rows follow the
 * voter's order.
 */
let t: TestApp;
let admin: string;
let motionId: number;
let rankedId: number;
let options: Record<'Yes' | 'No' | 'Abstain', number>;
let ranked: { id: number; name: string }[];

const api = (path: string, token: string = admin) => request(t.app).get(`/api/v1/${path}`).set(bearer(token));
type Row = { vvpat: string; name: string; count: number | null; position: string };

beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '1' } });
  admin = await tokenFor(t.ctx, 'admin');
  const post = async (body: Record<string, unknown>) => {
    const res = await request(t.app).post('/api/v1/positions').set(bearer(admin)).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body.data as { id: number }[])[0]!.id;
  };
  motionId = await post({ name: 'Adopt the budget', kind: 'motion' });
  rankedId = await post({ name: 'Chair', method: 'ranked' });
  const rows = await t.ctx.database.db.select().from(motionOptions).where(eq(motionOptions.positionId, motionId));
  options = Object.fromEntries(rows.map((o) => [o.name, o.id])) as typeof options;
  // Every option's id is also a member's id, with a name of its own.
  for (const [name, id] of Object.entries(options)) {
    const [taken] = await t.ctx.database.db.select({ id: members.id }).from(members).where(eq(members.id, id));
    if (taken)
      await t.ctx.database.db
        .update(members)
        .set({ name: `Member for ${name}` })
        .where(eq(members.id, id));
    else {
      const m = await createMember(t.ctx, { name: `Member for ${name}` });
      await t.ctx.database.db.update(members).set({ id }).where(eq(members.id, m.id));
    }
  }
  await t.ctx.database.db.update(members).set({ name: 'Chebet Kariuki' }).where(eq(members.id, options.Abstain));
  await t.ctx.database.db.execute(sql`select setval(pg_get_serial_sequence('members', 'id'), (select max(id) from members))`);
  ranked = [];
  for (const name of ['Xavi X', 'Yara Y', 'Zola Z']) ranked.push(await createCandidate(t.ctx, [rankedId], { name }));
  await t.ctx.voting.tallyOf(1).refreshStructure();
  await setVoting(t.ctx, true);
});
afterAll(async () => {
  await t?.close();
});

describe('vvpat rows name a motion option by its option, never by a member', () => {
  it("names Abstain (not the member with the option's id) on psk/vvpat, psk/admin/vvpat and search/vvpat, queued and mixed; a ranked ballot in the voter's order", async () => {
    const { token } = await createVoter(t.ctx);
    const x = ranked[0]!;
    const z = ranked[2]!;
    const cast = await request(t.app)
      .post('/api/v1/psk/vote')
      .set(bearer(token))
      .send({ candidates: { [motionId]: options.Abstain, [rankedId]: [z.id, x.id] } });
    expect(cast.status, JSON.stringify(cast.body)).toBe(201);
    const receipts = cast.body.receipts as { position_id: number; vvpat: string }[];
    const motionReceipt = receipts.find((r) => r.position_id === motionId)!.vvpat;
    const rankedReceipt = receipts.find((r) => r.position_id === rankedId)!.vvpat;
    await t.ctx.voting.tallyOf(1).idle();

    for (const stage of ['queued', 'mixed']) {
      if (stage === 'mixed') {
        expect((await mixQueuedBallots(t.ctx)).moved).toBeGreaterThan(0);
        await t.ctx.voting.tallyOf(1).idle();
      }
      const own = await api('psk/vvpat', token);
      expect(own.status, stage).toBe(200);
      const mine = own.body.data.votes as Row[];
      expect(
        mine.map((v) => [v.vvpat, v.name, v.position]),
        stage,
      ).toEqual([
        [motionReceipt, 'Abstain', 'Adopt the budget National'],
        [rankedReceipt, 'Zola Z', 'Chair National'],
        [rankedReceipt, 'Xavi X', 'Chair National'],
      ]);
      expect(mine[0]!.count, stage).toBe(1);
      // The voter's receipts show their ranks (issue 37); a motion's row has none.
      expect(
        mine.map((v) => (v as Row & { rank?: number }).rank),
        stage,
      ).toEqual([undefined, 1, 2]);

      const trail = await api('psk/admin/vvpat');
      expect(trail.status, stage).toBe(200);
      const search = await api(`search/vvpat?vvpat=${motionReceipt}`);
      expect(search.status, stage).toBe(200);
      const byPosition = await api(`search/vvpat?psk_position_id=${motionId}`);
      expect(byPosition.status, stage).toBe(200);
      for (const [route, body] of [
        ['psk/admin/vvpat', trail.body],
        ['search/vvpat?vvpat', search.body],
        ['search/vvpat?psk_position_id', byPosition.body],
      ] as const) {
        const rows = (body.data.votes as Row[]).filter((v) => v.vvpat === motionReceipt);
        expect(
          rows.map((v) => [v.name, v.count]),
          `${route} ${stage}`,
        ).toEqual([['Abstain', 1]]);
        expect(JSON.stringify(body), `${route} ${stage}`).not.toMatch(/Chebet Kariuki|Member for/);
      }
      const rankedTrail = await api(`search/vvpat?vvpat=${rankedReceipt}`);
      expect(
        (rankedTrail.body.data.votes as Row[]).map((v) => v.name),
        stage,
      ).toEqual(['Zola Z', 'Xavi X']);
      expect(JSON.stringify(own.body), stage).not.toMatch(/Chebet Kariuki|Member for/);
    }
  });
});
