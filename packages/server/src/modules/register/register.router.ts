import type { Contract } from '@kura/contract';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { callerOf } from '../../auth/access';
import { electionOf } from '../../http/election-param';
import { resolveElection } from '../../db/election-store';
import { pageRequest } from '../../lib/pagination';
import type { RegisterContext } from './context';
import { putAttributeDefs } from './attributes';
import { fileClaim, getAttributeDefs, getMyEntry, getRoll, getRollMembers, listClaims, myClaims, ruleOnClaim } from './register.service';

/** The register (docs/api.md "The register: member attributes, eligibility rules and inspection"). */
export function registerRoutes(ctx: RegisterContext): RouterImplementation<Contract['api']['register']> {
  return {
    getAttributes: async () => ({ status: 200, body: { data: await getAttributeDefs(ctx) } }),
    putAttributes: async ({ req, body }) => ({
      status: 200,
      body: { data: await putAttributeDefs(ctx, await actorOf(ctx, req), body.data) },
    }),
    getRoll: async ({ params }) => ({ status: 200, body: { data: await getRoll(ctx, await resolveElection(ctx.database.db, params.id)) } }),
    getRollMembers: async ({ params, query }) => ({
      status: 200,
      body: await getRollMembers(ctx, await resolveElection(ctx.database.db, params.id), pageRequest(query)),
    }),
    getMyRegisterEntry: async ({ req }) => ({
      status: 200,
      body: { data: await getMyEntry(ctx, callerOf(req).subjectId, await electionOf(ctx, req)) },
    }),
    fileClaim: async ({ req, body }) => ({
      status: 201,
      body: { data: await fileClaim(ctx, await actorOf(ctx, req), await electionOf(ctx, req), body) },
    }),
    listMyClaims: async ({ req }) => ({
      status: 200,
      body: { data: await myClaims(ctx, callerOf(req).subjectId, await electionOf(ctx, req)) },
    }),
    listClaims: async ({ req, query }) => ({
      status: 200,
      body: await listClaims(ctx, await electionOf(ctx, req), query.status, pageRequest(query)),
    }),
    ruleOnClaim: async ({ req, params, body }) => ({
      status: 200,
      body: { data: await ruleOnClaim(ctx, await actorOf(ctx, req), params.id, body) },
    }),
  };
}
