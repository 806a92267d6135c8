import { z } from 'zod';
import { Branch, c, errors, Member, MessageBody, meta, PageQuery, paginated, Position } from './common';
import { memberLanguageSchema } from './languages';
import {
  ElectionQuery,
  filterSchema,
  idNumber,
  memberNoSchema,
  nameSchema,
  optionalEmailSchema,
  pathIdSchema,
  positiveIdSchema,
  registerPhoneSchema,
} from './validation';
import { said } from './messages';

export const IdParams = z.object({ id: pathIdSchema });

export const MemberSearchQuery = PageQuery.extend({
  query: filterSchema(),
  county: filterSchema(),
  phone: filterSchema(),
  email: filterSchema(),
});

/** A branch given by id (number) or by name (string). */
export const branchRefSchema = z.union(
  [
    idNumber('county'),
    z
      .string()
      .trim()
      .min(1, said('field.isRequired', { field: 'county' }))
      .max(150, said('field.maxLength', { n: 150 })),
  ],
  { errorMap: () => ({ message: said('field.countyIdOrName') }) },
);

/**
 * The `issue` of a refused contact change (409 on the edit, a line error on the import): while
 * voting is open, a member who voted keeps their phone and email unless the admin confirms.
 */
export const CONTACT_CHANGE_AFTER_VOTE =
  'has already voted, so their phone or email can only change while voting is open if you confirm the change';

/** Attribute key → value (number, "YYYY-MM-DD", text, boolean) or null to clear; checked against the organisation's attributes. */
export const MemberAttributesBody = z
  .record(z.union([z.number().finite(), z.string().max(200, said('field.maxLength', { n: 200 })), z.boolean(), z.null()]), {
    invalid_type_error: said('field.attributesObject'),
  })
  .refine((a) => Object.keys(a).length <= 50, said('field.atMostAttributes', { n: 50 }));

export const UpdateMemberBody = z.object({
  name: nameSchema,
  /** Any accepted spelling; stored in E.164. */
  phone: registerPhoneSchema,
  /** Optional: absent, null or empty means the member has none. */
  email: optionalEmailSchema,
  county: branchRefSchema,
  member_no: memberNoSchema,
  /** A shipped language code (en, sw), or null or empty for the organisation's default; absent: unchanged. */
  language: memberLanguageSchema.optional(),
  /** The organisation's attributes to set (a subset; null clears one). */
  attributes: MemberAttributesBody.optional(),
  /** Changes the phone or email of a member who voted while voting is open (otherwise 409). */
  confirm_contact_change: z.boolean({ invalid_type_error: said('field.trueOrFalse', { field: 'confirm_contact_change' }) }).optional(),
});

/** One new member (docs/api.md "Running it on your own"): the import's rules for one line. */
export const CreateMemberBody = z.object({
  member_no: memberNoSchema,
  name: nameSchema,
  /** Any accepted spelling; stored in E.164. */
  phone: registerPhoneSchema,
  /** Optional: absent, null or empty means none. */
  email: optionalEmailSchema,
  /** A branch id or name. */
  branch: branchRefSchema,
  /** A shipped language code (en, sw), or null, empty or absent for the organisation's default. */
  language: memberLanguageSchema.optional(),
  /** The organisation's attributes (docs/api.md "The register"). */
  attributes: MemberAttributesBody.optional(),
});
export type CreateMemberBody = z.infer<typeof CreateMemberBody>;

/** A member's own language (docs/api.md "Languages"): a shipped code, or null (or empty) for the organisation's default. */
export const SetOwnLanguageBody = z.object({
  language: memberLanguageSchema,
});
export type SetOwnLanguageBody = z.infer<typeof SetOwnLanguageBody>;

