import { isTallyResult } from '@kura/contract';
import { describe, expect, it, vi } from 'vitest';
import { apiClient, bodyOf } from '../../../test/client';
import { createVoter, vote } from '../../../test/voting/election';
import { useElectionApp } from '../../../test/voting/election-app';

/**
 * The declared result is counted from the ballot box, not from this process's live snapshot: a
 * vote whose event never reached this process (cast by another process, its relay late, or a
 * snapshot rebuild still in flight on a busy machine) is in it; and the count runs once per close,
 * however often the public result is read (a flood of reads cannot make the server recount).
 */

const f = useElectionApp(async ({ t, e, admin }) => {
  expect((await admin.elections.toggleElection({ body: { status: true } })).status).toBe(200);
  // From here this process hears neither the vote nor the close's toggle: its live snapshot keeps
  // the state before the vote, as a process whose relay is behind would.
  const emit = t.ctx.events.emit.bind(t.ctx.events);
  const deaf = vi
    .spyOn(t.ctx.events, 'emit')
    .mockImplementation(((name: string, ...args: unknown[]) =>
      name === 'votes.cast' || name === 'election.toggled'
        ? false
        : (emit as (n: string, ...a: unknown[]) => boolean)(name, ...args)) as never);
  expect((await vote(t.app, (await createVoter(t.ctx)).token, { [e.chair.id]: e.alice.id })).status).toBe(201);
  expect((await admin.lifecycle.closeElection()).status).toBe(200);
  deaf.mockRestore();
});

describe('the declared result', () => {
  it('counts the ballot box, including a vote the live snapshot never heard of', async () => {
    const live = await f.t.ctx.voting.tallyOf(1).results();
    expect(live.find((g) => g.position_id === f.e.chair.id)!.total).toBe(0);

    const res = await apiClient(f.t.app).lifecycle.getFinalResults();
    const chair = bodyOf(res, 200)
      .data.filter(isTallyResult)
      .find((p) => p.position_id === f.e.chair.id)!;
    expect(chair).toMatchObject({ total: 1 });
    expect(chair.values.find((v) => v.candidate_id === f.e.alice.id)).toMatchObject({ count: 1, elected: true });
  });

  it('is counted once per close: a hundred reads share one count', async () => {
    const resync = vi.spyOn(f.t.ctx.voting.tallyOf(1), 'resync');
    const reads = await Promise.all(Array.from({ length: 100 }, () => apiClient(f.t.app).lifecycle.getFinalResults()));
    expect(reads.every((r) => r.status === 200)).toBe(true);
    expect(new Set(reads.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(resync).not.toHaveBeenCalled();
  });
});
