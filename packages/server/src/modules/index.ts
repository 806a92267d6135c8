import { contract } from '@kura/contract';
import type { AppContext } from '../context';
import { tsr } from '../http/routes';
import { issueCsrfCookie } from '../auth/csrf';
import { authRoutes } from './auth/auth.router';
import { ballotsRoutes } from './ballots/ballots.router';
import { candidatesRoutes } from './candidates/candidates.router';
import { electionsRoutes } from './elections/elections.router';
import { helpRoutes } from './help/help.router';
import { itemsRoutes } from './members/items.router';
import { logsRoutes } from './logs/logs.router';
import { membersRoutes } from './members/members.router';
import { remindersRoutes } from './reminders/reminders.router';
import { vvpatRoutes } from './vvpat/vvpat.router';

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
      // The ballots domain is shared: its own module spreads in beside the nominate page's items.
      ballots: { ...itemsRoutes(ctx), ...ballotsRoutes(ctx) },
      elections: electionsRoutes(ctx),
      vvpat: vvpatRoutes(ctx),
      reminders: remindersRoutes(ctx),
    },
  });
}
