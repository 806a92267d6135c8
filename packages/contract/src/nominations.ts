import { z } from 'zod';
import { c, errors, IMAGE_MEDIA_TYPES, meta, paginated, PageQuery } from './common';
import { ElectionQuery, memberNoSchema, pathIdSchema, positiveIdSchema, textIdNumber } from './validation';
import { said } from './messages';

/**
 * Nominations (docs/api.md "Nominations"): members propose, second and accept candidates inside
 * the election's window; the returning officer decides each one valid or invalid, with a reason
 * that can be appealed; a valid one makes the nominee a candidate.
 */

/** The most proposers or seconders a position may require. */
export const MAX_SUPPORTERS = 10;
/** The longest an appeal window may be, in days. */
export const MAX_APPEAL_DAYS = 90;
/** A nominee's statement, as long as a candidate's. */
export const MAX_NOMINATION_STATEMENT = 2000;

const windowTime = (field: string) =>
  z
    .string({ required_error: said('field.isRequired', { field }), invalid_type_error: said('field.dateTime', { field }) })
    .datetime({ offset: true, message: said('field.isoDateTime', { field }) });

/** The window as an election create or edit takes it; null: the election takes no nominations. */
export const ElectionNominationsInput = z
  .object(
    {
      opens_at: windowTime('nominations.opens_at'),
      closes_at: windowTime('nominations.closes_at'),
      appeal_days: z
        .number({
          required_error: said('field.isRequired', { field: 'appeal_days' }),
          invalid_type_error: said('field.mustBeNumber', { field: 'appeal_days' }),
        })
        .int(said('field.mustBeWhole', { field: 'appeal_days' }))
        .min(0, said('field.mustBeAtLeast', { field: 'appeal_days', n: 0 }))
        .max(MAX_APPEAL_DAYS, said('field.mustBeAtMost', { field: 'appeal_days', n: MAX_APPEAL_DAYS })),
    },
    { invalid_type_error: said('field.nominationsObject') },
  )
  .strict()
  .refine((w) => Date.parse(w.closes_at) > Date.parse(w.opens_at), {
    message: said('field.nominationsCloseAfterOpen'),
    path: ['closes_at'],
  })
  .transform((w) => ({
    opens_at: new Date(w.opens_at).toISOString(),
    closes_at: new Date(w.closes_at).toISOString(),
    appeal_days: w.appeal_days,
  }))
  .nullable();

const supporterCount = (field: string) =>
  z
    .number({ required_error: said('field.isRequired', { field }), invalid_type_error: said('field.mustBeNumber', { field }) })
    .int(said('field.mustBeWhole', { field }))
    .min(0, said('field.mustBeAtLeast', { field, n: 0 }))
    .max(MAX_SUPPORTERS, said('field.mustBeAtMost', { field, n: MAX_SUPPORTERS }));

export const PositionNominationInput = z
  .object(
    {
      proposers: supporterCount('proposers'),
      seconders: supporterCount('seconders'),
      same_branch: z.boolean({ invalid_type_error: said('field.trueOrFalse', { field: 'same_branch' }) }).default(false),
      self: z.boolean({ invalid_type_error: said('field.trueOrFalse', { field: 'self' }) }).default(false),
    },
    { invalid_type_error: said('field.nominationObject') },
  )
  .strict()
  .refine((n) => n.self || n.proposers >= 1, {
    message: said('field.needsProposer'),
    path: ['proposers'],
  })
  .nullable();

export const NominationStatus = z.enum(['awaiting_support', 'awaiting_acceptance', 'submitted', 'valid', 'invalid', 'withdrawn'], {
  errorMap: () => ({
    message: said('field.oneOf', {
      field: 'status',
      options: ['awaiting_support', 'awaiting_acceptance', 'submitted', 'valid', 'invalid', 'withdrawn'],
    }),
  }),
});
export type NominationStatus = z.infer<typeof NominationStatus>;
export const SupporterRole = z.enum(['proposer', 'seconder'], {
  errorMap: () => ({ message: said('field.oneOf', { field: 'role', options: ['proposer', 'seconder'] }) }),
});
export type SupporterRole = z.infer<typeof SupporterRole>;

export const NominationCheck = z.object({ rule: z.string(), met: z.boolean() });
export type NominationCheck = z.infer<typeof NominationCheck>;

