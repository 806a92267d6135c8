import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PublicLayout } from '@/components/layout/public-layout';
import { PositionResults } from '@/components/results/position-results';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { FirstAdminHint } from '@/components/staff/first-admin-hint';
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
  const elections = useQuery(queries.elections());
  // An installation may have no election at all (a new one, or every election deleted).
  const none = elections.data?.body.data.length === 0;
  // With no election named, the current one is shown only once it has something public: while it is
  // still being set up or waits for its opening (after the last AGM was archived, its copy), the
  // landing says no election is open and points at the past ones, instead of an empty "current" one.
  const current = useQuery({ ...queries.election(), enabled: election === undefined });
  const phase = current.data?.status === 200 ? current.data.body.data.phase : undefined;
  const notYet = election === undefined && (phase === 'setup' || phase === 'scheduled');

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
      {none ? (
        <div className="grid gap-4">
          <p role="status" className="text-muted-foreground">
            {t('landing.noElection')}
          </p>
          <FirstAdminHint />
        </div>
      ) : notYet ? (
        <div className="grid gap-4">
          <ElectionSwitcher />
          <p role="status" className="text-muted-foreground" data-testid="landing-not-open">
            {t('landing.notOpen')}{' '}
            <Link to="/elections" className="text-primary underline underline-offset-4">
              {t('landing.pastElections')}
            </Link>
          </p>
          {/* A new install's untitled election is in set-up too: while there is no admin, say how to make one. */}
          <FirstAdminHint />
        </div>
      ) : (
        <>
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
        </>
      )}
    </PublicLayout>
  );
}
