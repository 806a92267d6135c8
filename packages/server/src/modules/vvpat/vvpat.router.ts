import type { ResultsContext } from '../results';
import type { Contract } from '@kura/contract';
import { callerOf } from '../../auth/access';
import { electionOf } from '../../http/election-param';
import type { RouterImplementation } from '../../http/routes';
import { listMyVvpat, searchVvpat } from './vvpat.service';

export function vvpatRoutes(ctx: ResultsContext): RouterImplementation<Contract['api']['vvpat']> {
  return {
    listVvpat: async ({ query }) => ({ status: 200, body: await searchVvpat(ctx, query, {}, await electionOf(ctx, query)) }),

    searchVvpat: async ({ query }) => {
      const { vvpat, psk_position_id, ...page } = query;
      return { status: 200, body: await searchVvpat(ctx, page, { vvpat, positionId: psk_position_id }, await electionOf(ctx, query)) };
    },

    getMyVvpat: async ({ req }) => ({ status: 200, body: { data: { votes: await listMyVvpat(ctx, callerOf(req).subjectId) } } }),
  };
}
