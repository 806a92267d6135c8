import type { Core } from '../../core';
import type { BackgroundSender, Delivery } from '../../delivery';

/** What the register module's functions read: the core, the e-mail/SMS transport and the notices sent after the answer. */
export type RegisterContext = Core & { delivery: Delivery; notices: BackgroundSender };
