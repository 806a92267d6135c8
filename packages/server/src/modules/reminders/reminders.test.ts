import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../bootstrap';
import type { AppContext } from '../../context';
import { openDatabase, type Database } from '../../db/client';
import { activityLogs, election, members } from '../../db/schema';
import { createDelivery, type Delivery } from '../../delivery';
import { parseEnv } from '../../env';
import { createLogger } from '../../logger';
import { randomSecrets } from '../../secrets';
import { startSmsSink, type SmsSink } from '../../../test/auth/sms-sink';
import { startSmtpCapture, type SmtpCapture } from '../../../test/auth/smtp-capture';
import { apiClient, bodyOf, untyped, type ApiClient } from '../../../test/client';
import { tokenFor } from '../../../test/factories';
import {
  createTestApp,
  createTestDatabase,
  databaseKind,
  TEST_DATABASE_URL,
  TestClock,
  type TestApp,
  type TestDatabase,
} from '../../../test/harness';
import { closeIn, holdAsClose, lockWaiters, whileClosing } from '../../../test/two-sessions';
import { createElection, createVoter, setVoting, vote, type Election } from '../../../test/voting/election';
import { waitFor } from '../../../test/voting/sockets';
import { createReminderSender, STALE_CLAIM_MS } from './reminder-sender';
import { createReminder } from './reminders.service';

/**
 * Reminders through the real transports: an SMTP server and an HTTP SMS gateway on loopback. The
 * rate is measured at the sinks; a second "process" is a second context (own event bus, own sender,
 * and on Postgres its own connection pool) on the same database.
 */

const RATE = 10; // per second: one message every 100 ms
let smtp: SmtpCapture;
let sms: SmsSink;
let t: TestApp;
let e: Election;
let admin: string;
const voterIds = new Set<number>();

