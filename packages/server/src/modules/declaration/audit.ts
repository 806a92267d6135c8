import { queuedBallotRows } from '../../db/ballot-box';
import type { Core } from '../../core';
import { everyCandidacy } from '../../db/candidacy-store';
import { sealedReceiptsIn } from '../../db/participation-store';
import { everyMotionOption, positionMethodsOf } from '../../db/position-store';
import { unseal } from '../../lib/crypto';
import { eachPage } from '../../db/cursor';
import { openBallot } from '../ballots';
import { commitmentHistory, digestBallots, newestCommitment, SortedReceiptIndex } from '../results';
import { type ElectionId } from '../../db/election-store';
import { inBoxSnapshot } from '../../lib/box-snapshot';

/** Voters' receipts read and opened per page (a turn of the event loop). */
const OPEN_SLICE = 500;

export type AuditReport = {
  ok: boolean;
  problems: string[];
  notes: string[];
  tallies: { positionId: number; candidateId: number; count: number }[];
};

/**
 * `cli audit:verify`: recomputes everything from the stored ballots, in one snapshot.
 * - Tallies from `ballots` plus the queue (opened with BALLOT_KEY).
 * - Every participation row's sealed receipt names exactly one ballot of that position, and each
 *   position has as many ballots as participation rows: a ballot removed, added or moved shows.
 * - The newest commitment: when no ballot was mixed since, count and hash must match exactly; a
 *   set smaller than committed means ballots disappeared. Candidates changed in place show here.
 * - Commitment counts never decrease.
 * - A ranked ballot ranks its candidates 1..n, each once; no other ballot carries a rank. The order
 *   itself is in the commitment's hash, so a ranking re-ordered after a commitment shows there.
 * It checks one election (its positions' ballots, participation and commitments) and prints counts
 * only, never which member holds which receipt.
 */
