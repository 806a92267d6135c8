import { and, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, candidacies, members, nominations } from '../../db/schema';
import type { EmailMessage, SmsMessage } from '../../delivery';
import { bearer, branchId, createMember, tokenFor } from '../../../test/factories';
import { createTestApp, databaseKind, type TestApp } from '../../../test/harness';

/**
 * Nominations (docs/api.md "Nominations") over real HTTP on a real database: the whole path from
 * nominating to the ballot, every refusal (each changes nothing), the window, the roles, appeals,
 * the opening gate, and two supporters answering at once.
 */

/** A valid 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;
let admin: string;
const emails: EmailMessage[] = [];
const sms: SmsMessage[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  // The transport itself, replaced: what is sent is kept here (vitest restores spies between tests).
  t.ctx.delivery.sendEmail = async (m) => void emails.push(m);
  t.ctx.delivery.sendSms = async (m) => void sms.push(m);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  emails.length = 0;
  sms.length = 0;
});

type Rule = { proposers: number; seconders: number; same_branch?: boolean; self?: boolean };

/** A fresh election whose nominations window is open now (relative to the test clock), with one position. */
async function setUp(
  options: { rule?: Rule; seats?: number; appealDays?: number; electorate?: number[] | null; branchPosition?: boolean } = {},
) {
  const now = t.clock.now().getTime();
  const created = await request(t.app)
    .post('/api/v1/elections')
    .set(bearer(admin))
    .send({
      title: `Nominations ${Math.random().toString(36).slice(2, 8)}`,
      nominations: {
        opens_at: new Date(now - HOUR).toISOString(),
        closes_at: new Date(now + DAY).toISOString(),
        appeal_days: options.appealDays ?? 3,
      },
      ...(options.electorate !== undefined ? { electorate: { branch_ids: options.electorate } } : {}),
    });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const electionId = created.body.data.id as number;
  expect(created.body.data.nominations.appeal_days).toBe(options.appealDays ?? 3);
  const pos = await request(t.app)
    .post(`/api/v1/positions?election_id=${electionId}`)
    .set(bearer(admin))
    .send({
      name: 'Chair',
      seats: options.seats ?? 1,
      ...(options.branchPosition ? { branch_id: await branchId(t.ctx, 'Nairobi') } : {}),
      nomination: { same_branch: false, self: false, ...(options.rule ?? { proposers: 1, seconders: 1 }) },
    });
  expect(pos.status, JSON.stringify(pos.body)).toBe(201);
  const position = pos.body.data[0] as { id: number; nomination: Rule };
  return { electionId, positionId: position.id, position };
}

