import type { MembersContext } from '../members';
import type { Contract } from '@kura/contract';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { filesOf, imageUpload } from '../../lib/uploads';
import { listCandidates, updateCandidate } from './candidates.service';

export function candidatesRoutes(ctx: MembersContext): RouterImplementation<Contract['api']['candidates']> {
  return {
    listCandidates: async () => ({ status: 200, body: { data: { data: { candidates: await listCandidates(ctx) } } } }),

    updateCandidate: {
      middleware: [imageUpload([{ name: 'image', maxCount: 1 }])],
      handler: async ({ params, body, req }) => {
        const [image] = filesOf(req, ['image']);
        return { status: 200, body: { data: await updateCandidate(ctx, await actorOf(ctx, req), params.id, body, image) } };
      },
    },
  };
}
