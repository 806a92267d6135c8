import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../../db/schema';
import { sha256 } from '../../lib/crypto';
import { apiClient } from '../../../test/client';
import { bearer, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createElection, createVoter, setVoting, vote, votingRows, type Election } from '../../../test/voting/election';

/**
 * The vote looks its caller's session up inside its one statement (auth/access.ts
 * `sessionInStatement`, docs/architecture.md "Request path") instead of asking first. Nothing is
 * cached: a session revoked or idled out is refused by the very next vote, whichever process
 * ended it, and 401/403 still come before any other refusal.
 */

const MINUTE = 60_000;
let t: TestApp;
let e: Election;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000', VOTER_SESSION_IDLE_MINUTES: '30' } });
  e = await createElection(t.ctx);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await setVoting(t.ctx, true);
});

const expiryOf = async (token: string) =>
  (
    await t.ctx.database.db
      .select({ at: sessions.expiresAt })
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)))
  )[0]?.at;

describe('psk/vote: the session, checked in the vote statement', () => {
  it('refuses a token logged out a moment before, and records nothing', async () => {
    const { token } = await createVoter(t.ctx);
    // The session works (a read), then ends.
    expect((await apiClient(t.app, token).ballots.getBallot()).status).toBe(200);
    expect((await apiClient(t.app, token).auth.logout()).status).toBe(204);
    const before = await votingRows(t.ctx);
    const res = await vote(t.app, token, { [e.chair.id]: e.alice.id });
    expect(res.status).toBe(401);
    expect(await votingRows(t.ctx)).toEqual(before);
  });

  it('refuses a session another process ended (its row gone, no event here) at once', async () => {
    const { token } = await createVoter(t.ctx);
    expect((await apiClient(t.app, token).ballots.getBallot()).status).toBe(200);
    // What another server process's logout leaves behind: only the database knows.
    await t.ctx.database.sql`delete from sessions where token_hash = ${sha256(token)}`;
    const before = await votingRows(t.ctx);
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(401);
    expect(await votingRows(t.ctx)).toEqual(before);
  });

  it('refuses a session idle past the limit, and a vote moves the idle expiry on like any request', async () => {
    const idle = await createVoter(t.ctx);
    const used = await createVoter(t.ctx);
    const created = (await expiryOf(used.token))!.getTime();
    // 20 minutes on: both alive; the vote (stale last_seen) pushes `used`'s expiry to now + 30 minutes.
    t.clock.advance(20 * MINUTE);
    expect((await vote(t.app, used.token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    // (The test clock also runs on by the real milliseconds the requests take.)
    const pushed = (await expiryOf(used.token))!.getTime() - created;
    expect(pushed).toBeGreaterThanOrEqual(20 * MINUTE);
    expect(pushed).toBeLessThan(21 * MINUTE);
    // 15 more: `idle` passed its 30 minutes without use; `used` is within its pushed expiry.
    t.clock.advance(15 * MINUTE);
    const before = await votingRows(t.ctx);
    expect((await vote(t.app, idle.token, { [e.chair.id]: e.alice.id })).status).toBe(401);
    expect(await votingRows(t.ctx)).toEqual(before);
    expect((await vote(t.app, used.token, { [e.treasurer.id]: e.carol.id })).status).toBe(201);
  });

  it('refuses staff (403), and unknown, empty-looking or oversized tokens (401), recording nothing', async () => {
    const before = await votingRows(t.ctx);
    for (const role of ['agent', 'admin'] as const) {
      expect((await vote(t.app, await tokenFor(t.ctx, role), { [e.chair.id]: e.alice.id })).status).toBe(403);
    }
    expect((await vote(t.app, 'not-a-session', { [e.chair.id]: e.alice.id })).status).toBe(401);
    expect((await vote(t.app, 'x'.repeat(201), { [e.chair.id]: e.alice.id })).status).toBe(401);
    expect(await votingRows(t.ctx)).toEqual(before);
  });

  it('answers 401/403 before a bad body, a bad media type or an unknown election, as before', async () => {
    const admin = await tokenFor(t.ctx, 'admin');
    const { token: voter } = await createVoter(t.ctx);
    // Raw HTTP: the order of the refusals over bodies, media types and query strings as sent on the wire.
    const post = (token: string, path = '/api/v1/psk/vote') => request(t.app).post(path).set(bearer(token));
    // A body that fails validation.
    expect((await post('dead-token').send({ candidates: {} })).status).toBe(401);
    expect((await post(admin).send({ candidates: {} })).status).toBe(403);
    expect((await post(voter).send({ candidates: {} })).status).toBe(422);
    // A body that is not JSON.
    expect((await post('dead-token').set('Content-Type', 'text/plain').send('x')).status).toBe(401);
    expect((await post(voter).set('Content-Type', 'text/plain').send('x')).status).toBe(415);
    // An election id that is none.
    const body = { candidates: { [e.chair.id]: e.alice.id } };
    expect((await post('dead-token', '/api/v1/psk/vote?election_id=abc').send(body)).status).toBe(401);
    expect((await post(admin, '/api/v1/psk/vote?election_id=99999').send(body)).status).toBe(403);
    expect((await post(voter, '/api/v1/psk/vote?election_id=abc').send(body)).status).toBe(404);
    expect((await post(voter, '/api/v1/psk/vote?election_id=99999').send(body)).status).toBe(404);
  });
});
