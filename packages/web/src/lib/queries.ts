import type { ResultGroup } from '@kura/contract';

/** Query keys shared between screens and the realtime handlers that refresh them. */
export const queryKeys = {
  positions: ['positions'] as const,
  publicResults: ['results', 'public'] as const,
  dashboard: ['results', 'dashboard'] as const,
  electionStatus: ['election', 'status'] as const,
  ballot: ['ballot'] as const,
  myVvpat: ['vvpat', 'mine'] as const,
  items: ['items'] as const,
  validateVoter: ['validate', 'voter'] as const,
};

/** The results responses are `{data: {data: ResultGroup[]}}`; realtime sends the bare list. */
export type ResultsResponseLike = { status: number; body: { data: { data: ResultGroup[] } }; headers: Headers };

export function withResults(prev: ResultsResponseLike | undefined, results: ResultGroup[]): ResultsResponseLike {
  return { status: 200, headers: prev?.headers ?? new Headers(), body: { data: { data: results } } };
}

/** The server's reason when it withholds results (403 under the election's results visibility). */
export function hiddenResultsText(query: { isError: boolean; error: unknown }): string | undefined {
  if (!query.isError) return undefined;
  const e = query.error as { status?: number; body?: { message?: unknown } } | null;
  return e?.status === 403 && typeof e.body?.message === 'string' ? e.body.message : undefined;
}
