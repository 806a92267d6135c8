import { eq, sql } from 'drizzle-orm';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpTokenAt } from '../../src/auth/totp';
import { members } from '../../src/db/schema';
import { openBrowser } from '../auth/browser';
import { createGoogleSigner, TEST_GOOGLE_CLIENT_ID, type GoogleSigner } from '../auth/google-signer';
import { startSmsSink, type SmsSink } from '../auth/sms-sink';
import { startSmtpCapture, type SmtpCapture } from '../auth/smtp-capture';
import { apiClient, bodyOf, browserClient, multipart, type ApiClient } from '../client';
import { createCandidate, createMember, createPosition, createStaff } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { setVoting } from '../voting/election';

/**
 * A whole election through every sign-in flow (admin password + emailed code, agent emailed code,
 * voter SMS code, Google, authenticator + pin), uploads and votes, with every log line captured:
 * no code, pin, password, token, Google ID token, cookie or choice appears in it. Then the
 * attacker's view of ballot secrecy: with a full dump (every row, ctid and xmin) plus the logs,
 * try to link a voter to their choice by time, physical order, transaction id and id.
 */

const N = 12; // voters, each choosing a different candidate for the one contested position
let t: TestApp;
let sms: SmsSink;
let smtp: SmtpCapture;
let google: GoogleSigner;
const secrets: string[] = [];
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2216bc70000000049454e44ae426082',
  'hex',
);

type Cast = { memberId: number; memberNo: string; name: string; candidateId: number; candidateName: string; receipt: string };
const casts: Cast[] = [];

beforeAll(async () => {
  [sms, smtp, google] = await Promise.all([startSmsSink(), startSmtpCapture(), createGoogleSigner()]);
  t = await createTestApp({
    env: {
      LOG_LEVEL: 'trace',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: sms.url,
      SMTP_URL: smtp.url,
      GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID,
      MIX_MIN_BATCH: String(N),
    },
  });
  t.ctx.google.certs = google.certs;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([sms?.close(), smtp?.close()]);
});

/** The session every sign-in answers (verify/admin, verify/agent, verify/sms, google/login, verify-token-login). */
type SessionBody = Extract<Awaited<ReturnType<ApiClient['auth']['verifyAdmin']>>, { status: 200 }>['body'];
const session = (res: { status: number; body: unknown }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const body = res.body as SessionBody;
  secrets.push(body.bearer_token, body.hash);
  return body.bearer_token;
};
/** The values of the cookies an answer sets. */
const cookiesOf = (res: { headers: Headers }) => res.headers.getSetCookie().map((c) => c.split(';')[0]!.split('=').slice(1).join('='));

