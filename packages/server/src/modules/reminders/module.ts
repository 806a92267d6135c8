import type { Core } from '../../core';
import type { Delivery } from '../../delivery';
import type { Module } from '../../lib/module';
import type { Service } from '../../lib/service';
import type { RemindersContext } from './context';
import { createReminderSender } from './reminder-sender';
import { remindersRoutes } from './reminders.router';

/** What the reminders module uses besides the core: the email/SMS transport. */
export type RemindersDeps = { delivery: Delivery };

export type RemindersServices = {
  /** Sends queued reminder campaigns. */
  reminders: Service;
};

/** The reminders module: reminder campaigns and their background sender. */
export function createReminders(core: Core, deps: RemindersDeps): Module<ReturnType<typeof remindersRoutes>, RemindersServices> {
  const ctx: RemindersContext = { ...core, ...deps };
  return {
    routes: (at) => remindersRoutes({ ...at, ...deps } satisfies RemindersContext),
    services: { reminders: createReminderSender(ctx) },
  };
}
