import type { MembersContext } from '../members';
import type { Contract } from '@kura/contract';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { electionOf } from '../../http/election-param';
import { filesOf, imageUpload } from '../../lib/uploads';
import { listCandidates, updateCandidate } from './candidates.service';

export function candidatesRoutes(ctx: MembersContext): RouterImplementation<Contract['api']['candidates']> {
  return {
    listCandidates: async ({ query }) => ({
      status: 200,
      body: { data: { data: { candidates: await listCandidates(ctx, await electionOf(ctx, query)) } } },
    }),

    updateCandidate: {
      middleware: [imageUpload([{ name: 'image', maxCount: 1 }])],
      handler: async ({ params, body, req, query }) => {
        const [image] = filesOf(req, ['image']);
        const id = await electionOf(ctx, query);
        return { status: 200, body: { data: await updateCandidate(ctx, await actorOf(ctx, req), params.id, body, image, id) } };
      },
    },
  };
}
