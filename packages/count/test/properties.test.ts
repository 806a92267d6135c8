import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BltError, CountError, countStv, formatBlt, ONE, parseBlt, parseVotes, type StvBallot } from '../src';
import { randomElection } from './arbitraries';

/** A random election: 2..9 candidates (some perhaps withdrawn), 1..4 seats, up to 80 ballot lines. */
const election = randomElection({ candidates: { min: 2, max: 9 }, maxWeight: 6, maxLines: 80, maxSeed: 6, withdraws: (drawn) => drawn });

const total = (votes: Record<string, string>) => Object.values(votes).reduce((s, v) => s + parseVotes(v), 0);

describe('STV properties', () => {
  it('conserves the vote total at every round, up to the truncation residue of the surplus transfers', () => {
    fc.assert(
      fc.property(election, (e) => {
        const r = countStv(e);
        const all = r.ballots * ONE;
        let transfers = 0;
        for (const round of r.rounds) {
          if (round.action === 'transfer') transfers++;
          const held = total(round.votes) + parseVotes(round.nontransferable);
          // Never more than the ballots; less only by what truncation dropped: under one
          // hundred-thousandth of a vote per ballot per surplus transfer.
          expect(held).toBeLessThanOrEqual(all);
          expect(all - held).toBeLessThanOrEqual(transfers * r.ballots);
          if (transfers === 0) expect(held).toBe(all);
        }
        expect(parseVotes(r.residue)).toBe(all - total(r.rounds.at(-1)!.votes) - parseVotes(r.nontransferable));
      }),
      { numRuns: 400 },
    );
  });

  it('a candidate who reaches the quota at any round is elected; the seats are filled when enough stand', () => {
    fc.assert(
      fc.property(election, (e) => {
        const r = countStv(e);
        const quota = parseVotes(r.quota);
        for (const round of r.rounds)
          for (const [id, v] of Object.entries(round.votes)) if (parseVotes(v) >= quota) expect(r.elected).toContain(Number(id));
        const standing = e.candidates.filter((c) => !c.withdrawn).length;
        expect(r.elected).toHaveLength(Math.min(e.seats, standing));
        expect(new Set(r.elected).size).toBe(r.elected.length);
        for (const id of r.elected) expect(e.candidates.find((c) => c.id === id)!.withdrawn).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('the order of the ballots never matters, nor does grouping identical ballots into one line', () => {
    fc.assert(
      fc.property(election, fc.integer(), (e, salt) => {
        const r = countStv(e);
        // A deterministic shuffle from the salt, and every line split into single ballots.
        const singles: StvBallot[] = e.ballots.flatMap((b) => Array.from({ length: b.count }, () => ({ ranking: b.ranking })));
        let x = salt >>> 0 || 1;
        for (let k = singles.length - 1; k > 0; k--) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          const j = (x >>> 0) % (k + 1);
          [singles[k], singles[j]] = [singles[j]!, singles[k]!];
        }
        expect(countStv({ ...e, ballots: singles })).toEqual(r);
        expect(countStv({ ...e, ballots: [...e.ballots].reverse() })).toEqual(r);
      }),
      { numRuns: 300 },
    );
  });

  it('a ballot that names a candidate twice is refused before counting, by the count and by the BLT reader', () => {
    fc.assert(
      fc.property(
        election.filter((e) => e.ballots.length > 0),
        fc.nat(),
        fc.nat(),
        (e, which, where) => {
          const ballots = e.ballots.map((b) => ({ ...b, ranking: [...b.ranking] }));
          const target = ballots[which % ballots.length]!;
          const dup = target.ranking[where % target.ranking.length]!;
          target.ranking.splice(where % (target.ranking.length + 1), 0, dup);
          expect(() => countStv({ ...e, ballots })).toThrow(CountError);
          const text = formatBlt({ title: 't', seats: e.seats, candidates: e.candidates, ballots });
          const line = 2 + (e.candidates.some((c) => c.withdrawn) ? 1 : 0) + (which % ballots.length);
          expect(() => parseBlt(text)).toThrow(BltError);
          expect(() => parseBlt(text)).toThrow(`line ${line}: candidate ${dup} appears twice on this ballot`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a BLT file written from an election counts the same as the election', () => {
    fc.assert(
      fc.property(election, (e) => {
        const blt = parseBlt(formatBlt({ title: 't', seats: e.seats, candidates: e.candidates, ballots: e.ballots }));
        expect(countStv({ seats: blt.seats, candidates: blt.candidates, ballots: blt.ballots, seed: e.seed })).toEqual(countStv(e));
      }),
      { numRuns: 200 },
    );
  });
});
