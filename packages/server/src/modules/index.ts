import { contract } from '@kura/contract';
import type { ApiRoutes } from '../services';
import { tsr } from '../http/routes';
import { issueCsrfCookie } from '../auth/csrf';

/**
 * Every domain module's handlers, by contract domain. `tsr.router` checks at compile time that
 * every contract route has exactly one handler: a route added to the contract without a handler
 * (or a handler left behind after a route is removed) fails `pnpm typecheck`.
 */
export function moduleImplementations(api: ApiRoutes) {
  return tsr.router(contract, {
    csrf: {
      getCsrfCookie: async ({ req, res }) => {
        issueCsrfCookie(req, res);
        return { status: 204, body: undefined };
      },
    },
    api,
  });
}