export const Nomination = z.object({
  id: z.number().int(),
  election_id: z.number().int(),
  position_id: z.number().int(),
  /** the position's title (name, and the branch for a branch position) */
  position: z.string(),
  nominee: z.object({ member_no: z.string(), name: z.string() }),
  statement: z.string().nullable(),
  /** URL of the photo the nominee gave when accepting */
  photo: z.string().nullable(),
  supporters: z.array(z.object({ member_no: z.string(), name: z.string(), role: SupporterRole, confirmed: z.boolean() })),
  accepted: z.boolean().nullable(),
  status: NominationStatus,
  /** the position's eligibility rules, on the nominee, as they stood when it was submitted */
  checks: z.array(NominationCheck),
  decision: z.object({ valid: z.boolean(), reason: z.string().nullable(), at: z.string() }).nullable(),
  appeal: z.object({ grounds: z.string(), status: z.enum(['pending', 'upheld', 'dismissed']), reason: z.string().nullable() }).nullable(),
  /** ISO 8601 */
  created_at: z.string(),
});
export type Nomination = z.infer<typeof Nomination>;

/** A nomination on the public list: no contact data, supporters by name only. */
export const PublicNomination = z.object({
  position_id: z.number().int(),
  position: z.string(),
  nominee: z.object({ member_no: z.string(), name: z.string() }),
  statement: z.string().nullable(),
  supporters: z.array(z.object({ name: z.string(), role: SupporterRole })),
  status: z.enum(['valid', 'invalid']),
});
export type PublicNomination = z.infer<typeof PublicNomination>;

const statementField = z
  .string({ invalid_type_error: said('field.mustBeText', { field: 'statement' }) })
  .trim()
  .max(MAX_NOMINATION_STATEMENT, said('field.maxLength', { n: MAX_NOMINATION_STATEMENT }));

const reasonField = (field: string) =>
  z
    .string({ invalid_type_error: said('field.mustBeText', { field }) })
    .trim()
    .max(1000, said('field.maxLength', { n: 1000 }));

export const CreateNominationBody = z.object({
  position_id: positiveIdSchema('position_id'),
  nominee_member_no: memberNoSchema,
  supporters: z
    .array(z.object({ member_no: memberNoSchema, role: SupporterRole }), {
      required_error: said('field.isRequired', { field: 'supporters' }),
      invalid_type_error: said('field.supportersList'),
    })
    .max(2 * MAX_SUPPORTERS, said('field.atMostSupporters', { n: 2 * MAX_SUPPORTERS })),
  statement: statementField.optional(),
});
export type CreateNominationBody = z.infer<typeof CreateNominationBody>;

export const SupportNominationBody = z.object({
  confirm: z.boolean({
    required_error: said('field.isRequired', { field: 'confirm' }),
    invalid_type_error: said('field.trueOrFalse', { field: 'confirm' }),
  }),
});

/** JSON booleans, or the text a multipart field carries ("true", "false"). */
const formBoolean = (field: string) =>
  z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ required_error: said('field.isRequired', { field }), invalid_type_error: said('field.trueOrFalse', { field }) }),
  );

/** JSON or multipart (with an optional `photo` file); a multipart statement is a text field. */
export const AcceptNominationBody = z.object({
  accept: formBoolean('accept'),
  statement: statementField.optional(),
});
export type AcceptNominationBody = z.infer<typeof AcceptNominationBody>;

export const AppealNominationBody = z.object({
  grounds: z
    .string({
      required_error: said('field.isRequired', { field: 'grounds' }),
      invalid_type_error: said('field.mustBeText', { field: 'grounds' }),
    })
    .trim()
    .min(1, said('field.isRequired', { field: 'grounds' }))
    .max(2000, said('field.maxLength', { n: 2000 })),
});

export const DecideNominationBody = z
  .object({
    valid: z.boolean({
      required_error: said('field.isRequired', { field: 'valid' }),
      invalid_type_error: said('field.trueOrFalse', { field: 'valid' }),
    }),
    reason: reasonField('reason').optional(),
    override_reason: reasonField('override_reason').optional(),
  })
  .refine((b) => b.valid || (b.reason ?? '').length > 0, {
    message: said('field.reasonWhenInvalid'),
    path: ['reason'],
  });
export type DecideNominationBody = z.infer<typeof DecideNominationBody>;

export const DecideAppealBody = z.object({
  upheld: z.boolean({
    required_error: said('field.isRequired', { field: 'upheld' }),
    invalid_type_error: said('field.trueOrFalse', { field: 'upheld' }),
  }),
  reason: reasonField('reason').min(1, said('field.isRequired', { field: 'reason' })),
});

export const NominationsQuery = PageQuery.merge(ElectionQuery).extend({
  position_id: textIdNumber('position_id').optional(),
  status: NominationStatus.optional(),
});

const NominationParams = z.object({ id: pathIdSchema });
const data = <T extends z.ZodTypeAny>(schema: T) => z.object({ data: schema });

