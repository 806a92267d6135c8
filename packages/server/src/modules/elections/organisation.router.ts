import type { Contract } from '@kura/contract';
import type { Core } from '../../core';
import type { RouterImplementation } from '../../http/routes';
import { bearerToken } from '../../auth/access';
import { actorOf } from '../../auth/actor';
import { resolveSession } from '../../auth/sessions';
import {
  archiveElection,
  copyElection,
  createElection,
  deleteElection,
  editElection,
  editOrganisation,
  getElectionById,
  getOrganisation,
  listElections,
} from './catalogue';

/** The organisation and its elections (docs/api.md "Many elections, motions and ranked counts"). */
export function organisationRoutes(ctx: Core): RouterImplementation<Contract['api']['organisation']> {
  return {
    getOrganisation: async () => ({ status: 200, body: { data: await getOrganisation(ctx) } }),
    updateOrganisation: async ({ req, body }) => ({
      status: 200,
      body: { data: await editOrganisation(ctx, await actorOf(ctx, req), body) },
    }),

    // Public; a staff token (when sent) also lists the archived elections.
    listElections: async ({ req }) => {
      const token = bearerToken(req);
      const role = token ? (await resolveSession(ctx, token))?.role : undefined;
      return { status: 200, body: { data: await listElections(ctx, role === 'admin' || role === 'agent') } };
    },
    createElection: async ({ req, body }) => ({ status: 201, body: { data: await createElection(ctx, await actorOf(ctx, req), body) } }),
    getElectionById: async ({ params }) => ({ status: 200, body: { data: await getElectionById(ctx, params.id) } }),
    updateElectionById: async ({ req, params, body }) => ({
      status: 200,
      body: { data: await editElection(ctx, await actorOf(ctx, req), params.id, body) },
    }),
    deleteElection: async ({ req, params }) => {
      await deleteElection(ctx, await actorOf(ctx, req), params.id);
      return { status: 204, body: undefined };
    },
    copyElection: async ({ req, params, body }) => ({
      status: 201,
      body: { data: await copyElection(ctx, await actorOf(ctx, req), params.id, body) },
    }),
    archiveElection: async ({ req, params }) => ({
      status: 200,
      body: { data: await archiveElection(ctx, await actorOf(ctx, req), params.id) },
    }),
  };
}
