import { authRouter, csrfRouter } from './auth';
import { ballotsRouter } from './ballots';
import { candidatesRouter } from './candidates';
import { c } from './common';
import { electionsRouter } from './elections';
import { helpRouter } from './help';
import { logsRouter } from './logs';
import { membersRouter } from './members';
import { remindersRouter } from './reminders';
import { setupRouter } from './setup';
import { staffRouter } from './staff';
import { lifecycleRouter } from './lifecycle';
import { evidenceRouter } from './evidence';
import { organisationRouter } from './organisation';
import { vvpatRouter } from './vvpat';
import { ussdRouter } from './ussd';
import { registerRouter } from './register';
import { nominationsRouter } from './nominations';

export * from './common';
export * from './messages';
export * from './validation';
export * from './phone';
export * from './languages';
export * from './auth';
export * from './elections';
export * from './ballots';
export * from './members';
export * from './candidates';
export * from './logs';
export * from './vvpat';
export * from './help';
export * from './reminders';
export * from './setup';
export * from './staff';
export * from './lifecycle';
export * from './evidence';
export * from './organisation';
export * from './nominations';
export * from './realtime';
export * from './ussd';
export * from './register';

/** Every domain router, served under /api/v1 (and its alias /api). */
export const API_PREFIX = '/api/v1';

export const apiRouter = c.router(
  {
    auth: authRouter,
    elections: electionsRouter,
    ballots: ballotsRouter,
    members: membersRouter,
    candidates: candidatesRouter,
    logs: logsRouter,
    vvpat: vvpatRouter,
    help: helpRouter,
    reminders: remindersRouter,
    setup: setupRouter,
    staff: staffRouter,
    lifecycle: lifecycleRouter,
    organisation: organisationRouter,
    evidence: evidenceRouter,
    ussd: ussdRouter,
    register: registerRouter,
    nominations: nominationsRouter,
  },
  { pathPrefix: API_PREFIX },
);

/** The whole HTTP contract: the CSRF cookie route at the root, everything else under /api/v1. */
export const contract = c.router({
  csrf: csrfRouter,
  api: apiRouter,
});
export type Contract = typeof contract;
