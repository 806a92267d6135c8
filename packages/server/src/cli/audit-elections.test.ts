import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { election } from '../db/schema';
import { apiClient } from '../../test/client';
import { createCandidate, createPosition, tokenFor } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { createElection, createVoter, type Election } from '../../test/voting/election';
import { COMMANDS } from './commands';

/**
 * `audit:verify` checks every election, or the one `--election N` names; its output names each
 * election, and a ballot altered in one election fails that election's audit only.
 */
let t: TestApp;
let e: Election;
let admin: string;
let by: number;
let byPosition: { id: number };
const byCandidates: { id: number }[] = [];

const toggleOn = (electionId: number) =>
  apiClient(t.app, admin).elections.toggleElection({ query: { election_id: electionId }, body: { status: true } });
const castIn = (electionId: number, token: string, candidates: Record<number, number>) =>
  apiClient(t.app, token).ballots.castVote({ query: { election_id: electionId }, body: { candidates } });

/** Runs the command as the operator would; answers its exit code and what it printed. */
async function audit(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const code = await COMMANDS['audit:verify']!.run(t.ctx, args);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  e = await createElection(t.ctx);
  const [row] = await t.ctx.database.db.insert(election).values({ title: 'By-election' }).returning({ id: election.id });
  by = row!.id;
  byPosition = await createPosition(t.ctx, { name: 'Trustee', electionId: by });
  byCandidates.push(await createCandidate(t.ctx, [byPosition.id], { name: 'Trustee One' }));
  byCandidates.push(await createCandidate(t.ctx, [byPosition.id], { name: 'Trustee Two' }));
  await t.ctx.voting.tallyOf(by).refreshStructure();
  expect((await toggleOn(1)).status).toBe(200);
  expect((await toggleOn(by)).status).toBe(200);
  await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(by).idle()]);
  for (let i = 0; i < 3; i++) {
    const { token } = await createVoter(t.ctx);
    expect((await castIn(1, token, { [e.chair.id]: e.alice.id })).status).toBe(201);
    const choice = { [byPosition.id]: byCandidates[i % 2]!.id };
    expect((await castIn(by, token, choice)).status).toBe(201);
  }
  // The close publishes the by-election's ballots into `ballots`, with its final commitment.
  expect((await apiClient(t.app, admin).lifecycle.closeElection({ query: { election_id: by } })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('audit:verify over several elections', () => {
  it('checks every election by default and names each one', async () => {
    const { code, out, err } = await audit();
    expect(code, err).toBe(0);
    expect(out).toContain('Audit of election 1 ');
    expect(out).toContain(`Audit of election ${by} "By-election" passed.`);
    expect(out.match(/^== Election /gm)).toHaveLength(2);
    expect(out.trimEnd().endsWith('Audit passed.')).toBe(true);
  });

  it('checks only the election --election names', async () => {
    const { code, out } = await audit('--election', String(by));
    expect(code).toBe(0);
    expect(out.match(/^== Election /gm)).toEqual(['== Election ']);
    expect(out).toContain(`== Election ${by} "By-election"`);
    expect(out).not.toContain('election 1 ');
    expect(out).toContain(`position ${byPosition.id}\tcandidate ${byCandidates[0]!.id}\t2`);
    expect(out).not.toContain(`position ${e.chair.id}\t`);
  });

  it('refuses a bad or unknown --election with the usage, exit 2', async () => {
    for (const args of [['--election'], ['--election', 'abc'], ['--election', '0'], ['--all'], ['--election', '1', 'extra']]) {
      const { code, err } = await audit(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(err).toContain('Usage: audit:verify [--election <id>]');
    }
    const unknown = await audit('--election', '424242');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('There is no election 424242.');
  });

  it('reports a ballot altered in one election for that election only', async () => {
    await t.ctx.database.db.execute(sql`
      update ballots set candidate_id = ${byCandidates[1]!.id}
      where position_id = ${byPosition.id} and receipt = (select min(receipt) from ballots where position_id = ${byPosition.id} and candidate_id = ${byCandidates[0]!.id})`);
    const all = await audit();
    expect(all.code).toBe(1);
    expect(all.err).toContain(`MISMATCH in election ${by} "By-election":`);
    expect(all.err).not.toContain('MISMATCH in election 1 ');
    expect(all.out).toContain(`Audit of election ${by} "By-election" FAILED.`);
    expect(all.out).toMatch(/Audit of election 1 ".*" passed\./);
    expect(all.out.trimEnd().endsWith('Audit FAILED.')).toBe(true);
    expect((await audit('--election', '1')).code).toBe(0);
    expect((await audit('--election', String(by))).code).toBe(1);
  });
});
