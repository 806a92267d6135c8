import { z } from 'zod';
import { c, errors, meta, paginated, PageQuery } from './common';
import { ElectionQuery, filterSchema, idNumber, pathIdSchema } from './validation';
import { AttributeDef, AttributesBody } from './rules';
import { said } from './messages';
export * from './rules';

/**
 * The register (docs/api.md "The register: member attributes, eligibility rules and inspection"):
 * the organisation's member attributes, the rules on an election's electorate and on a position's
 * candidates, the roll and its hash, and the inspection window's claims.
 */

export const ElectedIn = z
  .object({
    election_id: idNumber('election_id'),
    position_ids: z
      .array(idNumber('position id'))
      .max(1000, said('field.atMostPositions', { n: 1000 }))
      .nullable(),
  })
  .strict();
export type ElectedIn = z.infer<typeof ElectedIn>;

export const RegisterWindow = z
  .object({
    opens_at: z
      .string({
        required_error: said('field.isRequiredPlain', { field: 'opens_at' }),
        invalid_type_error: said('field.dateTime', { field: 'opens_at' }),
      })
      .datetime({ offset: true, message: said('field.isoDateTime', { field: 'opens_at' }) }),
    closes_at: z
      .string({
        required_error: said('field.isRequiredPlain', { field: 'closes_at' }),
        invalid_type_error: said('field.dateTime', { field: 'closes_at' }),
      })
      .datetime({ offset: true, message: said('field.isoDateTime', { field: 'closes_at' }) }),
  })
  .refine((w) => Date.parse(w.closes_at) > Date.parse(w.opens_at), {
    message: said('field.registerClosesAfterOpens'),
    path: ['closes_at'],
  });
export type RegisterWindow = z.infer<typeof RegisterWindow>;

export const CLAIM_KINDS = ['correction', 'inclusion', 'objection'] as const;
export const CLAIM_STATUSES = ['pending', 'upheld', 'dismissed'] as const;

