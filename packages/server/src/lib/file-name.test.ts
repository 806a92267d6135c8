import { describe, expect, it } from 'vitest';
import { electionFileName } from './file-name';

describe('electionFileName', () => {
  it('names a download after its election and what it holds', () => {
    expect(electionFileName({ id: 3, title: 'PSK Elections 2025' }, 'results', 'csv')).toBe('psk-elections-2025-results.csv');
    expect(electionFileName({ id: 3, title: 'AGM 2026' }, 'Board of Directors', 'blt')).toBe('agm-2026-board-of-directors.blt');
    expect(electionFileName({ id: 4, title: 'Uchaguzi wa Bodi — Kaunti ya Nyeri' }, 'results', 'csv')).toBe(
      'uchaguzi-wa-bodi-kaunti-ya-nyeri-results.csv',
    );
    expect(electionFileName({ id: 5, title: 'Élection « spéciale »' }, 'results', 'csv')).toBe('election-speciale-results.csv');
  });

  it('falls back to the id for a title with no Latin letters or none, and never puts quotes or slashes in a header', () => {
    expect(electionFileName({ id: 7, title: 'انتخابات' }, 'results', 'csv')).toBe('election-7-results.csv');
    expect(electionFileName({ id: 8, title: null }, 'results', 'csv')).toBe('election-8-results.csv');
    expect(electionFileName({ id: 9, title: 'a"b/c\\d\r\ne' }, '', 'csv')).toBe('a-b-c-d-e.csv');
  });
});