describe('a full election with every log line captured', () => {
  it('signs in every way, uploads, votes and closes without a secret in the log', async () => {
    // Admin: password, then the emailed code.
    const password = 'Very-secret-admin-pass-42';
    secrets.push(password);
    const admin = await createStaff(t.ctx, { role: 'admin', password });
    const adminBrowser = browserClient(await openBrowser(t.app));
    const login = await adminBrowser.auth.loginAdmin({ body: { email: admin.email, password } });
    expect(login.status).toBe(200);
    secrets.push(...cookiesOf(login));
    const adminCode = smtp.codeFor(admin.email);
    secrets.push(adminCode);
    const adminToken = session(await adminBrowser.auth.verifyAdmin({ body: { token: adminCode } }));

    // Agent: the emailed code.
    const agent = await createStaff(t.ctx, { role: 'agent' });
    const agentBrowser = browserClient(await openBrowser(t.app));
    secrets.push(...cookiesOf(await agentBrowser.auth.loginAgent({ body: { email: agent.email } })));
    const agentCode = await smtp.codeSince(agent.email, 0);
    secrets.push(agentCode);
    session(await agentBrowser.auth.verifyAgent({ body: { token: agentCode } }));

    // Candidates, one photo uploaded.
    const chair = await createPosition(t.ctx, { name: 'Chair' });
    const candidates = [];
    for (let i = 0; i < N; i++)
      candidates.push(await createCandidate(t.ctx, [chair.id], { name: `Candidate Zq${String.fromCharCode(65 + i)}x` }));
    const asAdmin = apiClient(t.app, adminToken);
    const photo = await asAdmin.candidates.updateCandidate({
      params: { id: candidates[0]!.id },
      body: multipart({
        name: candidates[0]!.name,
        phone: candidates[0]!.phone,
        email: candidates[0]!.email,
        county: 'Nairobi',
        'position_ids[]': String(chair.id),
        image: { file: PNG, filename: 'photo.png', contentType: 'image/png' },
      }),
    });
    expect(photo.status, JSON.stringify(photo.body)).toBe(200);
    await setVoting(t.ctx, true);

    // Voters, signing in by SMS code, Google, and authenticator + pin in turn; each votes.
    for (let i = 0; i < N; i++) {
      const member = await createMember(t.ctx, { name: `Voter Kw${String.fromCharCode(65 + i)}y` });
      let token: string;
      if (i % 3 === 0) {
        const b = browserClient(await openBrowser(t.app));
        const step = await b.auth.verifyPhone({ body: { unique_id: member.memberNo, consent: true } });
        expect(step.status).toBe(200);
        secrets.push(...cookiesOf(step));
        const code = sms.codeFor(member.phone);
        secrets.push(code);
        token = session(await b.auth.verifySms({ body: { token: code } }));
      } else if (i % 3 === 1) {
        const idToken = await google.idToken({ email: member.email });
        secrets.push(idToken, idToken.split('.')[2]!);
        token = session(await apiClient(t.app).auth.loginGoogle({ body: { email: member.email, oauth_id_token: idToken } }));
      } else {
        const first = await apiClient(t.app).auth.loginGoogle({
          body: { email: member.email, oauth_id_token: await google.idToken({ email: member.email }) },
        });
        const enrolToken = session(first);
        const enrolling = apiClient(t.app, enrolToken);
        const qr = await enrolling.auth.sendQr({ body: { pfNumber: member.memberNo } });
        expect(qr.status).toBe(200);
        const { secret } = bodyOf(qr, 200);
        secrets.push(secret);
        const confirm = totpTokenAt(secret, t.clock.now());
        expect((await enrolling.auth.verifyToken({ body: { pfNumber: member.memberNo, token: confirm } })).status).toBe(200);
        // The member sets their own pin: neither it nor its hash reaches a log.
        const ownPin = `6038${String(1729 + i).padStart(4, '0')}`;
        secrets.push(ownPin);
        const changed = await enrolling.auth.changePin({ body: { current_pin: t.ctx.env.DEFAULT_PIN, new_pin: ownPin } });
        expect(changed.status, JSON.stringify(changed.body)).toBe(200);
        const [stored] = await t.ctx.database.db.select({ pinHash: members.pinHash }).from(members).where(eq(members.id, member.id));
        secrets.push(stored!.pinHash!, stored!.pinHash!.split('$')[2]!);
        t.clock.advance(31_000);
        const b = browserClient(await openBrowser(t.app));
        const pin = await b.auth.signPass({ body: { pass: ownPin, pfNumber: member.memberNo } });
        expect(pin.status, JSON.stringify(pin.body)).toBe(200);
        secrets.push(...cookiesOf(pin));
        const totp = totpTokenAt(secret, t.clock.now());
        token = session(await b.auth.verifyTokenLogin({ body: { token: totp, pfNumber: member.memberNo } }));
      }
      const choice = candidates[(i * 5) % N]!;
      const vote = await apiClient(t.app, token).ballots.castVote({ body: { candidates: { [chair.id]: choice.id } } });
      expect(vote.status, JSON.stringify(vote.body)).toBe(201);
      const receipt = bodyOf(vote, 201).receipts[0]!.vvpat;
      secrets.push(receipt);
      casts.push({
        memberId: member.id,
        memberNo: member.memberNo,
        name: member.name,
        candidateId: choice.id,
        candidateName: choice.name,
        receipt,
      });
      // A report with an image, as a voter.
      if (i === 0) {
        const report = await apiClient(t.app, token).help.reportIssue({
          body: multipart({
            details: 'The ballot loads slowly',
            'images[]': { file: PNG, filename: 'screen.png', contentType: 'image/png' },
          }),
        });
        expect(report.status, JSON.stringify(report.body)).toBe(201);
      }
      t.clock.advance(1_000);
    }
    // Switch voting off, close the election (the close publishes every queued ballot; a pause
    // publishes nothing), then log out everywhere.
    expect((await asAdmin.elections.toggleElection({ body: { status: false } })).status).toBe(200);
    expect((await asAdmin.lifecycle.closeElection()).status).toBe(200);
    expect((await asAdmin.auth.logout()).status).toBe(204);

    const log = t.logs.join('\n');
    expect(log.length).toBeGreaterThan(1000); // the log was really captured (trace level)
    for (const secret of new Set(secrets.filter((s) => s && s.length >= 6))) {
      expect(log.includes(secret), `a secret reached the log: ${secret.slice(0, 12)}…`).toBe(false);
      expect(log.includes(encodeURIComponent(secret)), `a secret reached the log (url-encoded): ${secret.slice(0, 12)}…`).toBe(false);
    }
    expect(log).not.toContain(t.ctx.env.DEFAULT_PIN === '1234' ? '"pass":"1234"' : t.ctx.env.DEFAULT_PIN);
    expect(log).not.toMatch(/"authorization"|"cookie"|bearer [a-z0-9_-]{20,}/i);
    // No choice: no candidate's name or id next to a vote line.
    for (const c of casts) expect(log).not.toContain(c.candidateName);
    // The activity log table holds no secret or choice either.
    const activity = JSON.stringify(await t.ctx.database.db.execute(sql`select * from activity_logs`));
    for (const secret of new Set(secrets.filter((s) => s && s.length >= 6)))
      expect(activity.includes(secret), `secret in activity_logs: ${secret.slice(0, 12)}…`).toBe(false);
    for (const c of casts) expect(activity).not.toContain(c.candidateName);
    // Uploads stayed inside the upload folder, under random names.
    const uploads = join(t.dataDir, 'uploads');
    expect(existsSync(uploads)).toBe(true);
    for (const name of readdirSync(uploads)) expect(name).toMatch(/^[a-f0-9]{32}\.(png|jpg|webp)$/);
  });
});

