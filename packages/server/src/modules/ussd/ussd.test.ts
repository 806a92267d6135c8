import { and, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogs, organisation, participation } from '../../db/schema';
import { parseEnv } from '../../env';
import { startSmsSink, type SmsSink } from '../../../test/auth/sms-sink';
import { apiClient, bodyOf, type ApiClient } from '../../../test/client';
import { createCandidate, createMember, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { setVoting } from '../../../test/voting/election';
import { phoneSession, reachableRedis, USSD_TOKEN } from '../../../test/ussd/gateway';
import { DatabaseSessionStore, gsmLength, isGsm, MAX_SCREEN, RedisSessionStore, type UssdSessionData, type UssdSessionStore } from '.';

/**
 * Voting by USSD through the HTTP endpoint exactly as Africa's Talking calls it (docs/operations.md
 * "Voting by USSD with Africa's Talking"): sign-in by member number, the dialling phone and an SMS
 * code; the ballot screen by screen for every position kind; one vote through the vote path.
 */
let t: TestApp;
let sms: SmsSink;
let admin: string;
type Created = { id: number };
let chair: Created;
let board: Created;
let committee: Created;
let ranked: Created;
let motion: Created;
const c: Record<string, { id: number; name: string }> = {};

type PositionBody = Parameters<ApiClient['setup']['createPosition']>[0]['body'];
const createPosition = async (body: PositionBody) => {
  const res = await apiClient(t.app, admin).setup.createPosition({ body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return bodyOf(res, 201).data[0] as Created;
};

let phoneSeq = 0;
/** A member registered with an E.164 phone (the register's form), and the same phone as dialled. */
async function member(input: { language?: string | null; onRoll?: boolean } = {}) {
  const phone = `+2547${String(10_000_000 + ++phoneSeq * 7919 + Math.floor(Math.random() * 1000) * 10_000).slice(-8)}`;
  return createMember(t.ctx, { phone, ...input });
}

/** Dials and signs in with the code the SMS sink received; answers the session and the first ballot screen. */
async function signedIn(m: { memberNo: string; phone: string }, dialled = m.phone) {
  const phone = phoneSession(t.app, dialled);
  const screens = [await phone.send()];
  screens.push(await phone.send(m.memberNo));
  expect(screens[1]).toMatch(/^CON /);
  screens.push(await phone.send(sms.codeFor(m.phone)));
  return { phone, screens };
}

const participations = async (memberId: number) =>
  (await t.ctx.database.db.select().from(participation).where(eq(participation.memberId, memberId))).map((r) => r.positionId).sort();

const redisUrl = await reachableRedis();
/** Every test runs with the session store on the database, and again on Redis where one answers. */
const STORES = redisUrl ? (['database', 'redis'] as const) : (['database'] as const);

/** The store the app under test keeps its sessions in, read from outside. */
function storeOf(kind: (typeof STORES)[number]): UssdSessionStore<UssdSessionData> & { close?(): Promise<void> } {
  return kind === 'redis' ? new RedisSessionStore(redisUrl!, 60_000) : new DatabaseSessionStore(t.ctx);
}

describe.each(STORES)('with the session store on %s', (kind) => {
  beforeAll(async () => {
    sms = await startSmsSink();
    t = await createTestApp({
      seedReference: false,
      env: {
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: sms.url,
        USSD_CALLBACK_TOKEN: USSD_TOKEN,
        MIX_INTERVAL_MS: '3600000',
        ...(kind === 'redis' ? { REDIS_URL: redisUrl } : {}),
      },
    });
    await t.ctx.database.db.update(organisation).set({ name: 'Chama cha Walimu' });
    admin = await tokenFor(t.ctx, 'admin');
    chair = await createPosition({ name: 'Chair' });
    board = await createPosition({ name: 'Board Member', seats: 3 });
    committee = await createPosition({ name: 'Committee', seats: 2, method: 'approval' });
    ranked = await createPosition({ name: 'Treasurer', method: 'ranked' });
    motion = await createPosition({ name: 'Adopt the budget', kind: 'motion', threshold: 'majority' });
    for (const name of ['Alice Achieng', 'Brian Barasa']) c[name] = await createCandidate(t.ctx, [chair.id], { name });
    // A long list: more than one page.
    for (const name of [
      'Chebet Cherono Kiprotich',
      'Daudi Wanyama Odhiambo',
      'Esther Wambui Kamau',
      'Faith Nyambura Mwangi',
      'Gideon Kiprono Rotich',
      'Halima Abdi Hassan',
      'Isaac Mutua Musyoka',
      'Joyce Akinyi Otieno',
    ])
      c[name] = await createCandidate(t.ctx, [board.id], { name });
    for (const name of ['Pia Pendo', 'Quentin Kioko', 'Rosa Rehema']) c[name] = await createCandidate(t.ctx, [committee.id], { name });
    for (const name of ['Xavi Xamu', 'Yara Yego', 'Zola Zawadi']) c[name] = await createCandidate(t.ctx, [ranked.id], { name });
    await t.ctx.voting.tallyOf(1).refreshStructure();
    await setVoting(t.ctx, true);
  });
  afterAll(async () => {
    await t?.close();
    await sms?.close();
  });

  describe('the callback', () => {
    it('is a 404 with a wrong or missing token, and the channel is off with no token set', async () => {
      const m = await member();
      expect(
        (
          await request(t.app)
            .post('/api/v1/ussd/wrong-token-wrong-token-wrong-token')
            .type('form')
            .send({ sessionId: 'x', phoneNumber: m.phone, text: '' })
        ).status,
      ).toBe(404);
      expect(
        (await request(t.app).post('/api/v1/ussd/').type('form').send({ sessionId: 'x', phoneNumber: m.phone, text: '' })).status,
      ).toBe(404);
      expect(() => parseEnv({ NODE_ENV: 'test', USSD_CALLBACK_TOKEN: 'short' })).toThrow(/USSD_CALLBACK_TOKEN/);
    });

    it('refuses a body that is not the gateway’s with a 422 in the error envelope', async () => {
      const res = await request(t.app).post(`/api/v1/ussd/${USSD_TOKEN}`).type('form').send({ phoneNumber: '+254712000000', text: '' });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ message: expect.any(String), errors: { sessionId: expect.any(Array) } });
    });
  });

  describe('signing in', () => {
    it('greets with the organisation, texts a code, and takes it', async () => {
      const m = await member();
      const phone = phoneSession(t.app, m.phone);
      const first = await phone.send();
      expect(first).toBe('CON Chama cha Walimu\nEnter your member number');
      expect(await phone.send(m.memberNo)).toMatch(/^CON A 6-digit code has been sent/);
      const code = sms.codeFor(m.phone);
      expect(await phone.send(code)).toMatch(/^CON Chair National\n1\.Alice Achieng\n2\.Brian Barasa/);
    });

    it('matches the dialling phone in E.164 whatever way either is written', async () => {
      const m = await createMember(t.ctx, { phone: '0722000111' });
      const { screens } = await signedIn(m, '+254722000111');
      expect(screens[2]).toMatch(/^CON Chair/);
    });

    it('ends with one message for an unknown member and a wrong phone, and texts nothing', async () => {
      const m = await member();
      const sent = sms.messages.length;
      const unknown = phoneSession(t.app, m.phone);
      await unknown.send();
      const a = await unknown.send('no-such-member-99');
      const wrong = phoneSession(t.app, '+254733999888');
      await wrong.send();
      const b = await wrong.send(m.memberNo);
      expect(a).toMatch(/^END We could not sign you in/);
      expect(b).toBe(a);
      expect(sms.messages.length).toBe(sent);
    });

    it('asks again after a wrong code, and ends when the code is used up', async () => {
      const m = await member();
      const phone = phoneSession(t.app, m.phone);
      await phone.send();
      await phone.send(m.memberNo);
      const right = sms.codeFor(m.phone);
      const wrong = right === '000000' ? '111111' : '000000';
      for (let i = 0; i < 4; i++) expect(await phone.send(wrong)).toMatch(/^CON Wrong code/);
      expect(await phone.send(wrong)).toMatch(/^END The code has expired/);
      const failures = await t.ctx.database.db
        .select()
        .from(activityLogs)
        .where(
          and(
            eq(activityLogs.userId, m.id),
            eq(activityLogs.activity, 'Voter sign-in: USSD code check'),
            eq(activityLogs.status, 'failed'),
          ),
        );
      expect(failures).toHaveLength(5);
    });

    it('takes the member’s own pin instead of the code, never the default pin, and spends the code', async () => {
      const m = await member();
      const token = await tokenFor(t.ctx, 'voter', m.id);
      // Without a pin of their own, the default pin is a wrong code.
      const before = phoneSession(t.app, m.phone);
      await before.send();
      expect(await before.send(m.memberNo)).toBe('CON A 6-digit code has been sent to you by SMS.\nEnter the code');
      expect(await before.send(t.ctx.env.DEFAULT_PIN)).toMatch(/^CON Wrong code\./);
      const pin = '5083';
      const changed = await apiClient(t.app, token).auth.changePin({ body: { current_pin: t.ctx.env.DEFAULT_PIN, new_pin: pin } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      t.clock.advance(61_000);
      const phone = phoneSession(t.app, m.phone);
      await phone.send();
      expect(await phone.send(m.memberNo)).toBe('CON A 6-digit code has been sent to you by SMS.\nEnter the code or your own pin');
      // The default pin never opens it, and a wrong pin spends one of the code's tries like a wrong code.
      expect(await phone.send(t.ctx.env.DEFAULT_PIN)).toMatch(/^CON Wrong code or pin\./);
      expect(await phone.send('9137')).toMatch(/^CON Wrong code or pin\./);
      expect(await phone.send(pin)).toMatch(/^CON Chair/);
      const [row] = await t.ctx.database.db.execute<{ tries: number; used: boolean }>(
        sql`select tries, used_at is not null as used from otp_challenges where subject_id = ${m.id} and purpose = 'voter' order by id desc limit 1`,
      );
      expect(row).toMatchObject({ tries: 2, used: true });
      const success = await t.ctx.database.db
        .select()
        .from(activityLogs)
        .where(
          and(
            eq(activityLogs.userId, m.id),
            eq(activityLogs.activity, 'Voter sign-in: USSD code check'),
            eq(activityLogs.status, 'success'),
          ),
        );
      expect(success.map((r) => r.data)).toEqual(['pin']);
      for (const s of ['Enter the code or your own pin', 'Wrong code or pin.\nEnter the 6-digit code from the SMS or your own pin'])
        expect(gsmLength(s)).toBeLessThanOrEqual(MAX_SCREEN);
    });

    it('a second code within a minute is refused (the sign-in limits), the session ends saying so', async () => {
      const m = await member();
      const one = phoneSession(t.app, m.phone);
      await one.send();
      await one.send(m.memberNo);
      const two = phoneSession(t.app, m.phone);
      await two.send();
      expect(await two.send(m.memberNo)).toMatch(/^END A code was sent less than a minute ago/);
    });

    it('ends a session idle for more than 180 s', async () => {
      const m = await member();
      const phone = phoneSession(t.app, m.phone);
      await phone.send();
      t.clock.advance(181_000);
      expect(await phone.send(m.memberNo)).toMatch(/^END Your session has timed out/);
    });

    it('forgets an abandoned session, with its choices, once a session starts well past the idle limit', async () => {
      const m = await member();
      const { phone } = await signedIn(m);
      await phone.send('1'); // a choice held in the session
      const store = storeOf(kind);
      try {
        expect(await store.read(phone.sessionId)).toBeDefined();
        t.clock.advance(2 * 180_000 + 61_000);
        expect(await phoneSession(t.app, (await member()).phone).send()).toMatch(/^CON /);
        // The database forgets it at the next session's start; Redis by its own expiry (not waited for here).
        if (kind === 'database') expect(await store.read(phone.sessionId)).toBeUndefined();
        expect(await phone.send('1')).toMatch(/^END Your session has timed out/);
      } finally {
        await store.close?.();
      }
    });
  });

  /** Votes through every screen: chair 1, board two then done, committee one then done, ranked all three, motion yes. */
  async function fullVote(phone: ReturnType<typeof phoneSession>, screens: string[]) {
    for (const input of ['2', '1', '98', '1', '99', '3', '99', '2', '1', '1', '1']) screens.push(await phone.send(input));
    return screens;
  }

  describe('voting', () => {
    it('walks every position kind to a summary, casts once through the vote path, texts receipts without choices', async () => {
      const m = await member();
      const { phone, screens } = await signedIn(m);
      await fullVote(phone, screens);
      const summary = screens.at(-1)!;
      expect(summary).toMatch(/^CON Confirm your vote:/);
      expect(screens.slice(2).some((s) => s.includes('98.More'))).toBe(true);
      expect(screens).toContainEqual(expect.stringMatching(/Your 2nd choice/));
      expect(screens).toContainEqual(expect.stringMatching(/1\.Yes\n2\.No\n3\.Abstain/));
      const before = sms.messages.length;
      const recorded = await phone.send('1');
      expect(recorded).toBe('END Your vote is recorded. Your receipts follow by SMS. Thank you.');
      expect(await participations(m.id)).toEqual([chair.id, board.id, committee.id, ranked.id, motion.id].sort());
      // The activity log: voted by USSD, never for whom.
      const [row] = await t.ctx.database.db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.userId, m.id), eq(activityLogs.activity, 'Voted by USSD')));
      expect(row).toMatchObject({ status: 'success' });
      for (const name of Object.keys(c)) expect(JSON.stringify(row)).not.toContain(name);
      // The receipts SMS: each position with its code, no candidate.
      await t.ctx.notices.stop();
      const receipt = sms.messages.slice(before).find((s) => s.to === m.phone)!;
      expect(receipt.message).toContain('Chair ');
      expect(receipt.message).toContain('Adopt the budget ');
      for (const name of Object.keys(c)) expect(receipt.message).not.toContain(name);
      expect(receipt.message).not.toMatch(/\bYes\b/);
      // The choices counted as chosen: Brian for chair, Yara first on the ranked ballot.
      const mine = await apiClient(t.app, await tokenFor(t.ctx, 'voter', m.id)).vvpat.getMyVvpat();
      expect(mine.status).toBe(200);
      // Statistics by channel: this member by USSD, a web voter by the web.
      const stats = async () => bodyOf(await apiClient(t.app, await tokenFor(t.ctx, 'agent')).elections.getAgentStatistics(), 200).data;
      const before2 = (await stats()).channels!;
      expect(before2.ussd).toBeGreaterThanOrEqual(1);
      const web = await member();
      const token = await tokenFor(t.ctx, 'voter', web.id);
      expect(
        (await apiClient(t.app, token).ballots.castVote({ body: { candidates: { [chair.id]: c['Alice Achieng']!.id } } })).status,
      ).toBe(201);
      expect((await stats()).channels).toEqual({ web: before2.web + 1, ussd: before2.ussd });
    });

    it('answers a repeated request the same and never casts twice, even at once', async () => {
      const m = await member();
      const { phone, screens } = await signedIn(m);
      expect(await phone.repeat()).toBe(screens.at(-1));
      await fullVote(phone, screens);
      phone.inputs.push('1');
      const answers = await Promise.all([phone.repeat(), phone.repeat(), phone.repeat()]);
      expect(new Set(answers)).toEqual(new Set(['END Your vote is recorded. Your receipts follow by SMS. Thank you.']));
      expect(await phone.repeat()).toBe(answers[0]);
      // The finished session keeps no choice and no screen that showed one (ballot secrecy).
      const store = storeOf(kind);
      const stored = await store.read(phone.sessionId);
      await store.close?.();
      const kept = JSON.stringify(stored!.data);
      if (kind === 'redis') {
        // On Redis the sessions are not in the database at all.
        const [row] = await t.ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from ussd_sessions`);
        expect(Number(row!.n)).toBe(0);
      }
      for (const name of Object.keys(c)) expect(kept).not.toContain(name.split(' ')[0]!);
      expect(kept).not.toContain('picks');
      const [row] = await t.ctx.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from activity_logs where user_id = ${m.id} and activity = 'Voted by USSD'`,
      );
      expect(Number(row!.n)).toBe(1);
      expect((await participations(m.id)).length).toBe(5);
    });

    it('goes back, skips, and casts only what was chosen', async () => {
      const m = await member();
      const { phone } = await signedIn(m);
      expect(await phone.send('1')).toMatch(/^CON Board Member/);
      expect(await phone.send('0')).toMatch(/^CON Chair/); // back: the chair's choice undone
      await phone.send('2');
      for (const skip of ['00', '00', '00', '00']) await phone.send(skip);
      const summary = await phone.send(); // same text again (a repeat)
      expect(summary).toMatch(/Chair National: Brian Barasa\nBoard Member Nation.: skipped/);
      expect(await phone.send('1')).toMatch(/^END Your vote is recorded/);
      expect(await participations(m.id)).toEqual([chair.id]);
    });

    it('leaves out a position voted on the web first, and says so when the web vote comes during the session', async () => {
      const m = await member();
      const token = await tokenFor(t.ctx, 'voter', m.id);
      expect(
        (await apiClient(t.app, token).ballots.castVote({ body: { candidates: { [chair.id]: c['Alice Achieng']!.id } } })).status,
      ).toBe(201);
      const { phone, screens } = await signedIn(m);
      expect(screens[2]).toMatch(/^CON Board Member/);
      await phone.send('00');
      await phone.send('00');
      await phone.send('00');
      expect(await phone.send('1')).toMatch(/^CON Confirm/);
      expect(
        (await apiClient(t.app, token).ballots.castVote({ body: { candidates: { [motion.id]: await motionOption('No') } } })).status,
      ).toBe(201);
      expect(await phone.send('1')).toBe('END You have already voted for Adopt the budget National.');
      const again = await signedInAfterAMinute(m);
      expect(again).toMatch(/^CON Board Member/);
    });

    it('two sessions of one member: the second to confirm is told the vote is already in', async () => {
      const m = await member();
      const a = await signedIn(m);
      t.clock.advance(61_000);
      const b = await signedIn(m);
      for (const s of [a, b]) for (const input of ['1', '00', '00', '00', '00']) await s.phone.send(input);
      expect(await a.phone.send('1')).toMatch(/^END Your vote is recorded/);
      expect(await b.phone.send('1')).toBe('END You have already voted for Chair National.');
    });

    it('answers paused, closed and off the roll', async () => {
      const off = await member({ onRoll: false });
      await t.ctx.database.db.execute(sql`update election set roll_frozen_at = coalesce(roll_frozen_at, now()) where id = 1`);
      const late = await member({ onRoll: false });
      const lateSession = await signedIn(late);
      expect(lateSession.screens[2]).toBe('END You are not on the roll of an election open now.');
      void off;
      const m = await member();
      const phone = phoneSession(t.app, m.phone);
      await phone.send();
      await phone.send(m.memberNo);
      await setVoting(t.ctx, false);
      try {
        expect(await phone.send(sms.codeFor(m.phone))).toBe('END Voting is paused. Please dial again when it resumes.');
      } finally {
        await setVoting(t.ctx, true);
      }
    });
  });

  async function motionOption(name: string) {
    const [row] = await t.ctx.database.db.execute<{ id: number }>(
      sql`select id from motion_options where position_id = ${motion.id} and name = ${name}`,
    );
    return row!.id;
  }

  async function signedInAfterAMinute(m: { memberNo: string; phone: string }) {
    t.clock.advance(61_000);
    return (await signedIn(m)).screens[2]!;
  }

  describe('screens', () => {
    it.each(['en', 'sw'])('every screen of a full session in %s is at most 182 GSM 7-bit characters', async (language) => {
      const m = await member({ language });
      const phone = phoneSession(t.app, m.phone);
      const screens = [await phone.send(), await phone.send(m.memberNo), await phone.send(sms.codeFor(m.phone))];
      // Wrong input, paging back and forth, back to a previous position: every kind of screen.
      for (const input of ['77', '1', '98', '0', '98', '1', '2', '99', '1', '99', '1', '1', '1', '1', '5', '0'])
        screens.push(await phone.send(input));
      screens.push(await phone.send('1'));
      screens.push(await phone.send('1'));
      expect(screens.at(-1)).toMatch(/^END /);
      if (language === 'sw') expect(screens.at(-1)).toContain('Kura yako imerekodiwa');
      for (const s of screens) {
        const body = s.slice(4);
        expect(isGsm(body), body).toBe(true);
        expect(gsmLength(body), body).toBeLessThanOrEqual(MAX_SCREEN);
      }
    });
  });

  describe('several elections', () => {
    it('offers a menu of the open elections the member is on the roll of, with back to it; then closed', async () => {
      const api = apiClient(t.app, admin);
      const created = await api.organisation.createElection({ body: { title: 'Special resolution 2026' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const second = bodyOf(created, 201).data.id!;
      const res = await api.setup.createPosition({
        query: { election_id: second },
        body: { name: 'Change the rules', kind: 'motion', threshold: 'two_thirds' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await t.ctx.voting.tallyOf(second).refreshStructure();
      expect((await api.elections.toggleElection({ query: { election_id: second }, body: { status: true } })).status).toBe(200);
      const m = await member();
      const { phone, screens } = await signedIn(m);
      expect(screens[2]).toMatch(/^CON Choose an election\n1\..+\n2\.Special resolution 2026$/);
      expect(await phone.send('2')).toMatch(/^CON Change the rules/);
      expect(await phone.send('0')).toMatch(/^CON Choose an election/);
      expect(await phone.send('2')).toMatch(/^CON Change the rules/);
      expect(await phone.send('2')).toMatch(/^CON Confirm your vote:\nChange the rules.*: No/);
      expect(await phone.send('1')).toMatch(/^END Your vote is recorded/);

      // Every election closed: the next caller is told so.
      await t.ctx.database.db.execute(sql`update election set voting_active = false, closed_at = now()`);
      const late = await member();
      const closed = phoneSession(t.app, late.phone);
      await closed.send();
      await closed.send(late.memberNo);
      expect(await closed.send(sms.codeFor(late.phone))).toBe('END Voting has closed.');
    });
  });

  describe('the session store', () => {
    it('creates a session once, lets one request of two take it, ignores a stale write, and is free again after release', async () => {
      const store = storeOf(kind);
      try {
        const id = `store-${Math.random().toString(36).slice(2)}`;
        const now = t.clock.now();
        const later = new Date(now.getTime() + 30_000);
        const data = { language: 'en', phone: '+254700000001', answers: { '': 'CON Welcome' }, step: 'member' } as UssdSessionData;
        const created = await Promise.all([store.create(id, data, now), store.create(id, data, now)]);
        expect(created.filter(Boolean)).toHaveLength(1);
        expect(await store.read(id)).toMatchObject({ data: { step: 'member', answers: { '': 'CON Welcome' } }, heldUntil: null });
        const first = await Promise.all([store.take(id, now, later), store.take(id, now, later)]);
        expect(first.filter((s) => s !== undefined)).toHaveLength(1);
        const v1 = first.find((s) => s !== undefined)!.version;
        await store.write(id, v1, { ...data, step: 'code' }, now);
        const read = await store.read(id);
        expect(read).toMatchObject({ data: { step: 'code' }, heldUntil: null });
        const held = await Promise.all([store.take(id, now, later), store.take(id, now, later)]);
        const taken = held.filter((s) => s !== undefined);
        expect(taken).toHaveLength(1);
        expect(taken[0]).toMatchObject({ data: { step: 'code' } });
        const v2 = taken[0]!.version;
        // Held: nobody else takes it until the hold lapses or is let go.
        expect(await store.take(id, now, later)).toBeUndefined();
        expect((await store.read(id))!.heldUntil).not.toBeNull();
        await store.write(id, v1, { ...data, step: 'over' }, now); // a stale holder's write changes nothing
        expect((await store.read(id))!.data.step).toBe('code');
        await store.release(id, v2);
        expect(await store.take(id, now, later)).toMatchObject({ data: { step: 'code' } });
        // A lapsed hold: taken again once its time is past.
        expect(await store.take(id, new Date(later.getTime() + 1), new Date(later.getTime() + 30_000))).toMatchObject({
          data: { step: 'code' },
        });
        expect(await store.take(`${id}-none`, now, later)).toBeUndefined();
      } finally {
        await store.close?.();
      }
    });
  });
});

describe('the channel’s state for the admin’s USSD page (GET ussd/status)', () => {
  it('gives admins the callback path with its token, agents nothing; with no token the channel is off', async () => {
    const status = async (app: TestApp, role: 'admin' | 'agent') => apiClient(app.app, await tokenFor(app.ctx, role)).ussd.getUssdStatus();
    const on = await createTestApp({ seedReference: false, env: { USSD_CALLBACK_TOKEN: USSD_TOKEN } });
    try {
      const res = await status(on, 'admin');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ enabled: true, callback_path: `/api/v1/ussd/${USSD_TOKEN}` });
      const agent = await status(on, 'agent');
      expect(agent.status).toBe(403);
      expect(JSON.stringify(agent.body)).not.toContain(USSD_TOKEN);
      // The path it gives is the one the gateway's callback answers on.
      const m = await createMember(on.ctx, { phone: '+254711222333' });
      expect(await phoneSession(on.app, m.phone).send()).toMatch(/^CON /);
    } finally {
      await on.close();
    }
    const off = await createTestApp({ seedReference: false });
    try {
      expect((await status(off, 'admin')).body).toEqual({ enabled: false, callback_path: null });
      const res = await request(off.app)
        .post(`/api/v1/ussd/${USSD_TOKEN}`)
        .type('form')
        .send({ sessionId: 'x', phoneNumber: '+254711222333', text: '' });
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
  }, 120_000);
});

describe('the member’s sign-in limits', () => {
  it('counts wrong codes with the member’s code failures and ends the session at the ceiling', async () => {
    const sink = await startSmsSink();
    const app = await createTestApp({
      seedReference: false,
      env: {
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: sink.url,
        USSD_CALLBACK_TOKEN: USSD_TOKEN,
        RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: '3',
      },
    });
    try {
      const m = await createMember(app.ctx, { phone: '+254711000222' });
      const phone = phoneSession(app.app, m.phone);
      await phone.send();
      await phone.send(m.memberNo);
      const right = sink.codeFor(m.phone);
      const wrong = right === '000000' ? '111111' : '000000';
      for (let i = 0; i < 3; i++) expect(await phone.send(wrong)).toMatch(/^CON Wrong code/);
      // The ceiling: not even the right code is checked now.
      expect(await phone.send(right)).toBe('END Too many failed attempts. Please try again later.');
    } finally {
      await app.close();
      await sink.close();
    }
  }, 120_000);
});
