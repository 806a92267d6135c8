import type { Channel, ResultsVisibility } from '@kura/contract';
import type { Role } from '../../auth/sessions';
import type { Core } from '../../core';
import { AppError } from '../../errors';
import type { MessageId } from '../../i18n';
import type { Service } from '../../lib/service';
import { currentElectionId, readState, unarchivedVisibilities, type ElectionId } from '../../db/election-store';

/**
 * Who may see results while voting runs (SECURITY.md "Results visibility"):
 * - live: everyone, on every route and channel (the spec's default);
 * - staff: admins and agents only; voters and the public get 403 and no results channels;
 * - after_close: nobody sees per-candidate counts (agents keep the statistics and the per-position
 *   totals of the `votes` channel).
 * Once the election is closed, the result is declared and every mode is public.
 */
export type ResultsGate = { visibility: ResultsVisibility; closed: boolean; /** The election it is of. */ electionId?: ElectionId };
export type Viewer = Role | null;

const isStaff = (viewer: Viewer) => viewer === 'admin' || viewer === 'agent';

export function mayViewResults(gate: ResultsGate, viewer: Viewer): boolean {
  if (gate.closed || gate.visibility === 'live') return true;
  return gate.visibility === 'staff' && isStaff(viewer);
}

/**
 * The realtime channels follow the routes: `results` and `tally` carry counts, `votes` per-position
 * totals. Every channel is named, so a new one is refused until it is given a rule here.
 */
export function mayJoinResultsChannel(gate: ResultsGate, channel: Channel, viewer: Viewer): boolean {
  switch (channel) {
    case 'statistics':
      return true; // staff-only by its own rule
    case 'results':
    case 'tally':
      return mayViewResults(gate, viewer);
    case 'votes':
      return gate.closed || gate.visibility === 'live' || isStaff(viewer);
    case 'changes':
      return isStaff(viewer); // names a kind of thing that changed, no count
    default:
      return false;
  }
}

/** Why results are hidden, by visibility (catalogue ids; the English is the spec's). */
export const RESULTS_HIDDEN = {
  staff: 'results.staffOnly',
  after_close: 'results.afterClose',
} as const satisfies Record<Exclude<ResultsVisibility, 'live'>, MessageId>;

export function assertMayViewResults(gate: ResultsGate, viewer: Viewer): void {
  if (mayViewResults(gate, viewer)) return;
  throw AppError.say('FORBIDDEN', RESULTS_HIDDEN[gate.visibility as Exclude<ResultsVisibility, 'live'>]);
}

/**
 * The gate, cached per process (`ctx.resultsGate`). A change made here refreshes it at once
 * (domain events, relayed to the other processes by the realtime module); a change another
 * process made without a relay is seen within MAX_AGE_MS. The public-results fast path only
 * serves from a fresh gate.
 */
const MAX_AGE_MS = 1000;

export class ResultsGateCache implements Service {
  private gate: ResultsGate | undefined;
  private at = 0;
  private generation = 0;
  private loading: { generation: number; promise: Promise<ResultsGate> } | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly ctx: Core) {}

  start(): void {
    // A change drops the gate at once (callers read the database until the new one is in).
    const invalidate = () => {
      this.generation++;
      this.gate = undefined;
      void this.read().catch(() => undefined);
    };
    this.unsubscribe ??= this.ctx.events.subscribe({ 'election.changed': invalidate, 'election.toggled': invalidate });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private isFresh(): boolean {
    return this.gate !== undefined && Date.now() - this.at < MAX_AGE_MS;
  }

  /** The gate if it is fresh, for synchronous callers (the fast path); undefined otherwise. */
  current(): ResultsGate | undefined {
    if (this.isFresh()) return this.gate;
    void this.read().catch(() => undefined);
    return undefined;
  }

  /**
   * The gate of an election one may watch (realtime channels): the current election's for null,
   * else the election named when it exists and is not archived; undefined otherwise. Read from one
   * list of every watchable election, cached like the gate: a flood of subscriptions naming many
   * elections costs at most one query a second.
   */
  async watchable(id: ElectionId | null): Promise<ResultsGate | undefined> {
    if (id === null) return this.read();
    return (await this.watchableGates()).get(id);
  }

  private watchableList: { generation: number; at: number; gates: Promise<Map<ElectionId, ResultsGate>> } | undefined;

  private watchableGates(): Promise<Map<ElectionId, ResultsGate>> {
    const list = this.watchableList;
    if (list && list.generation === this.generation && Date.now() - list.at < MAX_AGE_MS) return list.gates;
    const gates = (async () => {
      const rows = await unarchivedVisibilities(this.ctx.database.db);
      return new Map(rows.map((r) => [r.id, { visibility: r.visibility, closed: r.closedAt !== null, electionId: r.id }]));
    })();
    const entry = { generation: this.generation, at: Date.now(), gates };
    this.watchableList = entry;
    // A failed read is not kept.
    gates.catch(() => {
      if (this.watchableList === entry) this.watchableList = undefined;
    });
    return gates;
  }

  /**
   * The gate of the current election (cached), or of the election named (the cached one when it is
   * that election, else read now).
   */
  async read(id?: ElectionId): Promise<ResultsGate> {
    if (id !== undefined) {
      const cached = this.isFresh() ? this.gate : undefined;
      if (cached?.electionId === id) return cached;
      const row = await readState(this.ctx.database.db, id);
      return { visibility: row.resultsVisibility, closed: row.closedAt !== null, electionId: id };
    }
    if (this.isFresh()) return this.gate!;
    if (this.loading?.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const startedAt = Date.now();
    const promise = (async () => {
      const electionId = await currentElectionId(this.ctx.database.db);
      if (electionId === null) throw AppError.say('NOT_FOUND', 'election.noSuch');
      const row = await readState(this.ctx.database.db, electionId);
      const gate: ResultsGate = { visibility: row.resultsVisibility, closed: row.closedAt !== null, electionId };
      // A read begun before the latest change is answered but not kept.
      if (this.generation === generation) {
        this.gate = gate;
        this.at = startedAt;
      }
      return gate;
    })().finally(() => {
      if (this.loading?.promise === promise) this.loading = undefined;
    });
    this.loading = { generation, promise };
    return promise;
  }
}
