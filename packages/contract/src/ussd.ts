import { z } from 'zod';
import { c, errors, meta } from './common';

/** The USSD channel as the admin's USSD page shows it (docs/api.md "Voting by USSD"). */
export const UssdStatus = z.object({
  /** USSD_CALLBACK_TOKEN is set: the gateway's callback answers. */
  enabled: z.boolean(),
  /**
   * The callback's path with its token (`/api/v1/ussd/{token}`), to give Africa's Talking and for
   * the page's phone simulator; null when the channel is off. Admins only: the token is the
   * callback's only credential.
   */
  callback_path: z.string().nullable(),
});
export type UssdStatus = z.infer<typeof UssdStatus>;

export const ussdRouter = c.router({
  getUssdStatus: {
    method: 'GET',
    path: '/ussd/status',
    summary: "The USSD channel's state and the callback to give Africa's Talking (admin only)",
    description:
      "Answers {enabled, callback_path}: whether USSD_CALLBACK_TOKEN is set, and the callback path with the token (null when off). The token is the callback's only credential, so only admins see it; agents get 403. The callback itself (`POST /api/v1/ussd/{token}`, form-encoded, text/plain) is the gateway's and not part of this contract.",
    responses: { 200: UssdStatus, ...errors(401, 403) },
    metadata: meta('admin'),
  },
});
