import { sortResultValues, type ResultGroup, type Statistics, type TranslatedText, type VoteResultsUpdatedPayload } from '@kura/contract';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { BallotsContext } from '../ballots';
import { rollRows, type ElectionId } from '../../db/election-store';
import { firstPreferenceCounts, firstPreferenceCountsByPosition, mixedBallotCount, queuedBallots } from '../../db/ballot-box';
import { standingCandidatesOf } from '../../db/candidacy-store';
import { memberNamesAndNumbers, rollMemberCounts } from '../../db/member-store';
import { voterCountOf } from '../../db/participation-store';
import { motionOptionsOfElection, tallyPositionsOf } from '../../db/position-store';
import type { DomainEvents } from '../../events';
import { positionKey, positionTitle, titleTranslations } from '../../lib/position-title';
import { inBoxSnapshot } from '../../lib/box-snapshot';

type VoteCast = DomainEvents['votes.cast'][0];

/** `xmin:xmax:xip,...` of pg_current_snapshot(): which transactions a resync's read could see. */
type DbSnapshot = { xmin: bigint; xmax: bigint; xip: Set<bigint> };

function parseSnapshot(text: string): DbSnapshot {
  const [xmin, xmax, xip] = text.split(':');
  return { xmin: BigInt(xmin!), xmax: BigInt(xmax!), xip: new Set((xip ?? '').split(',').filter(Boolean).map(BigInt)) };
}

/** Whether a committed transaction's writes were visible to a snapshot (Postgres's own rule). */
function visibleIn(snapshot: DbSnapshot, xid: bigint): boolean {
  return xid < snapshot.xmin || (xid < snapshot.xmax && !snapshot.xip.has(xid));
}

type PositionInfo = {
  id: number;
  name: string;
  level: string;
  title: string;
  key: string;
  kind: 'candidates' | 'motion';
  method: 'plurality' | 'approval' | 'ranked';
  /** language → {title}, when the name is translated (docs/i18n.md "Ballot content") */
  titles?: TranslatedText;
};
type CandidateInfo = { id: number; name: string; memberNo: string };

/** How long member counters (which change with sign-ins and imports, not votes) may be reused. */
const MEMBER_COUNTS_TTL_MS = 1000;

/**
 * Results and statistics of this process, in memory. Built from the database at start (and on a
 * resync), then kept current by `votes.cast` events: this process's own votes and, through the
 * realtime adapter, other processes'. Reads never scan ballots.
 *
 * Exactness across processes: every delta carries its vote's transaction id and a resync records
 * the database snapshot it counted in. A delta whose transaction that snapshot already saw is
 * skipped, one it did not see is added, so a resync racing with votes neither loses nor doubles one.
 */
export class TallySnapshot {
  private positionList: PositionInfo[] = [];
  private standing = new Map<number, CandidateInfo[]>();
  private people = new Map<number, CandidateInfo>();
  private counts = new Map<number, Map<number, number>>();
  private votesCasted = 0;
  private membersVoted = 0;
  private memberCounts = { members: 0, verified: 0, at: 0 };
  private memberCountsLoading: Promise<void> | undefined;
  private lastResync: DbSnapshot | undefined;
  /** Deltas that arrive while a resync reads; applied (or skipped) once its snapshot is known. */
  private pending: VoteCast[] | undefined;
  private resyncing: Promise<void> | undefined;
  private resyncAgain = false;
  private cachedResults: ResultGroup[] | undefined;
  private signature = '';
  /** Structure reads are numbered as they start; an older read never replaces a newer one. */
  private structureReads = 0;
  private structureApplied = 0;
  /** The first build, begun by `start()` (or by the first read that waits for it). */
  private ready: Promise<void> | undefined;
  /** True once the first build finished: results() is then the real state, not an empty one. */
  loaded = false;

  constructor(
    private readonly ctx: BallotsContext,
    /** The election this snapshot counts: its positions' ballots and participation only. */
    readonly electionId: ElectionId,
  ) {}

  /** Builds the snapshot from the database (once; `whenReady` retries a failed build). */
  start(): void {
    if (this.ready) return;
    this.ready = this.resync();
    this.ready.catch((err: unknown) => this.ctx.logger.error({ err }, 'could not build the results snapshot'));
  }

  /** Applies a committed vote (local or from another process). */
  applyVote(vote: VoteCast): void {
    if (vote.electionId !== this.electionId) return;
    if (this.pending) {
      this.pending.push(vote);
      return;
    }
    if (this.lastResync && visibleIn(this.lastResync, BigInt(vote.xid))) return;
    this.add(vote);
    this.changed();
  }

