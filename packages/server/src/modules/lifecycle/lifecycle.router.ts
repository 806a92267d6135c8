import type { ResultsContext } from '../results';
import type { Contract } from '@kura/contract';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { electionOf } from '../../http/election-param';
import { getFinalResults, getRankedBallots } from '../declaration';
import { getElection } from '../elections';
import { closeElection } from './lifecycle';
import { getElectionStatus, toggleElection } from './toggle';

export function lifecycleRoutes(ctx: ResultsContext): RouterImplementation<Contract['api']['lifecycle']> {
  return {
    closeElection: async ({ req, query }) => {
      const id = await electionOf(ctx, query);
      await closeElection(ctx, await actorOf(ctx, req), 'admin', id);
      return { status: 200, body: { data: await getElection(ctx, id) } };
    },
    getFinalResults: async ({ query }) => ({ status: 200, body: await getFinalResults(ctx, await electionOf(ctx, query)) }),
    // Whoever may see the final results (everyone, once closed) may download a ranked position's ballots.
    getRankedBallots: async ({ query, res }) => {
      const { filename, blt } = await getRankedBallots(ctx, query.position_id, await electionOf(ctx, query));
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      return { status: 200, body: blt };
    },
  };
}

/** The routes of the `elections` contract domain this module answers: the voting switch. */
type SwitchRoutes = Pick<RouterImplementation<Contract['api']['elections']>, 'getElectionStatus' | 'toggleElection'>;

export function votingSwitchRoutes(ctx: ResultsContext): SwitchRoutes {
  return {
    getElectionStatus: async ({ query }) => ({ status: 200, body: { active: await getElectionStatus(ctx, await electionOf(ctx, query)) } }),

    toggleElection: async ({ req, body, query }) => {
      const id = await electionOf(ctx, query);
      const active = await toggleElection(ctx, await actorOf(ctx, req), body.status, id);
      return { status: 200, body: { active, message: active === '1' ? 'Voting has been enabled' : 'Voting has been disabled' } };
    },
  };
}
