import { z } from 'zod';
import { c, errors, meta, ResultGroup, Statistics } from './common';

export const ElectionStatus = z.object({ active: z.enum(['1', '0']) });
export type ElectionStatus = z.infer<typeof ElectionStatus>;

export const ToggleBody = z.object({
  status: z.boolean({ required_error: 'The status field is required', invalid_type_error: 'The status must be true or false' }),
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
  vvpat: z.string().trim().min(1, 'The receipt code is required').max(64, 'Must be at most 64 characters long'),
});
export const ReceiptResponse = z.object({ vvpat: z.string(), position: z.string(), recorded: z.literal(true) });

export const ExportQuery = z.object({ format: z.enum(['csv'], { message: 'The format must be csv' }).default('csv') });

export const electionsRouter = c.router({
  getElectionStatus: {
    method: 'GET',
    path: '/psk/election/status',
    summary: 'Whether voting is enabled ("1") or disabled ("0")',
    responses: { 200: ElectionStatus, ...errors() },
    metadata: meta('anyone'),
  },
  toggleElection: {
    method: 'POST',
    path: '/toggle',
    summary: 'Enable or disable voting',
    description: 'Records a ballot-set commitment and emits on the realtime channels.',
    body: ToggleBody,
    responses: { 200: ToggleResponse, ...errors(401, 403) },
    metadata: meta('admin'),
  },
  getResults: {
    method: 'GET',
    path: '/psk/results',
    summary: 'Public results per position',
    responses: { 200: ResultsResponse, ...errors() },
    metadata: meta('anyone'),
  },
  getDashboard: {
    method: 'GET',
    path: '/psk/dashboard',
    summary: "Results for the voter's dashboard",
    responses: { 200: ResultsResponse, ...errors(401, 403) },
    metadata: meta('voter'),
  },
  getStatistics: {
    method: 'GET',
    path: '/statistics',
    summary: 'Turnout and verification counters (admin dashboard)',
    responses: { 200: z.object({ data: z.object({ data: Statistics }) }), ...errors(401, 403) },
    metadata: meta('agent'),
  },
  getAgentResults: {
    method: 'GET',
    path: '/agent/results',
    summary: "Results per position for the agent's dashboard",
    responses: { 200: ResultsResponse, ...errors(401, 403) },
    metadata: meta('agent'),
  },
  getAgentStatistics: {
    method: 'GET',
    path: '/agent/statistics',
    summary: "Turnout and verification counters for the agent's dashboard",
    responses: { 200: z.object({ data: Statistics }), ...errors(401, 403) },
    metadata: meta('agent'),
  },
  listCommitments: {
    method: 'GET',
    path: '/psk/commitments',
    summary: 'Published commitments to the ballot set, newest first',
    responses: { 200: z.object({ data: z.array(Commitment) }), ...errors() },
    metadata: meta('anyone'),
  },
  getReceipt: {
    method: 'GET',
    path: '/psk/receipt/:vvpat',
    summary: 'Confirm a receipt code is in the count (without revealing the choice)',
    pathParams: ReceiptParams,
    responses: { 200: ReceiptResponse, ...errors(404) },
    metadata: meta('anyone'),
  },
  exportResults: {
    method: 'GET',
    path: '/psk/results/export',
    summary: 'Download the results as CSV',
    query: ExportQuery,
    responses: {
      200: c.otherResponse({ contentType: 'text/csv', body: z.string() }),
      ...errors(401, 403),
    },
    metadata: meta('admin'),
  },
});
