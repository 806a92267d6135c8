import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../test/client';
import { createMember, tokenFor } from '../../test/factories';
import { createTestApp, type TestApp, type TestDatabase } from '../../test/harness';
import { connectClient, listen, record, sleep, subscribe, waitFor, type Client, type Running } from '../../test/voting/sockets';

/**
 * The staff `changes` channel (docs/api.md "Realtime"): an admin's edit elsewhere tells every staff
 * socket which kind of thing changed (never the data), so their screens read it again; voters and
 * anonymous sockets are refused it.
 */
let t: TestApp;
let running: Running;
let api: ApiClient;
const clients: Client[] = [];

const client = async (token?: string) => {
  const c = await connectClient(running.url, token);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  api = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  running = await listen(t.ctx, t.app, { databaseUrl: (t.ctx.database as TestDatabase).url });
});
afterAll(async () => {
  clients.forEach((c) => c.disconnect());
  await running?.close();
  await t?.close();
});

describe('the changes channel', () => {
  it('is for staff only: an admin and an agent join it, a voter and an anonymous socket are refused', async () => {
    for (const role of ['admin', 'agent'] as const)
      expect(await subscribe(await client(await tokenFor(t.ctx, role)), ['changes'])).toEqual({ joined: ['changes'], denied: [] });
    expect(await subscribe(await client(await tokenFor(t.ctx, 'voter')), ['changes'])).toEqual({ joined: [], denied: ['changes'] });
    expect(await subscribe(await client(), ['changes', 'changes:1'])).toEqual({ joined: [], denied: ['changes', 'changes:1'] });
  });

  it('tells staff which kind of thing changed when another admin edits it, naming nothing else', async () => {
    const agent = await client(await tokenFor(t.ctx, 'agent'));
    const seen = record(agent, 'EntityChanged');
    await subscribe(agent, ['changes']);
    const anonymous = await client();
    const leaked = record(anonymous, 'EntityChanged');
    await subscribe(anonymous, ['changes']);

    expect((await api.setup.createPosition({ query: {}, body: { name: 'Auditor' } })).status).toBe(201);
    await waitFor(() => seen.some((p) => p.entity === 'positions'), 5000, 'positions changed');
    expect(seen.some((p) => p.entity === 'candidates')).toBe(true);

    const member = await createMember(t.ctx);
    const edited = await api.members.updateMember({
      params: { id: member.id },
      body: { name: 'Renamed Member', phone: member.phone, email: member.email, county: member.branchId, member_no: member.memberNo },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await waitFor(() => seen.some((p) => p.entity === 'members'), 5000, 'members changed');

    expect((await api.elections.updateElection({ query: {}, body: { title: 'Annual election, renamed' } })).status).toBe(200);
    await waitFor(() => seen.some((p) => p.entity === 'election'), 5000, 'election changed');

    // The kind only, and nothing for a socket that is not staff.
    for (const payload of seen) expect(Object.keys(payload)).toEqual(['entity']);
    await sleep(300);
    expect(leaked).toEqual([]);
  });
});
