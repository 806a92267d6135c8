import { contract } from '@kura/contract';
import type { AppContext } from '../context';
import { tsr } from '../http/routes';
import { issueCsrfCookie } from '../auth/csrf';
import { authRoutes } from './auth';
import { ballotsRoutes } from './ballots';
import { candidatesRoutes } from './candidates';
import { electionsRoutes, lifecycleRoutes } from './elections';
import { helpRoutes } from './help';
import { logsRoutes } from './logs';
import { membersRoutes } from './members';
import { remindersRoutes } from './reminders';
import { setupRoutes } from './setup';
import { vvpatRoutes } from './vvpat';

/**
 * Every domain module's handlers, by contract domain. `tsr.router` checks at compile time that
 * every contract route has exactly one handler: a route added to the contract without a handler
 * (or a handler left behind after a route is removed) fails `pnpm typecheck`.
 */
export function moduleImplementations(ctx: AppContext) {
  return tsr.router(contract, {
    csrf: {
      getCsrfCookie: async ({ req, res }) => {
        issueCsrfCookie(req, res);
        return { status: 204, body: undefined };
      },
    },
    api: {
      auth: authRoutes(ctx),
      members: membersRoutes(ctx),
      candidates: candidatesRoutes(ctx),
      logs: logsRoutes(ctx),
      help: helpRoutes(ctx),
      ballots: ballotsRoutes(ctx),
      elections: electionsRoutes(ctx),
      vvpat: vvpatRoutes(ctx),
      reminders: remindersRoutes(ctx),
      lifecycle: lifecycleRoutes(ctx),
      setup: setupRoutes(ctx),
    },
  });
}
