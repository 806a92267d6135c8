/**
 * Reader (and writer) of the BLT ballot format, as used by OpenSTV, Droop and the published
 * Scottish preference data:
 *
 *     4 2                  candidates, seats
 *     -3                   optional: withdrawn candidates as negative numbers
 *     12 1 2 4 0           weight (how many identical ballots), preferences in order, 0
 *     1 3 0
 *     0                    end of the ballots
 *     "Ada Lovelace"       the candidates' names in quotes, in candidate-number order
 *     "Grace Hopper"
 *     "Émilie du Châtelet"
 *     "Mary Somerville"
 *     "Board 2026"         the election's title
 *
 * One ballot per line. Malformed input is refused with the line it is on; a ballot that names a
 * candidate twice is refused here, before anything is counted. Text after the title is ignored
 * and returned in `ignored`. Files past the limits below are refused with a line saying which.
 */

export type BltCandidate = { id: number; name: string; withdrawn: boolean };
export type BltBallot = { count: number; ranking: number[]; line: number };
export type BltElection = {
  title: string;
  seats: number;
  /** Candidates 1..n in file order; `id` is the candidate's number in the file. */
  candidates: BltCandidate[];
  /** Ballot lines as written (a weight and the ranking); blank ballots included. */
  ballots: BltBallot[];
  /** Non-blank lines after the title, verbatim: not part of the election, ignored by the count. */
  ignored: { line: number; text: string }[];
};

/** A malformed BLT file: `line` is 1-based; the message starts with "line N: ". */
export class BltError extends Error {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(`line ${line}: ${detail}`);
    this.name = 'BltError';
  }
}

/**
 * The limits of the reader (docs/decisions/008): far above any real
 * election, low enough that a hostile file cannot hold a recount for long.
 * - MAX_BALLOTS: the largest weight of one ballot line and the largest number of ballots in a file.
 * - MAX_CANDIDATES: candidates on one ballot paper (the largest real STV ballot paper, the New
 *   South Wales Legislative Council's, had 394); the count's record is a row per round with every
 *   candidate's votes, so its size grows with the square of this.
 * - MAX_SEATS: seats to fill (real STV elections fill at most a few dozen).
 * - MAX_BALLOT_LINES: ballot lines (2,000,000; twice the million ballots of the benchmark, one
 *   line each: the reader holds every line in memory, about 300 MB a million). Larger elections
 *   group identical ballots into one line with a weight.
 * - MAX_BLT_BYTES: the size of the file (64 MiB; a million ranked ballots are about 20 MB).
 */
export const MAX_BALLOTS = 10_000_000_000;
export const MAX_CANDIDATES = 500;
export const MAX_SEATS = 500;
export const MAX_BALLOT_LINES = 2_000_000;
export const MAX_BLT_BYTES = 64 * 1024 * 1024;

const INT = /^\d+$/;

function wholeNumber(token: string, line: number, what: string): number {
  if (!INT.test(token)) {
    if (/^\(.*\)$/.test(token))
      throw new BltError(line, `ballot identifiers ("${token}") are not supported; write one line per ballot: weight, preferences, 0`);
    if (token.includes('=')) throw new BltError(line, `equal preferences ("${token}") are not allowed in a ranked ballot`);
    throw new BltError(line, `expected ${what}, found "${token}"`);
  }
  const n = Number(token);
  if (!Number.isSafeInteger(n)) throw new BltError(line, `${what} ${token} is too large`);
  return n;
}

type Token = { text: string; quoted: boolean; line: number };

/**
 * Reads the rest of the file (after the ballots) as quoted strings and bare words, with their
 * lines, up to `wanted` of them (the names and the title). What follows is not read as tokens: its
 * non-blank lines are returned as `rest`, verbatim.
 */