/** Moves the election's nominations window relative to the test clock (a session would idle out if the clock moved). */
async function setWindow(electionId: number, opensIn: number, closesIn: number) {
  const now = t.clock.now().getTime();
  const res = await request(t.app)
    .patch(`/api/v1/elections/${electionId}`)
    .set(bearer(admin))
    .send({
      nominations: { opens_at: new Date(now + opensIn).toISOString(), closes_at: new Date(now + closesIn).toISOString(), appeal_days: 3 },
    });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function voter(input: Parameters<typeof createMember>[1] = {}) {
  const m = await createMember(t.ctx, input);
  return { ...m, token: await tokenFor(t.ctx, 'voter', m.id) };
}

const nominate = (token: string, electionId: number, body: object) =>
  request(t.app).post(`/api/v1/psk/nominations?election_id=${electionId}`).set(bearer(token)).send(body);
const support = (token: string, id: number, confirm = true) =>
  request(t.app).post(`/api/v1/psk/nominations/${id}/support`).set(bearer(token)).send({ confirm });
const accept = (token: string, id: number, body: object = { accept: true }) =>
  request(t.app).post(`/api/v1/psk/nominations/${id}/accept`).set(bearer(token)).send(body);
const decide = (id: number, body: object, token = admin) =>
  request(t.app).post(`/api/v1/nominations/${id}/decision`).set(bearer(token)).send(body);
const countNominations = async (electionId: number) =>
  (
    await t.ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(nominations)
      .where(eq(nominations.electionId, electionId))
  )[0]!.n;
const standsFor = async (memberId: number, positionId: number) =>
  (
    await t.ctx.database.db
      .select({ m: candidacies.memberId })
      .from(candidacies)
      .where(and(eq(candidacies.memberId, memberId), eq(candidacies.positionId, positionId)))
  ).length > 0;
/** Lets the notices sender finish what it queued. */
const sent = () => t.ctx.notices.stop();

/** A nomination by `proposer` of `nominee`, to be seconded by `seconder`, just made. */
async function nominated(e: Awaited<ReturnType<typeof setUp>>) {
  const [proposer, seconder, nominee] = [await voter(), await voter(), await voter()];
  const made = await nominate(proposer.token, e.electionId, {
    position_id: e.positionId,
    nominee_member_no: nominee.memberNo,
    supporters: [
      { member_no: proposer.memberNo, role: 'proposer' },
      { member_no: seconder.memberNo, role: 'seconder' },
    ],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { id: made.body.data.id as number, proposer, seconder, nominee };
}

/** A nomination by `proposer` of `nominee`, seconded by `seconder`, carried to submitted. */
async function submitted(e: Awaited<ReturnType<typeof setUp>>) {
  const { id, proposer, seconder, nominee } = await nominated(e);
  expect((await support(seconder.token, id)).status).toBe(200);
  const acc = await accept(nominee.token, id, { accept: true, statement: 'I will serve' });
  expect(acc.body.data.status).toBe('submitted');
  return { id, proposer, seconder, nominee };
}

describe('a whole nomination', () => {
  it('nominate, second, accept with statement and photo, decide valid: the nominee stands, with both; everyone named is told in their language', async () => {
    const e = await setUp();
    const proposer = await voter({ name: 'Pat Proposer' });
    const seconder = await voter({ name: 'Sam Seconder', language: 'sw' });
    const nominee = await voter({ name: 'Nia Nominee', email: '' as string });
    await t.ctx.database.db.update(members).set({ email: null }).where(eq(members.id, nominee.id));

    const made = await nominate(proposer.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: nominee.memberNo,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' },
        { member_no: seconder.memberNo, role: 'seconder' },
      ],
      statement: 'Proposed statement',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const n = made.body.data;
    expect(n).toMatchObject({
      election_id: e.electionId,
      position_id: e.positionId,
      position: 'Chair National',
      nominee: { member_no: nominee.memberNo, name: 'Nia Nominee' },
      status: 'awaiting_support',
      accepted: null,
      decision: null,
      appeal: null,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer', confirmed: true },
        { member_no: seconder.memberNo, role: 'seconder', confirmed: false },
      ],
    });
    await sent();
    // The seconder by e-mail in Kiswahili, the nominee (no e-mail) by SMS in English; not the proposer.
    expect(emails.map((m) => m.to)).toEqual([seconder.email]);
    expect(emails[0]!.text).toContain('Pat Proposer amekutaja kama muungaji mkono wa Nia Nominee');
    expect(sms.map((m) => m.to)).toEqual([nominee.phone]);
    expect(sms[0]!.message).toContain('Pat Proposer nominated you for Chair National');

    // Each sees it in their list; an outsider does not.
    for (const who of [proposer, seconder, nominee]) {
      const mine = await request(t.app).get(`/api/v1/psk/nominations?election_id=${e.electionId}`).set(bearer(who.token));
      expect(mine.body.data.map((x: { id: number }) => x.id)).toEqual([n.id]);
    }
    const outsider = await voter();
    expect((await request(t.app).get(`/api/v1/psk/nominations?election_id=${e.electionId}`).set(bearer(outsider.token))).body.data).toEqual(
      [],
    );

    const seconded = await support(seconder.token, n.id);
    expect(seconded.status).toBe(200);
    expect(seconded.body.data.status).toBe('awaiting_acceptance');

    const accepted = await request(t.app)
      .post(`/api/v1/psk/nominations/${n.id}/accept`)
      .set(bearer(nominee.token))
      .field('accept', 'true')
      .field('statement', 'I will serve the members')
      .attach('photo', PNG, { filename: 'me.png', contentType: 'image/png' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: 'submitted', accepted: true, statement: 'I will serve the members', checks: [] });
    expect(accepted.body.data.photo).toMatch(/^\/uploads\//);

    // The public list waits for the window to close.
    expect((await request(t.app).get(`/api/v1/elections/${e.electionId}/nominations`)).status).toBe(403);

    const decided = await decide(n.id, { valid: true });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.data.status).toBe('valid');
    expect(decided.body.data.decision).toMatchObject({ valid: true, reason: null });
    expect(await standsFor(nominee.id, e.positionId)).toBe(true);
    const [m] = await t.ctx.database.db.select().from(members).where(eq(members.id, nominee.id));
    expect(m!.statement).toBe('I will serve the members');
    expect(m!.photoUrl).toBe(accepted.body.data.photo);
    // On the admin's candidates list of that election, as assign would put them.
    const listed = await request(t.app).get(`/api/v1/psk/candidates?election_id=${e.electionId}`).set(bearer(admin));
    expect(listed.body.data.data.candidates.map((c: { member_no: string }) => c.member_no)).toEqual([nominee.memberNo]);
    await sent();
    // The nominee and the first proposer are told of the decision.
    expect(
      sms.some((s) => s.to === nominee.phone && s.message.includes('found the nomination of Nia Nominee for Chair National valid')),
    ).toBe(true);
    expect(emails.some((x) => x.to === proposer.email && x.text.includes('valid'))).toBe(true);

    await setWindow(e.electionId, -2 * DAY, -HOUR);
    {
      const published = await request(t.app).get(`/api/v1/elections/${e.electionId}/nominations`);
      expect(published.status).toBe(200);
      expect(published.body.data).toEqual([
        {
          position_id: e.positionId,
          position: 'Chair National',
          nominee: { member_no: nominee.memberNo, name: 'Nia Nominee' },
          statement: 'I will serve the members',
          supporters: [
            { name: 'Pat Proposer', role: 'proposer' },
            { name: 'Sam Seconder', role: 'seconder' },
          ],
          status: 'valid',
        },
      ]);
      expect(JSON.stringify(published.body)).not.toMatch(/@|\+254|phone|email/);
    }

    // Every step is in the activity log.
    const logged = await t.ctx.database.db
      .select({ activity: activityLogs.activity })
      .from(activityLogs)
      .where(and(sql`${activityLogs.data} like ${`election ${e.electionId}: nomination ${n.id}%`}`, eq(activityLogs.status, 'success')));
    expect(logged.map((l) => l.activity)).toEqual(
      expect.arrayContaining(['Nomination made', 'Nomination supported', 'Nomination accepted', 'Nomination decided valid']),
    );
  });

  it('a self-nomination where the position allows it, and JSON acceptance', async () => {
    const e = await setUp({ rule: { proposers: 0, seconders: 1, self: true } });
    const [nominee, seconder] = [await voter(), await voter()];
    const made = await nominate(nominee.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: nominee.memberNo,
      supporters: [{ member_no: seconder.memberNo, role: 'seconder' }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await accept(nominee.token, made.body.data.id, { accept: true })).body.data.status).toBe('awaiting_support');
    expect((await support(seconder.token, made.body.data.id)).body.data.status).toBe('submitted');
  });
});

describe('refusals name the member or field and create nothing', () => {
  it('a supporter off the roll (422)', async () => {
    const nairobi = await branchId(t.ctx, 'Nairobi');
    const e = await setUp({ electorate: [nairobi] });
    const [proposer, nominee] = [await voter(), await voter()];
    const outsider = await voter({ branch: 'Mombasa' });
    const res = await nominate(proposer.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: nominee.memberNo,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' },
        { member_no: outsider.memberNo, role: 'seconder' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'supporters.1.member_no': [`${outsider.memberNo} ${outsider.name} is not on the roll of this election`],
    });
    // The nominee off the roll too.
    const offNominee = await nominate(proposer.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: outsider.memberNo,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' },
        { member_no: nominee.memberNo, role: 'seconder' },
      ],
    });
    expect(offNominee.status).toBe(422);
    expect(offNominee.body.errors.nominee_member_no[0]).toContain('is not on the roll');
    expect(await countNominations(e.electionId)).toBe(0);
  });

  it('the nominee as a supporter (422)', async () => {
    const e = await setUp();
    const [proposer, nominee] = [await voter(), await voter()];
    const res = await nominate(proposer.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: nominee.memberNo,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' },
        { member_no: nominee.memberNo, role: 'seconder' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors['supporters.1.member_no'][0]).toBe(
      `${nominee.memberNo} ${nominee.name} is the nominee and cannot also support the nomination`,
    );
    expect(await countNominations(e.electionId)).toBe(0);
  });

  it('too many supports: a member supports at most `seats` nominations per position (422)', async () => {
    const e = await setUp({ seats: 1 });
    const [proposer, seconder, a, b] = [await voter(), await voter(), await voter(), await voter()];
    const body = (nominee: string) => ({
      position_id: e.positionId,
      nominee_member_no: nominee,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' },
        { member_no: seconder.memberNo, role: 'seconder' },
      ],
    });
    expect((await nominate(proposer.token, e.electionId, body(a.memberNo))).status).toBe(201);
    const second = await nominate(proposer.token, e.electionId, body(b.memberNo));
    expect(second.status).toBe(422);
    expect(second.body.errors['supporters.0.member_no'][0]).toBe(
      `${proposer.memberNo} ${proposer.name} already supports 1 nomination for Chair National, the most a member may`,
    );
    expect(await countNominations(e.electionId)).toBe(1);
  });

  it('outside the window: 403 "Nominations are closed" for nominating, supporting and accepting', async () => {
    const e = await setUp();
    const [proposer, seconder, nominee] = [await voter(), await voter(), await voter()];
    const body = {
      position_id: e.positionId,
      nominee_member_no: nominee.memberNo,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' },
        { member_no: seconder.memberNo, role: 'seconder' },
      ],
    };
    const made = await nominate(proposer.token, e.electionId, body);
    expect(made.status).toBe(201);
    for (const [opensIn, closesIn] of [
      [-2 * DAY, -HOUR],
      [HOUR, DAY],
    ] as const) {
      await setWindow(e.electionId, opensIn, closesIn);
      {
        const again = await nominate(proposer.token, e.electionId, {
          ...body,
          nominee_member_no: seconder.memberNo,
          supporters: [body.supporters[0], { member_no: nominee.memberNo, role: 'seconder' }],
        });
        expect(again.status).toBe(403);
        expect(again.body.message).toBe('Nominations are closed');
        expect((await support(seconder.token, made.body.data.id)).body.message).toBe('Nominations are closed');
        expect((await accept(nominee.token, made.body.data.id)).body.message).toBe('Nominations are closed');
      }
    }
    expect(await countNominations(e.electionId)).toBe(1);
    // An election that takes no nominations: closed as well.
    const plain = await request(t.app).post('/api/v1/elections').set(bearer(admin)).send({ title: 'No nominations' });
    const res = await nominate(proposer.token, plain.body.data.id, body);
    expect(res.status).toBe(403);
  });

  it('wrong role: not a proposer, not a named supporter, not the nominee, not an admin (403)', async () => {
    const e = await setUp();
    const [proposer, seconder, nominee, stranger] = [await voter(), await voter(), await voter(), await voter()];
    const body = {
      position_id: e.positionId,
      nominee_member_no: nominee.memberNo,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' },
        { member_no: seconder.memberNo, role: 'seconder' },
      ],
    };
    // The seconder, the stranger and the nominee (no self-nomination here) may not make it.
    for (const who of [seconder, stranger, nominee]) {
      const res = await nominate(who.token, e.electionId, body);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Only one of the proposers may make this nomination');
    }
    expect(await countNominations(e.electionId)).toBe(0);
    const made = await nominate(proposer.token, e.electionId, body);
    const id = made.body.data.id as number;
    expect((await support(stranger.token, id)).status).toBe(403);
    expect((await accept(seconder.token, id)).status).toBe(403);
    expect((await request(t.app).post(`/api/v1/psk/nominations/${id}/withdraw`).set(bearer(seconder.token))).status).toBe(403);
    expect((await decide(id, { valid: true }, proposer.token)).status).toBe(403);
    expect((await request(t.app).get(`/api/v1/nominations?election_id=${e.electionId}`).set(bearer(proposer.token))).status).toBe(403);
    const after = await request(t.app).get(`/api/v1/nominations?election_id=${e.electionId}`).set(bearer(admin));
    expect(after.body.data[0]).toMatchObject({ status: 'awaiting_support', accepted: null });
  });

  it('bad input: unknown members, wrong counts, unknown or staff-only positions, each a 422 naming the field', async () => {
    const e = await setUp({ rule: { proposers: 1, seconders: 2 } });
    const [proposer, nominee, s] = [await voter(), await voter(), await voter()];
    const cases: [object, string, string][] = [
      [{ nominee_member_no: 'NOPE-1' }, 'nominee_member_no', 'No member has the member number NOPE-1'],
      [
        {
          supporters: [
            { member_no: proposer.memberNo, role: 'proposer' },
            { member_no: s.memberNo, role: 'seconder' },
          ],
        },
        'supporters',
        'Chair National needs 1 proposer and 2 seconders',
      ],
      [
        {
          supporters: [
            { member_no: proposer.memberNo, role: 'proposer' },
            { member_no: s.memberNo, role: 'seconder' },
            { member_no: 'GHOST-9', role: 'seconder' },
          ],
        },
        'supporters.2.member_no',
        'No member has the member number GHOST-9',
      ],
      [
        {
          supporters: [
            { member_no: proposer.memberNo, role: 'proposer' },
            { member_no: s.memberNo, role: 'seconder' },
            { member_no: s.memberNo, role: 'seconder' },
          ],
        },
        'supporters.2.member_no',
        `${s.memberNo} ${s.name} is named more than once`,
      ],
      [{ position_id: 999999 }, 'position_id', 'The selected position does not exist'],
      [{ supporters: [{ member_no: proposer.memberNo, role: 'chair' }] }, 'supporters.0.role', 'The role must be proposer or seconder'],
      [{ statement: 'x'.repeat(2001) }, 'statement', 'Must be at most 2000 characters long'],
    ];
    for (const [patch, field, message] of cases) {
      const res = await nominate(proposer.token, e.electionId, {
        position_id: e.positionId,
        nominee_member_no: nominee.memberNo,
        supporters: [{ member_no: proposer.memberNo, role: 'proposer' }],
        ...patch,
      });
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.errors?.[field], JSON.stringify(res.body)).toEqual([message]);
    }
    // A position staff fill (no nomination rule).
    const staffOnly = await request(t.app)
      .post(`/api/v1/positions?election_id=${e.electionId}`)
      .set(bearer(admin))
      .send({ name: 'Treasurer' });
    const res = await nominate(proposer.token, e.electionId, {
      position_id: staffOnly.body.data[0].id,
      nominee_member_no: nominee.memberNo,
      supporters: [{ member_no: proposer.memberNo, role: 'proposer' }],
    });
    expect(res.body.errors).toEqual({ position_id: ['Treasurer National takes no nominations'] });
    expect(await countNominations(e.electionId)).toBe(0);
    // The window and the rule are checked as they are set.
    const badWindow = await request(t.app)
      .patch(`/api/v1/elections/${e.electionId}`)
      .set(bearer(admin))
      .send({ nominations: { opens_at: '2030-01-02T00:00:00Z', closes_at: '2030-01-01T00:00:00Z', appeal_days: 3 } });
    expect(badWindow.status).toBe(422);
    expect(badWindow.body.errors['nominations.closes_at']).toEqual(['Nominations must close after they open']);
    const motion = await request(t.app)
      .post(`/api/v1/positions?election_id=${e.electionId}`)
      .set(bearer(admin))
      .send({ name: 'Motion A', kind: 'motion', nomination: { proposers: 1, seconders: 1 } });
    expect(motion.status).toBe(422);
    expect(motion.body.errors.nomination).toEqual(['A motion takes no nominations']);
  });

  it('same_branch: a supporter of another branch (422); a branch position takes its own branch', async () => {
    const e = await setUp({ rule: { proposers: 1, seconders: 1, same_branch: true }, branchPosition: true });
    const [proposer, nominee] = [await voter(), await voter()];
    const far = await voter({ branch: 'Mombasa' });
    const res = await nominate(proposer.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: nominee.memberNo,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' },
        { member_no: far.memberNo, role: 'seconder' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors['supporters.1.member_no']).toEqual([`${far.memberNo} ${far.name} is not of the position's branch`]);
  });
});

