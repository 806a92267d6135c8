import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createMember, tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';
import { createElection, setVoting } from '../voting/election';

/**
 * Security hardening: an id beyond the database's 4-byte integer once reached the driver and
 * answered 500. Every id the contract takes is bounded (packages/contract/src/id-bounds.test.ts
 * walks the schemas); these send the attack itself, raw JSON included.
 */

let t: TestApp;
let voter: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await createElection(t.ctx);
  await setVoting(t.ctx, true);
  voter = await tokenFor(t.ctx, 'voter', (await createMember(t.ctx)).id);
  admin = await tokenFor(t.ctx, 'admin');
});
afterAll(async () => {
  await t?.close();
});

const HUGE = ['1e20', '9007199254740993', '2147483648', '1e308'];

describe('ids out of the integer range are a 422, never a 500', () => {
  it('POST psk/vote with a huge candidate id or position key', async () => {
    for (const huge of HUGE) {
      for (const body of [`{"candidates":{"1":${huge}}}`, `{"candidates":{"1":"${huge}"}}`, `{"candidates":{"${huge}":1}}`]) {
        const res = await request(t.app).post('/api/v1/psk/vote').set(bearer(voter)).set('Content-Type', 'application/json').send(body);
        expect(res.status, `${body}: ${JSON.stringify(res.body)}`).toBe(422);
        expect(typeof res.body.message).toBe('string');
      }
    }
  });

  it('path ids, query ids and body id lists', async () => {
    const member = { name: 'Jane Doe', phone: '0712345678', email: 'jane@example.org', member_no: '4321' };
    for (const huge of HUGE) {
      const answers = [
        await request(t.app)
          .post(`/api/v1/edit/psk/member/${huge}`)
          .set(bearer(admin))
          .send({ ...member, county: 'Nairobi' }),
        await request(t.app)
          .post('/api/v1/edit/psk/member/1')
          .set(bearer(admin))
          .set('Content-Type', 'application/json')
          .send(`{"name":"Jane Doe","phone":"0712345678","email":"jane@example.org","member_no":"4321","county":${huge}}`),
        await request(t.app)
          .post(`/api/v1/edit/candidate/${huge}`)
          .set(bearer(admin))
          .field('name', 'Jane Doe')
          .field('phone', '0712345678')
          .field('email', 'j@example.org')
          .field('county', 'Nairobi'),
        await request(t.app)
          .post('/api/v1/edit/candidate/1')
          .set(bearer(admin))
          .field('name', 'Jane Doe')
          .field('phone', '0712345678')
          .field('email', 'j@example.org')
          .field('county', 'Nairobi')
          .field('position_ids', huge),
        await request(t.app).get(`/api/v1/search/vvpat?psk_position_id=${huge}`).set(bearer(admin)),
        await request(t.app)
          .post('/api/v1/assign/psk/position')
          .set(bearer(admin))
          .set('Content-Type', 'application/json')
          .send(`{"member_no":"4321","position_ids":[${huge}]}`),
      ];
      for (const [i, res] of answers.entries()) {
        expect(res.status, `${huge} #${i}: ${JSON.stringify(res.body)}`).toBe(422);
        expect(typeof res.body.message).toBe('string');
      }
    }
  });

  it('nothing about them reached the log as a server error', () => {
    expect(t.logs.filter((l) => /"level":50/.test(l))).toEqual([]);
  });
});
