import { and, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@kura/contract';
import { activityLogs, candidacies, members, nominations } from '../../db/schema';
import type { EmailMessage, SmsMessage } from '../../delivery';
import { apiClient, bodyOf, multipart, untyped, type ApiClient } from '../../../test/client';
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
/** The client of a session (the admin's unless given), and of none. */
const as = (token = admin): ApiClient => apiClient(t.app, token);
const anon = () => apiClient(t.app);
type NominationBody = Parameters<ApiClient['nominations']['createNomination']>[0]['body'];
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
  const created = await as().organisation.createElection({
    body: {
      title: `Nominations ${Math.random().toString(36).slice(2, 8)}`,
      nominations: {
        opens_at: new Date(now - HOUR).toISOString(),
        closes_at: new Date(now + DAY).toISOString(),
        appeal_days: options.appealDays ?? 3,
      },
      ...(options.electorate !== undefined ? { electorate: { branch_ids: options.electorate } } : {}),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const electionId = bodyOf(created, 201).data.id!;
  expect(bodyOf(created, 201).data.nominations?.appeal_days).toBe(options.appealDays ?? 3);
  const pos = await as().setup.createPosition({
    query: { election_id: electionId },
    body: {
      name: 'Chair',
      seats: options.seats ?? 1,
      ...(options.branchPosition ? { branch_id: await branchId(t.ctx, 'Nairobi') } : {}),
      nomination: { same_branch: false, self: false, ...(options.rule ?? { proposers: 1, seconders: 1 }) },
    },
  });
  expect(pos.status, JSON.stringify(pos.body)).toBe(201);
  const position = bodyOf(pos, 201).data[0]!;
  return { electionId, positionId: position.id, position };
}

/** Moves the election's nominations window relative to the test clock (a session would idle out if the clock moved). */
async function setWindow(electionId: number, opensIn: number, closesIn: number) {
  const now = t.clock.now().getTime();
  const res = await as().organisation.updateElectionById({
    params: { id: electionId },
    body: {
      nominations: { opens_at: new Date(now + opensIn).toISOString(), closes_at: new Date(now + closesIn).toISOString(), appeal_days: 3 },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function voter(input: Parameters<typeof createMember>[1] = {}) {
  const m = await createMember(t.ctx, input);
  return { ...m, token: await tokenFor(t.ctx, 'voter', m.id) };
}

const nominate = (token: string, electionId: number, body: NominationBody) =>
  as(token).nominations.createNomination({ query: { election_id: electionId }, body });
const support = (token: string, id: number, confirm = true) =>
  as(token).nominations.supportNomination({ params: { id }, body: { confirm } });
// Raw HTTP: acceptance sent as JSON (the route takes multipart or JSON; the typed client always sends multipart).
const accept = (token: string, id: number, body: object = { accept: true }) =>
  request(t.app).post(`/api/v1/psk/nominations/${id}/accept`).set(bearer(token)).send(body);
const decide = (id: number, body: Parameters<ApiClient['nominations']['decideNomination']>[0]['body'], token = admin) =>
  as(token).nominations.decideNomination({ params: { id }, body });
const withdraw = (token: string, id: number) => as(token).nominations.withdrawNomination({ params: { id } });
const appeal = (token: string, id: number, grounds: string) =>
  as(token).nominations.appealNomination({ params: { id }, body: { grounds } });
const decideAppeal = (id: number, body: { upheld: boolean; reason: string }) => as().nominations.decideAppeal({ params: { id }, body });
const toggle = (electionId: number, status: boolean) =>
  as().elections.toggleElection({ query: { election_id: electionId }, body: { status } });
const publicList = (electionId: number) => anon().nominations.listPublicNominations({ params: { id: electionId } });
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
  return { id: bodyOf(made, 201).data.id, proposer, seconder, nominee };
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
    const n = bodyOf(made, 201).data;
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
      const mine = await as(who.token).nominations.listMyNominations({ query: { election_id: e.electionId } });
      expect(bodyOf(mine, 200).data.map((x) => x.id)).toEqual([n.id]);
    }
    const outsider = await voter();
    expect(bodyOf(await as(outsider.token).nominations.listMyNominations({ query: { election_id: e.electionId } }), 200).data).toEqual([]);

    const seconded = await support(seconder.token, n.id);
    expect(seconded.status).toBe(200);
    expect(bodyOf(seconded, 200).data.status).toBe('awaiting_acceptance');

    const accepted = await as(nominee.token).nominations.acceptNomination({
      params: { id: n.id },
      body: multipart({
        accept: 'true',
        statement: 'I will serve the members',
        photo: { file: PNG, filename: 'me.png', contentType: 'image/png' },
      }),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(bodyOf(accepted, 200).data).toMatchObject({
      status: 'submitted',
      accepted: true,
      statement: 'I will serve the members',
      checks: [],
    });
    expect(bodyOf(accepted, 200).data.photo).toMatch(/^\/uploads\//);

    // The public list waits for the window to close.
    expect((await publicList(e.electionId)).status).toBe(403);

    const decided = await decide(n.id, { valid: true });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(bodyOf(decided, 200).data.status).toBe('valid');
    expect(bodyOf(decided, 200).data.decision).toMatchObject({ valid: true, reason: null });
    expect(await standsFor(nominee.id, e.positionId)).toBe(true);
    const [m] = await t.ctx.database.db.select().from(members).where(eq(members.id, nominee.id));
    expect(m!.statement).toBe('I will serve the members');
    expect(m!.photoUrl).toBe(bodyOf(accepted, 200).data.photo);
    // On the admin's candidates list of that election, as assign would put them.
    const listed = await as().candidates.listCandidates({ query: { election_id: e.electionId } });
    expect(bodyOf(listed, 200).data.data.candidates.map((c) => c.member_no)).toEqual([nominee.memberNo]);
    await sent();
    // The nominee and the first proposer are told of the decision.
    expect(
      sms.some((s) => s.to === nominee.phone && s.message.includes('found the nomination of Nia Nominee for Chair National valid')),
    ).toBe(true);
    expect(emails.some((x) => x.to === proposer.email && x.text.includes('valid'))).toBe(true);

    await setWindow(e.electionId, -2 * DAY, -HOUR);
    {
      const published = await publicList(e.electionId);
      expect(published.status).toBe(200);
      expect(bodyOf(published, 200).data).toEqual([
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
    const id = bodyOf(made, 201).data.id;
    expect((await accept(nominee.token, id, { accept: true })).body.data.status).toBe('awaiting_support');
    expect(bodyOf(await support(seconder.token, id), 200).data.status).toBe('submitted');
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
    expect(bodyOf(res, 422).errors).toEqual({
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
    expect(bodyOf(offNominee, 422).errors?.nominee_member_no?.[0]).toContain('is not on the roll');
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
    expect(bodyOf(res, 422).errors?.['supporters.1.member_no']?.[0]).toBe(
      `${nominee.memberNo} ${nominee.name} is the nominee and cannot also support the nomination`,
    );
    expect(await countNominations(e.electionId)).toBe(0);
  });

  it('too many supports: a member supports at most `seats` nominations per position (422)', async () => {
    const e = await setUp({ seats: 1 });
    const [proposer, seconder, a, b] = [await voter(), await voter(), await voter(), await voter()];
    const body = (nominee: string): NominationBody => ({
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
    expect(bodyOf(second, 422).errors?.['supporters.0.member_no']?.[0]).toBe(
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
        { member_no: proposer.memberNo, role: 'proposer' as const },
        { member_no: seconder.memberNo, role: 'seconder' as const },
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
          supporters: [body.supporters[0]!, { member_no: nominee.memberNo, role: 'seconder' }],
        });
        expect(again.status).toBe(403);
        expect(bodyOf(again, 403).message).toBe('Nominations are closed');
        expect(bodyOf(await support(seconder.token, bodyOf(made, 201).data.id), 403).message).toBe('Nominations are closed');
        expect((await accept(nominee.token, bodyOf(made, 201).data.id)).body.message).toBe('Nominations are closed');
      }
    }
    expect(await countNominations(e.electionId)).toBe(1);
    // An election that takes no nominations: closed as well.
    const plain = await as().organisation.createElection({ body: { title: 'No nominations' } });
    const res = await nominate(proposer.token, bodyOf(plain, 201).data.id!, body);
    expect(res.status).toBe(403);
  });

  it('wrong role: not a proposer, not a named supporter, not the nominee, not an admin (403)', async () => {
    const e = await setUp();
    const [proposer, seconder, nominee, stranger] = [await voter(), await voter(), await voter(), await voter()];
    const body = {
      position_id: e.positionId,
      nominee_member_no: nominee.memberNo,
      supporters: [
        { member_no: proposer.memberNo, role: 'proposer' as const },
        { member_no: seconder.memberNo, role: 'seconder' as const },
      ],
    };
    // The seconder, the stranger and the nominee (no self-nomination here) may not make it.
    for (const who of [seconder, stranger, nominee]) {
      const res = await nominate(who.token, e.electionId, body);
      expect(res.status).toBe(403);
      expect(bodyOf(res, 403).message).toBe('Only one of the proposers may make this nomination');
    }
    expect(await countNominations(e.electionId)).toBe(0);
    const made = await nominate(proposer.token, e.electionId, body);
    const id = bodyOf(made, 201).data.id;
    expect((await support(stranger.token, id)).status).toBe(403);
    expect((await accept(seconder.token, id)).status).toBe(403);
    expect((await withdraw(seconder.token, id)).status).toBe(403);
    expect((await decide(id, { valid: true }, proposer.token)).status).toBe(403);
    expect((await as(proposer.token).nominations.listNominations({ query: { election_id: e.electionId } })).status).toBe(403);
    const after = await as().nominations.listNominations({ query: { election_id: e.electionId } });
    expect(bodyOf(after, 200).data[0]).toMatchObject({ status: 'awaiting_support', accepted: null });
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
      const res = await nominate(
        proposer.token,
        e.electionId,
        untyped({
          position_id: e.positionId,
          nominee_member_no: nominee.memberNo,
          supporters: [{ member_no: proposer.memberNo, role: 'proposer' }],
          ...patch,
        }),
      );
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(bodyOf(res, 422).errors?.[field], JSON.stringify(res.body)).toEqual([message]);
    }
    // A position staff fill (no nomination rule).
    const staffOnly = await as().setup.createPosition({ query: { election_id: e.electionId }, body: { name: 'Treasurer' } });
    const res = await nominate(proposer.token, e.electionId, {
      position_id: bodyOf(staffOnly, 201).data[0]!.id,
      nominee_member_no: nominee.memberNo,
      supporters: [{ member_no: proposer.memberNo, role: 'proposer' }],
    });
    expect(bodyOf(res, 422).errors).toEqual({ position_id: ['Treasurer National takes no nominations'] });
    expect(await countNominations(e.electionId)).toBe(0);
    // The window and the rule are checked as they are set.
    const badWindow = await as().organisation.updateElectionById({
      params: { id: e.electionId },
      body: { nominations: { opens_at: '2030-01-02T00:00:00Z', closes_at: '2030-01-01T00:00:00Z', appeal_days: 3 } },
    });
    expect(badWindow.status).toBe(422);
    expect(bodyOf(badWindow, 422).errors?.['nominations.closes_at']).toEqual(['Nominations must close after they open']);
    const motion = await as().setup.createPosition({
      query: { election_id: e.electionId },
      body: { name: 'Motion A', kind: 'motion', nomination: { proposers: 1, seconders: 1 } },
    });
    expect(motion.status).toBe(422);
    expect(bodyOf(motion, 422).errors?.nomination).toEqual(['A motion takes no nominations']);
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
    expect(bodyOf(res, 422).errors?.['supporters.1.member_no']).toEqual([`${far.memberNo} ${far.name} is not of the position's branch`]);
  });
});

describe('decisions, appeals, withdrawal and the opening', () => {
  it('invalid needs a reason; an appeal is once, within appeal_days; upheld makes a candidate', async () => {
    const e = await setUp({ appealDays: 2 });
    const n = await submitted(e);
    const noReason = await decide(n.id, { valid: false });
    expect(noReason.status).toBe(422);
    expect(bodyOf(noReason, 422).errors?.reason).toEqual(['The reason is required when a nomination is invalid']);
    const invalid = await decide(n.id, { valid: false, reason: 'Arrears' });
    expect(bodyOf(invalid, 200).data).toMatchObject({ status: 'invalid', decision: { valid: false, reason: 'Arrears' } });
    expect((await decide(n.id, { valid: true })).status).toBe(409);
    const appealBy = (who: { token: string }) => appeal(who.token, n.id, 'Paid up last week');
    expect((await appealBy(n.proposer)).status).toBe(403);
    const first = await appealBy(n.nominee);
    expect(first.status).toBe(200);
    expect(bodyOf(first, 200).data.appeal).toEqual({ grounds: 'Paid up last week', status: 'pending', reason: null });
    const second = await appealBy(n.nominee);
    expect(second.status).toBe(409);
    expect(bodyOf(second, 409).message).toBe('This nomination has already been appealed');
    const upheld = await decideAppeal(n.id, { upheld: true, reason: 'Receipt shown' });
    expect(upheld.status).toBe(200);
    expect(bodyOf(upheld, 200).data).toMatchObject({ status: 'valid', appeal: { status: 'upheld', reason: 'Receipt shown' } });
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
      const late = await appeal(n.nominee.token, n.id, 'x');
      expect(late.status).toBe(409);
      expect(bodyOf(late, 409).message).toBe('The time to appeal has passed: 1 days from the decision');
    }
  });

  it('voting does not open over an undecided nomination or a pending appeal (409 listing them); decided, it opens; then decisions are closed', async () => {
    const e = await setUp();
    const a = await submitted(e);
    const b = await submitted(e);
    await decide(b.id, { valid: false, reason: 'Not eligible' });
    await appeal(b.nominee.token, b.id, 'I am');
    const open = () => toggle(e.electionId, true);
    const refused = await open();
    expect(refused.status).toBe(409);
    // The contract does not list toggle's 409 (nominations undecided), so its body is read as the error envelope.
    expect((refused.body as ErrorBody).message).toBe(
      `Decide the nominations first: #${a.id} ${a.nominee.name} (Chair National); #${b.id} ${b.nominee.name} (Chair National), appeal pending`,
    );
    await decide(a.id, { valid: true });
    await decideAppeal(b.id, { upheld: false, reason: 'No proof' });
    expect((await open()).status).toBe(200);
    // In the opened election: a valid nomination can no longer be withdrawn.
    const withdrawn = await withdraw(a.nominee.token, a.id);
    expect(withdrawn.status).toBe(409);
    expect(bodyOf(withdrawn, 409).message).toBe('Voting has opened; nominations can no longer be withdrawn');
    expect(await standsFor(a.nominee.id, e.positionId)).toBe(true);
    await toggle(e.electionId, false);
  });

  it('withdrawing a valid nomination before voting opens removes the candidate; declining support withdraws', async () => {
    const e = await setUp({ seats: 2 });
    const n = await submitted(e);
    await decide(n.id, { valid: true });
    expect(await standsFor(n.nominee.id, e.positionId)).toBe(true);
    const res = await withdraw(n.proposer.token, n.id);
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).data.status).toBe('withdrawn');
    expect(await standsFor(n.nominee.id, e.positionId)).toBe(false);
    expect((await withdraw(n.nominee.token, n.id)).status).toBe(409);

    const [p, s, x] = [await voter(), await voter(), await voter()];
    const made = await nominate(p.token, e.electionId, {
      position_id: e.positionId,
      nominee_member_no: x.memberNo,
      supporters: [
        { member_no: p.memberNo, role: 'proposer' },
        { member_no: s.memberNo, role: 'seconder' },
      ],
    });
    const declined = await support(s.token, bodyOf(made, 201).data.id, false);
    expect(bodyOf(declined, 200).data.status).toBe('withdrawn');
    expect((await support(s.token, bodyOf(made, 201).data.id, true)).status).toBe(409);
  });

  it('the queue filters by position and status and pages', async () => {
    const e = await setUp({ seats: 3 });
    await submitted(e);
    await submitted(e);
    const page = await as().nominations.listNominations({
      query: { election_id: e.electionId, status: 'submitted', position_id: e.positionId, per_page: 1 },
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ current_page: 1, last_page: 2, per_page: 1, total: 2 });
    expect(bodyOf(page, 200).data).toHaveLength(1);
    const bad = await as().nominations.listNominations({ query: { election_id: e.electionId, status: untyped('maybe') } });
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
      bodyOf(await as().nominations.listNominations({ query: { election_id: electionId, per_page: 100 } }), 200).data.map((n) => n.id);
    expect(await queue(a.electionId)).toEqual([inA.id]);
    expect(await queue(b.electionId)).toEqual([inB.id]);
    // Deciding B's makes a candidate on B's position only; A's undecided one does not hold B's opening.
    expect((await decide(inB.id, { valid: true })).status).toBe(200);
    expect(await standsFor(inB.nominee.id, b.positionId)).toBe(true);
    expect(await standsFor(inB.nominee.id, a.positionId)).toBe(false);
    const open = (electionId: number) => toggle(electionId, true);
    expect((await open(b.electionId)).status).toBe(200);
    const refused = await open(a.electionId);
    expect(refused.status).toBe(409);
    expect((refused.body as ErrorBody).message).toContain(`#${inA.id} `);
    expect((refused.body as ErrorBody).message).not.toContain(`#${inB.id} `);
    // B open does not close A's decisions.
    expect((await decide(inA.id, { valid: false, reason: 'Not in good standing' })).status).toBe(200);
    // After A's window, A's public list holds A's nomination only; B's window is still open (403).
    await setWindow(a.electionId, -2 * DAY, -HOUR);
    const listed = await publicList(a.electionId);
    expect(listed.status).toBe(200);
    expect(bodyOf(listed, 200).data.map((n) => n.nominee.member_no)).toEqual([inA.nominee.memberNo]);
    expect((await publicList(b.electionId)).status).toBe(403);
    await toggle(b.electionId, false);
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
    expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.stringify(stopped.body)).not.toContain(members[10]!.name);
    expect(bodyOf(stopped, 429).message).toBe('Too many of your nominations were refused in the last hour; please try again later');
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
      const withdrawn = await withdraw(proposer.token, bodyOf(made, 201).data.id);
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
    expect(bodyOf(fourth, 422).errors?.position_id?.[0]).toBe(
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
      const id = bodyOf(made, 201).data.id;
      // Accepted first: the second confirmation to commit must submit it.
      await accept(nominee.token, id);
      const [a, b] = await Promise.all([support(s1.token, id), support(s2.token, id)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const [row] = await t.ctx.database.db.select({ status: nominations.status }).from(nominations).where(eq(nominations.id, id));
      expect(row!.status, `round ${round}`).toBe('submitted');
      const statuses = [bodyOf(a, 200).data.status, bodyOf(b, 200).data.status].sort();
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