describe('decisions, appeals, withdrawal and the opening', () => {
  it('invalid needs a reason; an appeal is once, within appeal_days; upheld makes a candidate', async () => {
    const e = await setUp({ appealDays: 2 });
    const n = await submitted(e);
    const noReason = await decide(n.id, { valid: false });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.reason).toEqual(['The reason is required when a nomination is invalid']);
    const invalid = await decide(n.id, { valid: false, reason: 'Arrears' });
    expect(invalid.body.data).toMatchObject({ status: 'invalid', decision: { valid: false, reason: 'Arrears' } });
    expect((await decide(n.id, { valid: true })).status).toBe(409);
    const appealBy = (who: { token: string }) =>
      request(t.app).post(`/api/v1/psk/nominations/${n.id}/appeal`).set(bearer(who.token)).send({ grounds: 'Paid up last week' });
    expect((await appealBy(n.proposer)).status).toBe(403);
    const first = await appealBy(n.nominee);
    expect(first.status).toBe(200);
    expect(first.body.data.appeal).toEqual({ grounds: 'Paid up last week', status: 'pending', reason: null });
    const second = await appealBy(n.nominee);
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('This nomination has already been appealed');
    const upheld = await request(t.app)
      .post(`/api/v1/nominations/${n.id}/appeal/decision`)
      .set(bearer(admin))
      .send({ upheld: true, reason: 'Receipt shown' });
    expect(upheld.status).toBe(200);
    expect(upheld.body.data).toMatchObject({ status: 'valid', appeal: { status: 'upheld', reason: 'Receipt shown' } });
    expect(await standsFor(n.nominee.id, e.positionId)).toBe(true);
    // Still once: a second appeal after the first was decided.
    expect((await appealBy(n.nominee)).status).toBe(409);
  });

  it('an appeal after appeal_days is refused (409)', async () => {
    const e = await setUp({ appealDays: 1 });
    const n = await submitted(e);
    await decide(n.id, { valid: false, reason: 'Late papers' });
    // Decided a day and an hour ago.
    await t.ctx.database.db
      .update(nominations)
      .set({ decisionAt: new Date(t.clock.now().getTime() - DAY - HOUR) })
      .where(eq(nominations.id, n.id));
    {
      const late = await request(t.app).post(`/api/v1/psk/nominations/${n.id}/appeal`).set(bearer(n.nominee.token)).send({ grounds: 'x' });
      expect(late.status).toBe(409);
      expect(late.body.message).toBe('The time to appeal has passed: 1 days from the decision');
    }
  });

  it('voting does not open over an undecided nomination or a pending appeal (409 listing them); decided, it opens; then decisions are closed', async () => {
    const e = await setUp();
    const a = await submitted(e);
    const b = await submitted(e);
    await decide(b.id, { valid: false, reason: 'Not eligible' });
    await request(t.app).post(`/api/v1/psk/nominations/${b.id}/appeal`).set(bearer(b.nominee.token)).send({ grounds: 'I am' });
    const open = () => request(t.app).post(`/api/v1/toggle?election_id=${e.electionId}`).set(bearer(admin)).send({ status: true });
    const refused = await open();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `Decide the nominations first: #${a.id} ${a.nominee.name} (Chair National); #${b.id} ${b.nominee.name} (Chair National), appeal pending`,
    );
    await decide(a.id, { valid: true });
    await request(t.app).post(`/api/v1/nominations/${b.id}/appeal/decision`).set(bearer(admin)).send({ upheld: false, reason: 'No proof' });
    expect((await open()).status).toBe(200);
    // In the opened election: a valid nomination can no longer be withdrawn.
    const withdrawn = await request(t.app).post(`/api/v1/psk/nominations/${a.id}/withdraw`).set(bearer(a.nominee.token));
    expect(withdrawn.status).toBe(409);
    expect(withdrawn.body.message).toBe('Voting has opened; nominations can no longer be withdrawn');
    expect(await standsFor(a.nominee.id, e.positionId)).toBe(true);
    await request(t.app).post(`/api/v1/toggle?election_id=${e.electionId}`).set(bearer(admin)).send({ status: false });
  });

  it('withdrawing a valid nomination before voting opens removes the candidate; declining support withdraws', async () => {
    const e = await setUp({ seats: 2 });
    const n = await submitted(e);
    await decide(n.id, { valid: true });
    expect(await standsFor(n.nominee.id, e.positionId)).toBe(true);
    const res = await request(t.app).post(`/api/v1/psk/nominations/${n.id}/withdraw`).set(bearer(n.proposer.token));
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('withdrawn');
    expect(await standsFor(n.nominee.id, e.positionId)).toBe(false);
    expect((await request(t.app).post(`/api/v1/psk/nominations/${n.id}/withdraw`).set(bearer(n.nominee.token))).status).toBe(409);

    const [p, s, x] = [await voter(), await voter(), await voter()];
    const made = await nominate(p.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: x.memberNo,
      supporters: [
        { member_no: p.memberNo, role: 'proposer' },
        { member_no: s.memberNo, role: 'seconder' },
      ],
    });
    const declined = await support(s.token, made.body.data.id, false);
    expect(declined.body.data.status).toBe('withdrawn');
    expect((await support(s.token, made.body.data.id, true)).status).toBe(409);
  });

  it('the queue filters by position and status and pages', async () => {
    const e = await setUp({ seats: 3 });
    await submitted(e);
    await submitted(e);
    const page = await request(t.app)
      .get(`/api/v1/nominations?election_id=${e.electionId}&status=submitted&position_id=${e.positionId}&per_page=1`)
      .set(bearer(admin));
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ current_page: 1, last_page: 2, per_page: 1, total: 2 });
    expect(page.body.data).toHaveLength(1);
    const bad = await request(t.app).get(`/api/v1/nominations?election_id=${e.electionId}&status=maybe`).set(bearer(admin));
    expect(bad.status).toBe(422);
  });
});

