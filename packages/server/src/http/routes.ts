import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { createExpressEndpoints } from '@ts-rest/express';
import { contract, type Contract } from '@kura/contract';
import { AppError } from '../errors';

/** ts-rest/express does not export its implementation type; derive it from the function. */
export type RouterImplementation<T extends AppRouter> = Parameters<typeof createExpressEndpoints<T>>[1];

/** A domain module's handlers: any subset of its router (the rest answer 501). */
export type PartialImplementation<T extends AppRouter> = Partial<RouterImplementation<T>>;

export type ModuleImplementations = {
  csrf?: PartialImplementation<Contract['csrf']>;
  api?: { [K in keyof Contract['api']]?: PartialImplementation<Contract['api'][K]> };
};

const notImplemented = async () => {
  throw new AppError('NOT_IMPLEMENTED');
};

/**
 * Walks the contract and takes each route's handler from the modules, or a 501 "Not implemented"
 * for a route no module serves yet: never a fake success.
 */
export function buildImplementation(modules: ModuleImplementations): RouterImplementation<Contract> {
  const fill = (router: AppRouter, impl: Record<string, unknown> | undefined): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(router)) {
      if (isAppRoute(value as AppRoute | AppRouter)) out[key] = impl?.[key] ?? notImplemented;
      else out[key] = fill(value as AppRouter, impl?.[key] as Record<string, unknown> | undefined);
    }
    return out;
  };
  return fill(contract, modules as Record<string, unknown>) as RouterImplementation<Contract>;
}

/** Every route of the contract, flattened (for tests and the access matrix). */
export function flattenRoutes(router: AppRouter = contract, prefix: string[] = []): { key: string; route: AppRoute }[] {
  return Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value as AppRoute | AppRouter)
      ? [{ key: [...prefix, key].join('.'), route: value as AppRoute }]
      : flattenRoutes(value as AppRouter, [...prefix, key]),
  );
}
