import type { Contract } from '@kura/contract';
import type { Core } from '../../core';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { electionOf } from '../../http/election-param';
import { createReminder, getReminder, listReminders } from './reminders.service';

export function remindersRoutes(ctx: Core): RouterImplementation<Contract['api']['reminders']> {
  return {
    createReminder: async ({ req, body, query }) => {
      const id = await electionOf(ctx, query);
      return { status: 202, body: await createReminder(ctx, await actorOf(ctx, req), body, id) };
    },
    getReminder: async ({ params }) => ({ status: 200, body: await getReminder(ctx, params.id) }),
    listReminders: async ({ query }) => ({ status: 200, body: { data: await listReminders(ctx, await electionOf(ctx, query)) } }),
  };
}
