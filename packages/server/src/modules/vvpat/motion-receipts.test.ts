import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, motionOptions } from '../../db/schema';
import { apiClient, bodyOf } from '../../../test/client';
import { createCandidate, createMember, tokenFor } from '../../../test/factories';
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

const asAdmin = () => apiClient(t.app, admin);
type Row = { vvpat: string; name: string; count: number | null; position: string; kind: string };

beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000', MIX_MIN_BATCH: '1' } });
  admin = await tokenFor(t.ctx, 'admin');
  const post = async (body: Parameters<ReturnType<typeof asAdmin>['setup']['createPosition']>[0]['body']) => {
    const res = await asAdmin().setup.createPosition({ body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return bodyOf(res, 201).data[0]!.id;
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
    const cast = await apiClient(t.app, token).ballots.castVote({
      body: { candidates: { [motionId]: options.Abstain, [rankedId]: [z.id, x.id] } },
    });
    expect(cast.status, JSON.stringify(cast.body)).toBe(201);
    const receipts = bodyOf(cast, 201).receipts;
    const motionReceipt = receipts.find((r) => r.position_id === motionId)!.vvpat;
    const rankedReceipt = receipts.find((r) => r.position_id === rankedId)!.vvpat;
    await t.ctx.voting.tallyOf(1).idle();

    for (const stage of ['queued', 'mixed']) {
      if (stage === 'mixed') {
        expect((await mixQueuedBallots(t.ctx)).moved).toBeGreaterThan(0);
        await t.ctx.voting.tallyOf(1).idle();
      }
      const own = await apiClient(t.app, token).vvpat.getMyVvpat();
      expect(own.status, stage).toBe(200);
      const mine: Row[] = bodyOf(own, 200).data.votes;
      // Each row says its position's kind: the web says a motion's option in the reader's language.
      expect(
        mine.map((v) => [v.vvpat, v.name, v.position, v.kind]),
        stage,
      ).toEqual([
        [motionReceipt, 'Abstain', 'Adopt the budget National', 'motion'],
        [rankedReceipt, 'Zola Z', 'Chair National', 'candidates'],
        [rankedReceipt, 'Xavi X', 'Chair National', 'candidates'],
      ]);
      expect(mine[0]!.count, stage).toBe(1);
      // The voter's receipts show their ranks (issue 37); a motion's row has none.
      expect(
        mine.map((v) => (v as Row & { rank?: number }).rank),
        stage,
      ).toEqual([undefined, 1, 2]);

      const trail = await asAdmin().vvpat.listVvpat();
      expect(trail.status, stage).toBe(200);
      const search = await asAdmin().vvpat.searchVvpat({ query: { vvpat: motionReceipt } });
      expect(search.status, stage).toBe(200);
      const byPosition = await asAdmin().vvpat.searchVvpat({ query: { psk_position_id: motionId } });
      expect(byPosition.status, stage).toBe(200);
      for (const [route, body] of [
        ['psk/admin/vvpat', bodyOf(trail, 200)],
        ['search/vvpat?vvpat', bodyOf(search, 200)],
        ['search/vvpat?psk_position_id', bodyOf(byPosition, 200)],
      ] as const) {
        const rows = (body.data.votes as Row[]).filter((v) => v.vvpat === motionReceipt);
        expect(
          rows.map((v) => [v.name, v.count, v.kind]),
          `${route} ${stage}`,
        ).toEqual([['Abstain', 1, 'motion']]);
        expect(JSON.stringify(body), `${route} ${stage}`).not.toMatch(/Chebet Kariuki|Member for/);
      }
      const rankedTrail = await asAdmin().vvpat.searchVvpat({ query: { vvpat: rankedReceipt } });
      expect(
        (bodyOf(rankedTrail, 200).data.votes as Row[]).map((v) => v.name),
        stage,
      ).toEqual(['Zola Z', 'Xavi X']);
      expect(JSON.stringify(own.body), stage).not.toMatch(/Chebet Kariuki|Member for/);
    }
  });
});