  /** Positions whose live counts are first preferences only. */
  private ranked = new Set<number>();

  private add(vote: VoteCast): void {
    // A ranked ballot's entries come in the voter's order: only the first counts live.
    const seen = new Set<number>();
    for (const { positionId, candidateId } of vote.entries) {
      if (this.ranked.has(positionId)) {
        if (seen.has(positionId)) continue;
        seen.add(positionId);
      }
      let byCandidate = this.counts.get(positionId);
      if (!byCandidate) this.counts.set(positionId, (byCandidate = new Map()));
      byCandidate.set(candidateId, (byCandidate.get(candidateId) ?? 0) + 1);
    }
    // One ballot per position, however many of its seats it fills.
    this.votesCasted += vote.positionIds.length;
    if (vote.newVoter) this.membersVoted++;
  }

  private changed(): void {
    this.cachedResults = undefined;
    this.ctx.events.emit('results.changed', { electionId: this.electionId });
  }

  /** Rebuilds everything from the database; concurrent calls share one run (plus one follow-up). */
  resync(): Promise<void> {
    if (this.resyncing) {
      this.resyncAgain = true;
      return this.resyncing;
    }
    this.resyncing = (async () => {
      try {
        do {
          this.resyncAgain = false;
          await this.load();
        } while (this.resyncAgain);
      } finally {
        this.resyncing = undefined;
      }
    })();
    return this.resyncing;
  }

  private async load(): Promise<void> {
    this.pending = [];
    const structureRead = ++this.structureReads;
    let read;
    try {
      // Not during the close's re-mix: its truncate would leave an older snapshot an empty box.
      read = await inBoxSnapshot(this.ctx, 'Results snapshot read', this.electionId, async (tx) => {
        // The first query fixes the transaction's snapshot: the counts below are exactly it.
        const [snap] = await tx.execute<{ s: string }>(sql`select pg_current_snapshot()::text as s`);
        // Rank 0 (not ranked) and 1 (a ranked ballot's first preference): what live results count.
        // The election's partitions (ADR 009), and the queue rows from before the partitioning
        // (partition 0, opened and kept by position below) until the mixer files them.
        const tallies = await firstPreferenceCounts(tx, this.electionId);
        const queue = await queuedBallots(tx, this.electionId);
        const mixed = await mixedBallotCount(tx, this.electionId);
        const voted = await voterCountOf(tx, this.electionId);
        const structure = await readStructure(tx, this.electionId);
        return { snap: snap!.s, tallies, queue, mixed, voted, structure };
      });
    } catch (error) {
      // Keep serving the previous state, with the votes that arrived meanwhile.
      const pending = this.pending;
      this.pending = undefined;
      for (const vote of pending) this.applyVote(vote);
      throw error;
    }
    const counts = new Map<number, Map<number, number>>();
    const bump = (positionId: number, candidateId: number, n: number) => {
      let byCandidate = counts.get(positionId);
      if (!byCandidate) counts.set(positionId, (byCandidate = new Map()));
      byCandidate.set(candidateId, (byCandidate.get(candidateId) ?? 0) + n);
    };
    for (const t of read.tallies) bump(t.positionId, t.candidateId, Number(t.n));
    const ranked = new Set(read.structure.positions.filter((p) => p.kind === 'candidates' && p.method === 'ranked').map((p) => p.id));
    const mine = new Set(read.structure.positions.map((p) => p.id));
    // A queued row is one position's ballot: its rows (several for several seats) share the receipt.
    const queued = new Set<string>();
    for (const b of this.ctx.ballotQueue.open(read.queue, true)) {
      if (!mine.has(b.positionId)) continue;
      queued.add(b.receipt);
      if (b.rank <= 1 || !ranked.has(b.positionId)) bump(b.positionId, b.candidateId, 1);
    }
    this.counts = counts;
    // Ballots, not rows: a receipt is one ballot (mixed), a queued row is one ballot.
    this.votesCasted = read.mixed + queued.size;
    this.membersVoted = read.voted;
    this.lastResync = parseSnapshot(read.snap);
    // The structure first: the votes that arrived meanwhile count by it (a ranked ballot by its
    // first preference), so it must hold the positions they name before they are added.
    const newer = structureRead > this.structureApplied;
    if (newer) {
      this.structureApplied = structureRead;
      this.applyStructure(read.structure);
    }
    const pending = this.pending;
    this.pending = undefined;
    for (const vote of pending) if (!visibleIn(this.lastResync, BigInt(vote.xid))) this.add(vote);
    this.memberCounts.at = 0;
    if (newer) await this.nameWithdrawn();
    this.loaded = true;
    this.changed();
  }