function quotedTokens(lines: string[], from: number, wanted: number): { tokens: Token[]; rest: { line: number; text: string }[] } {
  const tokens: Token[] = [];
  const rest: { line: number; text: string }[] = [];
  for (let i = from; i < lines.length; i++) {
    const s = lines[i]!;
    let p = 0;
    while (p < s.length && tokens.length < wanted) {
      const ch = s[p]!;
      if (/\s/.test(ch)) {
        p++;
      } else if (ch === '"') {
        const end = s.indexOf('"', p + 1);
        if (end < 0) throw new BltError(i + 1, 'a quoted name has no closing quote on its line');
        tokens.push({ text: s.slice(p + 1, end), quoted: true, line: i + 1 });
        p = end + 1;
      } else {
        let end = p;
        while (end < s.length && !/\s/.test(s[end]!) && s[end] !== '"') end++;
        tokens.push({ text: s.slice(p, end), quoted: false, line: i + 1 });
        p = end;
      }
    }
    if (tokens.length === wanted) {
      const tail = s.slice(p).trim();
      if (tail !== '') rest.push({ line: i + 1, text: tail });
      for (let j = i + 1; j < lines.length; j++) if (lines[j]!.trim() !== '') rest.push({ line: j + 1, text: lines[j]!.trim() });
      break;
    }
  }
  return { tokens, rest };
}

/**
 * Reads a BLT file (already decoded text). Throws BltError on anything malformed or past the
 * limits; `maxBallotLines` lowers MAX_BALLOT_LINES (never raises it), for a caller with less room.
 */
