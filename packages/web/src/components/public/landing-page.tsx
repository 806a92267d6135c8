import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PublicLayout } from '@/components/layout/public-layout';
import { PositionResults } from '@/components/results/position-results';
import { queries, type ResultsResponseLike, withResults } from '@/lib/queries';
import { hiddenResultsText } from '@/lib/errors';
import { useRealtime } from '@/lib/realtime';
import { useT } from '@/i18n';

export const LANDING_DEFAULT_POSITION = 'Chairperson_National';

export function Landing() {
  const { t } = useT();
  const queryClient = useQueryClient();
  const positions = useQuery(queries.positions());
  const results = useQuery(queries.publicResults());

  // Live updates: the `results` channel carries every position's tallies.
  useRealtime({
    results: (payload) => {
      queryClient.setQueryData<ResultsResponseLike>(queries.publicResults().queryKey, (prev) => withResults(prev, payload.results));
    },
  });

  return (
    <PublicLayout showColourDialog wide>
      <h1 className="mb-6 text-2xl font-bold sm:text-3xl">{t('landing.title')}</h1>
      <PositionResults
        positions={positions.data?.body.data}
        groups={results.data?.body.data.data}
        loading={results.isPending}
        error={results.isError}
        defaultKey={LANDING_DEFAULT_POSITION}
        noVotesText={t('landing.noVotes')}
        hiddenText={hiddenResultsText(results)}
      />
    </PublicLayout>
  );
}
