import { z } from 'zod';
import { RulesSchema } from './rules';
import { Branch, c, errors, meta, MotionThreshold, Position, PositionKind, VotingMethod } from './common';
import { ElectionQuery, displayNameSchema, pathIdSchema, positiveIdSchema } from './validation';
import { translationsSchema } from './languages';
import { PositionNominationInput } from './nominations';
import { said } from './messages';

/** Setting up an organisation's election: its branches and the positions it elects. */

export const SetupIdParams = z.object({ id: pathIdSchema });

export const MAX_SEATS = 50;
export const MAX_STATEMENT_LENGTH = 2000;

/** A branch's name (also the rule for a branch the CSV import creates). */
export const branchNameSchema = displayNameSchema({ max: 100, invalidType: said('field.mustBeText', { field: 'name' }) }).refine(
  (n) => n.toLowerCase() !== 'national',
  said('field.branchNotNational'),
);

export const BranchBody = z.object({ name: branchNameSchema });

const positionName = displayNameSchema({ max: 100, invalidType: said('field.mustBeText', { field: 'name' }) });
const seats = z
  .number({ invalid_type_error: said('field.mustBeNumber', { field: 'seats' }) })
  .int(said('field.mustBeWhole', { field: 'seats' }))
  .min(1, said('field.mustBeAtLeast', { field: 'seats', n: 1 }))
  .max(MAX_SEATS, said('field.mustBeAtMost', { field: 'seats', n: MAX_SEATS }));
const description = z
  .string({ invalid_type_error: said('field.mustBeText', { field: 'description' }) })
  .trim()
  .max(1000, said('field.maxLength', { n: 1000 }))
  .nullable()
  .transform((d) => (d === '' ? null : d));

/** A position's name and description (a motion's text) in other languages; the original shows where there is none. */
export const positionTranslations = translationsSchema({ name: 100, description: 1000 });

const kind = z.enum(PositionKind.options, {
  errorMap: () => ({ message: said('field.oneOf', { field: 'kind', options: ['candidates', 'motion'] }) }),
});
const method = z.enum(VotingMethod.options, {
  errorMap: () => ({ message: said('field.oneOf', { field: 'method', options: ['plurality', 'approval', 'ranked'] }) }),
});
const threshold = z.enum(MotionThreshold.options, {
  errorMap: () => ({ message: said('field.oneOf', { field: 'threshold', options: ['majority', 'two_thirds', 'three_quarters'] }) }),
});
const quorumPercent = z
  .number({ invalid_type_error: said('field.mustBeNumber', { field: 'quorum' }) })
  .int(said('field.quorumWhole'))
  .min(1, said('field.quorumMin'))
  .max(100, said('field.quorumMax'))
  .nullable();
const rotateCandidates = z.boolean({ invalid_type_error: said('field.trueOrFalse', { field: 'rotate_candidates' }) });
/** The message for rotate_candidates true on anything but a ranked candidates position (422). */
export const ROTATE_RANKED_ONLY = said('field.rotateRankedOnly');

/** method belongs to candidates positions, threshold and quorum to motions; a motion has one seat; only ranked rotates. */
const kindRules = <
  B extends {
    kind?: string;
    method?: unknown;
    threshold?: unknown;
    quorum_percent?: unknown;
    seats?: number;
    nomination?: unknown;
    rotate_candidates?: boolean;
  },
>(
  b: B,
  ctx: z.RefinementCtx,
) => {
  if (b.kind === undefined) return;
  // The method a candidates position gets when none is given is plurality.
  if (b.rotate_candidates && (b.kind !== 'candidates' || (b.method ?? 'plurality') !== 'ranked'))
    ctx.addIssue({ code: 'custom', path: ['rotate_candidates'], message: ROTATE_RANKED_ONLY });
  if (b.kind === 'motion') {
    if (b.method !== undefined) ctx.addIssue({ code: 'custom', path: ['method'], message: said('field.motionNoMethod') });
    if (b.seats !== undefined && b.seats !== 1) ctx.addIssue({ code: 'custom', path: ['seats'], message: said('field.motionOneSeat') });
    if (b.nomination) ctx.addIssue({ code: 'custom', path: ['nomination'], message: said('field.motionNoNominations') });
  } else {
    if (b.threshold !== undefined) ctx.addIssue({ code: 'custom', path: ['threshold'], message: said('field.onlyMotionThreshold') });
    if (b.quorum_percent !== undefined && b.quorum_percent !== null)
      ctx.addIssue({ code: 'custom', path: ['quorum_percent'], message: said('field.onlyMotionQuorum') });
  }
};

