import type { UssdStatus } from '@kura/contract';
import type { Core } from '../../core';

/**
 * `GET ussd/status` (admin): whether the channel is on and the callback's path with its token, for
 * the admin's USSD page (the address to give Africa's Talking, and the phone simulator's target).
 * The route is admin-only in the contract: the token is the callback's only credential.
 */
export function ussdStatus(ctx: Pick<Core, 'env'>): UssdStatus {
  const token = ctx.env.USSD_CALLBACK_TOKEN;
  return token ? { enabled: true, callback_path: `/api/v1/ussd/${encodeURIComponent(token)}` } : { enabled: false, callback_path: null };
}
