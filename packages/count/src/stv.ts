/**
 * Single transferable vote under the Scottish STV rules (The Scottish Local Government Elections
 * Order 2007, SSI 2007/42, schedule 1, rules 45-52); with one seat this is instant-runoff.
 *
 * - Quota (46): floor(valid ballots ÷ (seats + 1)) + 1.
 * - A candidate whose votes reach the quota is elected (47).
 * - Surpluses (48, 49): the largest first; every ballot the elected candidate holds moves on to its
 *   next continuing preference at transfer value = value when received × surplus ÷ total votes,
 *   truncated to 5 decimal places (weighted inclusive Gregory). The elected candidate keeps the
 *   quota; papers with no further preference are non-transferable at their transfer value.
 * - When no surplus is left to transfer, the candidate with the fewest votes is excluded and all
 *   their papers move on at the value they carry (50).
 * - Ties (49(2), 51(2)): the candidate with the most (surplus) or fewest (exclusion) votes at the
 *   end of the most recent earlier stage at which the tied candidates' votes differed; among
 *   candidates still equal there, further back; equal at every stage: by lot, recorded.
 * - Last vacancies (52): when the continuing candidates are as many as the seats left, they are
 *   elected and nothing more is transferred.
 *
 * Arithmetic: fixed point, integers of 10^-5 votes (./fixed.ts); no floating point anywhere in it.
 * Withdrawn candidates are struck from every ranking before the first stage; a ranking left empty
 * (a blank ballot) is not a valid vote and does not count towards the quota.
 */
import { CountError } from './errors';
import { format, MAX_TOTAL, ONE, transferValue } from './fixed';

export type StvCandidate = { id: number; name: string; withdrawn?: boolean };
/** One ballot (or `count` identical ballots): candidate ids, most preferred first. */
export type StvBallot = { count?: number; ranking: readonly number[] };
export type StvInput = {
  seats: number;
  candidates: readonly StvCandidate[];
  ballots: Iterable<StvBallot>;
  /** Seed of the lot that breaks ties equal at every stage (the same seed draws the same lot). */
  seed?: string;
  /**
   * For tests and benchmarks: `steps` grows by one for each candidate (or ballot) the count looks
   * at, so a test can bound the work of a count by its structure rather than by a clock.
   */
  meter?: { steps: number };
};

/** How a tie was broken: at the end of an earlier stage, or by lot among `drawn_from`. */
export type TieBreak = {
  candidate_ids: number[];
  chosen: number;
  by: 'earlier_stage' | 'lot';
  /** The stage (round number) whose votes decided, for `earlier_stage`. */
  stage?: number;
  /** The candidates equal at every stage, among whom the lot drew `chosen`. */
  drawn_from?: number[];
  seed?: string;
};

/**
 * One row of the round-by-round record. `votes` are every candidate's votes (withdrawn ones
 * aside) after the action, `nontransferable` the non-transferable total so far.
 * - round 1, `elect`: the first count (first preferences); `candidate_ids` are those reaching
 *   the quota on first preferences, possibly none.
 * - `transfer`: the surplus of `candidate_ids[0]` was transferred.
 * - `exclude`: `candidate_ids[0]` was excluded and their papers transferred.
 * - `elect` after round 1: `candidate_ids` reached the quota with the round before, or (at the
 *   end) filled the last vacancies as the only continuing candidates; votes as the round before.
 */
export type StvRound = {
  round: number;
  action: 'elect' | 'transfer' | 'exclude';
  candidate_ids: number[];
  votes: Record<string, string>;
  nontransferable: string;
  tie?: TieBreak;
};

export type StvValue = {
  candidate_id: number;
  name: string;
  first_preferences: number;
  /** Votes at the end of the count, 5 decimals. */
  votes: string;
  elected: boolean;
  withdrawn: boolean;
};

export type StvResult = {
  method: 'stv';
  seats: number;
  /** Valid ballots: the ones with at least one preference for a candidate standing. */
  ballots: number;
  /** Ballots with no preference for any candidate standing (not counted). */
  blank: number;
  quota: string;
  /** Elected candidate ids, in the order of election. */
  elected: number[];
  /** One per candidate, in the order given. */
  values: StvValue[];
  nontransferable: string;
  /** Value lost to truncation: ballots − (votes of all candidates + non-transferable). */
  residue: string;
  rounds: StvRound[];
};

const HOPEFUL = 0;
const ELECTED = 1;
const EXCLUDED = 2;

