import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import type { MembersContext, MembersDeps } from '../members';
import { nominationsRoutes } from './nominations.router';

/** What the nominations module uses: the transport and the notices sent after the answer (members named are told). */
export type NominationsDeps = MembersDeps;

/** The nominations module: nominate, support, accept, withdraw, appeal, decide, the public list. Owns no service. */
export function createNominations(_core: Core, deps: NominationsDeps): Module<ReturnType<typeof nominationsRoutes>> {
  return { routes: (at) => nominationsRoutes({ ...at, ...deps } satisfies MembersContext), services: {} };
}