export const CreatePositionBody = z
  .object({
    name: positionName,
    seats: seats.optional(),
    /** candidates (default) or motion: a motion gets its options Yes, No and Abstain and takes no candidates */
    kind: kind.optional(),
    /** candidates positions: plurality (default), approval or ranked */
    method: method.optional(),
    /** ranked positions only (422 otherwise): each voter's ballot lists the candidates in an order of its own; default false */
    rotate_candidates: rotateCandidates.optional(),
    /** motions: majority (default), two_thirds or three_quarters */
    threshold: threshold.optional(),
    /** motions: 1..100 percent of the roll must vote on it; null or absent: no quorum */
    quorum_percent: quorumPercent.optional(),
    description: description.optional(),
    /** language (en, sw) → {name?, description?}: what members reading that language see */
    translations: positionTranslations.optional(),
    /** null or absent: national; a branch id: that branch only */
    branch_id: positiveIdSchema('branch id').nullable().optional(),
    /** one position per branch (level = the branch's name) */
    every_branch: z.boolean({ invalid_type_error: said('field.trueOrFalse', { field: 'every_branch' }) }).optional(),
    /** docs/api.md "The register": every candidate must meet all of these rules */
    eligibility: RulesSchema.optional(),
    /** how members nominate its candidates (docs/api.md "Nominations"); null or absent: staff enter them */
    nomination: PositionNominationInput.optional(),
  })
  .refine((b) => !(b.every_branch && b.branch_id), { message: said('field.branchOrEvery'), path: ['branch_id'] })
  .superRefine((b, ctx) => kindRules({ ...b, kind: b.kind ?? 'candidates' }, ctx));
export type CreatePositionBody = z.infer<typeof CreatePositionBody>;

export const UpdatePositionBody = z.object({
  name: positionName.optional(),
  seats: seats.optional(),
  description: description.optional(),
  /** language (en, sw) → {name?, description?}; replaces the stored translations ({} clears them) */
  translations: positionTranslations.optional(),
  /** candidates positions only (422 on a motion); a method other than ranked turns rotate_candidates off */
  method: method.optional(),
  /** true for a ranked position only (422 otherwise, the method after this change counting) */
  rotate_candidates: rotateCandidates.optional(),
  /** motions only (422 on a candidates position) */
  threshold: threshold.optional(),
  /** motions only */
  quorum_percent: quorumPercent.optional(),
  /** replaces the position's eligibility rules ([] clears them) */
  eligibility: RulesSchema.optional(),
  /** how members nominate its candidates; null: staff enter them (422 on a motion) */
  nomination: PositionNominationInput.optional(),
  sort_order: z
    .number({ invalid_type_error: said('field.mustBeNumber', { field: 'sort_order' }) })
    .int(said('field.mustBeWhole', { field: 'sort_order' }))
    .min(0, said('field.mustBeAtLeast', { field: 'sort_order', n: 0 }))
    .max(1_000_000, said('field.mustBeAtMost', { field: 'sort_order', n: 1000000 }))
    .optional(),
});
export type UpdatePositionBody = z.infer<typeof UpdatePositionBody>;

/** The most positions one order may list (far above any real election's ballot). */
export const MAX_POSITIONS = 1000;

/**
 * The complete order of the election's positions, first to last: every position exactly once
 * (a missing or unknown id is refused by the server, a repeated one here, both 422).
 */
