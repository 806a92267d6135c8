import type { Contract } from '@kura/contract';
import type { Core } from '../../core';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { electionOf } from '../../http/election-param';
import {
  createBranch,
  createPositions,
  deleteBranch,
  deletePosition,
  listAgents,
  renameBranch,
  reorderPositions,
  updatePosition,
} from './setup.service';

export function setupRoutes(ctx: Core): RouterImplementation<Contract['api']['setup']> {
  return {
    listAgents: async () => ({ status: 200, body: { data: await listAgents(ctx) } }),

    createBranch: async ({ req, body }) => ({ status: 201, body: { data: await createBranch(ctx, await actorOf(ctx, req), body.name) } }),

    updateBranch: async ({ req, params, body }) => ({
      status: 200,
      body: { data: await renameBranch(ctx, await actorOf(ctx, req), params.id, body.name) },
    }),

    deleteBranch: async ({ req, params }) => {
      await deleteBranch(ctx, await actorOf(ctx, req), params.id);
      return { status: 204, body: undefined };
    },

    createPosition: async ({ req, body, query }) => {
      const id = await electionOf(ctx, query);
      return { status: 201, body: { data: await createPositions(ctx, await actorOf(ctx, req), body, id) } };
    },

    updatePosition: async ({ req, params, body }) => ({
      status: 200,
      body: { data: await updatePosition(ctx, await actorOf(ctx, req), params.id, body) },
    }),

    reorderPositions: async ({ req, body, query }) => ({
      status: 200,
      body: { data: await reorderPositions(ctx, await actorOf(ctx, req), body.position_ids, await electionOf(ctx, query)) },
    }),

    deletePosition: async ({ req, params }) => {
      await deletePosition(ctx, await actorOf(ctx, req), params.id);
      return { status: 204, body: undefined };
    },
  };
}
