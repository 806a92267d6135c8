import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import type { MembersContext, MembersDeps } from '../members';
import { candidatesRoutes } from './candidates.router';

/** What the candidates module uses: the members module's contact-change notices (a candidate edit may change contacts). */
export type CandidatesDeps = MembersDeps;

/** The candidates module: candidate listing and edit. Owns no service. */
export function createCandidates(_core: Core, deps: CandidatesDeps): Module<ReturnType<typeof candidatesRoutes>> {
  return { routes: (at) => candidatesRoutes({ ...at, ...deps } satisfies MembersContext), services: {} };
}