/** A growable typed array of unsigned 32-bit integers. */
class U32List {
  data: Uint32Array;
  length = 0;
  constructor(capacity = 16) {
    this.data = new Uint32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/** FNV-1a, 32 bits: the lot's draw from a seed, the round and the tied candidates. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) {
    h ^= text.charCodeAt(k);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function countStv(input: StvInput): StvResult {
  const { seats } = input;
  const meter = input.meter ?? { steps: 0 };
  if (!Number.isSafeInteger(seats) || seats < 1) throw new CountError('seats must be a whole number of at least 1');
  const cands = input.candidates;
  const n = cands.length;
  const indexOf = new Map<number, number>();
  cands.forEach((c, k) => {
    if (indexOf.has(c.id)) throw new CountError(`candidate ${c.id} is listed twice`);
    indexOf.set(c.id, k);
  });
  const withdrawn = cands.map((c) => c.withdrawn === true);
  // Candidate id -> index: a dense table when the ids are small whole numbers (the usual case, and
  // the hot loop below looks one up per preference), else the map.
  const maxId = cands.reduce((m, c) => (Number.isSafeInteger(c.id) && c.id >= 0 ? Math.max(m, c.id) : Infinity), 0);
  const dense = maxId <= 1_000_000 ? new Int32Array(maxId + 1).fill(-1) : null;
  if (dense) cands.forEach((c, k) => (dense[c.id] = k));
  const lookup = (id: number): number | undefined => {
    if (dense) {
      const k = Number.isInteger(id) && id >= 0 && id <= maxId ? dense[id]! : -1;
      return k >= 0 ? k : undefined;
    }
    return indexOf.get(id);
  };

  // Ballots in flat typed arrays: preferences (candidate indexes, withdrawn struck out), where each
  // ballot's preferences start and end, how many identical ballots it stands for, its current value
  // and the position of the preference it now counts for.
  const prefs = new U32List(1 << 16);
  const starts = new U32List(1 << 12);
  const counts: number[] = [];
  const firstPreferences = new Array<number>(n).fill(0);
  let valid = 0;
  let blank = 0;
  const seen = new Int32Array(n).fill(-1);
  let ballotNo = 0;
  for (const ballot of input.ballots) {
    const count = ballot.count ?? 1;
    if (!Number.isSafeInteger(count) || count < 1)
      throw new CountError(`ballot ${ballotNo + 1}: its count must be a whole number of at least 1`);
    const mark = prefs.length;
    const ranking = ballot.ranking;
    for (let r = 0; r < ranking.length; r++) {
      const id = ranking[r]!;
      const k = lookup(id);
      if (k === undefined) throw new CountError(`ballot ${ballotNo + 1}: candidate ${id} is not standing`);
      if (seen[k] === ballotNo) throw new CountError(`ballot ${ballotNo + 1}: candidate ${id} appears twice`);
      seen[k] = ballotNo;
      if (!withdrawn[k]) prefs.push(k);
    }
    ballotNo++;
    if (prefs.length === mark) {
      blank += count;
      continue;
    }
    starts.push(mark);
    counts.push(count);
    valid += count;
    const first = prefs.data[mark]!;
    firstPreferences[first] = firstPreferences[first]! + count;
  }
  if (valid * ONE > MAX_TOTAL) throw new CountError(`${valid} ballots are more than this count's exact arithmetic takes`);
  const nBallots = counts.length;
  starts.push(prefs.length);
  const start = starts.data;
  const pref = prefs.data;
  const pos = new Uint32Array(nBallots);
  const value = new Int32Array(nBallots).fill(ONE);

  const state = new Uint8Array(n).fill(HOPEFUL);
  for (let k = 0; k < n; k++) if (withdrawn[k]) state[k] = EXCLUDED;
  const votes = new Array<number>(n).fill(0);
  const piles = Array.from({ length: n }, () => new U32List());
  for (let b = 0; b < nBallots; b++) {
    pos[b] = start[b]!;
    const c = pref[start[b]!]!;
    votes[c] = votes[c]! + ONE * counts[b]!;
    piles[c]!.push(b);
  }

  const quotaVotes = Math.floor(valid / (seats + 1)) + 1;
  const quota = quotaVotes * ONE;
  let nontransferable = 0;
  const rounds: StvRound[] = [];
  const elected: number[] = [];
  let electedCount = 0;
  let hopeful = 0;
  for (let k = 0; k < n; k++) if (state[k] === HOPEFUL) hopeful++;
  const pending: number[] = []; // elected, surplus not yet transferred

  // What the tie-break needs, kept as the count goes rather than as a copy of every candidate's
  // votes at every stage (docs/decisions/008):
  // - `shown[k]`, candidate k's votes at the end of the latest stage, and `shownText[k]` formatted;
  // - `changedAt[k]` / `before[k]`: the stages (0 = the first count) at the end of which k's votes
  //   changed, and what they were at the end of the stage before: k's votes at any earlier stage;
  // - `rank[k]`: k's place when the candidates are ordered by their votes at the latest stage,
  //   then the stage before, and so on back to the first (equal rank: equal at every stage). The
  //   rule's tie-break (the most recent stage at which the tied differed, then further back) is
  //   this order, so a tie is broken by comparing ranks; it is updated only when some votes change.
  const shown = new Array<number>(n).fill(0);
  const shownText = new Array<string>(n).fill('');
  const changedAt: number[][] = Array.from({ length: n }, () => []);
  const before: number[][] = Array.from({ length: n }, () => []);
  const rank = new Int32Array(n);
  const order = Array.from({ length: n }, (_, k) => k);
  let stage = -1;
  const touched: number[] = [];
  const isTouched = new Uint8Array(n);
  const touch = (k: number) => {
    if (isTouched[k] === 0) {
      isTouched[k] = 1;
      touched.push(k);
    }
  };
  const rerank = () => {
    // Stable for equal keys is not needed: (votes now, rank before) orders the candidates by their
    // votes at this stage, then at the earlier stages; ties in both get the same rank.
    const previous = Int32Array.from(rank);
    order.sort((a, b) => {
      meter.steps++;
      return shown[a]! - shown[b]! || previous[a]! - previous[b]!;
    });
    let r = 0;
    for (let j = 0; j < n; j++) {
      const k = order[j]!;
      if (j > 0) {
        const p = order[j - 1]!;
        if (shown[k] !== shown[p] || previous[k] !== previous[p]) r++;
      }
      rank[k] = r;
    }
  };
  /** Ends a stage: records whose votes changed (only the candidates the stage touched). */
  const endStage = () => {
    stage++;
    let changed = false;
    meter.steps += touched.length;
    for (const k of touched) {
      isTouched[k] = 0;
      if (votes[k] === shown[k]) continue;
      if (stage > 0) {
        changedAt[k]!.push(stage);
        before[k]!.push(shown[k]!);
      }
      shown[k] = votes[k]!;
      shownText[k] = format(votes[k]!);
      changed = true;
    }
    touched.length = 0;
    if (changed) rerank();
  };
  /** The most recent stage (0-based) at the end of which a and b, equal now, had different votes. */
  const lastDifference = (a: number, b: number): number => {
    let i = changedAt[a]!.length - 1;
    let j = changedAt[b]!.length - 1;
    let va = shown[a]!;
    let vb = shown[b]!;
    while (i >= 0 || j >= 0) {
      meter.steps++;
      const sa = i >= 0 ? changedAt[a]![i]! : -1;
      const sb = j >= 0 ? changedAt[b]![j]! : -1;
      const t = Math.max(sa, sb);
      if (sa === t) va = before[a]![i--]!;
      if (sb === t) vb = before[b]![j--]!;
      if (va !== vb) return t - 1;
    }
    return -1; // equal at every stage (not reached: their ranks differ)
  };

  const standing = cands.flatMap((c, k) => (withdrawn[k] ? [] : [k]));
  const record = (action: StvRound['action'], ks: number[], tie?: TieBreak) => {
    // Every round carries every standing candidate's votes (the published record, API.md); the
    // formatted values are made once per change and shared by the rounds that repeat them.
    const snapshot: Record<string, string> = {};
    meter.steps += standing.length;
    for (const k of standing) snapshot[String(cands[k]!.id)] = shownText[k]!;
    const row: StvRound = {
      round: rounds.length + 1,
      action,
      candidate_ids: ks.map((k) => cands[k]!.id),
      votes: snapshot,
      nontransferable: format(nontransferable),
    };
    if (tie) row.tie = tie;
    rounds.push(row);
  };
  const byVotesThenOrder = (a: number, b: number) => votes[b]! - votes[a]! || a - b;

  /** The next continuing candidate on ballot b, moving its position there; -1 when none. */
  const advance = (b: number): number => {
    const end = start[b + 1]!;
    let p = pos[b]! + 1;
    while (p < end && state[pref[p]!] !== HOPEFUL) p++;
    pos[b] = p;
    return p < end ? pref[p]! : -1;
  };

  const breakTie = (tied: number[], want: 'most' | 'fewest'): { k: number; tie?: TieBreak } => {
    if (tied.length === 1) return { k: tied[0]! };
    meter.steps += tied.length;
    const ids = tied.map((k) => cands[k]!.id);
    // The extreme rank is the candidate with the most (fewest) votes at the most recent stage at
    // which the tied differed, then further back; the runner-up decides at which stage.
    const better = (a: number, b: number) => (want === 'most' ? rank[a]! > rank[b]! : rank[a]! < rank[b]!);
    let best = tied[0]!;
    for (const k of tied) if (better(k, best)) best = k;
    const set = tied.filter((k) => rank[k] === rank[best]);
    if (set.length === 1) {
      let runnerUp = -1;
      for (const k of tied) if (k !== best && (runnerUp < 0 || better(k, runnerUp))) runnerUp = k;
      const at = lastDifference(best, runnerUp);
      return { k: best, tie: { candidate_ids: ids, chosen: cands[best]!.id, by: 'earlier_stage', stage: at + 1 } };
    }
    const sorted = [...set].sort((a, b) => cands[a]!.id - cands[b]!.id);
    const drawnFrom = sorted.map((k) => cands[k]!.id);
    const seed = input.seed ?? '';
    const k = sorted[fnv1a(`${seed}|${rounds.length + 1}|${want}|${drawnFrom.join(',')}`) % sorted.length]!;
    return { k, tie: { candidate_ids: ids, chosen: cands[k]!.id, by: 'lot', drawn_from: drawnFrom, seed } };
  };

  const electWithQuota = (): number[] => {
    const now: number[] = [];
    meter.steps += n;
    for (let k = 0; k < n; k++) if (state[k] === HOPEFUL && votes[k]! >= quota) now.push(k);
    now.sort(byVotesThenOrder);
    for (const k of now) {
      state[k] = ELECTED;
      hopeful--;
      elected.push(k);
      electedCount++;
      if (votes[k]! > quota) pending.push(k);
    }
    return now;
  };
  const complete = () => electedCount >= seats || hopeful <= seats - electedCount;

  // Stage 1: first preferences.
  for (let k = 0; k < n; k++) {
    shownText[k] = format(0);
    touch(k);
  }
  endStage();
  record('elect', electWithQuota());

  while (!complete()) {
    if (pending.length > 0) {
      // Rule 49: the largest surplus first.
      const most = Math.max(...pending.map((k) => votes[k]!));
      const { k: c, tie } = breakTie(
        pending.filter((k) => votes[k] === most),
        'most',
      );
      pending.splice(pending.indexOf(c), 1);
      const total = votes[c]!;
      const surplus = total - quota;
      const valueOf = new Map<number, number>();
      const pile = piles[c]!;
      meter.steps += pile.length;
      for (let j = 0; j < pile.length; j++) {
        const b = pile.data[j]!;
        const old = value[b]!;
        let tv = valueOf.get(old);
        if (tv === undefined) {
          tv = transferValue(old, surplus, total);
          valueOf.set(old, tv);
        }
        value[b] = tv;
        const next = advance(b);
        if (next >= 0) {
          votes[next] = votes[next]! + tv * counts[b]!;
          touch(next);
          piles[next]!.push(b);
        } else {
          nontransferable += tv * counts[b]!;
        }
      }
      piles[c] = new U32List();
      votes[c] = quota;
      touch(c);
      endStage();
      record('transfer', [c], tie);
    } else {
      // Rule 50: exclude the candidate with the fewest votes.
      let fewest = Infinity;
      meter.steps += 2 * n;
      for (let k = 0; k < n; k++) if (state[k] === HOPEFUL && votes[k]! < fewest) fewest = votes[k]!;
      const tied: number[] = [];
      for (let k = 0; k < n; k++) if (state[k] === HOPEFUL && votes[k] === fewest) tied.push(k);
      const { k: c, tie } = breakTie(tied, 'fewest');
      state[c] = EXCLUDED;
      hopeful--;
      const pile = piles[c]!;
      meter.steps += pile.length;
      for (let j = 0; j < pile.length; j++) {
        const b = pile.data[j]!;
        const next = advance(b);
        const v = value[b]! * counts[b]!;
        if (next >= 0) {
          votes[next] = votes[next]! + v;
          touch(next);
          piles[next]!.push(b);
        } else {
          nontransferable += v;
        }
      }
      piles[c] = new U32List();
      votes[c] = 0;
      touch(c);
      endStage();
      record('exclude', [c], tie);
    }
    if (complete()) break;
    const now = electWithQuota();
    if (now.length > 0) record('elect', now);
  }

  // Rule 52: the last vacancies go to the continuing candidates when they are no more than the seats left.
  if (electedCount < seats) {
    const last: number[] = [];
    for (let k = 0; k < n; k++) if (state[k] === HOPEFUL) last.push(k);
    last.sort(byVotesThenOrder);
    for (const k of last) {
      state[k] = ELECTED;
      hopeful--;
      elected.push(k);
      electedCount++;
    }
    if (last.length > 0) record('elect', last);
  }

  let held = 0;
  for (let k = 0; k < n; k++) held += votes[k]!;
  return {
    method: 'stv',
    seats,
    ballots: valid,
    blank,
    quota: format(quota),
    elected: elected.map((k) => cands[k]!.id),
    values: cands.map((c, k) => ({
      candidate_id: c.id,
      name: c.name,
      first_preferences: firstPreferences[k]!,
      votes: format(votes[k]!),
      elected: state[k] === ELECTED,
      withdrawn: withdrawn[k]!,
    })),
    nontransferable: format(nontransferable),
    residue: format(valid * ONE - held - nontransferable),
    rounds,
  };
}