describe('ballot secrecy against a dump plus the logs', () => {
  it('the schema: ballots hold (receipt, position, candidate) only, no time, no serial, no link to a member', async () => {
    const cols = await t.ctx.database.db.execute<{ column_name: string; data_type: string; column_default: string | null }>(
      sql`select column_name, data_type, column_default from information_schema.columns where table_name = 'ballots' order by column_name`,
    );
    // election_id: the partition key (ADR 009), no secret: participation names the position voted for.
    expect(cols.map((c) => c.column_name)).toEqual(['candidate_id', 'election_id', 'position_id', 'rank', 'receipt']);
    // No default that could carry a time or an order (now(), nextval()): only rank's constant 0.
    expect(cols.every((c) => c.column_default === null || /^\d+$/.test(c.column_default))).toBe(true);
    expect(cols.some((c) => /time|date|serial|uuid/.test(c.data_type))).toBe(false);
    const fks = await t.ctx.database.db.execute(
      sql`select conname from pg_constraint where conrelid = 'ballots'::regclass and contype = 'f'`,
    );
    expect(fks).toEqual([]);
    const queueCols = await t.ctx.database.db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'ballot_queue' order by column_name`,
    );
    expect(queueCols.map((c) => c.column_name)).toEqual(['election_id', 'id', 'sealed']);
    const partCols = await t.ctx.database.db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'participation' order by column_name`,
    );
    expect(partCols.map((c) => c.column_name)).toEqual(['member_id', 'position_id', 'receipt_enc']);
  });

  it('no join recovers who voted for whom: by time, by physical order (ctid), by xmin, by id', async () => {
    expect(casts).toHaveLength(N);
    const db = t.ctx.database.db;
    const ballots = await db.execute<{ receipt: string; candidate_id: number; ctid: string; xmin: string }>(
      sql`select receipt, candidate_id, ctid::text as ctid, xmin::text as xmin from ballots`,
    );
    const participation = await db.execute<{ member_id: number; receipt_enc: string; ctid: string; xmin: string }>(
      sql`select member_id, receipt_enc, ctid::text as ctid, xmin::text as xmin from participation`,
    );
    expect(ballots).toHaveLength(N);
    expect(participation).toHaveLength(N);
    const truth = new Map(casts.map((c) => [c.memberId, c.candidateId]));
    const score = (guess: Map<number, number>) => [...guess].filter(([m, cand]) => truth.get(m) === cand).length;
    const byCtid = (a: { ctid: string }, b: { ctid: string }) => {
      const [pa, ia] = a.ctid.slice(1, -1).split(',').map(Number);
      const [pb, ib] = b.ctid.slice(1, -1).split(',').map(Number);
      return pa! - pb! || ia! - ib!;
    };

    // 1. Transaction ids: no ballot shares an xmin with any participation row.
    const partXmins = new Set(participation.map((p) => p.xmin));
    expect(ballots.filter((b) => partXmins.has(b.xmin))).toEqual([]);
    // The mixed batch was written by one transaction: xmin tells nothing within it.
    expect(new Set(ballots.map((b) => b.xmin)).size).toBe(1);

    // 2. Physical order: ballots in heap order against voters in cast order (the activity log
    //    and participation's own heap order both give the cast order).
    const castOrder = [...participation].sort(byCtid).map((p) => p.member_id);
    expect(castOrder).toEqual(casts.map((c) => c.memberId));
    const heapBallots = [...ballots].sort(byCtid);
    const guessByOrder = new Map(castOrder.map((m, i) => [m, heapBallots[i]!.candidate_id]));
    const guessByReverse = new Map(castOrder.map((m, i) => [m, heapBallots[N - 1 - i]!.candidate_id]));
    // 3. Ids: receipts sorted against cast order (a counter or time-based id would line up).
    const byReceipt = [...ballots].sort((a, b) => a.receipt.localeCompare(b.receipt));
    const guessById = new Map(castOrder.map((m, i) => [m, byReceipt[i]!.candidate_id]));
    // 4. Time: the activity log's vote lines in time order, against the ballots in any order the
    //    dump offers (the ballots table has no time at all).
    const voteLog = await db.execute<{ user_id: number }>(
      sql`select user_id from activity_logs where activity = 'Voted' and status = 'success' and user_id is not null order by created_at, id`,
    );
    const loggedOrder = voteLog.map((r) => r.user_id).filter((id) => truth.has(id));
    expect(loggedOrder).toEqual(casts.map((c) => c.memberId));
    const guessByTime = new Map(loggedOrder.map((m, i) => [m, heapBallots[i]!.candidate_id]));
    // Each voter chose a different candidate, so a guess that recovered the links would score N.
    // A random permutation scores N with probability 1/12!; it must not happen for any of them.
    for (const [how, guess] of Object.entries({ guessByOrder, guessByReverse, guessById, guessByTime })) {
      expect(score(guess), how).toBeLessThan(N);
    }
    // 5. What a voter sees (their receipt) is sealed in participation: the dump has no plaintext receipt there.
    const dump =
      JSON.stringify(participation) +
      JSON.stringify(await db.execute(sql`select * from ballot_queue`)) +
      JSON.stringify(await db.execute(sql`select * from activity_logs`));
    for (const c of casts) expect(dump.includes(c.receipt), 'a receipt appears next to a voter').toBe(false);
    // 6. And the logs name no receipt either.
    const log = t.logs.join('\n');
    for (const c of casts) expect(log.includes(c.receipt)).toBe(false);
  });
});