export const AssignPositionsBody = z.object({
  member_no: memberNoSchema,
  position_ids: z
    .array(positiveIdSchema('position id'), {
      required_error: said('field.isRequired', { field: 'position_ids' }),
      invalid_type_error: said('field.positionIdsList'),
    })
    .max(100, said('field.atMostPositions', { n: 100 })),
  /** Assigns a candidate who does not meet a position's eligibility rules; the activity log keeps it. */
  override_reason: z
    .string({ invalid_type_error: said('field.mustBeText', { field: 'override_reason' }) })
    .trim()
    .min(1, said('field.notEmpty', { field: 'override_reason' }))
    .max(500, said('field.maxLength', { n: 500 }))
    .optional(),
});

export const ImportResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  /** `issue` is CONTACT_CHANGE_AFTER_VOTE on a line that needs `confirm_contact_changes`. */
  errors: z.array(z.object({ line: z.number().int(), message: z.string(), issue: z.string().optional() })),
});

/** Multipart text field next to `file`: `confirm_contact_changes=1` confirms the refused contact changes. */
export const ImportBody = z.object({
  confirm_contact_changes: z
    .enum(['0', '1', 'true', 'false'], {
      errorMap: () => ({ message: said('field.oneOf', { field: 'confirm_contact_changes', options: ['1', '0'] }) }),
    })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

/** `?create_branches=1` creates the branches a file names that do not exist yet. */
export const ImportQuery = z.object({
  create_branches: z
    .enum(['0', '1', 'true', 'false'], {
      errorMap: () => ({ message: said('field.oneOf', { field: 'create_branches', options: ['1', '0'] }) }),
    })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

export const DetailsBody = z.object({
  member_no: z
    .string({ required_error: said('field.enterMemberNumberOrEmail'), invalid_type_error: said('field.enterMemberNumberOrEmail') })
    .trim()
    .min(1, said('field.enterMemberNumberOrEmail'))
    .max(150, said('field.maxLength', { n: 150 })),
});
export const DetailsResponse = z.object({
  /** masked to its last two digits, e.g. ********89 */
  phone: z.string(),
  /** masked, e.g. j***@example.org */
  email: z.string(),
  /** empty unless the caller is the member, signed in, or an admin */
  branch: z.string(),
  support_email: z.string(),
});

export const membersRouter = c.router({
  listMembers: {
    method: 'GET',
    path: '/members',
    summary: 'List members, paginated',
    query: PageQuery,
    responses: { 200: paginated(Member), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  searchMembers: {
    method: 'GET',
    path: '/search/member',
    summary: 'Search members by name/number (query), branch (county), phone or email, paginated',
    query: MemberSearchQuery,
    responses: { 200: paginated(Member), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  setOwnLanguage: {
    method: 'PUT',
    path: '/me/language',
    summary: "Set the signed-in member's own language",
    description:
      "A shipped code (en, sw), or null for the organisation's default. Codes, reminders and notices go out in it, and the web app speaks it after the next sign-in on any device.",
    body: SetOwnLanguageBody,
    responses: { 200: z.object({ data: z.object({ language: z.string().nullable() }) }), ...errors(401, 403) },
    metadata: meta('voter'),
  },
  createMember: {
    method: 'POST',
    path: '/members',
    summary: 'Add one member (branch = branch id or name)',
    description:
      "The import's rules for one line: the member number follows the organisation's member_no_pattern, the phone is any accepted spelling (stored in E.164), the email is optional; 422 naming the field otherwise, or when the member number or email is taken.",
    body: CreateMemberBody,
    responses: { 201: z.object({ data: Member }), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  deleteMember: {
    method: 'DELETE',
    path: '/members/:id',
    summary: 'Remove a member from the register',
    description:
      '409 once the member voted in any election, stands as a candidate in any election, is named in a nomination (nominee or supporter, withdrawn ones included), or is on a frozen roll (an election that opened); the message says which.',
    pathParams: IdParams,
    body: c.noBody(),
    responses: { 204: c.noBody(), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  getImportTemplate: {
    method: 'GET',
    path: '/members/import/template',
    summary: 'A CSV template for the members import: its header and two example lines',
    responses: { 200: c.otherResponse({ contentType: 'text/csv', body: z.string() }), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  updateMember: {
    method: 'POST',
    path: '/edit/psk/member/:id',
    summary: 'Edit a member (county = branch id or name)',
    description:
      '409 when the member voted for a branch position of an election not closed yet and the edit would move them to another branch; when the member stands in any closed election (archived ones too) and the edit would change their name or member number (that declared result shows them); or (issue CONTACT_CHANGE_AFTER_VOTE) when the edit changes the phone or email of a member who voted in an election whose voting is under way (open or paused) and `confirm_contact_change` is not true. Every contact change is logged with masked values and the member is told on the old phone or email.',
    pathParams: IdParams,
    body: UpdateMemberBody,
    responses: { 200: z.object({ data: Member }), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  assignPositions: {
    method: 'POST',
    path: '/assign/psk/position',
    query: ElectionQuery,
    summary: "Set the positions a member stands for (replaces the member's set)",
    description: '409 when the change adds or removes a candidate of a position a vote has been cast for, or once the election is closed.',
    body: AssignPositionsBody,
    responses: { 200: MessageBody, ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  importMembers: {
    method: 'POST',
    path: '/members/import',
    summary: 'Import members from a CSV file (multipart field `file`)',
    description:
      "multipart/form-data with one file field `file`: CSV with header member_no,name,phone,branch and optionally email and language, in any order (GET members/import/template gives one). The member number follows the organisation's member_no_pattern; the phone may be written 07…, 01…, +254… or 254…, with spaces, dashes or dots, and is stored in E.164; the email may be empty; language is a shipped code (en or sw) or empty for the organisation's default (without the column, existing members keep theirs). A line breaking a rule is a line error naming the line and the column. All-or-nothing per file: on any bad line nothing is written and `errors` lists the lines. 409 when a line would move a member who voted for a branch position of an election not closed yet to another branch, or would rename a member who stands in any closed election (nothing is written). An unknown branch is a line error naming it, unless `?create_branches=1`, which creates it. While an election's voting is under way (open or paused), a line changing the phone or email of a member who voted in it is a line error (issue CONTACT_CHANGE_AFTER_VOTE) unless the form field `confirm_contact_changes=1` is sent. Every contact change is logged with masked values and the member is told on the old phone or email.",
    contentType: 'multipart/form-data',
    query: ImportQuery,
    body: ImportBody,
    responses: { 200: ImportResult, ...errors(401, 403, 409, 413, 415) },
    metadata: meta('admin', {
      files: [
        {
          name: 'file',
          maxCount: 1,
          required: true,
          mediaTypes: ['text/csv'],
          description: 'CSV with the header member_no,name,phone,branch[,email][,language] (UTF-8)',
        },
      ],
    }),
  },
  listBranches: {
    method: 'GET',
    path: '/branches',
    summary: 'List branches',
    responses: { 200: z.object({ data: z.object({ data: z.array(Branch) }) }), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  listPositions: {
    method: 'GET',
    path: '/psk/positions',
    query: ElectionQuery,
    summary: 'List positions (bearer optional)',
    responses: { 200: z.object({ data: z.array(Position) }), ...errors(404) },
    metadata: meta('anyone'),
  },
  listCandidatePositions: {
    method: 'GET',
    path: '/psk/candidate/positions',
    query: ElectionQuery,
    summary: 'List positions for assigning candidates',
    responses: { 200: z.object({ data: z.object({ data: z.array(Position) }) }), ...errors(401, 403, 404) },
    metadata: meta('admin'),
  },
  getMemberDetails: {
    method: 'POST',
    path: '/details',
    summary: "Show a member's registered (masked) phone, email and branch, and the support email",
    description:
      "Anyone may ask (limited per address): the phone shows its last two digits only, the email its first letter and domain. The branch is empty unless the bearer token (optional) is the member's own or an admin's.",
    body: DetailsBody,
    responses: { 200: DetailsResponse, ...errors(404) },
    metadata: meta('anyone'),
  },
});
