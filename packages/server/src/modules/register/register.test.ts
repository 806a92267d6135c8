import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttributeValue, ClaimBody, CreateElectionBody, Rule } from '@kura/contract';
import { activityLogs, election, members, organisation, registerClaims } from '../../db/schema';
import { apiClient, bodyOf, multipart, untyped, type ApiClient } from '../../../test/client';
import { createCandidate, createMember, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, databaseKind, type TestApp } from '../../../test/harness';

/**
 * The register (docs/api.md "The register: member attributes, eligibility rules and inspection"):
 * attributes, member values (edit, import), the roll under rules and `elected_in`, its freeze and
 * hash, the inspection window's claims and rulings, and eligibility to stand.
 */
let t: TestApp;
let admin: string;
const DAY = 86_400_000;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  const put = await asAdmin().register.putAttributes({
    body: {
      data: [
        { key: 'shares', label: 'Shares (KSh)', type: 'number' },
        { key: 'joined', label: 'Joined', type: 'date' },
        { key: 'zone', label: 'Zone', type: 'text' },
        { key: 'paid', label: 'Subscription paid', type: 'boolean' },
      ],
    },
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** The admin's client (the token is renewed after the clock moves), and no session's. */
const asAdmin = (): ApiClient => apiClient(t.app, admin);
const anon = (): ApiClient => apiClient(t.app);
const day = (d: Date) => d.toISOString().slice(0, 10);
const setAttributes = (id: number, attributes: Record<string, unknown>) =>
  t.ctx.database.db
    .update(members)
    .set({ attributes: attributes as Record<string, number> })
    .where(eq(members.id, id));
const createElection = async (body: CreateElectionBody) => {
  const res = await asAdmin().organisation.createElection({ body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const created = bodyOf(res, 201).data;
  return { ...created, id: created.id! };
};
const rollOf = async (id: number) => {
  const all: string[] = [];
  for (let page = 1; ; page++) {
    const res = await asAdmin().register.getRollMembers({ params: { id }, query: { page, per_page: 100 } });
    expect(res.status).toBe(200);
    const body = bodyOf(res, 200);
    all.push(...body.data.map((m) => m.member_no));
    if (page >= body.last_page) return all;
  }
};
const hashOf = (numbers: string[]) =>
  createHash('sha256')
    .update(
      [...numbers]
        .sort()
        .map((n) => `${n}\n`)
        .join(''),
    )
    .digest('hex');

describe('attributes', () => {
  it('refuses a bad definition with a 422 naming the field, and changes nothing', async () => {
    const before = await asAdmin().register.getAttributes();
    for (const [data, field] of [
      [[{ key: 'Shares', label: 'x', type: 'number' }], 'data.0.key'],
      [[{ key: 'phone', label: 'x', type: 'text' }], 'data.0.key'],
      [[{ key: 'a', label: 'x', type: 'colour' }], 'data.0.type'],
      [
        [
          { key: 'a', label: 'x', type: 'text' },
          { key: 'a', label: 'y', type: 'text' },
        ],
        'data.1.key',
      ],
    ] as const) {
      const res = await asAdmin().register.putAttributes({ body: untyped({ data }) });
      expect(res.status).toBe(422);
      expect(Object.keys(bodyOf(res, 422).errors ?? {})).toContain(field);
    }
    expect((await asAdmin().register.getAttributes()).body).toEqual(before.body);
  });

  it('refuses removing or retyping a key a rule uses (409 naming the rule)', async () => {
    const e = await createElection({
      title: 'Uses shares',
      electorate: { branch_ids: null, rules: [{ attribute: 'shares', op: 'at_least', value: 1 }] },
    });
    const removed = await asAdmin().register.putAttributes({
      body: {
        data: [
          { key: 'joined', label: 'Joined', type: 'date' },
          { key: 'zone', label: 'Zone', type: 'text' },
          { key: 'paid', label: 'Subscription paid', type: 'boolean' },
        ],
      },
    });
    expect(removed.status).toBe(409);
    expect(bodyOf(removed, 409).message).toContain(`election ${e.id}: Uses shares, electorate rule 1 (Shares (KSh) at least 1)`);
    const retyped = await asAdmin().register.putAttributes({
      body: {
        data: [
          { key: 'shares', label: 'Shares (KSh)', type: 'text' },
          { key: 'joined', label: 'Joined', type: 'date' },
          { key: 'zone', label: 'Zone', type: 'text' },
          { key: 'paid', label: 'Subscription paid', type: 'boolean' },
        ],
      },
    });
    expect(retyped.status).toBe(409);
    expect((await asAdmin().organisation.deleteElection({ params: { id: e.id } })).status).toBe(204);
  });

  it('sets member attributes by edit (422 naming attributes.key, nothing changed) and shows them', async () => {
    const m = await createMember(t.ctx);
    const edit = (attributes: Record<string, AttributeValue>) =>
      asAdmin().members.updateMember({
        params: { id: m.id },
        body: { name: 'Renamed Member', phone: m.phone, email: m.email, county: 'Nairobi', member_no: m.memberNo, attributes },
      });
    const bad = await edit({ shares: 'lots', joined: '2025-02-30', nope: 1 });
    expect(bad.status).toBe(422);
    expect(bodyOf(bad, 422).errors).toMatchObject({
      'attributes.shares': [expect.any(String)],
      'attributes.joined': [expect.any(String)],
      'attributes.nope': [expect.any(String)],
    });
    const [after] = await t.ctx.database.db.select().from(members).where(eq(members.id, m.id));
    expect(after!.name).toBe(m.name);
    expect(after!.attributes).toEqual({});
    const ok = await edit({ shares: 25000, joined: '2020-01-31', paid: true });
    expect(ok.status).toBe(200);
    expect(bodyOf(ok, 200).data.attributes).toEqual({ shares: 25000, joined: '2020-01-31', zone: null, paid: true });
    const cleared = await edit({ paid: null });
    expect(bodyOf(cleared, 200).data.attributes).toEqual({ shares: 25000, joined: '2020-01-31', zone: null, paid: null });
  });

  it('imports attribute columns: a bad value is a line error naming line and column, an unknown column a file error; nothing imported', async () => {
    const importCsv = (csv: string) =>
      asAdmin().members.importMembers({ query: {}, body: multipart({ file: { file: csv, filename: 'members.csv' } }) });
    const bad = await importCsv(
      'member_no,name,phone,branch,shares,paid\nATT001,Ann One,0700100001,Nairobi,12x,yes\nATT002,Ben Two,0700100002,Nairobi,5,maybe\n',
    );
    expect(bodyOf(bad, 200).created).toBe(0);
    expect(bodyOf(bad, 200).errors).toEqual([
      { line: 2, message: expect.stringContaining('shares:') },
      { line: 3, message: expect.stringContaining('paid:') },
    ]);
    const unknown = await importCsv('member_no,name,phone,branch,colour\nATT001,Ann One,0700100001,Nairobi,red\n');
    expect(bodyOf(unknown, 200).errors).toEqual([{ line: 1, message: expect.stringContaining('colour') }]);
    expect(await t.ctx.database.db.select().from(members).where(eq(members.memberNo, 'ATT001'))).toEqual([]);
    const ok = await importCsv('member_no,name,phone,branch,shares,paid,joined\nATT001,Ann One,0700100001,Nairobi,20000,yes,2019-05-01\n');
    expect(ok.body).toMatchObject({ created: 1, errors: [] });
    // A second file with only one column merges it; an empty cell clears.
    await importCsv('member_no,name,phone,branch,paid\nATT001,Ann One,0700100001,Nairobi,\n');
    const [ann] = await t.ctx.database.db.select().from(members).where(eq(members.memberNo, 'ATT001'));
    expect(ann!.attributes).toEqual({ shares: 20000, joined: '2019-05-01' });
  });
});

describe('the roll under rules', () => {
  it('takes branches and every rule; roll_size follows the register until the freeze; bad rules are 422 naming the field', async () => {
    const zone = `Z${Date.now()}`;
    const a = await createMember(t.ctx, { branch: 'Mombasa' });
    const b = await createMember(t.ctx, { branch: 'Mombasa' });
    const c = await createMember(t.ctx, { branch: 'Mombasa' });
    await setAttributes(a.id, { shares: 20000, paid: true, zone });
    await setAttributes(b.id, { shares: 19999, paid: true, zone });
    await setAttributes(c.id, { shares: 50000, zone }); // no value for paid: not met
    const [mombasa] = await t.ctx.database.db.execute<{ id: number }>(sql`select id from branches where name = 'Mombasa'`);
    const rules: Rule[] = [
      { attribute: 'shares', op: 'at_least', value: 20000 },
      { attribute: 'paid', op: 'equals', value: true },
      { attribute: 'zone', op: 'one_of', value: [zone] },
    ];
    for (const [electorate, field] of [
      [{ branch_ids: null, rules: [{ attribute: 'nope', op: 'equals', value: 1 }] }, 'electorate.rules.0.attribute'],
      [{ branch_ids: null, rules: [{ attribute: 'shares', op: 'one_of', value: ['1'] }] }, 'electorate.rules.0.op'],
      [{ branch_ids: null, rules: [{ attribute: 'joined', op: 'on_or_before', value: 'last year' }] }, 'electorate.rules.0.value'],
      [{ branch_ids: null, elected_in: { election_id: 999999, position_ids: null } }, 'electorate.elected_in.election_id'],
    ] as const) {
      const res = await asAdmin().organisation.createElection({ body: untyped({ title: 'Refused', electorate }) });
      expect(res.status).toBe(422);
      expect(Object.keys(bodyOf(res, 422).errors ?? {})).toContain(field);
    }
    expect(await t.ctx.database.db.select().from(election).where(eq(election.title, 'Refused'))).toEqual([]);

    const e = await createElection({ title: 'Shareholders', electorate: { branch_ids: [Number(mombasa!.id)], rules } });
    expect(e.roll_size).toBe(1);
    expect(await rollOf(e.id)).toEqual([a.memberNo]);
    await setAttributes(c.id, { shares: 50000, zone, paid: true });
    expect(bodyOf(await anon().organisation.getElectionById({ params: { id: e.id } }), 200).data.roll_size).toBe(2);
    const roll = await anon().register.getRoll({ params: { id: e.id } });
    expect(bodyOf(roll, 200).data).toEqual({ frozen_at: null, size: 2, hash: null, by_branch: [{ branch: 'Mombasa', size: 2 }] });
    // Changing the rules is refused with a 422 that changes nothing.
    const bad = await asAdmin().organisation.updateElectionById({
      params: { id: e.id },
      body: { title: 'Renamed', electorate: { branch_ids: null, rules: [{ attribute: 'paid', op: 'at_least', value: 1 }] } },
    });
    expect(bad.status).toBe(422);
    expect(bodyOf(await anon().organisation.getElectionById({ params: { id: e.id } }), 200).data).toMatchObject({
      title: 'Shareholders',
      roll_size: 2,
    });
  });

  it('counts years_before back from opens_at (today while unset)', async () => {
    const zone = `Y${Date.now()}`;
    const now = t.clock.now();
    const opens = new Date(now.getTime() + 30 * DAY);
    const veteran = await createMember(t.ctx);
    const newer = await createMember(t.ctx);
    const yearAgo = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), Math.min(now.getUTCDate(), 28)));
    // A year before today (and so before the opening too).
    await setAttributes(veteran.id, { zone, joined: day(new Date(yearAgo.getTime() - 2 * DAY)) });
    // Not a year before today, but a year before the opening 30 days ahead.
    await setAttributes(newer.id, { zone, joined: day(new Date(yearAgo.getTime() + 20 * DAY)) });
    const rules: Rule[] = [
      { attribute: 'zone', op: 'equals', value: zone },
      { attribute: 'joined', op: 'on_or_before', value: { years_before: 1 } },
    ];
    const unscheduled = await createElection({ title: 'Today', electorate: { branch_ids: null, rules } });
    expect(await rollOf(unscheduled.id)).toEqual([veteran.memberNo]);
    const scheduled = await createElection({
      title: 'At opening',
      opens_at: opens.toISOString(),
      closes_at: new Date(opens.getTime() + DAY).toISOString(),
      electorate: { branch_ids: null, rules },
    });
    expect((await rollOf(scheduled.id)).sort()).toEqual([veteran.memberNo, newer.memberNo].sort());
  });

  it('lists the roll filtered by number or name and by branch, the total counting what the filters keep', async () => {
    const zone = `Q${Date.now()}`;
    const ms = await Promise.all(['Mombasa', 'Mombasa', 'Kisumu'].map((branch) => createMember(t.ctx, { branch })));
    for (const m of ms) await setAttributes(m.id, { zone });
    const e = await createElection({
      title: 'Filtered',
      electorate: { branch_ids: null, rules: [{ attribute: 'zone', op: 'equals', value: zone }] },
    });
    const list = async (query: { query?: string; branch?: string }) => {
      const res = await asAdmin().register.getRollMembers({ params: { id: e.id }, query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = bodyOf(res, 200);
      return { numbers: body.data.map((m) => m.member_no).sort(), total: body.total };
    };
    expect(await list({})).toEqual({ numbers: ms.map((m) => m.memberNo).sort(), total: 3 });
    expect(await list({ branch: 'Mombasa' })).toEqual({ numbers: [ms[0]!.memberNo, ms[1]!.memberNo].sort(), total: 2 });
    expect(await list({ query: ms[2]!.name.toUpperCase() })).toEqual({ numbers: [ms[2]!.memberNo], total: 1 });
    expect(await list({ query: ms[1]!.memberNo, branch: 'Kisumu' })).toEqual({ numbers: [], total: 0 });
    // A LIKE wildcard is a character, not a pattern.
    expect(await list({ query: '%' })).toEqual({ numbers: [], total: 0 });
    const long = await asAdmin().register.getRollMembers({ params: { id: e.id }, query: { query: 'x'.repeat(151) } });
    expect(long.status).toBe(422);
    expect(Object.keys(bodyOf(long, 422).errors ?? {})).toEqual(['query']);
  });

  it('takes the members declared elected in a closed election (elected_in), in those positions or any', async () => {
    const zoneA = await createElection({ title: 'Zone A delegates' });
    const seatOne = await createPosition(t.ctx, { name: 'Delegate one', electionId: zoneA.id });
    const seatTwo = await createPosition(t.ctx, { name: 'Delegate two', electionId: zoneA.id });
    const winOne = await createCandidate(t.ctx, [seatOne.id]);
    const loseOne = await createCandidate(t.ctx, [seatOne.id]);
    const winTwo = await createCandidate(t.ctx, [seatTwo.id]);
    expect((await asAdmin().elections.toggleElection({ query: { election_id: zoneA.id }, body: { status: true } })).status).toBe(200);
    const voter = await tokenFor(t.ctx, 'voter', winOne.id);
    expect(
      (
        await apiClient(t.app, voter).ballots.castVote({
          query: { election_id: zoneA.id },
          body: { candidates: { [seatOne.id]: winOne.id, [seatTwo.id]: winTwo.id } },
        })
      ).status,
    ).toBe(201);
    expect((await asAdmin().lifecycle.closeElection({ query: { election_id: zoneA.id } })).status).toBe(200);

    const any = await createElection({
      title: 'Delegates meeting',
      electorate: { branch_ids: null, elected_in: { election_id: zoneA.id, position_ids: null } },
    });
    expect((await rollOf(any.id)).sort()).toEqual([winOne.memberNo, winTwo.memberNo].sort());
    const one = await createElection({
      title: 'Seat one meeting',
      electorate: { branch_ids: null, elected_in: { election_id: zoneA.id, position_ids: [seatOne.id] } },
    });
    expect(await rollOf(one.id)).toEqual([winOne.memberNo]);
    expect(await rollOf(one.id)).not.toContain(loseOne.memberNo);

    // "Am I on the roll?" names only what is not met: the elected member who fails a rule is told
    // of the rule, not that they were not elected; the one not elected is told that.
    const ruled = await createElection({
      title: 'Seat one, one zone',
      electorate: {
        branch_ids: null,
        rules: [{ attribute: 'zone', op: 'equals', value: `nowhere-${Date.now()}` }],
        elected_in: { election_id: zoneA.id, position_ids: [seatOne.id] },
      },
    });
    const entry = async (memberId: number) =>
      bodyOf(
        await apiClient(t.app, await tokenFor(t.ctx, 'voter', memberId)).register.getMyRegisterEntry({ query: { election_id: ruled.id } }),
        200,
      ).data;
    const elected = await entry(winOne.id);
    expect(elected.on_roll).toBe(false);
    expect(elected.reasons).toHaveLength(1);
    expect(elected.reasons[0]).toMatch(/^Zone/i);
    const notElected = await entry(loseOne.id);
    expect(notElected.reasons).toContain('Only the members declared elected in Zone A delegates vote in this election');
  });
});

describe('the freeze', () => {
  it('freezes at the register close with the published hash; nothing after changes the roll; electorate refused 409; activity logged', async () => {
    const zone = `F${Date.now()}`;
    const now = t.clock.now();
    const inRoll = await Promise.all([1, 2, 3].map(() => createMember(t.ctx)));
    for (const m of inRoll) await setAttributes(m.id, { zone });
    const rules: Rule[] = [{ attribute: 'zone', op: 'equals', value: zone }];
    const refused = await asAdmin().organisation.createElection({
      body: {
        title: 'Late register',
        opens_at: new Date(now.getTime() + DAY).toISOString(),
        closes_at: new Date(now.getTime() + 3 * DAY).toISOString(),
        register: { opens_at: now.toISOString(), closes_at: new Date(now.getTime() + 2 * DAY).toISOString() },
      },
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(bodyOf(refused, 422).errors ?? {})).toContain('register.closes_at');
    const e = await createElection({
      title: 'Frozen at register close',
      opens_at: new Date(now.getTime() + 10 * DAY).toISOString(),
      closes_at: new Date(now.getTime() + 11 * DAY).toISOString(),
      register: { opens_at: new Date(now.getTime() - DAY).toISOString(), closes_at: new Date(now.getTime() + 2 * DAY).toISOString() },
      electorate: { branch_ids: null, rules },
    });
    expect(e.roll_size).toBe(3);
    t.clock.advance(2 * DAY + 1000);
    admin = await tokenFor(t.ctx, 'admin');
    const roll = bodyOf(await anon().register.getRoll({ params: { id: e.id } }), 200);
    expect(roll.data.frozen_at).toEqual(expect.any(String));
    const numbers = inRoll.map((m) => m.memberNo);
    expect(roll.data).toMatchObject({ size: 3, hash: hashOf(numbers) });
    expect(bodyOf(await anon().organisation.getElectionById({ params: { id: e.id } }), 200).data).toMatchObject({
      roll_hash: hashOf(numbers),
      roll_size: 3,
    });

    // After the freeze: a new member who meets the rules, and a member of the roll who no longer does.
    const late = await createMember(t.ctx, { onRoll: false });
    await setAttributes(late.id, { zone });
    await setAttributes(inRoll[0]!.id, {});
    expect((await rollOf(e.id)).sort()).toEqual([...numbers].sort());
    const patch = await asAdmin().organisation.updateElectionById({
      params: { id: e.id },
      body: { electorate: { branch_ids: null, rules: [] } },
    });
    expect(patch.status).toBe(409);
    const logged = await t.ctx.database.db.select().from(activityLogs).where(eq(activityLogs.activity, 'Roll frozen'));
    expect(logged.some((l) => l.data?.includes(`election ${e.id}:`) && l.data.includes(hashOf(numbers)))).toBe(true);
    t.clock.advance(-(2 * DAY + 1000));
    admin = await tokenFor(t.ctx, 'admin');
  });

  it('freezes at the first opening where there is no register, with the hash', async () => {
    const zone = `O${Date.now()}`;
    const m = await createMember(t.ctx);
    await setAttributes(m.id, { zone });
    const e = await createElection({
      title: 'Opened',
      electorate: { branch_ids: null, rules: [{ attribute: 'zone', op: 'equals', value: zone }] },
    });
    expect((await asAdmin().elections.toggleElection({ query: { election_id: e.id }, body: { status: true } })).status).toBe(200);
    const roll = await anon().register.getRoll({ params: { id: e.id } });
    expect(bodyOf(roll, 200).data).toMatchObject({ size: 1, hash: hashOf([m.memberNo]) });
    const reg = await asAdmin().organisation.updateElectionById({
      params: { id: e.id },
      body: { register: { opens_at: t.clock.now().toISOString(), closes_at: new Date(t.clock.now().getTime() + DAY).toISOString() } },
    });
    expect(reg.status).toBe(409);
  });

  it.runIf(databaseKind === 'postgres')('a freeze racing an import on two connections takes all of the file or none of it', async () => {
    const zone = `R${Date.now()}`;
    const e = await createElection({
      title: 'Race',
      electorate: { branch_ids: null, rules: [{ attribute: 'zone', op: 'equals', value: zone }] },
    });
    const lines = Array.from({ length: 300 }, (_, i) => `RACE${zone}${i},Racer ${i},07${String(10000000 + i).slice(-8)},Nairobi,${zone}`);
    const csv = `member_no,name,phone,branch,zone\n${lines.join('\n')}\n`;
    const [imported, opened] = await Promise.all([
      asAdmin().members.importMembers({ query: {}, body: multipart({ file: { file: csv, filename: 'members.csv' } }) }),
      new Promise((r) => setTimeout(r, 20)).then(() =>
        asAdmin().elections.toggleElection({ query: { election_id: e.id }, body: { status: true } }),
      ),
    ]);
    expect(bodyOf(imported, 200).errors).toEqual([]);
    expect(opened.status).toBe(200);
    const roll = bodyOf(await anon().register.getRoll({ params: { id: e.id } }), 200).data;
    expect([0, 300]).toContain(roll.size);
    const numbers = await rollOf(e.id);
    expect(roll.hash).toBe(hashOf(numbers));
  });
});

describe('inspection and claims', () => {
  it('tells a member why they are not on the roll, in their language', async () => {
    const zone = `I${Date.now()}`;
    const m = await createMember(t.ctx, { language: 'sw' });
    await setAttributes(m.id, { zone, shares: 10 });
    const e = await createElection({
      title: 'Inspect',
      electorate: {
        branch_ids: null,
        rules: [
          { attribute: 'zone', op: 'equals', value: zone },
          { attribute: 'paid', op: 'equals', value: true },
          { attribute: 'shares', op: 'at_least', value: 20000 },
        ],
      },
    });
    const token = await tokenFor(t.ctx, 'voter', m.id);
    const voter = apiClient(t.app, token);
    const res = await voter.register.getMyRegisterEntry({ query: { election_id: e.id } });
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).data).toMatchObject({ on_roll: false, frozen: false, member_no: m.memberNo });
    expect(bodyOf(res, 200).data.reasons).toEqual(['Subscription paid: hakuna thamani', 'Shares (KSh): lazima iwe angalau 20000']);
    await t.ctx.database.db.update(members).set({ language: 'en' }).where(eq(members.id, m.id));
    const en = await voter.register.getMyRegisterEntry({ query: { election_id: e.id } });
    expect(bodyOf(en, 200).data.reasons).toEqual(['Subscription paid: no value', 'Shares (KSh): must be at least 20000']);
  });

  it('takes claims only while the register is open, objections against members on the roll, at most 10 pending; rulings told to the claimant', async () => {
    const zone = `C${Date.now()}`;
    const now = t.clock.now();
    const claimant = await createMember(t.ctx, { phone: '+254711000222' });
    await t.ctx.database.db.update(members).set({ email: null }).where(eq(members.id, claimant.id));
    const onRoll = await createMember(t.ctx);
    await setAttributes(onRoll.id, { zone });
    const offRoll = await createMember(t.ctx);
    const e = await createElection({
      title: 'Claims',
      electorate: { branch_ids: null, rules: [{ attribute: 'zone', op: 'equals', value: zone }] },
      register: { opens_at: new Date(now.getTime() + DAY).toISOString(), closes_at: new Date(now.getTime() + 3 * DAY).toISOString() },
    });
    let token = await tokenFor(t.ctx, 'voter', claimant.id);
    const file = (body: ClaimBody) => apiClient(t.app, token).register.fileClaim({ query: { election_id: e.id }, body });
    const early = await file({ kind: 'inclusion', details: 'I paid my subscription in March' });
    expect(early.status).toBe(403);
    expect(bodyOf(early, 403).message).toBe('The register is not open for claims');
    t.clock.advance(DAY + 1000);
    admin = await tokenFor(t.ctx, 'admin');
    token = await tokenFor(t.ctx, 'voter', claimant.id);
    try {
      const bad = await file({ kind: 'objection', details: 'Not a member', subject_member_no: offRoll.memberNo });
      expect(bad.status).toBe(422);
      expect(bodyOf(bad, 422).errors).toHaveProperty('subject_member_no');
      const noSubject = await file({ kind: 'objection', details: 'x' });
      expect(noSubject.status).toBe(422);
      const objection = await file({ kind: 'objection', details: 'Not a member of this zone', subject_member_no: onRoll.memberNo });
      expect(objection.status).toBe(201);
      expect(bodyOf(objection, 201).data).toMatchObject({
        kind: 'objection',
        subject_member_no: onRoll.memberNo,
        status: 'pending',
        member_no: claimant.memberNo,
      });
      for (let i = 0; i < 9; i++) expect((await file({ kind: 'correction', details: `Correction ${i}` })).status).toBe(201);
      const eleventh = await file({ kind: 'correction', details: 'One too many' });
      expect(eleventh.status).toBe(409);
      const mine = await apiClient(t.app, token).register.listMyClaims({ query: { election_id: e.id } });
      expect(bodyOf(mine, 200).data).toHaveLength(10);
      const queue = await asAdmin().register.listClaims({ query: { election_id: e.id, status: 'pending', per_page: 100 } });
      expect(bodyOf(queue, 200).total).toBe(10);

      const id = bodyOf(objection, 201).data.id;
      const noReason = await asAdmin().register.ruleOnClaim({ params: { id }, body: { decision: 'upheld', reason: '' } });
      expect(noReason.status).toBe(422);
      expect(bodyOf(noReason, 422).errors).toHaveProperty('reason');
      const sent: string[] = [];
      const original = t.ctx.delivery.sendSms.bind(t.ctx.delivery);
      t.ctx.delivery.sendSms = async (m) => {
        sent.push(`${m.to}: ${m.message}`);
      };
      try {
        const ruled = await asAdmin().register.ruleOnClaim({
          params: { id },
          body: { decision: 'dismissed', reason: 'The member lives in the zone' },
        });
        expect(ruled.status).toBe(200);
        expect(bodyOf(ruled, 200).data).toMatchObject({
          status: 'dismissed',
          reason: 'The member lives in the zone',
          decided_at: expect.any(String),
        });
        for (let i = 0; i < 50 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
        expect(sent).toEqual([
          expect.stringMatching(
            /^\+254711000222: .*objection claim on the register of Claims was dismissed\. Reason: The member lives in the zone$/,
          ),
        ]);
      } finally {
        t.ctx.delivery.sendSms = original;
      }
      const again = await asAdmin().register.ruleOnClaim({ params: { id }, body: { decision: 'upheld', reason: 'x' } });
      expect(again.status).toBe(409);
      const logged = await t.ctx.database.db
        .select()
        .from(activityLogs)
        .where(sql`${activityLogs.activity} in ('Register claim filed', 'Register claim ruled')`);
      expect(logged.filter((l) => l.activity === 'Register claim filed').length).toBeGreaterThanOrEqual(10);
      expect(logged.some((l) => l.activity === 'Register claim ruled' && l.data?.includes(`claim ${id}: dismissed`))).toBe(true);
      expect(await t.ctx.database.db.select().from(registerClaims).where(eq(registerClaims.electionId, e.id))).toHaveLength(10);
    } finally {
      t.clock.advance(-(DAY + 1000));
      admin = await tokenFor(t.ctx, 'admin');
    }
  });
});

describe('eligibility to stand', () => {
  it('refuses a candidate who does not meet the position rules (422 naming each), unless overridden (logged)', async () => {
    const e = await createElection({ title: 'Board' });
    const created = await asAdmin().setup.createPosition({
      query: { election_id: e.id },
      body: {
        name: 'Treasurer',
        eligibility: [
          { attribute: 'shares', op: 'at_least', value: 20000 },
          { attribute: 'paid', op: 'equals', value: true },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const position = bodyOf(created, 201).data[0]!;
    expect(position.eligibility).toHaveLength(2);
    const badRule = await asAdmin().setup.updatePosition({
      params: { id: position.id },
      body: { eligibility: [{ attribute: 'paid', op: 'at_least', value: 3 }] },
    });
    expect(badRule.status).toBe(422);
    expect(Object.keys(bodyOf(badRule, 422).errors ?? {})).toContain('eligibility.0.op');

    const m = await createMember(t.ctx);
    await setAttributes(m.id, { shares: 100 });
    const assign = (extra: { override_reason?: string } = {}) =>
      asAdmin().members.assignPositions({
        query: { election_id: e.id },
        body: { member_no: m.memberNo, position_ids: [position.id], ...extra },
      });
    const refused = await assign();
    expect(refused.status).toBe(422);
    expect(bodyOf(refused, 422).errors?.position_ids).toEqual([
      'Not eligible: Treasurer National: Shares (KSh) at least 20000',
      'Not eligible: Treasurer National: Subscription paid is yes',
    ]);
    const overridden = await assign({ override_reason: 'Shares paid by bank transfer, not yet posted' });
    expect(overridden.status).toBe(200);
    const [log] = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(
        sql`${activityLogs.activity} = 'Positions assigned' and ${activityLogs.status} = 'success' and ${activityLogs.data} like ${`member no ${m.memberNo}%`}`,
      );
    expect(log!.data).toContain('eligibility overridden');
    expect(log!.data).toContain('Shares paid by bank transfer, not yet posted');
  });
});

// The organisation row exists for the attributes (migration 0013).
it('keeps the attributes on the organisation row', async () => {
  const [org] = await t.ctx.database.db.select().from(organisation);
  expect(org!.attributes.map((a) => a.key)).toEqual(['shares', 'joined', 'zone', 'paid']);
});
