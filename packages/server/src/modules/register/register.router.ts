import type { Contract } from '@kura/contract';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { callerOf } from '../../auth/access';
import { electionOf } from '../../http/election-param';
import { resolveElection } from '../../http/election-param';
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
      body: await getRollMembers(ctx, await resolveElection(ctx.database.db, params.id), pageRequest(query), {
        query: query.query,
        branch: query.branch,
      }),
    }),
    getMyRegisterEntry: async ({ req, query }) => ({
      status: 200,
      body: { data: await getMyEntry(ctx, callerOf(req).subjectId, await electionOf(ctx, query)) },
    }),
    fileClaim: async ({ req, body, query }) => ({
      status: 201,
      body: { data: await fileClaim(ctx, await actorOf(ctx, req), await electionOf(ctx, query), body) },
    }),
    listMyClaims: async ({ req, query }) => ({
      status: 200,
      body: { data: await myClaims(ctx, callerOf(req).subjectId, await electionOf(ctx, query)) },
    }),
    listClaims: async ({ query }) => ({
      status: 200,
      body: await listClaims(ctx, await electionOf(ctx, query), query.status, pageRequest(query)),
    }),
    ruleOnClaim: async ({ req, params, body }) => ({
      status: 200,
      body: { data: await ruleOnClaim(ctx, await actorOf(ctx, req), params.id, body) },
    }),
  };
}
