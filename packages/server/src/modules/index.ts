import type { AppContext } from '../context';
import type { ModuleImplementations } from '../http/routes';
import { issueCsrfCookie } from '../auth/csrf';
import { authRoutes } from './auth/auth.router';
import { ballotsRoutes } from './ballots/ballots.router';
import { candidatesRoutes } from './candidates/candidates.router';
import { electionsRoutes } from './elections/elections.router';
import { helpRoutes } from './help/help.router';
import { itemsRoutes } from './members/items.router';
import { logsRoutes } from './logs/logs.router';
import { membersRoutes } from './members/members.router';
import { vvpatRoutes } from './vvpat/vvpat.router';

/**
 * Every domain module's handlers, by contract domain. A module adds itself here with one line;
 * routes that no module serves answer 501 until they are built.
 */
export function moduleImplementations(ctx: AppContext): ModuleImplementations {
  return {
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
    },
  };
}