export function parseBlt(text: string, options: { maxBallotLines?: number } = {}): BltElection {
  const maxBallotLines = Math.min(options.maxBallotLines ?? MAX_BALLOT_LINES, MAX_BALLOT_LINES);
  if (text.length > MAX_BLT_BYTES)
    throw new BltError(1, `the file is ${text.length} characters long, more than this reader takes (${MAX_BLT_BYTES / 1024 / 1024} MiB)`);
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  let i = 0;
  let lastLine = lines.length;
  while (lastLine > 1 && lines[lastLine - 1]!.trim() === '') lastLine--;
  const words = (k: number) => lines[k]!.trim().split(/\s+/).filter(Boolean);
  const skipBlank = () => {
    while (i < lines.length && lines[i]!.trim() === '') i++;
  };

  // Header: candidates and seats (withdrawn candidates may follow on the same line).
  skipBlank();
  if (i >= lines.length) throw new BltError(1, 'the file is empty; expected "<candidates> <seats>"');
  const headerLine = i + 1;
  const header = words(i++);
  const nCandidates = wholeNumber(header[0]!, headerLine, 'the number of candidates');
  if (header.length < 2) throw new BltError(headerLine, 'expected "<candidates> <seats>" on the first line');
  const seats = wholeNumber(header[1]!, headerLine, 'the number of seats');
  if (nCandidates < 1) throw new BltError(headerLine, 'there must be at least one candidate');
  if (nCandidates > MAX_CANDIDATES)
    throw new BltError(headerLine, `${nCandidates} candidates are more than this reader takes (at most ${MAX_CANDIDATES})`);
  if (seats < 1) throw new BltError(headerLine, 'there must be at least one seat');
  if (seats > MAX_SEATS) throw new BltError(headerLine, `${seats} seats are more than this reader takes (at most ${MAX_SEATS})`);

  const withdrawn = new Set<number>();
  const addWithdrawn = (tokens: string[], line: number) => {
    for (const t of tokens) {
      if (!/^-\d+$/.test(t)) throw new BltError(line, `expected a withdrawn candidate as a negative number, found "${t}"`);
      const id = Number(t.slice(1));
      if (id < 1 || id > nCandidates) throw new BltError(line, `withdrawn candidate ${t} is not a candidate (1..${nCandidates})`);
      if (withdrawn.has(id)) throw new BltError(line, `candidate ${id} is withdrawn twice`);
      withdrawn.add(id);
    }
  };
  addWithdrawn(header.slice(2), headerLine);

  // Ballots, one per line, up to a line "0".
  const ballots: BltBallot[] = [];
  const seenOn = new Int32Array(nCandidates + 1); // the ballot (1-based) that last named each candidate
  let total = 0;
  let ended = false;
  while (i < lines.length) {
    const lineNo = i + 1;
    const tokens = words(i++);
    if (tokens.length === 0) continue;
    if (tokens[0]!.startsWith('-')) {
      if (ballots.length > 0) throw new BltError(lineNo, 'withdrawn candidates must come before the first ballot');
      addWithdrawn(tokens, lineNo);
      continue;
    }
    if (tokens.length === 1 && tokens[0] === '0') {
      ended = true;
      break;
    }
    if (tokens[0]!.startsWith('"')) throw new BltError(lineNo, 'expected a ballot or the line "0" that ends the ballots, found a name');
    const count = wholeNumber(tokens[0]!, lineNo, 'a ballot weight');
    if (count < 1) throw new BltError(lineNo, 'a ballot weight must be at least 1 (a line "0" alone ends the ballots)');
    if (tokens[tokens.length - 1] !== '0' || tokens.length < 2) throw new BltError(lineNo, 'a ballot line must end with 0');
    if (ballots.length === maxBallotLines)
      throw new BltError(lineNo, `more than ${maxBallotLines} ballot lines (group identical ballots into one line with a weight)`);
    const ranking: number[] = [];
    const mark = ballots.length + 1;
    for (let k = 1; k < tokens.length - 1; k++) {
      const id = wholeNumber(tokens[k]!, lineNo, 'a candidate number');
      if (id < 1 || id > nCandidates) throw new BltError(lineNo, `candidate ${tokens[k]} is not a candidate (1..${nCandidates})`);
      if (seenOn[id] === mark) throw new BltError(lineNo, `candidate ${id} appears twice on this ballot`);
      seenOn[id] = mark;
      ranking.push(id);
    }
    total += count;
    if (total > MAX_BALLOTS) throw new BltError(lineNo, `more than ${MAX_BALLOTS} ballots`);
    ballots.push({ count, ranking, line: lineNo });
  }
  if (!ended) throw new BltError(lastLine, 'the ballots never end: expected a line "0" after the last ballot');

  // Names, then the title.
  const { tokens: rest, rest: trailing } = quotedTokens(lines, i, nCandidates + 1);
  const candidates: BltCandidate[] = [];
  for (let id = 1; id <= nCandidates; id++) {
    const t = rest[id - 1];
    if (!t) throw new BltError(lastLine, `expected ${nCandidates} candidate names in quotes, found ${id - 1}`);
    if (!t.quoted) throw new BltError(t.line, `expected the name of candidate ${id} in quotes, found "${t.text}"`);
    if (t.text.trim() === '') throw new BltError(t.line, `candidate ${id} has an empty name`);
    candidates.push({ id, name: t.text, withdrawn: withdrawn.has(id) });
  }
  const titleToken = rest[nCandidates];
  if (titleToken && !titleToken.quoted)
    throw new BltError(titleToken.line, `expected the election's title in quotes, found "${titleToken.text}"`);
  // Text after the title (the ERBS test files carry an author line and notes there) is not part of
  // the election: it is kept aside, unread, and the count says it was ignored.
  return { title: titleToken?.text ?? '', seats, candidates, ballots, ignored: trailing };
}

function quote(text: string): string {
  if (/["\r\n]/.test(text)) throw new Error(`a BLT name cannot hold a double quote or a line break: ${JSON.stringify(text)}`);
  return `"${text}"`;
}

/** Writes a BLT file; `ranking`s hold candidate numbers 1..n (the order of `candidates`). */
export function formatBlt(election: {
  title: string;
  seats: number;
  candidates: { name: string; withdrawn?: boolean }[];
  ballots: { count?: number; ranking: readonly number[] }[];
}): string {
  const out: string[] = [`${election.candidates.length} ${election.seats}`];
  const withdrawn = election.candidates.flatMap((c, k) => (c.withdrawn ? [`-${k + 1}`] : []));
  if (withdrawn.length > 0) out.push(withdrawn.join(' '));
  for (const b of election.ballots) out.push(`${b.count ?? 1} ${[...b.ranking, 0].join(' ')}`);
  out.push('0');
  for (const c of election.candidates) out.push(quote(c.name));
  out.push(quote(election.title));
  return `${out.join('\n')}\n`;
}
