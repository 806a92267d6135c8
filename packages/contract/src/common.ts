import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { TranslatedText } from './languages';
import { Rule } from './rules';
import { said } from './messages';

export const c = initContract();

/**
 * Who may call a route. The server's access middleware and the generated access-matrix
 * tests both read this, so a new route cannot escape the role checks.
 * - anyone: no token needed (a token, if sent, is ignored unless the handler uses it)
 * - signed-in: any valid session (voter, agent or admin)
 * - voter / agent / admin: that role; an admin may call every agent route
 * - pending-*: the second step of a two-step sign-in, authorised by the signed pending cookie
 */
export type Access = 'anyone' | 'signed-in' | 'voter' | 'agent' | 'admin' | 'pending-voter' | 'pending-admin' | 'pending-agent';

/** A file part of a multipart route: the OpenAPI document lists it beside the text fields. */
export type FileField = {
  name: string;
  /** more than 1: the field may repeat (an array of files) */
  maxCount: number;
  required: boolean;
  mediaTypes: readonly string[];
  description: string;
};

export type RouteMetadata = {
  access: Access;
  /** Multipart routes: the file fields the upload middleware reads. */
  files?: readonly FileField[];
  /** The first step of a two-step sign-in: answers Set-Cookie with that role's pending cookie. */
  startsSignIn?: 'voter' | 'admin' | 'agent';
  /** An open route that still needs the double-submit CSRF header (pending-* routes always do). */
  csrf?: boolean;
  /** A multipart route that takes a JSON body too (the same fields, without the files). */
  jsonToo?: boolean;
};

export const meta = (access: Access, extra: Omit<RouteMetadata, 'access'> = {}): RouteMetadata => ({ access, ...extra });

