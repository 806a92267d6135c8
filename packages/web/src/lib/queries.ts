import type { ResultGroup, Statistics } from '@kura/contract';

/** Query keys shared between screens and the realtime handlers that refresh them. */
export const queryKeys = {
  election: ['election'] as const,
  electionStatus: ['election', 'status'] as const,
  positions: ['positions'] as const,
  publicResults: ['results', 'public'] as const,
  finalResults: ['results', 'final'] as const,
  commitments: ['commitments'] as const,
  // voter
  validateVoter: ['validate', 'voter'] as const,
  dashboard: ['results', 'dashboard'] as const,
  ballot: ['ballot'] as const,
  myVvpat: ['vvpat', 'mine'] as const,
  items: ['items'] as const,
  // staff
  validateStaff: ['validate', 'staff'] as const,
  adminResults: ['results', 'admin'] as const,
  adminStatistics: ['statistics', 'admin'] as const,
  agentResults: ['results', 'agent'] as const,
  agentStatistics: ['statistics', 'agent'] as const,
  branches: ['branches'] as const,
  candidatePositions: ['positions', 'candidate'] as const,
  members: ['admin', 'members'] as const,
  candidates: ['admin', 'candidates'] as const,
  logs: ['admin', 'logs'] as const,
  vvpat: ['admin', 'vvpat'] as const,
  issues: ['admin', 'issues'] as const,
  reminders: ['admin', 'reminders'] as const,
  agents: ['admin', 'agents'] as const,
};

type Response<B> = { status: number; body: B; headers: Headers };

/** The results responses are `{data: {data: ResultGroup[]}}`; realtime sends the bare list. */
export type ResultsResponseLike = Response<{ data: { data: ResultGroup[] } }>;

export function withResults(prev: ResultsResponseLike | undefined, results: ResultGroup[]): ResultsResponseLike {
  return { status: 200, headers: prev?.headers ?? new Headers(), body: { data: { data: results } } };
}

/** GET statistics answers `{data: {data: Statistics}}`; the live channel sends the bare counters. */
export function withAdminStatistics(prev: Response<{ data: { data: Statistics } }> | undefined, statistics: Statistics) {
  return { status: 200, headers: prev?.headers ?? new Headers(), body: { data: { data: statistics } } };
}

/** GET agent/statistics answers `{data: Statistics}`. */
export function withAgentStatistics(prev: Response<{ data: Statistics }> | undefined, statistics: Statistics) {
  return { status: 200, headers: prev?.headers ?? new Headers(), body: { data: statistics } };
}
