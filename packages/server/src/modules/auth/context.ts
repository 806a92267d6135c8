import type { GoogleContext } from '../../auth/google';
import type { Delivery } from '../../delivery';

/** What the auth module's functions read: the core, Google's verifier and the email/SMS transport. */
export type AuthContext = GoogleContext & { delivery: Delivery };
