import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { initServer, type createExpressEndpoints } from '@ts-rest/express';
import { contract } from '@kura/contract';

/**
 * Every handler of a contract router, keyed like the router: a missing or unknown handler is a
 * compile error. ts-rest/express does not export this type by name; derive it from the function.
 */
export type RouterImplementation<T extends AppRouter> = Parameters<typeof createExpressEndpoints<T>>[1];

/**
 * ts-rest's typed router builder. `tsr.router(contract, {...})` only compiles when every route of
 * the contract has a handler, so a route added to the contract without one fails `pnpm typecheck`.
 */
export const tsr = initServer();

/** Every route of the contract, flattened (for tests and the access matrix). */
export function flattenRoutes(router: AppRouter = contract, prefix: string[] = []): { key: string; route: AppRoute }[] {
  return Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value as AppRoute | AppRouter)
      ? [{ key: [...prefix, key].join('.'), route: value as AppRoute }]
      : flattenRoutes(value as AppRouter, [...prefix, key]),
  );
}