export const nominationsRouter = c.router({
  createNomination: {
    method: 'POST',
    path: '/psk/nominations',
    query: ElectionQuery,
    summary: 'Nominate a member for a position, naming the proposers and seconders',
    description:
      "Only inside the election's nominations window (403 \"Nominations are closed\"). The caller is one of the proposers (their support counts as confirmed), or the nominee where the position allows self-nomination. Supporters: exactly the position's proposers and seconders, distinct members on the roll, never the nominee; with same_branch of the nominee's branch (a branch position's branch); a member supports at most `seats` nominations per position, and makes at most `seats + 2` for it, withdrawn ones included. Each failure is a 422 naming the member and the rule. After 10 refused nominations in an hour, the member's next ones are a 429 with Retry-After until the hour has passed (refusals name members). Everyone named is told by SMS or e-mail in their language.",
    body: CreateNominationBody,
    responses: { 201: data(Nomination), ...errors(401, 403, 404, 429) },
    metadata: meta('voter'),
  },
  listMyNominations: {
    method: 'GET',
    path: '/psk/nominations',
    query: ElectionQuery,
    summary: 'The nominations the caller made, supports or is nominated in',
    responses: { 200: data(z.array(Nomination)), ...errors(401, 403, 404) },
    metadata: meta('voter'),
  },
  supportNomination: {
    method: 'POST',
    path: '/psk/nominations/:id/support',
    summary: 'A named supporter confirms or declines (declining withdraws the nomination)',
    description: 'Only the members named as supporters (403); only inside the window (403); a withdrawn or decided one: 409.',
    pathParams: NominationParams,
    body: SupportNominationBody,
    responses: { 200: data(Nomination), ...errors(401, 403, 404, 409) },
    metadata: meta('voter'),
  },
  acceptNomination: {
    method: 'POST',
    path: '/psk/nominations/:id/accept',
    summary: 'The nominee accepts (with a statement and photo) or declines',
    description:
      'JSON `{accept, statement?}` or multipart/form-data with the same fields and an optional file `photo` (JPEG, PNG or WebP, at most 5 MiB, checked by content). Accepting once every supporter confirmed makes it `submitted` and runs the eligibility checks; declining withdraws it. Only the nominee (403), only inside the window (403).',
    contentType: 'multipart/form-data',
    pathParams: NominationParams,
    body: AcceptNominationBody,
    responses: { 200: data(Nomination), ...errors(401, 403, 404, 409, 413, 415) },
    metadata: meta('voter', {
      jsonToo: true,
      files: [
        {
          name: 'photo',
          maxCount: 1,
          required: false,
          mediaTypes: IMAGE_MEDIA_TYPES,
          description: "The nominee's photo (JPEG, PNG or WebP, at most 5 MiB)",
        },
      ],
    }),
  },
  withdrawNomination: {
    method: 'POST',
    path: '/psk/nominations/:id/withdraw',
    summary: 'The nominee or the first proposer withdraws the nomination',
    description: 'A valid one stops being a candidate; once voting has opened a valid one can no longer be withdrawn (409).',
    pathParams: NominationParams,
    body: c.noBody(),
    responses: { 200: data(Nomination), ...errors(401, 403, 404, 409) },
    metadata: meta('voter'),
  },
  appealNomination: {
    method: 'POST',
    path: '/psk/nominations/:id/appeal',
    summary: 'The nominee appeals an invalid decision',
    description: "Within the election's appeal_days of the decision, once, and before voting opens (409 otherwise).",
    pathParams: NominationParams,
    body: AppealNominationBody,
    responses: { 200: data(Nomination), ...errors(401, 403, 404, 409) },
    metadata: meta('voter'),
  },
  listNominations: {
    method: 'GET',
    path: '/nominations',
    query: NominationsQuery,
    summary: "The returning officer's queue: the election's nominations with their checks, by position and status",
    responses: { 200: paginated(Nomination), ...errors(401, 403, 404) },
    metadata: meta('admin'),
  },
  decideNomination: {
    method: 'POST',
    path: '/nominations/:id/decision',
    summary: 'Decide a submitted nomination valid or invalid',
    description:
      '`reason` is required when invalid; valid with a failed check needs `override_reason` (logged). Submitted ones only, and before voting opens (409). A valid one makes the nominee a candidate of the position, with the statement and photo. The nominee and the first proposer are told.',
    pathParams: NominationParams,
    body: DecideNominationBody,
    responses: { 200: data(Nomination), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  decideAppeal: {
    method: 'POST',
    path: '/nominations/:id/appeal/decision',
    summary: 'Decide a pending appeal: upheld makes the nomination valid',
    description: 'A pending appeal only, before voting opens (409). The nominee and the first proposer are told.',
    pathParams: NominationParams,
    body: DecideAppealBody,
    responses: { 200: data(Nomination), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  listPublicNominations: {
    method: 'GET',
    path: '/elections/:id/nominations',
    pathParams: NominationParams,
    summary: 'The published nominations of an election: valid and invalid ones, supporters by name, no contact data',
    description: 'After the nominations window closes; 403 before (and for an election that takes no nominations).',
    responses: { 200: data(z.array(PublicNomination)), ...errors(403, 404) },
    metadata: meta('anyone'),
  },
});
