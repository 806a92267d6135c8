import { parseBlt } from './blt';
import { countStv, type StvResult, type StvRound } from './stv';

/**
 * The recount of a BLT file, as `count --json` prints it: `elected` in candidate-number order,
 * every vote a string with 5 decimals; `rounds` name candidates by their number in the file.
 */
export type BltCount = {
  title: string;
  seats: number;
  ballots: number;
  quota: string;
  elected: { name: string; votes: string }[];
  nontransferable: string;
  rounds: StvRound[];
  candidates: { id: number; name: string; withdrawn: boolean }[];
  /** What the reader passed over, e.g. text after the title; empty for a plain file. */
  notes: string[];
};

function ignoredNote(ignored: { line: number }[]): string[] {
  if (ignored.length === 0) return [];
  const first = ignored[0]!.line;
  const last = ignored.at(-1)!.line;
  const where = first === last ? `line ${first}` : `lines ${first} to ${last}`;
  return [`text after the title (${where}) is not part of the election and was ignored`];
}

/** Reads a BLT file and counts it by STV (throws BltError or CountError on bad input). */
export function countBlt(text: string, options: { seed?: string } = {}): { count: BltCount; result: StvResult } {
  const blt = parseBlt(text);
  const result = countStv({ seats: blt.seats, candidates: blt.candidates, ballots: blt.ballots, seed: options.seed });
  const count: BltCount = {
    title: blt.title,
    seats: result.seats,
    ballots: result.ballots,
    quota: result.quota,
    elected: result.values.filter((v) => v.elected).map((v) => ({ name: v.name, votes: v.votes })),
    nontransferable: result.nontransferable,
    rounds: result.rounds,
    candidates: blt.candidates,
    notes: ignoredNote(blt.ignored),
  };
  return { count, result };
}