export async function verifyAudit(ctx: Core, electionId: ElectionId): Promise<AuditReport> {
  if (!Number.isSafeInteger(electionId)) throw new Error(`not an election id: ${electionId}`);
  const problems: string[] = [];
  const notes: string[] = [];
  const key = ctx.secrets.ballotKey;
  return inBoxSnapshot(ctx, 'Audit read', electionId, async (tx) => {
    const tally = new Map<string, number>();
    // The box's receipts in flat buffers (receipt-index.ts: no 100,000-entry Map in the server's
    // heap), and the queued ones, few, in a Map; a queued receipt's position wins, as it was read last.
    const mixed = new SortedReceiptIndex();
    const queuedAt = new Map<string, number>();
    const positionOf = (receipt: string) => queuedAt.get(receipt) ?? mixed.positionOf(receipt);
    const bump = (positionId: number, candidateId: number) =>
      tally.set(`${positionId}:${candidateId}`, (tally.get(`${positionId}:${candidateId}`) ?? 0) + 1);

    // A ranked ballot's rows carry its order (rank 1..n, each once); every other ballot's rank is 0.
    const own = await positionMethodsOf(tx, electionId);
    const mine = new Set(own.map((p) => p.id));
    const ranked = new Set(own.filter((p) => p.kind === 'candidates' && p.method === 'ranked').map((p) => p.id));
    // A receipt's rows are consecutive in the digest's order (receipt, then candidate): its ranks
    // are judged when the next receipt starts.
    let rankedReceipt: string | null = null;
    let ranks: number[] = [];
    let strayRanks = 0;
    let badRankings = 0;
    const judgeRanks = () => {
      const sorted = ranks.sort((x, y) => x - y);
      if (sorted.some((r, i) => r !== i + 1)) badRankings++;
    };
    const digest = await digestBallots(
      tx,
      (b) => {
        mixed.add(b.receipt, b.positionId);
        bump(b.positionId, b.candidateId);
        if (ranked.has(b.positionId)) {
          if (b.receipt !== rankedReceipt) {
            if (rankedReceipt !== null) judgeRanks();
            rankedReceipt = b.receipt;
            ranks = [];
          }
          ranks.push(b.rank);
        } else if (b.rank !== 0) strayRanks++;
      },
      electionId,
    );
    if (rankedReceipt !== null) judgeRanks();
    if (badRankings) problems.push(`${badRankings} ranked ballot(s) do not rank their candidates 1, 2, 3, … each once`);
    if (strayRanks) problems.push(`${strayRanks} ballot row(s) of a position that is not ranked carry a rank`);
    let queued = 0;
    let unreadable = 0;
    for (const row of await queuedBallotRows(tx, electionId)) {
      try {
        // One queued row is one position's ballot: a row per candidate chosen, one receipt.
        const rows = openBallot(key, row.sealed);
        const first = rows[0];
        if (!first) throw new Error('empty ballot');
        // Another election's ballot.
        if (!mine.has(first.positionId)) continue;
        if (positionOf(first.receipt) !== undefined) problems.push(`Receipt ${first.receipt} is both queued and mixed`);
        queuedAt.set(first.receipt, first.positionId);
        for (const b of rows) bump(b.positionId, b.candidateId);
        queued++;
      } catch {
        unreadable++;
      }
    }
    if (unreadable) problems.push(`${unreadable} queued ballot(s) cannot be opened with this BALLOT_KEY (altered, or a different key)`);

    // Ballots per position, a receipt once (under its queued position when it is queued as well).
    const perPosition = new Map<number, number>();
    const countIn = (positionId: number, by: number) => perPosition.set(positionId, (perPosition.get(positionId) ?? 0) + by);
    for (const positionId of mixed.eachPosition()) countIn(positionId, 1);
    for (const [receipt, positionId] of queuedAt) {
      const alsoMixed = mixed.positionOf(receipt);
      if (alsoMixed !== undefined) countIn(alsoMixed, -1);
      countIn(positionId, 1);
    }
    const participated = new Map<number, number>();
    let missing = 0;
    let wrongPosition = 0;
    let sealedBad = 0;
    // The roll's receipts a page at a time (a cursor in this snapshot), each opened in turn: the
    // audit at close runs in the server process, beside the votes of every other open election.
    await eachPage<{ position_id: number; receipt_enc: string }>(tx, sealedReceiptsIn(electionId), OPEN_SLICE, (page) => {
      for (const row of page) {
        const positionId = Number(row.position_id);
        participated.set(positionId, (participated.get(positionId) ?? 0) + 1);
        let receipt: string;
        try {
          receipt = unseal(key, row.receipt_enc);
        } catch {
          sealedBad++;
          continue;
        }
        const at = positionOf(receipt);
        if (at === undefined) missing++;
        else if (at !== positionId) wrongPosition++;
      }
    });
    if (sealedBad) problems.push(`${sealedBad} participation receipt(s) cannot be opened with this BALLOT_KEY`);
    if (missing) problems.push(`${missing} voter receipt(s) have no ballot`);
    if (wrongPosition) problems.push(`${wrongPosition} ballot(s) are recorded under a different position than their voter's`);
    for (const positionId of new Set([...perPosition.keys(), ...participated.keys()])) {
      const ballotsN = perPosition.get(positionId) ?? 0;
      const votersN = participated.get(positionId) ?? 0;
      if (ballotsN !== votersN) problems.push(`Position ${positionId}: ${ballotsN} ballot(s) but ${votersN} voter(s)`);
    }

    const standing = new Set([
      ...(await everyCandidacy(tx)).map((c) => `${c.positionId}:${c.memberId}`),
      // A motion's options stand for it.
      ...(await everyMotionOption(tx)).map((o) => `${o.positionId}:${o.id}`),
    ]);
    const strays = [...tally.keys()].filter((k) => mine.has(Number(k.split(':')[0])) && !standing.has(k));
    if (strays.length)
      notes.push(`${strays.length} (position, candidate) pair(s) hold ballots without a current candidacy (withdrawn after voting?)`);

    const history = await commitmentHistory(tx, electionId);
    for (let i = 1; i < history.length; i++) {
      if (history[i]!.count < history[i - 1]!.count)
        problems.push(
          `Commitment ${history[i]!.id} counts fewer ballots (${history[i]!.count}) than the one before (${history[i - 1]!.count})`,
        );
    }
    const newest = await newestCommitment(tx, electionId);
    if (!newest) notes.push('No commitment recorded yet');
    else if (digest.count < newest.count)
      problems.push(
        `The newest commitment (${newest.at.toISOString()}) covers ${newest.count} ballots but only ${digest.count} are stored`,
      );
    else if (digest.count === newest.count && digest.hash !== newest.hash)
      problems.push(`The ballots do not match the newest commitment (${newest.at.toISOString()}): hash ${digest.hash} != ${newest.hash}`);
    else if (digest.count > newest.count)
      notes.push(`${digest.count - newest.count} ballot(s) mixed since the newest commitment; the next commitment covers them`);
    else notes.push(`Newest commitment (${newest.at.toISOString()}, ${newest.count} ballots) matches`);
    notes.push(`${digest.count} mixed and ${queued} queued ballot(s)`);

    const tallies = [...tally.entries()]
      .map(([k, count]) => {
        const [positionId, candidateId] = k.split(':').map(Number) as [number, number];
        return { positionId, candidateId, count };
      })
      .sort((a, b) => a.positionId - b.positionId || b.count - a.count || a.candidateId - b.candidateId);
    return { ok: problems.length === 0, problems, notes, tallies };
  });
}
