import type { Core } from '../../core';
import type { BackgroundSender, Delivery } from '../../delivery';
import type { Module } from '../../lib/module';
import type { RegisterContext } from './context';
import { registerRoutes } from './register.router';

/** What the register module uses besides the core: the transport and the notices sent after the answer (rulings). */
export type RegisterDeps = { delivery: Delivery; notices: BackgroundSender };

/** The register module: attributes, the roll and its freeze, inspection claims and rulings. Owns no service. */
export function createRegister(_core: Core, deps: RegisterDeps): Module<ReturnType<typeof registerRoutes>> {
  return { routes: (at) => registerRoutes({ ...at, ...deps } satisfies RegisterContext), services: {} };
}
