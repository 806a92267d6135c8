import { z } from 'zod';
import { c, ElectionNominations, errors, meta, ResultGroup, Statistics } from './common';
import { ElectionQuery } from './validation';
import { Rule } from './rules';
import { said } from './messages';

export const ElectionStatus = z.object({ active: z.enum(['1', '0']) });
export type ElectionStatus = z.infer<typeof ElectionStatus>;

export const RESULTS_VISIBILITY = ['live', 'staff', 'after_close'] as const;
export const ResultsVisibility = z.enum(RESULTS_VISIBILITY, {
  errorMap: () => ({ message: said('field.oneOf', { field: 'results visibility', options: ['live', 'staff', 'after_close'] }) }),
});
export type ResultsVisibility = z.infer<typeof ResultsVisibility>;

export const ELECTION_PHASES = ['setup', 'scheduled', 'open', 'paused', 'closed'] as const;
export const ElectionPhase = z.enum(ELECTION_PHASES);
export type ElectionPhase = z.infer<typeof ElectionPhase>;

/** The election this installation runs: texts, schedule, results visibility, and where it stands. */
export const Election = z.object({
  title: z.string(),
  organisation: z.string(),
  website: z.string().nullable(),
  support_email: z.string().nullable(),
  /** ISO 8601 with offset */
  opens_at: z.string().nullable(),
  /** ISO 8601 with offset */
  closes_at: z.string().nullable(),
  /** The organisation's IANA time zone (e.g. Africa/Nairobi): pages show the schedule in it. */
  time_zone: z.string(),
  results_visibility: ResultsVisibility,
  phase: ElectionPhase,
  active: z.enum(['1', '0']),
  // Many elections (docs/api.md "Many elections, motions and ranked counts"); optional for
  // clients written against the single-election shape.
  id: z.number().int().optional(),
  description: z.string().nullable().optional(),
  archived: z.boolean().optional(),
  /** ISO 8601 */
  created_at: z.string().optional(),
  /** The roll: the members of these branches; null: every member. */
  electorate: z
    .object({
      branch_ids: z.array(z.number().int()).nullable(),
      /** docs/api.md "The register": every member of the roll meets every rule. */
      rules: z.array(Rule).optional(),
      /** A delegates' meeting: the members declared elected in that election (those positions, or any). */
      elected_in: z
        .object({ election_id: z.number().int(), position_ids: z.array(z.number().int()).nullable() })
        .nullable()
        .optional(),
    })
    .optional(),
  /** The inspection window: members inspect their entry and file claims; the roll freezes when it closes. */
  register: z.object({ opens_at: z.string(), closes_at: z.string() }).nullable().optional(),
  /** The frozen roll's hash: SHA-256 (hex) of its member numbers, sorted, each followed by a newline. */
  roll_hash: z.string().nullable().optional(),
  /** When the roll was frozen (voting first opened). */
  roll_frozen_at: z.string().nullable().optional(),
  /** When voting closed (by hand or on schedule); null while it has not. */
  closed_at: z.string().nullable().optional(),
  /**
   * How many members are on the roll: the frozen roll's count once voting first opened, until then
   * the electorate's current size (GET elections and elections/{id}; the set-up checklist shows it).
   */
  roll_size: z.number().int().optional(),
  /** The organisation's default language (docs/api.md "Languages"): the web speaks it when nothing else chose. */
  default_language: z.string().optional(),
  /** The nominations window (docs/api.md "Nominations"); null: candidates are entered by staff only (GET elections and elections/{id}). */
  nominations: ElectionNominations.nullable().optional(),
});
export type Election = z.infer<typeof Election>;

export const textField = (field: string, max: number) =>
  z
    .string({ invalid_type_error: said('field.mustBeText', { field }) })
    .trim()
    .max(max, said('field.maxLength', { n: max }));
export const dateTimeField = (field: string) =>
  z
    .string({ invalid_type_error: said('field.dateTime', { field }) })
    .datetime({ offset: true, message: said('field.isoDateTime', { field }) })
    .nullable();
