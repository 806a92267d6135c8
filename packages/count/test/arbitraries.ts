import fc from 'fast-check';

/**
 * A random election for the property tests: `candidates` (some withdrawn where `withdraws` says so),
 * 1..4 seats, up to `maxLines` ballot lines of weight 1..`maxWeight`, each ranking a shuffled subset.
 */
export function randomElection(shape: {
  candidates: { min: number; max: number };
  maxWeight: number;
  maxLines: number;
  maxSeed: number;
  withdraws: (drawn: boolean, k: number) => boolean;
}) {
  return fc.integer(shape.candidates).chain((n) =>
    fc
      .record({
        seats: fc.integer({ min: 1, max: 4 }),
        withdrawn: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
        ballots: fc.array(
          fc.record({
            count: fc.integer({ min: 1, max: shape.maxWeight }),
            ranking: fc.shuffledSubarray(
              Array.from({ length: n }, (_, k) => k + 1),
              { minLength: 1 },
            ),
          }),
          { maxLength: shape.maxLines },
        ),
        seed: fc.string({ maxLength: shape.maxSeed }),
      })
      .map((e) => ({
        ...e,
        candidates: e.withdrawn.map((w, k) => ({ id: k + 1, name: `C${k + 1}`, withdrawn: shape.withdraws(w, k) })),
      })),
  );
}
