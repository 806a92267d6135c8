import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PositionResults } from '@/components/results/position-results';
import { queries, type ResultsResponseLike, withResults } from '@/lib/queries';
import { hiddenResultsText } from '@/lib/errors';
import { useRealtime } from '@/lib/realtime';
import { useT } from '@/i18n';
import { MyElections } from './my-elections';

export function VoterDashboard() {
  const { t } = useT();
  const queryClient = useQueryClient();
  const positions = useQuery(queries.positions());
  const results = useQuery(queries.dashboard());

  useRealtime({
    tally: (payload) =>
      queryClient.setQueryData<ResultsResponseLike>(queries.dashboard().queryKey, (prev) => withResults(prev, payload.results)),
  });

  return (
    <div className="grid gap-6">
      <MyElections />
      <PositionResults
        positions={positions.data?.body.data}
        groups={results.data?.body.data.data}
        loading={results.isPending}
        error={results.isError}
        defaultKey="Chairperson_National"
        noVotesText={t('dashboard.noVotes')}
        hiddenText={hiddenResultsText(results)}
      />
      <AuthenticatorHint />
    </div>
  );
}

/** The way into the authenticator flow (enrolment needs a signed-in voter, so it starts here). */
export function AuthenticatorHint() {
  const { tRich } = useT();
  return (
    <p className="text-sm text-muted-foreground">
      {tRich('dashboard.authenticator', {
        link: (chunks) => (
          <Link to="/scan-qr" className="text-primary underline underline-offset-2">
            {chunks}
          </Link>
        ),
      })}
    </p>
  );
}
