import { z } from 'zod';
import { BallotGroup, c, errors, meta } from './common';
import { ElectionQuery, MAX_ID } from './validation';
import { said } from './messages';

const POSITION_KEY = /^[1-9]\d{0,9}$/;
export const MAX_VOTE_ENTRIES = 100;

/** A candidate id: a positive whole number; a numeric string ("12") is accepted too. */
const candidateChoice = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ required_error: said('field.chooseCandidate'), invalid_type_error: said('field.candidateId') })
    .int(said('field.candidateId'))
    .positive(said('field.candidateId'))
    .max(MAX_ID, said('field.candidateId')),
);

/** At most this many candidates in one position's list (a position has at most 50 seats). */
export const MAX_CHOICES_PER_POSITION = 50;

/**
 * A position's choice: one candidate id, or a list of distinct ones (plurality 1..seats, approval
 * and ranked 1..all, a ranked list in order of preference; a motion exactly one option). The
 * server checks the shape per method and the duplicates in the vote statement.
 */
const positionChoice = z.union([
  candidateChoice,
  z
    .array(candidateChoice, { invalid_type_error: said('field.candidateIds') })
    .min(1, said('field.chooseAtLeastOne'))
    .max(MAX_CHOICES_PER_POSITION, said('field.atMostCandidatesPerPosition', { n: MAX_CHOICES_PER_POSITION })),
]);

/** `{candidates: {[position_id]: candidate_id | candidate_id[]}}`: 1..100 positions. */
export const VoteBody = z.object({
  candidates: z
    .record(z.string().regex(POSITION_KEY, said('field.positionKey')), positionChoice, {
      required_error: said('field.chooseAtLeastOne'),
      invalid_type_error: said('field.candidatesObject'),
    })
    .superRefine((o, ctx) => {
      // a key zod's record cannot refine: a position id beyond the 4-byte integer range
      for (const k of Object.keys(o))
        if (Number(k) > MAX_ID) ctx.addIssue({ code: 'custom', path: [k], message: said('field.positionKey') });
    })
    .refine((o) => Object.keys(o).length >= 1, said('field.chooseAtLeastOne'))
    .refine((o) => Object.keys(o).length <= MAX_VOTE_ENTRIES, said('field.atMostPositionsPerVote', { n: MAX_VOTE_ENTRIES })),
});
export type VoteBody = z.infer<typeof VoteBody>;

export const VoteReceipt = z.object({ position_id: z.number().int(), vvpat: z.string() });
export const VoteResponse = z.object({ message: z.string(), receipts: z.array(VoteReceipt) });

export const VotingItem = z.object({ id: z.number().int(), title: z.string(), description: z.string() });

export const ballotsRouter = c.router({
  getBallot: {
    method: 'GET',
    path: '/psk/candidates/v2',
    query: ElectionQuery,
    summary: 'The ballot: positions this voter may vote for, with their candidates',
    description: "National positions plus the positions of the voter's own branch.",
    responses: { 200: z.object({ data: z.array(BallotGroup) }), ...errors(401, 403, 404) },
    metadata: meta('voter'),
  },
  castVote: {
    method: 'POST',
    path: '/psk/vote',
    query: ElectionQuery,
    summary:
      'Cast a vote: per position one candidate or a list (plurality: 1..seats; approval: 1..all; ranked: 1..all in order of preference; motion: one option), all-or-nothing',
    description:
      '403 when voting is disabled, or when the voter is not on the election\'s roll (its `issue` then reads "You are not on the roll for this election" in every language); 422 for an ineligible position, a candidate (or motion option) not standing for it, more candidates than a plurality position has seats, more than one option of a motion, or a candidate twice; 409 when the voter already voted for any of the positions (nothing is recorded). Answers one receipt code per position.',
    body: VoteBody,
    responses: { 201: VoteResponse, ...errors(401, 403, 409, 404) },
    metadata: meta('voter'),
  },
  listItems: {
    method: 'GET',
    path: '/items',
    summary: 'Voting education items',
    responses: { 200: z.object({ data: z.array(VotingItem) }), ...errors(401, 403) },
    metadata: meta('voter'),
  },
});
