import type { Channel, ResultsVisibility } from '@kura/contract';
import { eq } from 'drizzle-orm';
import type { Role } from '../../auth/sessions';
import type { AppContext } from '../../context';
import { election } from '../../db/schema';
import { AppError } from '../../errors';

/**
 * Who may see results while voting runs (SECURITY.md "Results visibility"):
 * - live: everyone, on every route and channel (the spec's default);
 * - staff: admins and agents only; voters and the public get 403 and no results channels;
 * - after_close: nobody sees per-candidate counts (agents keep the statistics and the per-position
 *   totals of the `votes` channel).
 * Once the election is closed, the result is declared and every mode is public.
 */
export type ResultsGate = { visibility: ResultsVisibility; closed: boolean };
export type Viewer = Role | null;

const isStaff = (viewer: Viewer) => viewer === 'admin' || viewer === 'agent';

export function mayViewResults(gate: ResultsGate, viewer: Viewer): boolean {
  if (gate.closed || gate.visibility === 'live') return true;
  return gate.visibility === 'staff' && isStaff(viewer);
}

/** The realtime channels follow the routes: `results` carries counts, `votes` per-position totals. */
export function mayJoinResultsChannel(gate: ResultsGate, channel: Channel, viewer: Viewer): boolean {
  if (channel === 'statistics') return true; // staff-only by its own rule
  if (channel === 'results') return mayViewResults(gate, viewer);
  return gate.closed || gate.visibility === 'live' || isStaff(viewer);
}

export const RESULTS_HIDDEN: Record<Exclude<ResultsVisibility, 'live'>, string> = {
  staff: 'Results are shown to election staff only until voting closes',
  after_close: 'Results are published when voting closes',
};

export function assertMayViewResults(gate: ResultsGate, viewer: Viewer): void {
  if (mayViewResults(gate, viewer)) return;
  throw new AppError('FORBIDDEN', RESULTS_HIDDEN[gate.visibility as Exclude<ResultsVisibility, 'live'>]);
}

/**
 * The gate, cached per process. A change made here refreshes it at once (domain events, relayed
 * to the other processes by the realtime module); a change another process made without a relay
 * is seen within MAX_AGE_MS. The public-results fast path only serves from a fresh gate.
 */
const MAX_AGE_MS = 1000;
type Cache = { gate?: ResultsGate; at: number; generation: number; loading?: { generation: number; promise: Promise<ResultsGate> } };
const caches = new WeakMap<AppContext, Cache>();

function cacheOf(ctx: AppContext): Cache {
  let cache = caches.get(ctx);
  if (!cache) {
    const fresh: Cache = { at: 0, generation: 0 };
    cache = fresh;
    caches.set(ctx, fresh);
    // A change drops the gate at once (callers read the database until the new one is in).
    const invalidate = () => {
      fresh.generation++;
      fresh.gate = undefined;
      void resultsGate(ctx).catch(() => undefined);
    };
    ctx.events.on('election.changed', invalidate);
    ctx.events.on('election.toggled', invalidate);
    ctx.onClose(() => {
      ctx.events.off('election.changed', invalidate);
      ctx.events.off('election.toggled', invalidate);
    });
  }
  return cache;
}

const isFresh = (cache: Cache) => cache.gate !== undefined && Date.now() - cache.at < MAX_AGE_MS;

/** The gate if it is fresh, for synchronous callers (the fast path); undefined otherwise. */
export function currentResultsGate(ctx: AppContext): ResultsGate | undefined {
  const cache = cacheOf(ctx);
  if (isFresh(cache)) return cache.gate;
  void resultsGate(ctx).catch(() => undefined);
  return undefined;
}

export async function resultsGate(ctx: AppContext): Promise<ResultsGate> {
  const cache = cacheOf(ctx);
  if (isFresh(cache)) return cache.gate!;
  if (cache.loading?.generation === cache.generation) return cache.loading.promise;
  const generation = cache.generation;
  const startedAt = Date.now();
  const promise = (async () => {
    const [row] = await ctx.database.db
      .select({ visibility: election.resultsVisibility, closedAt: election.closedAt })
      .from(election)
      .where(eq(election.id, 1));
    const gate: ResultsGate = { visibility: row?.visibility ?? 'live', closed: Boolean(row?.closedAt) };
    // A read begun before the latest change is answered but not kept.
    if (cache.generation === generation) {
      cache.gate = gate;
      cache.at = startedAt;
    }
    return gate;
  })().finally(() => {
    if (cache.loading?.promise === promise) cache.loading = undefined;
  });
  cache.loading = { generation, promise };
  return promise;
}
