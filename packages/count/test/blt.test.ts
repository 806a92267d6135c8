import { describe, expect, it } from 'vitest';
import { BltError, countBlt, formatBlt, parseBlt } from '../src';

const errorOf = (text: string): BltError => {
  try {
    parseBlt(text);
  } catch (error) {
    if (error instanceof BltError) return error;
    throw error;
  }
  throw new Error('parsed without an error');
};

describe('BLT reader', () => {
  it('reads the header, withdrawn candidates, weights, quoted UTF-8 names and the title', () => {
    const blt = parseBlt(
      '\uFEFF4 2\r\n-3\r\n12 1 2 4 0\r\n1 3 0\r\n\r\n0\r\n"Ada Lovelace"\r\n"Grace Hopper"\r\n"Émilie du Châtelet"\r\n"Wangari Maathai 🌳"\r\n"Board 2026"\r\n',
    );
    expect(blt.title).toBe('Board 2026');
    expect(blt.seats).toBe(2);
    expect(blt.candidates).toEqual([
      { id: 1, name: 'Ada Lovelace', withdrawn: false },
      { id: 2, name: 'Grace Hopper', withdrawn: false },
      { id: 3, name: 'Émilie du Châtelet', withdrawn: true },
      { id: 4, name: 'Wangari Maathai 🌳', withdrawn: false },
    ]);
    expect(blt.ballots).toEqual([
      { count: 12, ranking: [1, 2, 4], line: 3 },
      { count: 1, ranking: [3], line: 4 },
    ]);
  });

  it('takes withdrawn candidates on the header line and names on one line', () => {
    const blt = parseBlt('3 1 -2\n1 1 0\n0\n"A" "B" "C" "T"');
    expect(blt.candidates.map((c) => c.withdrawn)).toEqual([false, true, false]);
    expect(blt.title).toBe('T');
  });

  it('formatBlt writes what parseBlt reads', () => {
    const election = {
      title: 'Röund trip',
      seats: 2,
      candidates: [{ name: 'Ö' }, { name: 'B', withdrawn: true }, { name: 'C c' }],
      ballots: [{ count: 3, ranking: [1, 3] }, { ranking: [2, 1] }],
    };
    const blt = parseBlt(formatBlt(election));
    expect(blt.title).toBe('Röund trip');
    expect(blt.candidates.map((c) => [c.name, c.withdrawn])).toEqual([
      ['Ö', false],
      ['B', true],
      ['C c', false],
    ]);
    expect(blt.ballots.map((b) => [b.count, b.ranking])).toEqual([
      [3, [1, 3]],
      [1, [2, 1]],
    ]);
  });

  it('refuses a ballot that names a candidate twice, with its line, before anything is counted', () => {
    const text = '3 1\n2 1 2 0\n1 3 1 3 0\n0\n"A"\n"B"\n"C"\n"T"\n';
    const e = errorOf(text);
    expect(e.line).toBe(3);
    expect(e.message).toBe('line 3: candidate 3 appears twice on this ballot');
    expect(() => countBlt(text)).toThrow(BltError);
  });

  it.each([
    ['', 1, 'the file is empty'],
    ['x 2\n', 1, 'expected the number of candidates, found "x"'],
    ['3\n', 1, 'expected "<candidates> <seats>"'],
    ['3 0\n', 1, 'at least one seat'],
    ['3 1\n-4\n', 2, 'withdrawn candidate -4 is not a candidate (1..3)'],
    ['3 1\n1 1 2\n0\n', 2, 'a ballot line must end with 0'],
    ['3 1\n1 1 4 0\n0\n', 2, 'candidate 4 is not a candidate (1..3)'],
    ['3 1\n1 0\n1 1.5 0\n0\n', 3, 'expected a candidate number, found "1.5"'],
    ['3 1\n1 1=2 0\n0\n', 2, 'equal preferences ("1=2")'],
    ['3 1\n(7) 1 2 0\n0\n', 2, 'ballot identifiers'],
    ['3 1\n0 1 2 0\n0\n', 2, 'a ballot weight must be at least 1'],
    ['3 1\n1 1 0\n-2\n0\n', 3, 'withdrawn candidates must come before the first ballot'],
    ['3 1\n1 1 0\n', 2, 'the ballots never end'],
    ['3 1\n1 1 0\n0\n"A"\n"B"\n', 5, 'expected 3 candidate names in quotes, found 2'],
    ['3 1\n1 1 0\n0\n"A"\nB\n"C"\n', 5, 'expected the name of candidate 2 in quotes, found "B"'],
    ['3 1\n1 1 0\n0\n"A"\n"B"\n"C\n', 6, 'no closing quote'],
    ['3 1\n1 1 0\n0\n"A"\n"B"\n"C"\nT\n"extra"\n', 7, `expected the election's title in quotes, found "T"`],
    ['3 1\n1 1 0\n0\n"A"\n"B"\n"C\n"T"\nFirst Prefs 1 0 0\n', 6, 'no closing quote'],
    ['3 1\n1 1 0\n0\n"A"\n""\n"C"\n', 5, 'candidate 2 has an empty name'],
  ])('refuses malformed input with its line: %j', (text, line, message) => {
    const e = errorOf(text);
    expect(e.line).toBe(line);
    expect(e.message).toContain(`line ${line}: `);
    expect(e.message).toContain(message);
  });
});

describe('BLT reader: text after the title (issue 36, finding 9)', () => {
  // The shape of the ERBS validation file M135.blt: after the title, a quoted author line and an
  // unquoted line of notes. Other counters read it; the text after the title is not the election.
  const m135Shaped = [
    '4 2',
    '3 1 2 0',
    '2 2 3 4 0',
    '2 3 0',
    '1 4 1 0',
    '0',
    '"Ann"',
    '"Bob"',
    '"Cat"',
    '"Dan"',
    '"M135"',
    '"Brian Wichmann, ERBS validation data"',
    'First Prefs  3  2  2  1  "unbalanced',
    '',
  ].join('\n');

  it('reads a file with quoted and unquoted lines after the title, and keeps them aside', () => {
    const blt = parseBlt(m135Shaped);
    expect(blt.title).toBe('M135');
    expect(blt.candidates.map((c) => c.name)).toEqual(['Ann', 'Bob', 'Cat', 'Dan']);
    expect(blt.ballots).toHaveLength(4);
    expect(blt.ignored).toEqual([
      { line: 12, text: '"Brian Wichmann, ERBS validation data"' },
      { line: 13, text: 'First Prefs  3  2  2  1  "unbalanced' },
    ]);
  });

  it('counts it as the same file without the tail, and the count notes what it ignored', () => {
    const plain = m135Shaped.split('\n').slice(0, 11).join('\n');
    const withTail = countBlt(m135Shaped).count;
    const without = countBlt(plain).count;
    expect(without.notes).toEqual([]);
    expect(withTail.notes).toEqual(['text after the title (lines 12 to 13) is not part of the election and was ignored']);
    expect({ ...withTail, notes: [] }).toEqual(without);
  });

  it("text on the title's own line after the title is ignored too; a plain file has no note", () => {
    const blt = parseBlt('2 1\n1 1 0\n0\n"A" "B" "T" trailing words\n');
    expect(blt.title).toBe('T');
    expect(blt.ignored).toEqual([{ line: 4, text: 'trailing words' }]);
    expect(parseBlt('2 1\n1 1 0\n0\n"A"\n"B"\n"T"\n\n\n').ignored).toEqual([]);
  });
});
