import { describe, expect, it } from 'vitest';
import { receiptElection, receiptInElection, votedPositionIds } from './receipts';

const row = { vvpat: 'VP-AAAA-BBBB', name: 'Ann', count: 1, position: 'Chairperson National' };

describe('the election of a receipt (docs/api.md "Many elections")', () => {
  it('reads the title, {id, title}, or election_id and election_title; none from an older server', () => {
    expect(receiptElection({ ...row, election: 'Elections 2027' })).toEqual({ title: 'Elections 2027' });
    expect(receiptElection({ ...row, election: { id: 7, title: 'By-election' } })).toEqual({ id: 7, title: 'By-election' });
    expect(receiptElection({ ...row, election_id: 3, election_title: 'AGM' })).toEqual({ id: 3, title: 'AGM' });
    expect(receiptElection(row)).toBeUndefined();
  });

  it("counts a receipt towards its own election only, so a copied election's same titles are not voted", () => {
    const groups = [
      { position_id: 11, title: 'Chairperson National' },
      { position_id: 12, title: 'Treasurer National' },
    ];
    const receipts = [{ ...row, election: { id: 1, title: 'Elections 2026' } }];
    expect([...votedPositionIds(receipts, groups, { id: 1, title: 'Elections 2026' })]).toEqual([11]);
    expect([...votedPositionIds(receipts, groups, { id: 2, title: 'Elections 2027' })]).toEqual([]);
    // by title when the receipt names only a title
    expect(receiptInElection({ ...row, election: 'Elections 2027' }, { id: 2, title: 'Elections 2027' })).toBe(true);
    expect(receiptInElection({ ...row, election: 'Elections 2026' }, { id: 2, title: 'Elections 2027' })).toBe(false);
    // a receipt naming no election: the single-election behaviour
    expect([...votedPositionIds([row], groups, { id: 2 })]).toEqual([11]);
  });
});
