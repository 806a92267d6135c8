import type { Contract } from '@kura/contract';
import type { Request } from 'express';
import { actorOf } from '../../auth/actor';
import type { RouterImplementation } from '../../http/routes';
import type { StaffContext } from './context';
import { adminExists, createStaff, deleteStaff, listStaff, setOwnName, setPasswordWithLink } from './staff.service';

/** The address the browser reached this server at, for the link in a new admin's e-mail. */
const originOf = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/** Thin handlers for the staff calls (docs/api.md "Running it on your own"). */
export function staffRoutes(ctx: StaffContext): RouterImplementation<Contract['api']['staff']> {
  return {
    listStaff: async () => ({ status: 200, body: { data: await listStaff(ctx) } }),
    createStaff: async ({ body, req }) => ({
      status: 201,
      body: { data: await createStaff(ctx, await actorOf(ctx, req), body, originOf(req)) },
    }),
    deleteStaff: async ({ params, req }) => {
      await deleteStaff(ctx, await actorOf(ctx, req), params.id);
      return { status: 204, body: undefined };
    },
    updateOwnStaff: async ({ body, req }) => ({ status: 200, body: { data: await setOwnName(ctx, await actorOf(ctx, req), body.name) } }),
    getStaffStatus: async () => ({ status: 200, body: { data: { admin_exists: await adminExists(ctx) } } }),
    setStaffPassword: async ({ body, req }) => {
      await setPasswordWithLink(ctx, body, req.ip ?? '');
      return { status: 204, body: undefined };
    },
  };
}
