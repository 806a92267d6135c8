import type { Contract } from '@kura/contract';
import type { Core } from '../../core';
import type { RouterImplementation } from '../../http/routes';
import { electionOf } from '../../http/election-param';
import { actorOf } from '../../auth/actor';
import { getElection, updateElection } from './election.service';

/** The routes of the `elections` contract domain this module answers: the election's configuration and phase. */
type ElectionRoutes = Pick<RouterImplementation<Contract['api']['elections']>, 'getElection' | 'updateElection'>;

export function electionsRoutes(ctx: Core): ElectionRoutes {
  return {
    getElection: async ({ query }) => ({ status: 200, body: { data: await getElection(ctx, await electionOf(ctx, query)) } }),

    updateElection: async ({ req, body, query }) => {
      const id = await electionOf(ctx, query);
      return { status: 200, body: { data: await updateElection(ctx, await actorOf(ctx, req), body, id) } };
    },
  };
}
