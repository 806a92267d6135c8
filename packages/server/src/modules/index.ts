import type { AppContext } from '../context';
import type { ModuleImplementations } from '../http/routes';
import { issueCsrfCookie } from '../auth/csrf';
import { authRoutes } from './auth/auth.router';

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
    },
  };
}
