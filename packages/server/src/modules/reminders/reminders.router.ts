import type { Contract } from '@kura/contract';
import type { Core } from '../../core';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { createReminder, getReminder, listReminders } from './reminders.service';

export function remindersRoutes(ctx: Core): RouterImplementation<Contract['api']['reminders']> {
  return {
    createReminder: async ({ req, body }) => ({ status: 202, body: await createReminder(ctx, await actorOf(ctx, req), body) }),
    getReminder: async ({ params }) => ({ status: 200, body: await getReminder(ctx, params.id) }),
    listReminders: async () => ({ status: 200, body: { data: await listReminders(ctx) } }),
  };
}
