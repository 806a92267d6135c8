import type { Contract } from '@kura/contract';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import type { Core } from '../../core';
import { AppError } from '../../errors';
import { fieldErrors } from '../../http/error-handler';
import type { RouterImplementation } from '../../http/routes';
import { safeEqual } from '../../lib/crypto';
import { ussdStatus } from './ussd-status';
import { answerUssd, type UssdDeps } from './ussd.service';

/** What Africa's Talking posts, form-encoded (docs/operations.md "Voting by USSD with Africa's Talking"). */
const UssdCallback = z.object({
  sessionId: z.string().trim().min(1).max(100),
  serviceCode: z.string().max(50).optional(),
  phoneNumber: z.string().trim().min(1).max(30),
  networkCode: z.string().max(20).optional(),
  text: z.string().max(1000).default(''),
});

/**
 * `POST /api/v1/ussd/{USSD_CALLBACK_TOKEN}`: a wrong or missing token (or the channel off, no
 * token set) is a 404, like any unknown path; a body that is not the gateway's a 422; otherwise
 * the screen as text/plain.
 */
export function ussdCallback(ctx: Core, deps: UssdDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const expected = ctx.env.USSD_CALLBACK_TOKEN;
      const token = String(req.params.token ?? '');
      if (!expected || !safeEqual(token, expected))
        throw AppError.say('NOT_FOUND', 'error.noRoute', { route: `${req.method} /api/v1/ussd` });
      const parsed = UssdCallback.safeParse(req.body ?? {});
      if (!parsed.success) {
        throw AppError.fields(fieldErrors(parsed.error), { id: 'error.notUssdCallback' });
      }
      const answer = await answerUssd(ctx, deps, {
        sessionId: parsed.data.sessionId,
        phoneNumber: parsed.data.phoneNumber,
        text: parsed.data.text.trim(),
        ip: req.ip ?? '',
      });
      res.status(200).type('text/plain').setHeader('Cache-Control', 'no-store').send(answer);
    } catch (error) {
      next(error);
    }
  };
}

/** The contract's USSD routes: the channel's state for the admin's USSD page. */
export function ussdRoutes(ctx: Core): RouterImplementation<Contract['api']['ussd']> {
  return {
    getUssdStatus: async () => ({ status: 200, body: ussdStatus(ctx) }),
  };
}
