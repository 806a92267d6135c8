import { describe, expect, it } from 'vitest';
import { applyTally, ResultsTallyPayload, tallyPayloads, type ResultGroup, type ResultsTallySnapshot, type TallyState } from './index';

/**
 * The `tally` channel's client side (docs/api.md "Realtime"): a snapshot, then counts only, added
 * up into the `results` channel's display order; anything it cannot apply asks for a snapshot.
 */

const value = (candidate_id: number, name: string, count: number) => ({
  candidate_id,
  title: name,
  name,
  member_no: `M${candidate_id}`,
  count,
});
/** Candidates in candidate-id order: Zed (1), Ada (2), Bea (3). */
const chair = (zed: number, ada: number, bea: number): ResultGroup => ({
  position_id: 9,
  title: 'Chairperson National',
  key: 'Chairperson_National',
  total: zed + ada + bea,
  values: [value(1, 'Zed', zed), value(2, 'Ada', ada), value(3, 'Bea', bea)],
});
/** A motion's options by id: Yes (10), No (11), Abstain (12). */
const motion = (yes: number, no: number, abstain: number): ResultGroup => ({
  position_id: 4,
  title: 'Amend rule 12 National',
  key: 'Amend_rule_12_National',
  kind: 'motion',
  total: yes + no + abstain,
  values: [value(10, 'Yes', yes), value(11, 'No', no), value(12, 'Abstain', abstain)],
});

const snapshot = (results: ResultGroup[], layout = 'L1', election_id = 7): ResultsTallySnapshot =>
  tallyPayloads(election_id, results, () => layout).snapshot;
const counts = (results: ResultGroup[], layout = 'L1', election_id = 7): ResultsTallyPayload =>
  tallyPayloads(election_id, results, () => layout).counts;
const names = (group: ResultGroup) => group.values.map((v) => `${v.name} ${v.count}`);

function applied(state: TallyState | undefined, update: ResultsTallyPayload): TallyState {
  const next = applyTally(state, update);
  if (next === 'snapshot-needed') throw new Error('expected a state, got snapshot-needed');
  return next;
}

describe('applyTally', () => {
  it('takes a snapshot, then fills in counts, giving candidates by count then name and motion options by id', () => {
    const first = applied(undefined, snapshot([chair(1, 1, 0), motion(0, 2, 1)]));
    expect(first.election_id).toBe(7);
    expect(first.layout).toBe('L1');
    // Ada and Zed tie on 1: by name.
    expect(names(first.results[0]!)).toEqual(['Ada 1', 'Zed 1', 'Bea 0']);
    expect(names(first.results[1]!)).toEqual(['Yes 0', 'No 2', 'Abstain 1']);

    // The counts wire: per group its total, then each value's count in candidate-id order.
    const update = counts([chair(2, 1, 5), motion(4, 2, 1)]);
    expect(update.kind === 'counts' && update.counts).toEqual([8, 2, 1, 5, 7, 4, 2, 1]);
    const next = applied(first, update);
    expect(names(next.results[0]!)).toEqual(['Bea 5', 'Zed 2', 'Ada 1']);
    expect(next.results[0]!.total).toBe(8);
    // A motion stays in id order whatever its counts.
    expect(names(next.results[1]!)).toEqual(['Yes 4', 'No 2', 'Abstain 1']);
    expect(next.results[1]!.total).toBe(7);
    // Everything but the counts is the snapshot's.
    expect(next.results.map((g) => [g.position_id, g.title, g.key, g.kind])).toEqual([
      [9, 'Chairperson National', 'Chairperson_National', undefined],
      [4, 'Amend rule 12 National', 'Amend_rule_12_National', 'motion'],
    ]);
    // The state before is left as it was.
    expect(names(first.results[0]!)).toEqual(['Ada 1', 'Zed 1', 'Bea 0']);
  });

  it('gives the same results as the results channel would for the same counts', () => {
    const state = applied(applied(undefined, snapshot([chair(0, 0, 0)])), counts([chair(3, 3, 1)]));
    expect(state.results).toEqual([{ ...chair(3, 3, 1), values: [value(2, 'Ada', 3), value(1, 'Zed', 3), value(3, 'Bea', 1)] }]);
  });

  it('a later snapshot replaces the state, whatever it was', () => {
    const first = applied(undefined, snapshot([chair(1, 0, 0)]));
    const next = applied(first, snapshot([chair(0, 4, 0), motion(1, 0, 0)], 'L2', 8));
    expect(next.election_id).toBe(8);
    expect(next.layout).toBe('L2');
    expect(next.results.map(names)).toEqual([
      ['Ada 4', 'Bea 0', 'Zed 0'],
      ['Yes 1', 'No 0', 'Abstain 0'],
    ]);
  });

  it('asks for a snapshot for counts without one, of another layout or election, or of the wrong length', () => {
    const state = applied(undefined, snapshot([chair(1, 0, 0)]));
    expect(applyTally(undefined, counts([chair(2, 0, 0)]))).toBe('snapshot-needed');
    expect(applyTally(state, counts([chair(2, 0, 0)], 'L2'))).toBe('snapshot-needed');
    expect(applyTally(state, counts([chair(2, 0, 0)], 'L1', 8))).toBe('snapshot-needed');
    expect(applyTally(state, counts([chair(2, 0, 0), motion(1, 0, 0)]))).toBe('snapshot-needed');
    expect(applyTally(state, { election_id: 7, kind: 'counts', layout: 'L1', counts: [2, 2, 0] })).toBe('snapshot-needed');
    // ...and the state it was given still takes the right counts.
    expect(names(applied(state, counts([chair(0, 0, 2)])).results[0]!)).toEqual(['Bea 2', 'Ada 0', 'Zed 0']);
  });

  it('the payloads are what the channel schema accepts', () => {
    expect(ResultsTallyPayload.safeParse(snapshot([chair(1, 0, 0)])).success).toBe(true);
    expect(ResultsTallyPayload.safeParse(counts([chair(1, 0, 0)])).success).toBe(true);
    expect(ResultsTallyPayload.safeParse({ election_id: 7, kind: 'counts', layout: 'L1', counts: [1.5] }).success).toBe(false);
  });
});
