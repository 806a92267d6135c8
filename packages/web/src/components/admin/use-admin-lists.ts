import { useEffect } from 'react';
import { toast } from '@/components/ui/use-toast';
import { staffKeys } from '@/components/staff/staff-queries';
import { api, errorMessage } from '@/lib/api';

const LIST_STALE_MS = 5 * 60_000;

/** Branches for the branch selects; a failure says 'Error fetching branches' (docs/screens.md "Messages and timings"). */
export function useBranches() {
  const q = api.members.listBranches.useQuery({ queryKey: staffKeys.branches, staleTime: LIST_STALE_MS });
  useEffect(() => {
    if (q.isError) toast({ variant: 'destructive', title: 'Error fetching branches', description: errorMessage(q.error) ?? 'Please try again.' });
  }, [q.isError, q.error]);
  return { branches: q.data?.body.data.data ?? [], loading: q.isPending, error: q.isError };
}

/** Positions a member can stand for; a failure says 'Error fetching positions' (docs/screens.md "Messages and timings"). */
export function useCandidatePositions() {
  const q = api.members.listCandidatePositions.useQuery({ queryKey: staffKeys.candidatePositions, staleTime: LIST_STALE_MS });
  useEffect(() => {
    if (q.isError) toast({ variant: 'destructive', title: 'Error fetching positions', description: errorMessage(q.error) });
  }, [q.isError, q.error]);
  return { positions: q.data?.body.data.data ?? [], loading: q.isPending, error: q.isError };
}

/** `name - level`, the label of a position checkbox (docs/screens.md "Staff pages"). */
export const positionOptionLabel = (p: { name: string; level: string }) => `${p.name} - ${p.level}`;

/** Field messages of a 422 (`errors` of the envelope), first message per field. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const body = (error as { body?: unknown } | null)?.body;
  const errs = body && typeof body === 'object' ? (body as { errors?: Record<string, string[]> }).errors : undefined;
  const out: Record<string, string> = {};
  if (errs) for (const [k, v] of Object.entries(errs)) if (v?.[0]) out[k.replace(/\[\]$/, '').split('.')[0]!] ??= v[0];
  return out;
}

/** First message per field of a failed zod parse. */
export function zodFieldErrors(issues: { path: (string | number)[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = String(i.path[0] ?? 'form');
    out[key] ??= i.message;
  }
  return out;
}
