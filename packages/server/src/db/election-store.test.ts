import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, bodyOf } from '../../test/client';
import { tokenFor } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { createElection, createVoter, vote, type Election } from '../../test/voting/election';
import {
  CURRENT_ELECTION,
  electionValue,
  organisationValue,
  markClosed,
  readActive,
  readState,
  setActive,
  updateConfiguration,
} from './election-store';

/** The election store: the switch is the typed `election.voting_active`, and every path reads it there. */
let t: TestApp;
let e: Election;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  e = await createElection(t.ctx);
  admin = await tokenFor(t.ctx, 'admin');
});
afterAll(async () => {
  await t?.close();
});

const column = async () =>
  (await t.ctx.database.sql<{ voting_active: boolean }[]>`select voting_active from election where id = ${CURRENT_ELECTION}`)[0]!
    .voting_active;
const electionKeys = async () => t.ctx.database.sql<{ key: string }[]>`select key from settings where key like 'election%'`;
const toggle = (status: boolean) => apiClient(t.app, admin).elections.toggleElection({ body: { status } });
const status = async () => bodyOf(await apiClient(t.app).elections.getElectionStatus(), 200).active;
const getElection = async () => bodyOf(await apiClient(t.app).elections.getElection(), 200).data;

describe('election store', () => {
  it('round-trips the toggle through election.voting_active, never through settings', async () => {
    expect(await column()).toBe(false);
    expect((await toggle(true)).status).toBe(200);
    expect(await column()).toBe(true);
    expect(await readActive(t.ctx.database.db, 1)).toBe(true);
    expect((await readState(t.ctx.database.db, 1)).openedAt).toBeInstanceOf(Date);
    expect(await status()).toBe('1');
    expect(await getElection()).toMatchObject({ active: '1', phase: 'open' });

    expect((await toggle(false)).status).toBe(200);
    expect(await column()).toBe(false);
    expect(await status()).toBe('0');
    expect(await getElection()).toMatchObject({ active: '0', phase: 'paused' });
    expect(await electionKeys()).toEqual([]);
  });

  it('is what the vote statement reads: a switch written through the store opens and closes voting', async () => {
    const { token } = await createVoter(t.ctx);
    await t.ctx.database.db.transaction((tx) => setActive(tx, false, t.ctx.now(), 1));
    const refused = await vote(t.app, token, { [e.chair.id]: e.alice.id });
    expect(refused.status).toBe(403);
    expect(bodyOf(refused, 403).message).toBe('Voting is currently disabled');

    await t.ctx.database.db.transaction((tx) => setActive(tx, true, t.ctx.now(), 1));
    expect(await status()).toBe('1');
    expect((await vote(t.app, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    await t.ctx.database.db.transaction((tx) => setActive(tx, false, t.ctx.now(), 1));
  });

  it('reads and writes the settings and one value, on the current election', async () => {
    await updateConfiguration(t.ctx.database.db, { supportEmail: 'store@example.org', resultsVisibility: 'staff' }, t.ctx.now(), 1);
    const state = await readState(t.ctx.database.db, CURRENT_ELECTION);
    expect(state).toMatchObject({ id: CURRENT_ELECTION, supportEmail: 'store@example.org', resultsVisibility: 'staff' });
    // The fragment is a subquery, for a select of other tables to embed.
    const [value] = await t.ctx.database.db.execute<{ v: string }>(sql`select ${organisationValue('supportEmail')} as v`);
    expect(value?.v).toBe('store@example.org');
    const [title] = await t.ctx.database.db.execute<{ v: string }>(sql`select ${electionValue('resultsVisibility', 1)} as v`);
    expect(title?.v).toBe('staff');
    await updateConfiguration(t.ctx.database.db, { supportEmail: null, resultsVisibility: 'live' }, undefined, 1);
  });

  it('closes once: voting off and closed_at set by the first close, nothing by a second', async () => {
    await t.ctx.database.db.transaction((tx) => setActive(tx, true, t.ctx.now(), 1));
    const first = await t.ctx.database.db.transaction((tx) => markClosed(tx, t.ctx.now(), { dueOnly: false }, 1));
    const second = await t.ctx.database.db.transaction((tx) => markClosed(tx, t.ctx.now(), { dueOnly: false }, 1));
    expect([first, second]).toEqual([true, false]);
    const state = await readState(t.ctx.database.db, 1);
    expect(state.votingActive).toBe(false);
    expect(state.closedAt).toBeInstanceOf(Date);
    expect(await status()).toBe('0');
  });
});