export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** The error envelope (docs/api.md "Errors"): every non-2xx body has this shape. */
export const ErrorBody = z.object({
  message: z.string(),
  issue: z.string().optional(),
  errors: z.record(z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 419 | 422 | 429 | 500 | 502 | 503;

/**
 * Every route can answer these: bad body or query (400), validation (422), rate limit (429),
 * server trouble (500) and the database being unreachable (503). No route answers 501: the
 * server's router is checked complete at compile time.
 */
const ALWAYS = [400, 422, 429, 500, 503] as const;

/** The error responses a route documents: the common ones plus the route's own. */
export function errors<const S extends ErrorStatus>(...statuses: S[]) {
  const out = {} as Record<S | (typeof ALWAYS)[number], typeof ErrorBody>;
  for (const s of [...ALWAYS, ...statuses]) out[s as S] = ErrorBody;
  return out;
}

/** Statuses every route guarded by a session may answer. */
export const AUTH_ERRORS = [401, 403] as const;

// ---- Shared shapes (docs/api.md "Shared shapes") ----

/** A position elects candidates, or decides a motion (Yes, No or Abstain). */
export const PositionKind = z.enum(['candidates', 'motion']);
export type PositionKind = z.infer<typeof PositionKind>;
/** How a candidates position is voted and counted (docs/api.md "Many elections, motions and ranked counts"). */
export const VotingMethod = z.enum(['plurality', 'approval', 'ranked']);
export type VotingMethod = z.infer<typeof VotingMethod>;
/** The share of Yes ÷ (Yes + No) a motion needs. */
export const MotionThreshold = z.enum(['majority', 'two_thirds', 'three_quarters']);
export type MotionThreshold = z.infer<typeof MotionThreshold>;
/** A motion's three options, in ballot order. */
export const MOTION_OPTIONS = ['Yes', 'No', 'Abstain'] as const;

/** The election's nominations window: nominating, supporting and accepting happen inside it. */
export const ElectionNominations = z.object({
  /** ISO 8601 */
  opens_at: z.string(),
  /** ISO 8601 */
  closes_at: z.string(),
  /** how many days after an invalid decision the nominee may appeal */
  appeal_days: z.number().int(),
});
export type ElectionNominations = z.infer<typeof ElectionNominations>;

/** A position's nomination rule; null: its candidates are entered by staff only. */
export const PositionNomination = z.object({
  proposers: z.number().int(),
  seconders: z.number().int(),
  /** supporters of the nominee's branch (of the position's branch, for a branch position) */
  same_branch: z.boolean(),
  /** a member may nominate themselves */
  self: z.boolean(),
});
export type PositionNomination = z.infer<typeof PositionNomination>;

export const Position = z.object({
  id: z.number().int(),
  name: z.string(),
  /** "National" or the branch's name */
  level: z.string(),
  /** how many candidates are elected; a ballot takes 1..seats of them */
  seats: z.number().int().min(1),
  description: z.string().nullable(),
  /** null for a national position */
  branch_id: z.number().int().nullable(),
  kind: PositionKind,
  /** candidates positions: plurality (1..seats), approval (1..all) or ranked (1..all, in order); null for a motion */
  method: VotingMethod.nullable(),
  /** motions only (null otherwise) */
  threshold: MotionThreshold.nullable(),
  /** motions only: the share of the roll that must vote on it (1..100), or null for no quorum */
  quorum_percent: z.number().nullable(),
  /** ranked positions: each voter's ballot lists the candidates in an order of its own (false otherwise); absent where a shape omits it */
  rotate_candidates: z.boolean().optional(),
  /** language → {name?, description?}, as the admin gave them; absent when there is none */
  translations: TranslatedText.optional(),
  /** docs/api.md "The register": every candidate must meet all of these */
  eligibility: z.array(Rule).optional(),
  /** how members nominate candidates for it (docs/api.md "Nominations"); null: staff enter them; absent where a shape omits it */
  nomination: PositionNomination.nullable().optional(),
});
export type Position = z.infer<typeof Position>;

export const ResultValue = z.object({
  candidate_id: z.number().int(),
  title: z.string(),
  name: z.string(),
  member_no: z.string(),
  count: z.number().int(),
});
export type ResultValue = z.infer<typeof ResultValue>;

export const ResultGroup = z.object({
  position_id: z.number().int(),
  title: z.string(),
  key: z.string(),
  values: z.array(ResultValue),
  total: z.number().int(),
  /** candidates (absent: candidates) or motion (its values are Yes, No and Abstain) */
  kind: PositionKind.optional(),
  /** a candidates position's method */
  method: VotingMethod.optional(),
  /** true for a ranked position: live counts are first preferences only, the count itself is at close */
  first_preferences_only: z.boolean().optional(),
  /** language → {title}: the title in that language, when the position's name is translated (docs/i18n.md) */
  translations: TranslatedText.optional(),
});
export type ResultGroup = z.infer<typeof ResultGroup>;

export const Statistics = z.object({
  votesCasted: z.number().int(),
  verifiedMembers: z.number().int(),
  unverifiedMembers: z.number().int(),
  membersVoted: z.number().int(),
  membersNotVoted: z.number().int(),
  /** Members who voted by each channel (one who voted some positions on each counts in both). */
  channels: z.object({ web: z.number().int(), ussd: z.number().int() }).optional(),
});
export type Statistics = z.infer<typeof Statistics>;

export const Member = z.object({
  id: z.number().int(),
  member_no: z.string(),
  name: z.string(),
  /** empty when the member has none (members sign in by SMS) */
  email: z.string(),
  /** E.164, e.g. +254712345678 */
  phone: z.string(),
  county: z.string(),
  psk_position_ids: z.array(z.number().int()),
  /** a shipped language code (en, sw); null: the organisation's default */
  language: z.string().nullable(),
  /** the organisation's attributes (docs/api.md "The register"): key → value, null when none */
  attributes: z.record(z.union([z.number(), z.string(), z.boolean(), z.null()])).optional(),
});
export type Member = z.infer<typeof Member>;

export const Candidate = z.object({
  id: z.number().int(),
  member_no: z.string(),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  county: z.string(),
  image_url: z.string().nullable(),
  /** shown on the ballot; at most 2,000 characters */
  statement: z.string().nullable(),
  /** language → {statement}, as the admin gave them; absent when there is none */
  translations: TranslatedText.optional(),
  positions: z.array(Position),
});
export type Candidate = z.infer<typeof Candidate>;

export const BallotCandidate = z.object({
  id: z.number().int(),
  name: z.string(),
  photo: z.string().nullable(),
  statement: z.string().nullable(),
  /** language → {statement}, when the statement is translated */
  translations: TranslatedText.optional(),
});
export const BallotGroup = z.object({
  title: z.string(),
  /** the position's name as the admin typed it (the title adds its level) */
  name: z.string().optional(),
  /** the branch a branch position belongs to; null for a national position */
  branch: z.string().nullable().optional(),
  position_id: z.number().int(),
  /** plurality: a ballot takes 1..seats distinct candidates; approval and ranked: 1..all */
  seats: z.number().int().min(1),
  kind: PositionKind,
  /** null for a motion */
  method: VotingMethod.nullable(),
  description: z.string().nullable(),
  /** motions only */
  threshold: MotionThreshold.nullable(),
  /** motions only: the share of the roll (1..100) that must vote on it, or null */
  quorum_percent: z.number().int().min(1).max(100).nullable(),
  /** a motion's candidates are its three options Yes, No, Abstain (photo and statement null) */
  candidates: z.array(BallotCandidate),
  /** language → {title?, name?, description?}, when the position is translated; the web shows the reader's (docs/i18n.md) */
  translations: TranslatedText.optional(),
});
export type BallotGroup = z.infer<typeof BallotGroup>;

export const Branch = z.object({ id: z.number().int(), name: z.string() });
export type Branch = z.infer<typeof Branch>;

export const LogEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  activity: z.string(),
  user_id: z.number().int().nullable(),
  /** Whose id user_id is: members (voter) and staff (admin, agent) number their ids separately. */
  user_type: z.enum(['voter', 'agent', 'admin']).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  ip_address: z.string(),
  status: z.string(),
});
export type LogEntry = z.infer<typeof LogEntry>;

export const VvpatRow = z.object({
  vvpat: z.string(),
  name: z.string(),
  /** the candidate's live count; null while the caller may not see results (results visibility) */
  count: z.number().int().nullable(),
  position: z.string(),
  /** the position's kind: a motion's `name` is one of its options (MOTION_OPTIONS), which a reader's language says */
  kind: PositionKind,
  /** the election the ballot was cast in: its id and title */
  election_id: z.number().int(),
  election: z.string(),
  /** the voter's own receipts (psk/vvpat) only: a ranked position's place in the voter's order, 1 first */
  rank: z.number().int().min(1).optional(),
});
export type VvpatRow = z.infer<typeof VvpatRow>;

export const Session = z.object({
  bearer_token: z.string(),
  hash: z.string(),
  name: z.string(),
  photo: z.string().nullable(),
  balance: z.number(),
  message: z.string(),
  /** A voter's own language (en, sw), null for the organisation's default; absent for staff. */
  language: z.string().nullable().optional(),
});
export type Session = z.infer<typeof Session>;

export const MessageBody = z.object({ message: z.string() });

// ---- Pagination (docs/api.md "Conventions") ----

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;

/** `?page=N&per_page=M`; junk or out-of-range values are a 422, not a silent default. */
export const PageQuery = z.object({
  page: z.coerce
    .number({ invalid_type_error: said('field.mustBeNumber', { field: 'page' }) })
    .int(said('field.mustBeWhole', { field: 'page' }))
    .min(1, said('field.mustBeAtLeast', { field: 'page', n: 1 }))
    .max(1_000_000, said('field.tooLarge', { field: 'page' }))
    .optional(),
  per_page: z.coerce
    .number({ invalid_type_error: said('field.mustBeNumber', { field: 'per_page' }) })
    .int(said('field.mustBeWhole', { field: 'per_page' }))
    .min(1, said('field.mustBeAtLeast', { field: 'per_page', n: 1 }))
    .max(MAX_PER_PAGE, said('field.mustBeAtMost', { field: 'per_page', n: MAX_PER_PAGE }))
    .optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const PageMeta = z.object({
  current_page: z.number().int(),
  last_page: z.number().int().min(1),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type PageMeta = z.infer<typeof PageMeta>;

export function paginated<T extends z.ZodTypeAny>(item: T) {
  return PageMeta.extend({ data: z.array(item) });
}
export type Paginated<T> = PageMeta & { data: T[] };
