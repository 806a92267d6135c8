import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { toast } from '@/hooks/use-toast';
import { errorMessage } from '@/lib/errors';
import { t } from '@/i18n';
import { queries } from '@/lib/queries';

/** Branches for the branch selects; a failure says 'Error fetching branches' (docs/screens.md "Messages and timings"). */
export function useBranches() {
  const q = useQuery(queries.branches());
  useEffect(() => {
    if (q.isError)
      toast({ variant: 'destructive', title: t('admin.toast.fetchBranches'), description: errorMessage(q.error) ?? t('admin.tryAgain') });
  }, [q.isError, q.error]);
  return { branches: q.data?.body.data.data ?? [], loading: q.isPending, error: q.isError };
}

/**
 * The election's positions (motions included); `standable` leaves the motions out: those are what a member can
 * stand for (a motion's options are Yes, No and Abstain). A failure says 'Error fetching positions'
 * (docs/screens.md "Messages and timings").
 */
export function useCandidatePositions(election?: number) {
  const q = useQuery(queries.candidatePositions(election));
  useEffect(() => {
    if (q.isError) toast({ variant: 'destructive', title: t('admin.toast.fetchPositions'), description: errorMessage(q.error) });
  }, [q.isError, q.error]);
  const positions = useMemo(() => q.data?.body.data.data ?? [], [q.data]);
  const standable = useMemo(() => positions.filter((p) => p.kind !== 'motion'), [positions]);
  return { positions, standable, loading: q.isPending, error: q.isError };
}
