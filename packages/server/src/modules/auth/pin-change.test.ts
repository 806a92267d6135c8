import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogs, members } from '../../db/schema';
import { authenticatorSignIn, enrolAuthenticator } from '../../../test/auth/authenticator';
import { apiClient, bodyOf, untyped } from '../../../test/client';
import { createMember, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * A member sets their own authenticator pin (PUT psk/pin). Until they do, the public default pin
 * opens the pin step; afterwards only their own pin does. The pin is stored hashed, must not be
 * trivial, and wrong current pins count against the member's pin like wrong pins at sign-in.
 */

let t: TestApp;

beforeAll(async () => {
  // A default that is not trivial in itself, so that refusing it is the default-pin rule's doing.
  t = await createTestApp({ env: { DEFAULT_PIN: '2580' } });
});
afterAll(async () => {
  await t?.close();
});

const enrol = (member: { id: number; memberNo: string }) => enrolAuthenticator(t, member);

const changePin = (token: string | undefined, body: { current_pin: string; new_pin: string }) =>
  apiClient(t.app, token).auth.changePin({ body });

const signIn = (member: { memberNo: string }, secret: string, pin: string) => authenticatorSignIn(t, member, secret, pin);

describe('a member sets their own pin (PUT psk/pin)', () => {
  it('replaces the default pin: the default is refused afterwards and the new pin signs in', async () => {
    const member = await createMember(t.ctx);
    const { secret, voterToken } = await enrol(member);
    expect(await signIn(member, secret, t.ctx.env.DEFAULT_PIN)).toEqual({ pin: 200, token: 200 });

    const res = await changePin(voterToken, { current_pin: t.ctx.env.DEFAULT_PIN, new_pin: '5083' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ message: 'Pin changed' });

    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, member.id));
    expect(row!.pinHash).toMatch(/^scrypt\$/);
    expect(row!.pinHash).not.toContain('5083');

    expect(await signIn(member, secret, t.ctx.env.DEFAULT_PIN)).toEqual({ pin: 401, token: undefined });
    expect(await signIn(member, secret, '5083')).toEqual({ pin: 200, token: 200 });

    // The next change needs the member's own pin, no longer the default.
    const withDefault = await changePin(voterToken, { current_pin: t.ctx.env.DEFAULT_PIN, new_pin: '7319' });
    expect(withDefault.status).toBe(422);
    expect(bodyOf(withDefault, 422).errors!.current_pin).toEqual(['Incorrect pin']);
    expect((await changePin(voterToken, { current_pin: '5083', new_pin: '731902' })).status).toBe(200);
    expect(await signIn(member, secret, '731902')).toEqual({ pin: 200, token: 200 });

    const logged = await t.ctx.database.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, member.id), eq(activityLogs.activity, 'Pin changed')));
    expect(logged.map((r) => r.status).sort()).toEqual(['failed', 'success', 'success']);
    for (const entry of logged) expect(JSON.stringify(entry)).not.toMatch(/5083|7319|731902/);
  });

  it('refuses weak pins with a clear message: the default, one digit repeated, runs, wrong lengths', async () => {
    const member = await createMember(t.ctx);
    const voterToken = await tokenFor(t.ctx, 'voter', member.id);
    const cases: [string, string][] = [
      [t.ctx.env.DEFAULT_PIN, 'Choose a pin other than the default pin'],
      ['1234', 'Choose a pin that is harder to guess: not one digit repeated or a run like 1234'],
      ['1111', 'Choose a pin that is harder to guess: not one digit repeated or a run like 1234'],
      ['12345678', 'Choose a pin that is harder to guess: not one digit repeated or a run like 1234'],
      ['9876', 'Choose a pin that is harder to guess: not one digit repeated or a run like 1234'],
      ['123', 'The pin must be 4 to 8 digits'],
      ['123456789', 'The pin must be 4 to 8 digits'],
      ['12a4', 'The pin must be 4 to 8 digits'],
    ];
    for (const [pin, message] of cases) {
      const res = await changePin(voterToken, { current_pin: t.ctx.env.DEFAULT_PIN, new_pin: pin });
      expect(res.status, pin).toBe(422);
      expect(bodyOf(res, 422).errors!.new_pin, pin).toEqual([message]);
    }
    const missing = await changePin(voterToken, untyped({}));
    expect(missing.status).toBe(422);
    expect(Object.keys(bodyOf(missing, 422).errors!).sort()).toEqual(['current_pin', 'new_pin']);
    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.id, member.id));
    expect(row!.pinHash).toBeNull();
  });

  it('counts wrong current pins against the member pin: delays, then the correct pin after the wait', async () => {
    const member = await createMember(t.ctx);
    const { secret, voterToken } = await enrol(member);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await changePin(voterToken, { current_pin: `90${i}17`, new_pin: '4096' })).status);
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    // Held: even the right pin waits, here and at the sign-in pin step (the same counter).
    const held = await changePin(voterToken, { current_pin: t.ctx.env.DEFAULT_PIN, new_pin: '4096' });
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after') ?? undefined).toBeDefined();
    expect((await signIn(member, secret, t.ctx.env.DEFAULT_PIN)).pin).toBe(429);

    t.clock.advance(60_000);
    expect((await changePin(voterToken, { current_pin: t.ctx.env.DEFAULT_PIN, new_pin: '4096' })).status).toBe(200);
    expect(await signIn(member, secret, '4096')).toEqual({ pin: 200, token: 200 });
  });

  it('needs a signed-in voter', async () => {
    const none = await changePin(undefined, { current_pin: t.ctx.env.DEFAULT_PIN, new_pin: '5083' });
    expect(none.status).toBe(401);
    const agent = await tokenFor(t.ctx, 'agent');
    expect((await changePin(agent, { current_pin: t.ctx.env.DEFAULT_PIN, new_pin: '5083' })).status).toBe(403);
  });
});