describe('two elections in their nominations windows at once', () => {
  it("each election's nominations, queue, candidates, opening gate and public list are its own", async () => {
    const a = await setUp();
    const b = await setUp();
    const inA = await submitted(a);
    const inB = await submitted(b);
    // A position of the other election is not this election's (422, nothing created).
    const before = await countNominations(b.electionId);
    const [p, s, x] = [await voter(), await voter(), await voter()];
    const crossed = await nominate(p.token, b.electionId, {
      position_id: a.positionId,
      nominee_member_no: x.memberNo,
      supporters: [
        { member_no: p.memberNo, role: 'proposer' },
        { member_no: s.memberNo, role: 'seconder' },
      ],
    });
    expect(crossed.status, JSON.stringify(crossed.body)).toBe(422);
    expect(await countNominations(b.electionId)).toBe(before);
    // Each queue lists its own election's nominations only.
    const queue = async (electionId: number) =>
      (await request(t.app).get(`/api/v1/nominations?election_id=${electionId}&per_page=100`).set(bearer(admin))).body.data.map(
        (n: { id: number }) => n.id,
      );
    expect(await queue(a.electionId)).toEqual([inA.id]);
    expect(await queue(b.electionId)).toEqual([inB.id]);
    // Deciding B's makes a candidate on B's position only; A's undecided one does not hold B's opening.
    expect((await decide(inB.id, { valid: true })).status).toBe(200);
    expect(await standsFor(inB.nominee.id, b.positionId)).toBe(true);
    expect(await standsFor(inB.nominee.id, a.positionId)).toBe(false);
    const open = (electionId: number) =>
      request(t.app).post(`/api/v1/toggle?election_id=${electionId}`).set(bearer(admin)).send({ status: true });
    expect((await open(b.electionId)).status).toBe(200);
    const refused = await open(a.electionId);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`#${inA.id} `);
    expect(refused.body.message).not.toContain(`#${inB.id} `);
    // B open does not close A's decisions.
    expect((await decide(inA.id, { valid: false, reason: 'Not in good standing' })).status).toBe(200);
    // After A's window, A's public list holds A's nomination only; B's window is still open (403).
    await setWindow(a.electionId, -2 * DAY, -HOUR);
    const listed = await request(t.app).get(`/api/v1/elections/${a.electionId}/nominations`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((n: { nominee: { member_no: string } }) => n.nominee.member_no)).toEqual([inA.nominee.memberNo]);
    expect((await request(t.app).get(`/api/v1/elections/${b.electionId}/nominations`)).status).toBe(403);
    await request(t.app).post(`/api/v1/toggle?election_id=${b.electionId}`).set(bearer(admin)).send({ status: false });
  });
});

