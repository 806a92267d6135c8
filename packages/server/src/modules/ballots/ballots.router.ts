import type { Contract } from '@kura/contract';
import type { Core } from '../../core';
import { callerOf, pendingSessionOf } from '../../auth/access';
import { electionOf, electionParam } from '../../http/election-param';
import type { RouterImplementation } from '../../http/routes';
import { castVote, getBallot } from './ballots.service';
import { listItems } from './items.service';

export function ballotsRoutes(ctx: Core): RouterImplementation<Contract['api']['ballots']> {
  return {
    getBallot: async ({ req, query }) => ({
      status: 200,
      body: { data: await getBallot(ctx, callerOf(req).subjectId, await electionOf(ctx, query)) },
    }),

    castVote: async ({ req, body, query }) => {
      // The session and the election are looked up inside the vote's one statement (ballots.service.ts;
      // the route is in the access middleware's `sessionInStatement`, app.ts).
      const session = pendingSessionOf(req);
      const requested = electionParam(query.election_id);
      const receipts = await castVote(ctx, { session, ip: req.ip ?? '' }, body.candidates, requested);
      return { status: 201, body: { message: 'Successfully voted', receipts } };
    },

    listItems: async () => ({ status: 200, body: { data: await listItems(ctx) } }),
  };
}
