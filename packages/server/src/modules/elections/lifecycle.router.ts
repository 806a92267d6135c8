import type { Contract } from '@kura/contract';
import type { AppContext } from '../../context';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { getElection } from './election.service';
import { closeElection, getFinalResults, startScheduler } from './lifecycle';

const schedulers = new WeakMap<AppContext, ReturnType<typeof startScheduler>>();

/** This context's scheduler (tests drive `tick` with a moved clock). */
export function schedulerOf(ctx: AppContext) {
  return schedulers.get(ctx);
}

export function lifecycleRoutes(ctx: AppContext): RouterImplementation<Contract['api']['lifecycle']> {
  // The schedule runs with the app: an opening or closing time that passed while no process ran is applied at start.
  const scheduler = startScheduler(ctx);
  schedulers.set(ctx, scheduler);
  ctx.onClose(() => scheduler.stop());
  return {
    closeElection: async ({ req }) => {
      await closeElection(ctx, await actorOf(ctx, req), 'admin');
      return { status: 200, body: { data: await getElection(ctx) } };
    },
    getFinalResults: async () => ({ status: 200, body: await getFinalResults(ctx) }),
  };
}
