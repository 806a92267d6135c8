import type { Core } from '../../core';
import type { BackgroundSender, Delivery } from '../../delivery';

/** What the staff module's use cases run on: the core, the transport and the sender of notices after answers. */
export type StaffContext = Core & { delivery: Delivery; notices: BackgroundSender };
