import type { Core } from '../../core';
import type { BackgroundSender, Delivery } from '../../delivery';
import type { Module } from '../../lib/module';
import type { StaffContext } from './context';
import { staffRoutes } from './staff.router';

/** What the staff module uses besides the core: the transport and the notices sent after the answer. */
export type StaffDeps = { delivery: Delivery; notices: BackgroundSender };

/** The staff module: admins and agents managed from the back office. Owns no service. */
export function createStaffModule(_core: Core, deps: StaffDeps): Module<ReturnType<typeof staffRoutes>> {
  return { routes: (at) => staffRoutes({ ...at, ...deps } satisfies StaffContext), services: {} };
}
