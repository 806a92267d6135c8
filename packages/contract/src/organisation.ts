import { z } from 'zod';
import { c, errors, meta } from './common';
import { dateTimeField, Election, ResultsVisibility, supportEmailField, textField, timeZoneField, websiteField } from './elections';
import { MEMBER_NO_PATTERN_INVALID, MEMBER_NO_PATTERN_SLOW, memberNoPatternIsSlow, memberNoRegExp, pathIdSchema } from './validation';
import { defaultLanguageSchema } from './languages';
import { ElectedIn, RegisterWindow } from './register';
import { RulesSchema } from './rules';
import { ElectionNominationsInput } from './nominations';
import { said } from './messages';

/** The organisation an installation serves: its texts, time zone and current election. */
export const Organisation = z.object({
  name: z.string(),
  website: z.string().nullable(),
  support_email: z.string().nullable(),
  /** IANA time zone, e.g. Africa/Nairobi */
  time_zone: z.string(),
  /** The election calls without `?election_id` act on; null: the only open one, else the newest not archived. */
  current_election_id: z.number().int().nullable(),
  /** A shipped language code (en, sw): members without a language of their own get it (docs/api.md "Languages"). */
  default_language: z.string(),
  /**
   * A regular expression every member number must match as a whole (docs/api.md "Register formats");
   * null: the default, 1 to 32 letters, digits, "-", "/" or ".".
   */
  member_no_pattern: z.string().nullable(),
});
export type Organisation = z.infer<typeof Organisation>;

/** Any subset of the organisation's fields; `null` clears an optional one. */
export const UpdateOrganisationBody = z
  .object({
    name: textField('name', 200),
    website: websiteField,
    support_email: supportEmailField,
    time_zone: timeZoneField,
    current_election_id: z
      .number({ invalid_type_error: said('field.currentElectionId') })
      .int(said('field.currentElectionId'))
      .positive(said('field.currentElectionId'))
      .max(2147483647, said('field.currentElectionId'))
      .nullable(),
    default_language: defaultLanguageSchema,
    member_no_pattern: z
      .string({ invalid_type_error: said('field.memberNoPatternType') })
      .trim()
      .max(200, said('field.maxLength', { n: 200 }))
      .refine((p) => p === '' || memberNoRegExp(p) !== null, MEMBER_NO_PATTERN_INVALID)
      .refine((p) => p === '' || !memberNoPatternIsSlow(p), MEMBER_NO_PATTERN_SLOW)
      .transform((p) => (p === '' ? null : p))
      .nullable(),
  })
  .partial();
export type UpdateOrganisationBody = z.infer<typeof UpdateOrganisationBody>;

export const Electorate = z.object({
  branch_ids: z
    .array(
      z
        .number({ invalid_type_error: said('field.branchId') })
        .int(said('field.branchId'))
        .positive(said('field.branchId'))
        .max(2147483647, said('field.branchId')),
    )
    .max(1000, said('field.atMostBranches', { n: 1000 }))
    .nullable(),
  /** Every member of the roll meets every rule (docs/api.md "The register"); absent: unchanged, or none on create. */
  rules: RulesSchema.optional(),
  /** A delegates' meeting: only members declared elected in that election (in those positions, or any). */
  elected_in: ElectedIn.nullable().optional(),
});

const electionFields = {
  title: textField('title', 200).min(1, said('field.isRequiredPlain', { field: 'title' })),
  description: textField('description', 2000).nullable(),
  opens_at: dateTimeField('opens_at'),
  closes_at: dateTimeField('closes_at'),
  results_visibility: ResultsVisibility,
  electorate: Electorate,
  /** The inspection window (docs/api.md "The register"); null: none. */
  register: RegisterWindow.nullable(),
  /** The nominations window; null: none (docs/api.md "Nominations"). */
  nominations: ElectionNominationsInput,
};
const scheduleInOrder = (b: { opens_at?: string | null; closes_at?: string | null }) =>
  !(b.opens_at && b.closes_at) || Date.parse(b.closes_at) > Date.parse(b.opens_at);
const scheduleError = { message: said('field.closesAfterOpens'), path: ['closes_at'] };
const registerBeforeOpening = (b: { opens_at?: string | null; register?: { closes_at: string } | null }) =>
  !(b.opens_at && b.register) || Date.parse(b.register.closes_at) <= Date.parse(b.opens_at);