  /**
   * Positions, candidacies or names may have changed: reload them (counts stay). Announces a
   * change only when there is one, so the periodic safety-net check costs no emits.
   */
  async refreshStructure(): Promise<void> {
    const structureRead = ++this.structureReads;
    const structure = await readStructure(this.ctx.database.db, this.electionId);
    if (structureRead < this.structureApplied || structureSignature(structure) === this.signature) return;
    this.structureApplied = structureRead;
    this.applyStructure(structure);
    await this.nameWithdrawn();
    this.changed();
  }

  /** Takes positions, candidacies and names (synchronously: no vote is added between their parts). */
  private applyStructure(structure: Structure): void {
    this.signature = structureSignature(structure);
    this.positionList = structure.positions;
    this.ranked = new Set(structure.positions.filter((p) => p.kind === 'candidates' && p.method === 'ranked').map((p) => p.id));
    this.standing = structure.standing;
    this.people = structure.people;
  }

  /** Reads the names of candidates who hold ballots but no longer stand (withdrawn after votes). */
  private async nameWithdrawn(): Promise<void> {
    const motions = new Set(this.positionList.filter((p) => p.kind === 'motion').map((p) => p.id));
    const missing = [...this.counts.entries()]
      .filter(([positionId]) => !motions.has(positionId))
      .flatMap(([, m]) => [...m.keys()])
      .filter((id) => !this.people.has(id));
    if (missing.length === 0) return;
    const rows = await memberNamesAndNumbers(this.ctx.database.db, [...new Set(missing)]);
    for (const p of rows) this.people.set(p.id, p);
  }

  /** Resolves when no resync is running (shutdown waits for it). */
  async idle(): Promise<void> {
    await this.resyncing?.catch(() => {});
  }

  /** Resolves once the first build succeeded, retrying it if it failed (database down at start). */
  async whenReady(): Promise<void> {
    this.start();
    await this.ready!.catch(() => (this.ready = this.resync()));
  }

  /** Member counters may have changed (sign-ins, imports): re-read them on the next statistics read. */
  invalidateMembers(): void {
    this.memberCounts.at = 0;
  }

  /** Result groups: positions with candidates in stable order, candidates by count then name. */
  results(): ResultGroup[] {
    this.cachedResults ??= resultGroups({ positions: this.positionList, standing: this.standing, people: this.people }, this.counts);
    return this.cachedResults;
  }

  /** `votes` channel payload: totals per position. */
  totals(): VoteResultsUpdatedPayload['results'] {
    return this.results().map((g) => ({ position_id: g.position_id, title: g.title, total: g.total }));
  }

  /** A candidate's current tally in a position (vvpat rows show it). */
  countOf(positionId: number, candidateId: number): number {
    return this.counts.get(positionId)?.get(candidateId) ?? 0;
  }

  async statistics(): Promise<Statistics> {
    if (Date.now() - this.memberCounts.at > MEMBER_COUNTS_TTL_MS) await this.loadMemberCounts();
    const { members: all, verified } = this.memberCounts;
    return {
      votesCasted: this.votesCasted,
      verifiedMembers: verified,
      unverifiedMembers: all - verified,
      membersVoted: this.membersVoted,
      membersNotVoted: Math.max(0, all - this.membersVoted),
    };
  }

  /**
   * The members this election's statistics count: its roll (the frozen roll once voting first
   * opened, else the members of its electorate now; docs/api.md "The roll"), and which of them
   * completed a verified sign-in. An election of one branch counts that branch's members.
   */
  private loadMemberCounts(): Promise<void> {
    this.memberCountsLoading ??= (async () => {
      try {
        const counts = await rollMemberCounts(this.ctx.database.db, rollRows(this.electionId, this.ctx.now()));
        this.memberCounts = { members: counts.all, verified: counts.verified, at: Date.now() };
      } finally {
        this.memberCountsLoading = undefined;
      }
    })();
    return this.memberCountsLoading;
  }
}

type Structure = { positions: PositionInfo[]; standing: Map<number, CandidateInfo[]>; people: Map<number, CandidateInfo> };

function structureSignature(structure: Structure): string {
  return JSON.stringify([structure.positions, [...structure.standing.entries()], [...structure.people.values()]]);
}

type Reader = Db | Tx;

