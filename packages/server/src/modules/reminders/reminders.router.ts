import type { Contract } from '@kura/contract';
import type { AppContext } from '../../context';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { startReminderSender } from './reminder-sender';
import { createReminder, getReminder, listReminders } from './reminders.service';

export function remindersRoutes(ctx: AppContext): RouterImplementation<Contract['api']['reminders']> {
  // The sender runs with the app: campaigns queued before a restart, or by another process, resume.
  const stop = startReminderSender(ctx);
  ctx.onClose(stop);
  return {
    createReminder: async ({ req, body }) => ({ status: 202, body: await createReminder(ctx, await actorOf(ctx, req), body) }),
    getReminder: async ({ params }) => ({ status: 200, body: await getReminder(ctx, params.id) }),
    listReminders: async () => ({ status: 200, body: { data: await listReminders(ctx) } }),
  };
}
