import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PublicLayout } from '@/components/layout/public-layout';
import { PositionResults } from '@/components/results/position-results';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { useElectionParam } from '@/lib/election-search';
import { queries, type ResultsResponseLike, withResults } from '@/lib/queries';
import { hiddenResultsText } from '@/lib/errors';
import { useRealtime } from '@/lib/realtime';
import { useT } from '@/i18n';

export const LANDING_DEFAULT_POSITION = 'Chairperson_National';

/**
 * The live results of an election: the URL's (`/?election=7`, the calls with `?election_id=7` and the
 * channel `tally:7`), else the current one; the switcher moves between them.
 */
export function Landing() {
  const { t } = useT();
  const queryClient = useQueryClient();
  const election = useElectionParam();
  const positions = useQuery(queries.positions(election));
  const results = useQuery(queries.publicResults(election));

  // Live updates: the `tally` channel carries every position's counts (lib/realtime.ts adds them up).
  useRealtime(
    {
      tally: (payload) => {
        queryClient.setQueryData<ResultsResponseLike>(queries.publicResults(election).queryKey, (prev) =>
          withResults(prev, payload.results),
        );
      },
    },
    true,
    election,
  );

  return (
    <PublicLayout showColourDialog wide>
      <h1 className="mb-6 text-2xl font-bold sm:text-3xl">{t('landing.title')}</h1>
      <ElectionSwitcher className="mb-6" />
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
