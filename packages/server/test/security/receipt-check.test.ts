import { randomInt } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bodyOf } from '../client';
import { createTestApp, type TestApp } from '../harness';
import { createElection, createVoter, setVoting, vote, votingRows, type Election } from '../voting/election';

/**
 * The public receipt check (`GET psk/receipt/{vvpat}`), as the outside attack found it: 300
 * made-up codes answered in 6.8 s without a 429, each unknown code reading (and opening) the
 * whole sealed queue. It is limited per address, and it finds a code by a keyed probe: a made-up
 * code opens no queued ballot, a real queued one opens exactly its own.
 */

const LIMIT = 30;
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A well-formed code nobody was given. */
const madeUp = () => {
  const s = Array.from({ length: 12 }, () => ALPHABET[randomInt(32)]).join('');
  return `VP-${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}`;
};
let t: TestApp;
let e: Election;
const queued: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { RATE_LIMIT_RECEIPT_CHECKS_PER_HOUR: String(LIMIT), TRUST_PROXY_HOPS: '1', MIX_MIN_BATCH: '1000', MIX_INTERVAL_MS: '3600000' },
  });
  e = await createElection(t.ctx);
  await setVoting(t.ctx, true);
  for (let i = 0; i < 12; i++) {
    const { token } = await createVoter(t.ctx);
    const res = await vote(t.app, token, { [e.chair.id]: i % 2 ? e.alice.id : e.brian.id });
    expect(res.status).toBe(201);
    queued.push(bodyOf(res, 201).receipts[0]!.vvpat);
  }
  expect((await votingRows(t.ctx)).queue).toBe(12);
});
afterAll(async () => {
  await t?.close();
});

const check = (code: string, ip = '203.0.113.7') =>
  request(t.app)
    .get(`/api/v1/psk/receipt/${encodeURIComponent(code)}`)
    .set('X-Forwarded-For', ip);

describe('the public receipt check', () => {
  it('answers a made-up code without opening the queue, and a queued one by opening only its own ballot', async () => {
    // A fresh process: nothing opened yet, so every row the check needs is opened now.
    const opened = vi.spyOn(t.ctx.ballotQueue, 'open');
    try {
      opened.mockClear();
      const fake = await check(madeUp(), '198.51.100.1');
      expect(fake.status).toBe(404);
      const rowsOpened = () => opened.mock.calls.reduce((n, [rows]) => n + rows.length, 0);
      expect(rowsOpened()).toBe(0);
      opened.mockClear();
      const real = await check(queued[3]!, '198.51.100.1');
      expect(real.status).toBe(200);
      expect(real.body).toEqual({
        vvpat: queued[3],
        position: `${e.chair.name} National`,
        election_id: 1,
        election: expect.any(String),
        recorded: true,
      });
      expect(rowsOpened()).toBe(1);
    } finally {
      opened.mockRestore();
    }
  });

  it('limits one address: made-up codes in a row end in 429 with Retry-After, another address is still answered', async () => {
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < LIMIT + 5; i++) {
      last = await check(madeUp());
      statuses.push(last.status);
    }
    expect(statuses.slice(0, LIMIT).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual(statuses.slice(LIMIT).map(() => 429));
    expect(last!.body).toMatchObject({ message: expect.stringMatching(/too many/i) });
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    // A real code from the limited address waits too; from another address it is answered.
    expect((await check(queued[0]!)).status).toBe(429);
    expect((await check(queued[0]!, '203.0.113.8')).status).toBe(200);
  });
});