describe('a member attacking through nominations', () => {
  it('cannot read the register through refusals: after 10 refused in an hour, a 429 with Retry-After, on every election', async () => {
    const e = await setUp();
    const other = await setUp();
    const [attacker, seconder] = [await voter(), await voter()];
    const members = [];
    for (let i = 0; i < 11; i++) members.push(await voter());
    const tryName = (electionId: number, positionId: number, nominee: { memberNo: string }) =>
      nominate(attacker.token, electionId, {
        position_id: positionId,
        nominee_member_no: nominee.memberNo,
        // The nominee named as a supporter too: refused, naming the member.
        supporters: [
          { member_no: attacker.memberNo, role: 'proposer' },
          { member_no: nominee.memberNo, role: 'seconder' },
        ],
      });
    for (const m of members.slice(0, 10)) {
      const res = await tryName(e.electionId, e.positionId, m);
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toContain(m.name);
    }
    const stopped = await tryName(other.electionId, other.positionId, members[10]!);
    expect(stopped.status).toBe(429);
    expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.stringify(stopped.body)).not.toContain(members[10]!.name);
    expect(stopped.body.message).toBe('Too many of your nominations were refused in the last hour; please try again later');
    // A valid one is stopped too, and nothing was created; another member is not.
    const valid = await nominate(attacker.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: members[0]!.memberNo,
      supporters: [
        { member_no: attacker.memberNo, role: 'proposer' },
        { member_no: seconder.memberNo, role: 'seconder' },
      ],
    });
    expect(valid.status).toBe(429);
    expect(await countNominations(e.electionId)).toBe(0);
    expect((await submitted(e)).id).toBeGreaterThan(0);
  });

  it('cannot text members again and again by making and withdrawing: seats + 2 made per position, withdrawn ones count', async () => {
    const e = await setUp();
    const proposer = await voter();
    let told = 0;
    for (let i = 0; i < 3; i++) {
      const [seconder, nominee] = [await voter(), await voter()];
      const made = await nominate(proposer.token, e.electionId, {
        position_id: e.positionId,
        nominee_member_no: nominee.memberNo,
        supporters: [
          { member_no: proposer.memberNo, role: 'proposer' },
          { member_no: seconder.memberNo, role: 'seconder' },
        ],
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const withdrawn = await request(t.app).post(`/api/v1/psk/nominations/${made.body.data.id}/withdraw`).set(bearer(proposer.token));
      expect(withdrawn.status).toBe(200);
      told += 2;
    }
    await sent();
    const before = emails.length + sms.length;
    expect(before).toBeGreaterThanOrEqual(told);
    const [seconder, nominee] = [await voter(), await voter()];
    const fourth = await nominate(proposer.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: nominee.memberNo,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' },
        { member_no: seconder.memberNo, role: 'seconder' },
      ],
    });
    expect(fourth.status).toBe(422);
    expect(fourth.body.errors.position_id[0]).toBe(
      'You have made 3 nominations for Chair National, the most a member may (withdrawn ones count)',
    );
    await sent();
    expect(emails.length + sms.length).toBe(before);
    expect(await countNominations(e.electionId)).toBe(3);
  });
});

