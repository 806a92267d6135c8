import { GoogleVerifier } from './auth/google';
import type { AppContext, CoreContext, Services } from './context';
import { BackgroundSender, createDelivery } from './delivery';
import { RefusedActivityLimiter } from './lib/activity-log';
import { BallotQueueCache, createMixer } from './modules/ballots';
import { createCommitmentLoop, createScheduler, ResultsGateCache, VotingRuntime } from './modules/elections';
import { createReminderSender } from './modules/reminders';

/**
 * The composition root: every long-lived service of a process is built here, once per context,
 * and nowhere else. Building has no side effects (no timer, no listener, no query); `startServices`
 * starts them in SERVICE_ORDER and `stopServices` stops them in reverse (docs/architecture.md
 * "Where state lives").
 */
export function withServices(core: CoreContext): AppContext {
  // The services hold the context they complete; none reads it before the assignment below is done.
  const ctx = core as AppContext;
  const services: Services = {
    ballotQueue: new BallotQueueCache(core.secrets.ballotKey),
    resultsGate: new ResultsGateCache(ctx),
    voting: new VotingRuntime(ctx),
    mixer: createMixer(ctx),
    commitments: createCommitmentLoop(ctx),
    scheduler: createScheduler(ctx),
    reminders: createReminderSender(ctx),
    delivery: createDelivery(core.env, core.logger),
    notices: new BackgroundSender(core.logger),
    google: new GoogleVerifier(),
    refusedActivity: new RefusedActivityLimiter(),
  };
  return Object.assign(ctx, services);
}

/**
 * Start order: the results gate and the snapshot first (what requests read), then the loops that
 * write (mixer, commitments), then the ones that act on the election and its members (schedule,
 * reminders), then the notices sent after answers. Stopped in reverse: the notices queued first.
 */
export const SERVICE_ORDER = [
  'resultsGate',
  'voting',
  'mixer',
  'commitments',
  'scheduler',
  'reminders',
  'notices',
] as const satisfies readonly (keyof Services)[];

export async function startServices(ctx: AppContext): Promise<void> {
  for (const name of SERVICE_ORDER) await ctx[name].start();
}

export async function stopServices(ctx: AppContext): Promise<void> {
  for (const name of [...SERVICE_ORDER].reverse()) await ctx[name].stop();
  // Last: the reminder sender waits for its sends in flight when it stops.
  ctx.delivery.close();
}