export const Claim = z.object({
  id: z.number().int(),
  election_id: z.number().int(),
  member_no: z.string(),
  name: z.string(),
  kind: z.enum(CLAIM_KINDS),
  subject_member_no: z.string().nullable(),
  details: z.string(),
  status: z.enum(CLAIM_STATUSES),
  reason: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
export type Claim = z.infer<typeof Claim>;

export const ClaimBody = z
  .object({
    kind: z.enum(CLAIM_KINDS, {
      errorMap: () => ({ message: said('field.oneOf', { field: 'kind', options: ['correction', 'inclusion', 'objection'] }) }),
    }),
    details: z
      .string({
        required_error: said('field.areRequired', { field: 'details' }),
        invalid_type_error: said('field.mustBeText', { field: 'details' }),
      })
      .trim()
      .min(1, said('field.areRequired', { field: 'details' }))
      .max(2000, said('field.maxLength', { n: 2000 })),
    subject_member_no: z
      .string({ invalid_type_error: said('field.subjectMemberNo') })
      .trim()
      .max(64, said('field.maxLength', { n: 64 }))
      .nullable()
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'objection' && !b.subject_member_no)
      ctx.addIssue({ code: 'custom', path: ['subject_member_no'], message: said('field.objectionNamesMember') });
  });
export type ClaimBody = z.infer<typeof ClaimBody>;

export const RulingBody = z.object({
  decision: z.enum(['upheld', 'dismissed'], {
    errorMap: () => ({ message: said('field.oneOf', { field: 'decision', options: ['upheld', 'dismissed'] }) }),
  }),
  reason: z
    .string({
      required_error: said('field.isRequiredPlain', { field: 'reason' }),
      invalid_type_error: said('field.mustBeText', { field: 'reason' }),
    })
    .trim()
    .min(1, said('field.isRequiredPlain', { field: 'reason' }))
    .max(2000, said('field.maxLength', { n: 2000 })),
});
export type RulingBody = z.infer<typeof RulingBody>;

export const RollSummary = z.object({
  frozen_at: z.string().nullable(),
  size: z.number().int(),
  hash: z.string().nullable(),
  by_branch: z.array(z.object({ branch: z.string(), size: z.number().int() })),
});
export type RollSummary = z.infer<typeof RollSummary>;

export const RollMember = z.object({ member_no: z.string(), name: z.string(), branch: z.string() });

/** `GET elections/{id}/roll/members`: a page, of the members whose number or name contains `query`, of `branch`. */
export const RollMembersQuery = PageQuery.extend({ query: filterSchema(), branch: filterSchema() });
export type RollMembersQuery = z.infer<typeof RollMembersQuery>;
export type RollMember = z.infer<typeof RollMember>;

export const MyRegisterEntry = z.object({
  on_roll: z.boolean(),
  frozen: z.boolean(),
  member_no: z.string(),
  name: z.string(),
  branch: z.string(),
  reasons: z.array(z.string()),
  /** The inspection window (null: none), so the page can say whether claims are open. */
  register: z.object({ opens_at: z.string(), closes_at: z.string() }).nullable().optional(),
});
export type MyRegisterEntry = z.infer<typeof MyRegisterEntry>;

export const ClaimsQuery = PageQuery.extend({
  election_id: ElectionQuery.shape.election_id,
  status: z
    .enum(CLAIM_STATUSES, {
      errorMap: () => ({ message: said('field.oneOf', { field: 'status', options: ['pending', 'upheld', 'dismissed'] }) }),
    })
    .optional(),
});

const IdParams = z.object({ id: pathIdSchema });
const data = <T extends z.ZodTypeAny>(schema: T) => z.object({ data: schema });

export const registerRouter = c.router({
  getAttributes: {
    method: 'GET',
    path: '/organisation/attributes',
    summary: "The organisation's member attributes",
    responses: { 200: data(z.array(AttributeDef)), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  putAttributes: {
    method: 'PUT',
    path: '/organisation/attributes',
    summary: "Replace the organisation's member attributes",
    description: 'Removing or retyping a key that a rule uses is a 409 naming the rule.',
    body: AttributesBody,
    responses: { 200: data(z.array(AttributeDef)), ...errors(401, 403, 409) },
    metadata: meta('admin'),
  },
  getRoll: {
    method: 'GET',
    path: '/elections/:id/roll',
    pathParams: IdParams,
    summary: "The election's roll: its size by branch, and once frozen when and its hash",
    description: 'The hash is the SHA-256 (hex) of the member numbers, sorted as strings, each followed by a newline.',
    responses: { 200: data(RollSummary), ...errors(404) },
    metadata: meta('anyone'),
  },
  getRollMembers: {
    method: 'GET',
    path: '/elections/:id/roll/members',
    pathParams: IdParams,
    query: RollMembersQuery,
    summary: 'The roll as it stands (frozen or not), paginated, by member number',
    description:
      '`query` keeps the members whose number or name contains it (any case); `branch` those of that branch (its name, as the roll records it). `meta.total` counts what the filters keep.',
    responses: { 200: paginated(RollMember), ...errors(401, 403, 404) },
    metadata: meta('agent'),
  },
  getMyRegisterEntry: {
    method: 'GET',
    path: '/psk/register',
    query: ElectionQuery,
    summary: 'Am I on the roll? With the reasons, in my language, when not',
    responses: { 200: data(MyRegisterEntry), ...errors(401, 403, 404) },
    metadata: meta('voter'),
  },
  fileClaim: {
    method: 'POST',
    path: '/psk/register/claims',
    query: ElectionQuery,
    summary: 'File a claim on the register (correction, inclusion, or objection to another member)',
    description:
      'Only while the register is open (else 403); an objection names a member on the roll (422 otherwise); at most 10 pending claims per member (409).',
    body: ClaimBody,
    responses: { 201: data(Claim), ...errors(401, 403, 404, 409) },
    metadata: meta('voter'),
  },
  listMyClaims: {
    method: 'GET',
    path: '/psk/register/claims',
    query: ElectionQuery,
    summary: "The caller's own claims",
    responses: { 200: data(z.array(Claim)), ...errors(401, 403, 404) },
    metadata: meta('voter'),
  },
  listClaims: {
    method: 'GET',
    path: '/register/claims',
    query: ClaimsQuery,
    summary: "The election's claims, paginated, oldest first",
    responses: { 200: paginated(Claim), ...errors(401, 403, 404) },
    metadata: meta('admin'),
  },
  ruleOnClaim: {
    method: 'POST',
    path: '/register/claims/:id/ruling',
    pathParams: IdParams,
    summary: 'Rule on a claim; the claimant is told by SMS or e-mail with the reason',
    description: 'Allowed until voting opens (409 after, or when already ruled). A ruling never edits the register by itself.',
    body: RulingBody,
    responses: { 200: data(Claim), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
});