describe('two supporters confirming at once', () => {
  it('both confirmations count, and the nomination moves on exactly once', async () => {
    const rounds = databaseKind === 'postgres' ? 5 : 2;
    for (let round = 0; round < rounds; round++) {
      const e = await setUp({ rule: { proposers: 1, seconders: 2 } });
      const [p, s1, s2, nominee] = [await voter(), await voter(), await voter(), await voter()];
      const made = await nominate(p.token, e.electionId, {
        position_id: e.positionId,
        nominee_member_no: nominee.memberNo,
        supporters: [
          { member_no: p.memberNo, role: 'proposer' },
          { member_no: s1.memberNo, role: 'seconder' },
          { member_no: s2.memberNo, role: 'seconder' },
        ],
      });
      const id = made.body.data.id as number;
      // Accepted first: the second confirmation to commit must submit it.
      await accept(nominee.token, id);
      const [a, b] = await Promise.all([support(s1.token, id), support(s2.token, id)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const [row] = await t.ctx.database.db.select({ status: nominations.status }).from(nominations).where(eq(nominations.id, id));
      expect(row!.status, `round ${round}`).toBe('submitted');
      const statuses = [a.body.data.status, b.body.data.status].sort();
      expect(statuses).toEqual(['awaiting_support', 'submitted']);
    }
  });
});

describe('the notices', () => {
  it('go to the members named only, never to a supporter who made it', async () => {
    const e = await setUp();
    const [p, s, n] = [await voter(), await voter(), await voter()];
    await nominate(p.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: n.memberNo,
      supporters: [
        { member_no: p.memberNo, role: 'proposer' },
        { member_no: s.memberNo, role: 'seconder' },
      ],
    });
    await sent();
    expect(emails.map((m) => m.to).sort()).toEqual([s.email, n.email].sort());
    expect(sms).toEqual([]);
  });
});

describe('what each step announces, after its commit (docs/architecture.md "One unit of work")', () => {
  it('a committed step raises nominations.changed once, a valid decision candidates.changed too, and a refused step nothing', async () => {
    const e = await setUp();
    const heard: string[] = [];
    const off = t.ctx.events.subscribe({
      'nominations.changed': () => void heard.push('nominations'),
      'candidates.changed': () => void heard.push('candidates'),
    });
    try {
      const { id, seconder, nominee } = await nominated(e);
      expect(heard).toEqual(['nominations']);
      // Refused inside its transaction (the nominee is no supporter): rolled back, nothing said.
      expect((await support(nominee.token, id)).status).toBe(403);
      expect(heard).toEqual(['nominations']);
      expect((await support(seconder.token, id)).status).toBe(200);
      expect((await accept(nominee.token, id)).status).toBe(200);
      expect(heard).toEqual(['nominations', 'nominations', 'nominations']);
      const decided = await decide(id, { valid: true });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect(heard).toEqual(['nominations', 'nominations', 'nominations', 'nominations', 'candidates']);
      expect(await standsFor(nominee.id, e.positionId)).toBe(true);
    } finally {
      off();
    }
  });
});
