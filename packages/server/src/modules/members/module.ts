import type { Core } from '../../core';
import type { BackgroundSender, Delivery } from '../../delivery';
import type { Module } from '../../lib/module';
import type { MembersContext } from './context';
import { membersRoutes } from './members.router';

/** What the members module uses besides the core: the transport and the notices sent after the answer. */
export type MembersDeps = { delivery: Delivery; notices: BackgroundSender };

/** The members module: members, positions held, CSV import, contact changes. Owns no service. */
export function createMembers(_core: Core, deps: MembersDeps): Module<ReturnType<typeof membersRoutes>> {
  return { routes: (at) => membersRoutes({ ...at, ...deps } satisfies MembersContext), services: {} };
}