export const ReorderPositionsBody = z.object({
  position_ids: z
    .array(positiveIdSchema('position id'), {
      required_error: said('field.isRequired', { field: 'position_ids' }),
      invalid_type_error: said('field.positionIdsList'),
    })
    .max(MAX_POSITIONS, said('field.atMostPositions', { n: MAX_POSITIONS }))
    .superRefine((ids, ctx) => {
      const seen = new Set<number>();
      const repeated = ids.find((id) => (seen.has(id) ? true : (seen.add(id), false)));
      if (repeated !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: said('field.positionTwice', { id: repeated }) });
    }),
});
export type ReorderPositionsBody = z.infer<typeof ReorderPositionsBody>;

/** An agent (observer): signs in with an emailed code and follows turnout and results. */
export const Agent = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
export type Agent = z.infer<typeof Agent>;

export const setupRouter = c.router({
  listAgents: {
    method: 'GET',
    path: '/agents',
    summary: 'List the agents (observers)',
    description:
      'By email. Agents are created by the operator, not through the API: `AGENT_EMAILS` at start or the `agent:create` command.',
    responses: { 200: z.object({ data: z.array(Agent) }), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  createBranch: {
    method: 'POST',
    path: '/branches',
    summary: 'Create a branch',
    description: '409 when a branch of that name exists.',
    body: BranchBody,
    responses: { 201: z.object({ data: Branch }), ...errors(401, 403, 409) },
    metadata: meta('admin'),
  },
  updateBranch: {
    method: 'PATCH',
    path: '/branches/:id',
    summary: 'Rename a branch',
    description:
      "Its branch positions' level follows the new name. 409 when another branch has that name, when votes have been cast for its positions, or when a closed election (archived ones too) holds a position of the branch: that declared result shows its name.",
    pathParams: SetupIdParams,
    body: BranchBody,
    responses: { 200: z.object({ data: Branch }), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  deleteBranch: {
    method: 'DELETE',
    path: '/branches/:id',
    summary: 'Delete a branch',
    description: "409 while members, positions or an election's electorate (archived elections too) use it.",
    pathParams: SetupIdParams,
    responses: { 204: c.noBody(), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  createPosition: {
    method: 'POST',
    path: '/positions',
    query: ElectionQuery,
    summary: 'Create a position: national, of one branch, or one per branch (every_branch); candidates or a motion',
    description:
      'A motion (`kind: "motion"`) gets its three options Yes, No and Abstain at once, has one seat and takes no candidates; `method` is for candidates positions, `threshold` and `quorum_percent` for motions (else 422). `rotate_candidates: true` only with `method: "ranked"` (else 422): each voter\'s ballot then lists the candidates in an order of its own, the same on every load.',
    body: CreatePositionBody,
    responses: { 201: z.object({ data: z.array(Position) }), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  updatePosition: {
    method: 'PATCH',
    path: '/positions/:id',
    summary: 'Rename, describe, reorder a position or set its seats, method, threshold or quorum',
    description:
      '409 once a vote is cast for it, whatever the field (sort_order too). `method` on a motion, `threshold` or `quorum_percent` on a candidates position, seats other than 1 on a motion, or `rotate_candidates: true` on a position that is not (or would no longer be) ranked: 422. Changing the method away from ranked turns `rotate_candidates` off.',
    pathParams: SetupIdParams,
    body: UpdatePositionBody,
    responses: { 200: z.object({ data: Position }), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  reorderPositions: {
    method: 'PUT',
    path: '/positions/order',
    query: ElectionQuery,
    summary: 'Set the order of all the positions at once',
    description:
      '`position_ids` lists every position exactly once, first to last (422 otherwise: missing, unknown or repeated ids); one change, all or nothing. Answers the positions in that order. 409 when it would move a position a vote has been cast for.',
    body: ReorderPositionsBody,
    responses: { 200: z.object({ data: z.array(Position) }), ...errors(401, 403, 409, 404) },
    metadata: meta('admin'),
  },
  deletePosition: {
    method: 'DELETE',
    path: '/positions/:id',
    summary: 'Delete a position',
    description: '409 once a vote is cast for it.',
    pathParams: SetupIdParams,
    responses: { 204: c.noBody(), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
});