async function readStructure(db: Reader, electionId: ElectionId): Promise<Structure> {
  const positionRows = await tallyPositionsOf(db, electionId);
  const candidateRows = await standingCandidatesOf(db, electionId);
  const standing = new Map<number, CandidateInfo[]>();
  const people = new Map<number, CandidateInfo>();
  for (const c of candidateRows) {
    const info = { id: c.id, name: c.name, memberNo: c.memberNo };
    people.set(c.id, info);
    let list = standing.get(c.positionId);
    if (!list) standing.set(c.positionId, (list = []));
    list.push(info);
  }
  // A motion's options stand where candidates would (in ballot order; option ids are not members').
  const optionRows = await motionOptionsOfElection(db, electionId);
  for (const o of optionRows) {
    let list = standing.get(o.positionId);
    if (!list) standing.set(o.positionId, (list = []));
    list.push({ id: o.id, name: o.name, memberNo: '' });
  }
  return {
    positions: positionRows.map(({ translations, ...p }) => {
      const titles = titleTranslations({ ...p, translations });
      return { ...p, title: positionTitle(p), key: positionKey(p), ...(titles ? { titles } : {}) };
    }),
    standing,
    people,
  };
}

/**
 * Result groups of a structure and its counts (position → candidate → votes): positions with
 * candidates in stable order, candidates by count then name. The live snapshot's `results()` and
 * the declaration's `countFromBox` are this one function.
 */
function resultGroups(structure: Structure, counts: Map<number, Map<number, number>>): ResultGroup[] {
  const groups: ResultGroup[] = [];
  for (const p of structure.positions) {
    const byCandidate = counts.get(p.id) ?? new Map<number, number>();
    const ids = new Set<number>((structure.standing.get(p.id) ?? []).map((c) => c.id));
    // A candidate withdrawn after receiving votes still shows: ballots are never hidden.
    for (const [id, n] of byCandidate) if (n > 0) ids.add(id);
    if (ids.size === 0) continue;
    const own = new Map((structure.standing.get(p.id) ?? []).map((c) => [c.id, c]));
    const values = [...ids].map((id) => {
      // A motion's options are named by the position's own list (their ids are not members').
      const person = own.get(id) ?? (p.kind === 'motion' ? undefined : structure.people.get(id));
      const name = person?.name ?? `Candidate ${id}`;
      return { candidate_id: id, title: name, name, member_no: person?.memberNo ?? '', count: byCandidate.get(id) ?? 0 };
    });
    // A motion keeps its options' order (Yes, No, Abstain); candidates go by count (the tally channel's clients sort alike).
    sortResultValues(p.kind === 'motion' ? { kind: 'motion' } : {}, values);
    const group: ResultGroup = {
      position_id: p.id,
      title: p.title,
      key: p.key,
      values,
      total: values.reduce((sum, v) => sum + v.count, 0),
    };
    if (p.titles) group.translations = p.titles;
    if (p.kind === 'motion') group.kind = 'motion';
    else if (p.method !== 'plurality') {
      group.kind = 'candidates';
      group.method = p.method;
      if (p.method === 'ranked') group.first_preferences_only = true;
    }
    groups.push(group);
  }
  return groups;
}

/**
 * The election's result groups counted from the ballot box as `db` sees it (the close's own
 * transaction, after its re-mix published every queued ballot): what the live snapshot shows once
 * every ballot is in, with no process's memory involved (docs/architecture.md "The declaration").
 */
export async function countFromBox(db: Reader, electionId: ElectionId): Promise<ResultGroup[]> {
  const structure = await readStructure(db, electionId);
  // Rank 0 (not ranked) and 1 (a ranked ballot's first preference), as the live results count.
  const tallies = await firstPreferenceCountsByPosition(db, electionId);
  const counts = new Map<number, Map<number, number>>();
  for (const t of tallies) {
    let byCandidate = counts.get(t.positionId);
    if (!byCandidate) counts.set(t.positionId, (byCandidate = new Map()));
    byCandidate.set(t.candidateId, Number(t.n));
  }
  // Names of candidates who hold ballots but no longer stand (withdrawn after votes).
  const motions = new Set(structure.positions.filter((p) => p.kind === 'motion').map((p) => p.id));
  const missing = [...counts.entries()]
    .filter(([positionId]) => !motions.has(positionId))
    .flatMap(([, m]) => [...m.keys()])
    .filter((id) => !structure.people.has(id));
  const people = new Map(structure.people);
  if (missing.length > 0) {
    const rows = await memberNamesAndNumbers(db, [...new Set(missing)]);
    for (const p of rows) people.set(p.id, p);
  }
  return resultGroups({ ...structure, people }, counts);
}
