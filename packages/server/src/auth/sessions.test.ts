import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { sha256 } from '../lib/crypto';
import { resolveSession, revokeSession } from './sessions';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { VOTER_SESSION_IDLE_MINUTES: '30' } });
});
afterAll(async () => {
  await t?.close();
});

const MINUTE = 60_000;

describe('sessions', () => {
  it('slide while used, end after the idle limit without use, and end at once when revoked', async () => {
    const token = await tokenFor(t.ctx, 'voter');
    const first = await resolveSession(t.ctx, token);
    expect(first).toEqual({ role: 'voter', subjectId: expect.any(Number), tokenHash: sha256(token) });

    // Used every 20 minutes, a 30-minute idle limit never ends it.
    for (let i = 0; i < 4; i++) {
      t.clock.advance(20 * MINUTE);
      expect(await resolveSession(t.ctx, token)).toEqual(first);
    }
    // Unused for longer than the limit: gone.
    t.clock.advance(31 * MINUTE);
    expect(await resolveSession(t.ctx, token)).toBeNull();

    const other = await tokenFor(t.ctx, 'admin');
    const caller = await resolveSession(t.ctx, other);
    expect(caller?.role).toBe('admin');
    await revokeSession(t.ctx, caller!.tokenHash);
    expect(await resolveSession(t.ctx, other)).toBeNull();
  });

  it('ignores unknown, empty and oversized tokens', async () => {
    expect(await resolveSession(t.ctx, 'not-a-token')).toBeNull();
    expect(await resolveSession(t.ctx, '')).toBeNull();
    expect(await resolveSession(t.ctx, 'x'.repeat(201))).toBeNull();
  });
});