/** The organisation's website, support e-mail and time zone as an edit takes them (election and organisation alike). */
export const websiteField = z
  .string({ invalid_type_error: said('field.websiteUrl') })
  .trim()
  .max(500, said('field.maxLength', { n: 500 }))
  .url(said('field.websiteUrlExample'))
  .refine((u) => /^https?:\/\//i.test(u), said('field.websiteScheme'))
  .nullable();
export const supportEmailField = z
  .string({ invalid_type_error: said('field.supportEmail') })
  .trim()
  .toLowerCase()
  .max(254, said('field.maxLength', { n: 254 }))
  .email(said('field.supportEmailValid'))
  .nullable();
export const timeZoneField = z
  .string({ invalid_type_error: said('field.mustBeText', { field: 'time zone' }) })
  .trim()
  .max(64, said('field.maxLength', { n: 64 }))
  .refine(isTimeZone, said('field.timeZone'));

/**
 * Whether the name is an IANA time zone this runtime knows: an Area/Location name (or UTC), which
 * Intl accepts (it throws a RangeError on an unknown one). Bare offsets such as "+03:00" are
 * refused everywhere, although newer runtimes' Intl accepts them: they ignore daylight saving.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Any subset of the election's editable fields; `null` clears an optional one. */
export const UpdateElectionBody = z
  .object({
    title: textField('title', 200),
    organisation: textField('organisation', 200),
    website: websiteField,
    support_email: supportEmailField,
    opens_at: dateTimeField('opens_at'),
    closes_at: dateTimeField('closes_at'),
    time_zone: timeZoneField,
    results_visibility: ResultsVisibility,
  })
  .partial()
  .refine((b) => !(b.opens_at && b.closes_at) || Date.parse(b.closes_at) > Date.parse(b.opens_at), {
    message: said('field.closesAfterOpens'),
    path: ['closes_at'],
  });
export type UpdateElectionBody = z.infer<typeof UpdateElectionBody>;

export const ToggleBody = z.object({
  status: z.boolean({
    required_error: said('field.isRequired', { field: 'status' }),
    invalid_type_error: said('field.trueOrFalse', { field: 'status' }),
  }),
});
export const ToggleResponse = z.object({
  active: z.enum(['1', '0']),
  message: z.enum(['Voting has been enabled', 'Voting has been disabled']),
});

/** `{data: {data: ResultGroup[]}}` (spec: the client reads data.data.data). */
export const ResultsResponse = z.object({ data: z.object({ data: z.array(ResultGroup) }) });

export const Commitment = z.object({
  /** ISO timestamp of the commitment */
  at: z.string(),
  /** number of ballots committed to */
  count: z.number().int(),
  /** hex hash over (receipt, position, candidate) sorted by receipt */
  hash: z.string(),
});
export type Commitment = z.infer<typeof Commitment>;

export const ReceiptParams = z.object({
  vvpat: z
    .string()
    .trim()
    .min(1, said('field.isRequiredPlain', { field: 'receipt code' }))
    .max(64, said('field.maxLength', { n: 64 })),
});
export const ReceiptResponse = z.object({
  vvpat: z.string(),
  position: z.string(),
  /** the election the ballot was cast in: its id and title */
  election_id: z.number().int(),
  election: z.string(),
  recorded: z.literal(true),
});

export const ExportQuery = z.object({
  format: z.enum(['csv'], { message: said('field.oneOf', { field: 'format', options: 'csv' }) }).default('csv'),
});

export const electionsRouter = c.router({
  getElection: {
    method: 'GET',
    path: '/election',
    query: ElectionQuery,
    summary: "The election: the organisation's texts, schedule, results visibility and phase",
    responses: { 200: z.object({ data: Election }), ...errors(404) },
    metadata: meta('anyone'),
  },
  updateElection: {
    method: 'PUT',
    path: '/election',
    query: ElectionQuery,
    summary: "Edit the election's texts, schedule or results visibility (any subset)",
    description: '422 when closes_at is not after opens_at; 409 once the election is closed.',
    body: UpdateElectionBody,
    responses: { 200: z.object({ data: Election }), ...errors(401, 403, 409, 404) },
    metadata: meta('admin'),
  },
  getElectionStatus: {
    method: 'GET',
    path: '/psk/election/status',
    query: ElectionQuery,
    summary: 'Whether voting is enabled ("1") or disabled ("0")',
    responses: { 200: ElectionStatus, ...errors(404) },
    metadata: meta('anyone'),
  },
  toggleElection: {
    method: 'POST',
    path: '/toggle',
    query: ElectionQuery,
    summary: 'Enable or disable voting',
    description:
      'Records a ballot-set commitment and emits on the realtime channels. 409 when the election is archived or closed, when its schedule opens it later by itself, or when opening it would leave nominations undecided (each named).',
    body: ToggleBody,
    responses: { 200: ToggleResponse, ...errors(401, 403, 404, 409) },
    metadata: meta('admin'),
  },
  getResults: {
    method: 'GET',
    path: '/psk/results',
    query: ElectionQuery,
    summary: 'Public results per position',
    description: "Under the election's results visibility: 403 while results are for staff only or until voting closes.",
    responses: { 200: ResultsResponse, ...errors(403, 404) },
    metadata: meta('anyone'),
  },
  getDashboard: {
    method: 'GET',
    path: '/psk/dashboard',
    query: ElectionQuery,
    summary: "Results for the voter's dashboard",
    responses: { 200: ResultsResponse, ...errors(401, 403, 404) },
    metadata: meta('voter'),
  },
  getStatistics: {
    method: 'GET',
    path: '/statistics',
    query: ElectionQuery,
    summary: 'Turnout and verification counters (admin dashboard)',
    responses: { 200: z.object({ data: z.object({ data: Statistics }) }), ...errors(401, 403, 404) },
    metadata: meta('agent'),
  },
  getAgentResults: {
    method: 'GET',
    path: '/agent/results',
    query: ElectionQuery,
    summary: "Results per position for the agent's dashboard",
    responses: { 200: ResultsResponse, ...errors(401, 403, 404) },
    metadata: meta('agent'),
  },
  getAgentStatistics: {
    method: 'GET',
    path: '/agent/statistics',
    query: ElectionQuery,
    summary: "Turnout and verification counters for the agent's dashboard",
    responses: { 200: z.object({ data: Statistics }), ...errors(401, 403, 404) },
    metadata: meta('agent'),
  },
  listCommitments: {
    method: 'GET',
    path: '/psk/commitments',
    query: ElectionQuery,
    summary: 'Published commitments to the ballot set, newest first',
    description:
      'A ballot enters the committed set when the mixer moves it, with at least `mix_batch` ballots of its position (MIX_MIN_BATCH), or at the close: during a small election the count can stay 0 while ballots wait in the queue.',
    responses: {
      200: z.object({
        data: z.array(Commitment),
        /** the least number of a position's ballots the mixer moves at once (the close moves the rest) */
        mix_batch: z.number().int().optional(),
      }),
      ...errors(404),
    },
    metadata: meta('anyone'),
  },
  getReceipt: {
    method: 'GET',
    path: '/psk/receipt/:vvpat',
    summary: 'Confirm a receipt code is in the count (without revealing the choice), naming its election and position',
    description:
      "Any election's receipt, an archived one's too. Limited per address (RATE_LIMIT_RECEIPT_CHECKS_PER_HOUR): past it, 429 with Retry-After.",
    pathParams: ReceiptParams,
    responses: { 200: ReceiptResponse, ...errors(404, 429) },
    metadata: meta('anyone'),
  },
  exportResults: {
    method: 'GET',
    path: '/psk/results/export',
    summary: 'Download the results as CSV',
    query: ExportQuery.merge(ElectionQuery),
    responses: {
      200: c.otherResponse({ contentType: 'text/csv', body: z.string() }),
      ...errors(401, 403, 404),
    },
    metadata: meta('admin'),
  },
});
