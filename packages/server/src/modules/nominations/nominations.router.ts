import type { MembersContext } from '../members';
import type { Contract } from '@kura/contract';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { electionOf } from '../../http/election-param';
import { filesOf, imageUpload } from '../../lib/uploads';
import {
  acceptNomination,
  appealNomination,
  createNomination,
  decideAppeal,
  decideNomination,
  listMyNominations,
  listNominations,
  listPublicNominations,
  supportNomination,
  withdrawNomination,
} from './nominations.service';

export function nominationsRoutes(ctx: MembersContext): RouterImplementation<Contract['api']['nominations']> {
  return {
    createNomination: async ({ body, req, query }) => {
      const electionId = await electionOf(ctx, query);
      return { status: 201, body: { data: await createNomination(ctx, await actorOf(ctx, req), electionId, body) } };
    },
    listMyNominations: async ({ req, query }) => {
      const electionId = await electionOf(ctx, query);
      return { status: 200, body: { data: await listMyNominations(ctx, (await actorOf(ctx, req)).id, electionId) } };
    },
    supportNomination: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await supportNomination(ctx, await actorOf(ctx, req), params.id, body.confirm) },
    }),
    acceptNomination: {
      middleware: [imageUpload([{ name: 'photo', maxCount: 1 }])],
      handler: async ({ params, body, req }) => {
        const [photo] = filesOf(req, ['photo']);
        return { status: 200, body: { data: await acceptNomination(ctx, await actorOf(ctx, req), params.id, body, photo) } };
      },
    },
    withdrawNomination: async ({ params, req }) => ({
      status: 200,
      body: { data: await withdrawNomination(ctx, await actorOf(ctx, req), params.id) },
    }),
    appealNomination: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await appealNomination(ctx, await actorOf(ctx, req), params.id, body.grounds) },
    }),
    listNominations: async ({ query }) => ({
      status: 200,
      body: await listNominations(ctx, await electionOf(ctx, query), query),
    }),
    decideNomination: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await decideNomination(ctx, await actorOf(ctx, req), params.id, body) },
    }),
    decideAppeal: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await decideAppeal(ctx, await actorOf(ctx, req), params.id, body) },
    }),
    listPublicNominations: async ({ params }) => ({
      status: 200,
      body: { data: await listPublicNominations(ctx, params.id) },
    }),
  };
}
