import type { Core } from '../../core';
import type { BackgroundSender, Delivery } from '../../delivery';

/** What the members module's functions read: the core, the email/SMS transport and the notices sent after the answer. */
export type MembersContext = Core & { delivery: Delivery; notices: BackgroundSender };
