import type { Statistics } from '@kura/contract';

/** Query keys of the staff screens; the realtime handlers write into the same keys. */
export const staffKeys = {
  electionStatus: ['election', 'status'] as const,
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
};

type Response<B> = { status: number; body: B; headers: Headers };

/** GET statistics answers `{data: {data: Statistics}}`; the live channel sends the bare counters. */
export function withAdminStatistics(prev: Response<{ data: { data: Statistics } }> | undefined, statistics: Statistics) {
  return { status: 200, headers: prev?.headers ?? new Headers(), body: { data: { data: statistics } } };
}

/** GET agent/statistics answers `{data: Statistics}`. */
export function withAgentStatistics(prev: Response<{ data: Statistics }> | undefined, statistics: Statistics) {
  return { status: 200, headers: prev?.headers ?? new Headers(), body: { data: statistics } };
}