const registerError = { message: said('field.registerClosesBeforeVoting'), path: ['register', 'closes_at'] };
/** One refinement (the web form reads the object's shape under it): the schedule in order, the register before the opening. */
function electionChecks(
  b: { opens_at?: string | null; closes_at?: string | null; register?: { closes_at: string } | null },
  ctx: z.RefinementCtx,
): void {
  if (!scheduleInOrder(b)) ctx.addIssue({ code: 'custom', ...scheduleError });
  if (!registerBeforeOpening(b)) ctx.addIssue({ code: 'custom', ...registerError });
}

export const CreateElectionBody = z.object(electionFields).partial().required({ title: true }).superRefine(electionChecks);
export type CreateElectionBody = z.infer<typeof CreateElectionBody>;

export const UpdateElectionByIdBody = z.object(electionFields).partial().superRefine(electionChecks);
export type UpdateElectionByIdBody = z.infer<typeof UpdateElectionByIdBody>;

export const CopyElectionBody = z.object({
  title: electionFields.title,
  candidates: z.boolean({ invalid_type_error: said('field.trueOrFalse', { field: 'candidates' }) }).optional(),
});
export type CopyElectionBody = z.infer<typeof CopyElectionBody>;

const IdParams = z.object({ id: pathIdSchema });
const data = <T extends z.ZodTypeAny>(schema: T) => z.object({ data: schema });

/** The organisation and its elections (docs/api.md "Many elections, motions and ranked counts"). */
export const organisationRouter = c.router({
  getOrganisation: {
    method: 'GET',
    path: '/organisation',
    summary: 'The organisation: its texts, time zone and current election',
    responses: { 200: data(Organisation), ...errors() },
    metadata: meta('anyone'),
  },
  updateOrganisation: {
    method: 'PUT',
    path: '/organisation',
    summary: "Edit the organisation's texts, time zone, current election, default language or member-number pattern (any subset)",
    description:
      '422 when current_election_id names no election or an archived one, or when member_no_pattern is not a valid regular expression (empty or null: the default rule).',
    body: UpdateOrganisationBody,
    responses: { 200: data(Organisation), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  listElections: {
    method: 'GET',
    path: '/elections',
    summary: 'Every election, newest first (archived ones for staff only)',
    responses: { 200: data(z.array(Election)), ...errors() },
    metadata: meta('anyone'),
  },
  createElection: {
    method: 'POST',
    path: '/elections',
    summary: 'Create an election, in set-up',
    body: CreateElectionBody,
    responses: { 201: data(Election), ...errors(401, 403) },
    metadata: meta('admin'),
  },
  getElectionById: {
    method: 'GET',
    path: '/elections/:id',
    pathParams: IdParams,
    summary: 'One election (an archived one too)',
    responses: { 200: data(Election), ...errors(404) },
    metadata: meta('anyone'),
  },
  updateElectionById: {
    method: 'PATCH',
    path: '/elections/:id',
    pathParams: IdParams,
    summary: "Edit an election's title, description, schedule, visibility or electorate",
    description: 'Schedule, visibility and electorate are refused once it closed (409).',
    body: UpdateElectionByIdBody,
    responses: { 200: data(Election), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  deleteElection: {
    method: 'DELETE',
    path: '/elections/:id',
    pathParams: IdParams,
    summary: 'Delete an election in which no vote was ever cast (else 409)',
    responses: { 204: c.noBody(), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  copyElection: {
    method: 'POST',
    path: '/elections/:id/copy',
    pathParams: IdParams,
    summary: 'A new election in set-up with the same positions, motions, seats, methods and electorate',
    description:
      'Candidates too when `candidates` is true; no schedule, votes or receipts. An electorate branch that no longer exists is left out (the activity log says which).',
    body: CopyElectionBody,
    responses: { 201: data(Election), ...errors(401, 403, 404) },
    metadata: meta('admin'),
  },
  archiveElection: {
    method: 'POST',
    path: '/elections/:id/archive',
    pathParams: IdParams,
    summary: 'Archive a closed election (else 409)',
    body: c.noBody(),
    responses: { 200: data(Election), ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
});