beforeAll(async () => {
  [smtp, sms] = await Promise.all([startSmtpCapture(), startSmsSink()]);
  t = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: sms.url,
      REMINDER_RATE_PER_SECOND: String(RATE),
      MIX_INTERVAL_MS: '3600000',
    },
  });
  e = await createElection(t.ctx);
  admin = await tokenFor(t.ctx, 'admin');
  await setVoting(t.ctx, true);
  for (let i = 0; i < 3; i++) {
    const v = await createVoter(t.ctx);
    expect((await vote(t.app, v.token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    voterIds.add(v.member.id);
  }
  // Non-voters: the six candidates of the election plus these, some with a session of their own.
  for (let i = 0; i < 6; i++) await createVoter(t.ctx);
});
afterAll(async () => {
  await t?.close();
  await Promise.all([smtp?.close(), sms?.close()]);
});

type ReminderBody = Parameters<ApiClient['reminders']['createReminder']>[0]['body'];
const remind = (body: ReminderBody, token = admin, electionId?: number) =>
  apiClient(t.app, token).reminders.createReminder({ query: electionId === undefined ? {} : { election_id: electionId }, body });
const progress = async (id: number) => bodyOf(await apiClient(t.app, admin).reminders.getReminder({ params: { id } }), 200);
const until = async (id: number, timeoutMs = 15_000) => {
  let last: { status?: string } = {};
  await waitFor(
    async () => (last = await progress(id)).status === 'done',
    timeoutMs,
    () => `reminder ${id} done: ${JSON.stringify(last)}`,
  );
  return progress(id);
};

async function nonVoters() {
  const all = await t.ctx.database.db
    .select({ id: members.id, name: members.name, email: members.email, phone: members.phone })
    .from(members);
  return all.filter((m) => !voterIds.has(m.id));
}

function assertRate(times: number[], label: string) {
  const sorted = [...times].sort((a, b) => a - b);
  const interval = 1000 / RATE;
  // Never faster than the rate (a little slack for arrival jitter), and not dawdling either (loose:
  // CI machines are loaded). Counted from the second arrival: the first also carries the
  // transport's first connection, which arrives it late and shortened the span once in CI.
  const span = sorted.at(-1)! - sorted[1]!;
  const gaps = times.length - 2;
  expect(span, `${label}: ${times.length} messages, ${span} ms from the second`).toBeGreaterThanOrEqual(gaps * interval - 60);
  expect(span, `${label}: ${times.length} messages, ${span} ms from the second`).toBeLessThan(gaps * interval * 3 + 8000);
  // No bursts: any four consecutive arrivals span at least two intervals, less the same slack for
  // arrival jitter as the span (a send held up on a loaded machine arrives close to the next: CI
  // saw 180 ms for 200; sends without the rate arrive within a few ms). The first few are left
  // out: the transport's first connection (nodemailer loads on first use) holds them up together.
  for (let i = 4; i + 3 < sorted.length; i++) {
    expect(sorted[i + 3]! - sorted[i]!, `${label}: burst at ${i}`).toBeGreaterThanOrEqual(2 * interval - 60);
  }
}

describe('reminders', () => {
  it('validates the request, and a dry run only counts', async () => {
    const bad = await remind(untyped({ channel: 'fax', message: '' }));
    expect(bad.status).toBe(422);
    expect(bodyOf(bad, 422).errors?.channel).toEqual(['The channel must be sms or email']);
    expect(bodyOf(bad, 422).errors?.message).toEqual(['The message field is required']);
    expect((await remind({ channel: 'sms', message: 'x'.repeat(1001) })).status).toBe(422);
    expect((await remind({ channel: 'sms', message: 'hi' }, await tokenFor(t.ctx, 'agent'))).status).toBe(403);
    expect((await apiClient(t.app, admin).reminders.getReminder({ params: { id: 999999 } })).status).toBe(404);

    const expected = (await nonVoters()).length;
    const dry = await remind({ channel: 'email', message: 'Hello {name}', dry_run: true });
    expect(dry.status).toBe(202);
    expect(dry.body).toEqual({ id: null, recipients: expected });
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages).toHaveLength(0);
  });

  it('emails exactly the members who have not voted, with {name} filled in, at the configured rate, each send logged', async () => {
    const targets = await nonVoters();
    // The subject names the election the admins set up (not a start-up variable, unset here).
    await t.ctx.database.db.update(election).set({ title: 'Chama Branch Elections 2026' });
    const res = await remind({ channel: 'email', message: 'Dear {name}, please vote today. {name}!' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(Number), recipients: targets.length });
    const done = await until(bodyOf(res, 202).id!);
    expect(done).toEqual({
      id: bodyOf(res, 202).id!,
      channel: 'email',
      total: targets.length,
      sent: targets.length,
      failed: 0,
      skipped: 0,
      status: 'done',
    });

    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual(targets.map((m) => m.email).sort());
    for (const m of targets) {
      const mail = smtp.messages.find((x) => x.to[0] === m.email)!;
      expect(mail.raw).toContain(`Dear ${m.name}, please vote today. ${m.name}!`);
      expect(mail.raw).toContain('Subject: Reminder: Chama Branch Elections 2026\r\n');
      expect(mail.raw).not.toContain('undefined');
    }
    assertRate(
      smtp.messages.map((m) => m.at),
      'email',
    );
    const logs = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(sql`${activityLogs.activity} = 'Reminder sent'`);
    expect(logs.map((l) => l.userId).sort()).toEqual(targets.map((m) => m.id).sort());
    expect(logs.every((l) => l.status === 'success' && l.data === `reminder ${bodyOf(res, 202).id!} by email`)).toBe(true);
    const queued = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(sql`${activityLogs.activity} = 'Queued reminder'`);
    expect(queued.map((l) => l.data)).toEqual([`reminder ${bodyOf(res, 202).id!}: email to ${targets.length} members`]);
  });

  it('skips a member reminded within the hour (whatever the channel); after the hour, texts them; a failing gateway is counted, not fatal', async () => {
    const again = await remind({ channel: 'sms', message: 'Hi {name}' });
    expect(again.status).toBe(202);
    expect(bodyOf(again, 202).recipients).toBe(0);
    expect(await progress(bodyOf(again, 202).id!)).toMatchObject({ total: 0, sent: 0, status: 'done' });

    t.clock.advance(61 * 60 * 1000);
    const targets = await nonVoters();
    sms.failNext(503, 2);
    const res = await remind({ channel: 'sms', message: 'Hi {name}, voting is open' });
    expect(bodyOf(res, 202).recipients).toBe(targets.length);
    const done = await until(bodyOf(res, 202).id!);
    expect(done).toMatchObject({ total: targets.length, sent: targets.length - 2, failed: 2, skipped: 0, status: 'done' });
    expect(sms.messages).toHaveLength(targets.length - 2);
    const phones = new Set(targets.map((m) => m.phone));
    for (const m of sms.messages) {
      expect(phones.has(m.to)).toBe(true);
      const member = targets.find((x) => x.phone === m.to)!;
      expect(m.message).toBe(`Hi ${member.name}, voting is open`);
    }
    assertRate(sms.arrivals, 'sms');
    const failed = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(sql`${activityLogs.activity} = 'Reminder failed'`);
    expect(failed).toHaveLength(2);
    expect(failed[0]!.data).toMatch(
      new RegExp(`^reminder ${bodyOf(res, 202).id!} by sms: sms delivery via webhook failed: webhook answered HTTP 503`),
    );
    // The message text never reaches the log.
    expect(failed.every((l) => !l.data!.includes('voting is open'))).toBe(true);
  });

  it('passes over a member who voted after the campaign was queued', async () => {
    t.clock.advance(61 * 60 * 1000);
    const late = await createVoter(t.ctx);
    // The campaign was fixed before the vote (written straight in, as the create step would have); the send-time check catches it.
    expect((await vote(t.app, late.token, { [e.chair.id]: e.brian.id })).status).toBe(201);
    voterIds.add(late.member.id);
    const id = await queueWithoutSending(t.ctx, late.member.id);
    t.ctx.events.emit('reminders.queued');
    const done = await until(id);
    expect(done).toMatchObject({ total: 1, sent: 0, skipped: 1, status: 'done' });
    const [log] = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(sql`${activityLogs.activity} = 'Reminder skipped'`);
    expect(log).toMatchObject({ userId: late.member.id, data: `reminder ${id}: voted meanwhile`, status: 'skipped' });
  });

  it('sends nothing of a campaign once its election closes: the rest are skipped, the listing says so, and queueing again is refused', async () => {
    t.clock.advance(61 * 60 * 1000);
    // An election of its own (nobody voted in it, so every member is a recipient): closing the shared one would end the other tests' voting.
    const [own] = await t.ctx.database.db.insert(election).values({ title: 'Closing mid-campaign' }).returning({ id: election.id });
    const electionId = own!.id;
    const marker = 'Closing soon, {name}';
    const ours = () => smtp.messages.filter((m) => m.raw.includes('Closing soon,'));
    const res = await remind({ channel: 'email', message: marker }, admin, electionId);
    expect(res.status).toBe(202);
    const total: number = bodyOf(res, 202).recipients;
    expect(total).toBeGreaterThanOrEqual(10);
    await waitFor(() => ours().length >= 3, 10_000, 'the first reminders');
    const close = await apiClient(t.app, admin).lifecycle.closeElection({ query: { election_id: electionId } });
    expect(close.status).toBe(200);
    const closedAt = Date.now();
    // Claimed before the close committed: these (in flight at most) may still arrive; nothing else.
    const [claimed] = await t.ctx.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from reminder_recipients where reminder_id = ${bodyOf(res, 202).id!} and status in ('sending', 'sent', 'failed')`);
    const done = await until(bodyOf(res, 202).id!);
    await new Promise((r) => setTimeout(r, 500));
    expect(ours(), 'messages after the close').toHaveLength(claimed!.n);
    expect(ours().filter((m) => m.at > closedAt).length).toBeLessThanOrEqual(4);
    expect(claimed!.n).toBeLessThan(total);
    expect(done).toEqual({
      id: bodyOf(res, 202).id!,
      channel: 'email',
      total,
      sent: claimed!.n,
      failed: 0,
      skipped: total - claimed!.n,
      status: 'done',
    });
    const listed = await apiClient(t.app, admin).reminders.listReminders({ query: { election_id: electionId } });
    expect(bodyOf(listed, 200).data).toEqual([done]);
    const skips = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(sql`${activityLogs.data} = ${`reminder ${bodyOf(res, 202).id!}: election closed`}`);
    expect(skips.length).toBeGreaterThan(0);
    expect(skips.every((l) => l.activity === 'Reminder skipped' && l.status === 'skipped')).toBe(true);

    const again = await remind({ channel: 'email', message: marker }, admin, electionId);
    expect(again.status).toBe(409);
    expect(bodyOf(again, 409).message).toBe('The election is closed; reminders can no longer change');
  });

  it('a campaign left queued for an election that has since closed sends nothing', async () => {
    t.clock.advance(61 * 60 * 1000);
    const [own] = await t.ctx.database.db
      .insert(election)
      .values({ title: 'Closed before sending', closedAt: t.clock.now() })
      .returning({ id: election.id });
    const member = (await nonVoters())[0]!;
    const before = sms.messages.length;
    // Written straight in, as a process that queued it before the close leaves it.
    const id = await queueWithoutSending(t.ctx, member.id, 'pending', undefined, own!.id);
    t.ctx.events.emit('reminders.queued');
    const done = await until(id);
    expect(done).toMatchObject({ total: 1, sent: 0, failed: 0, skipped: 1, status: 'done' });
    expect(sms.messages).toHaveLength(before);
  });
});

/** A campaign for one member written straight into the tables, as a crashed or remote process leaves it. */
async function queueWithoutSending(
  ctx: AppContext,
  memberId: number,
  status: 'pending' | 'sending' = 'pending',
  claimedAt?: Date,
  electionId = 1,
): Promise<number> {
  const now = ctx.now();
  const [row] = await ctx.database.db.execute<{ id: number }>(sql`
    insert into reminders (election_id, channel, message, total, next_send_at, status) values (${electionId}, 'sms', 'Hi {name}', 1, ${now.toISOString()}::timestamptz, 'queued') returning id`);
  await ctx.database.db.execute(
    sql`insert into reminder_recipients (reminder_id, member_id, status, claimed_at) values (${row!.id}, ${memberId}, ${status}, ${claimedAt ? claimedAt.toISOString() : null}::timestamptz)`,
  );
  return row!.id;
}

describe('reminders across restarts and processes', () => {
  type Proc = { ctx: AppContext; sent: { n: number }; close(): Promise<void> };
  let sinkSms: SmsSink;
  // The shared database with a context but no app, so no sender runs but the processes' own.
  const shared = { clock: new TestClock() } as { clock: TestClock; database: TestDatabase; ctx: AppContext & { close(): Promise<void> } };
  const extraPools: Database[] = [];
  const logger = createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'warn' }));

  beforeAll(async () => {
    sinkSms = await startSmsSink();
    shared.database = await createTestDatabase();
    shared.ctx = await createContext({
      env: parseEnv({ NODE_ENV: 'test' }),
      logger,
      database: shared.database,
      secrets: randomSecrets(),
      now: shared.clock.now,
    });
    for (let i = 0; i < 12; i++) await createVoter(shared.ctx);
  });
  afterAll(async () => {
    for (const pool of extraPools) await pool.close();
    await shared.ctx?.close();
    await shared.database?.close();
    await sinkSms?.close();
  });

  /** A server process: its own context and sender; on Postgres its own connection pool. */
  async function startProcess(rate = RATE): Promise<Proc> {
    const env = parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: sinkSms.url,
      REMINDER_RATE_PER_SECOND: String(rate),
    });
    let database = shared.ctx.database;
    if (TEST_DATABASE_URL) {
      database = await openDatabase({ url: shared.database.url!, poolMax: 4 });
      extraPools.push(database);
    }
    const ctx = await createContext({ env, logger: logger, database, secrets: randomSecrets(), now: shared.clock.now });
    const real = createDelivery(env, logger);
    const sent = { n: 0 };
    const delivery: Delivery = {
      sendEmail: (m) => real.sendEmail(m),
      sendSms: async (m) => {
        await real.sendSms(m);
        sent.n++;
      },
      close: () => real.close(),
    };
    const sender = createReminderSender(ctx, delivery);
    sender.start();
    return {
      ctx,
      sent,
      async close() {
        await sender.stop();
        delivery.close();
        await ctx.close();
      },
    };
  }

  const adminActor = { role: 'admin' as const, id: null, name: 'Test admin', ip: '' };
  const state = async (ctx: AppContext, id: number | null) => {
    const [row] = await ctx.database.db.execute<{ status: string; sent: number; failed: number; total: number }>(
      sql`select status, sent, failed, total from reminders where id = ${id}`,
    );
    return row!;
  };

  it('resumes after a restart: nothing sent twice, nothing missed; a send cut off by the stop counts as failed', async () => {
    shared.clock.advance(2 * 60 * 60 * 1000);
    sinkSms.messages.length = 0;
    // The test app's own sender stays out of it: the campaign is queued through a process's service.
    const a = await startProcess(4);
    const { id, recipients } = await createReminder(a.ctx, adminActor, { channel: 'sms', message: 'Restart {name}' }, 1);
    await waitFor(() => a.sent.n >= 3, 10_000, 'first sends');
    await a.close();
    const before = await state(shared.ctx, id);
    expect(before.status).not.toBe('done');
    const b = await startProcess();
    b.ctx.events.emit('reminders.queued');
    await waitFor(async () => (await state(shared.ctx, id)).status === 'done', 15_000, 'campaign done after restart');
    await b.close();
    const after = await state(shared.ctx, id);
    expect(after.sent + after.failed).toBe(recipients);
    const tos = sinkSms.messages.filter((m) => m.message.startsWith('Restart')).map((m) => m.to);
    expect(new Set(tos).size).toBe(tos.length);
    expect(tos).toHaveLength(after.sent);
  });

  it('counts a claim left by a process that died mid-send as failed, once', async () => {
    const member = (await shared.ctx.database.db.select({ id: members.id }).from(members).limit(1))[0]!;
    const id = await queueWithoutSending(shared.ctx, member.id, 'sending', new Date(shared.clock.now().getTime() - STALE_CLAIM_MS - 1000));
    const p = await startProcess();
    await waitFor(async () => (await state(shared.ctx, id)).status === 'done', 10_000, 'stale claim settled');
    await p.close();
    expect(await state(shared.ctx, id)).toMatchObject({ sent: 0, failed: 1, total: 1 });
    const logs = await shared.ctx.database.db
      .select()
      .from(activityLogs)
      .where(sql`${activityLogs.data} like ${`reminder ${id}: interrupted%`}`);
    expect(logs).toHaveLength(1);
  });

  it('with two processes running, each member gets exactly one message and the rate holds across both', async () => {
    shared.clock.advance(2 * 60 * 60 * 1000);
    sinkSms.messages.length = 0;
    sinkSms.arrivals.length = 0;
    const [a, b] = [await startProcess(), await startProcess()];
    const { id, recipients } = await createReminder(a.ctx, adminActor, { channel: 'sms', message: 'Both {name}' }, 1);
    b.ctx.events.emit('reminders.queued');
    await waitFor(async () => (await state(shared.ctx, id)).status === 'done', 15_000, 'campaign done');
    await Promise.all([a.close(), b.close()]);
    expect(await state(shared.ctx, id)).toMatchObject({ sent: recipients, failed: 0 });
    const tos = sinkSms.messages.map((m) => m.to);
    expect(tos).toHaveLength(recipients);
    expect(new Set(tos).size).toBe(recipients);
    expect(a.sent.n + b.sent.n).toBe(recipients);
    // Which process sends how many is the scheduler's: on a loaded machine one may claim every
    // message before the other wakes (CI saw B send none). What must hold whatever the interleaving:
    // each member once, the total exact, and the rate across both.
    assertRate(sinkSms.arrivals, 'two processes');
  });
});

describe.skipIf(databaseKind !== 'postgres')('a reminder judges the election as its lock finds it (two sessions)', () => {
  it('a reminder queued while the election closed is refused, and nothing is queued', async () => {
    // An election of its own: closing the shared one would end the other tests' voting.
    const [own] = await t.ctx.database.db.insert(election).values({ title: 'Closing during a reminder' }).returning({ id: election.id });
    const id = own!.id;
    const res = await whileClosing(
      t.ctx.database.sql,
      id,
      () => remind({ channel: 'sms', message: 'Polls close soon' }, admin, id),
      'the reminder',
    );
    expect(res.status).toBe(409);
    expect(bodyOf(res, 409).message).toBe('The election is closed; reminders can no longer change');
    const [queued] = await t.ctx.database.sql<{ n: number }[]>`select count(*)::int as n from reminders where election_id = ${id}`;
    expect(queued!.n).toBe(0);
  });

  it('a recipient claimed while the election closes waits for the close and is not sent', async () => {
    t.clock.advance(61 * 60 * 1000);
    const [own] = await t.ctx.database.db.insert(election).values({ title: 'Closing during a send' }).returning({ id: election.id });
    const id = own!.id;
    const member = (await nonVoters())[0]!;
    const before = sms.messages.length;
    // Queued before the close takes the row (the campaign's foreign key would wait for it), its first send slot an hour away.
    const campaign = await queueWithoutSending(t.ctx, member.id, 'pending', undefined, id);
    const later = new Date(t.clock.now().getTime() + 60 * 60 * 1000).toISOString();
    await t.ctx.database.db.execute(sql`update reminders set next_send_at = ${later}::timestamptz where id = ${campaign}`);
    const session = await t.ctx.database.sql.reserve();
    try {
      await session`begin`;
      await holdAsClose(session, id);
      // The slot comes while the close holds the row.
      await t.ctx.database.db.execute(
        sql`update reminders set next_send_at = ${t.clock.now().toISOString()}::timestamptz where id = ${campaign}`,
      );
      t.ctx.events.emit('reminders.queued');
      const first = await Promise.race([
        waitFor(() => sms.messages.length > before, 5000, 'a message').then(() => 'sent' as const),
        waitFor(async () => (await lockWaiters(t.ctx.database.sql)) >= 1, 5000, 'the sender waiting').then(() => 'waiting' as const),
      ]);
      expect(first, 'the sender did not wait for the close').toBe('waiting');
      await closeIn(session, id);
      await session`commit`;
    } finally {
      await session`rollback`.catch(() => undefined);
      session.release();
    }
    expect(await until(campaign)).toMatchObject({ total: 1, sent: 0, failed: 0, skipped: 1, status: 'done' });
    await new Promise((r) => setTimeout(r, 300));
    expect(sms.messages).toHaveLength(before);
  });
});
