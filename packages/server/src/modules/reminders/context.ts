import type { Core } from '../../core';
import type { Delivery } from '../../delivery';

/** What the reminders module's functions read: the core and the email/SMS transport. */
export type RemindersContext = Core & { delivery: Delivery };
