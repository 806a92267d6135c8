import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PositionResults } from '@/components/results/position-results';
import { queries, queryKeys, type ResultsResponseLike, withResults } from '@/lib/queries';
import { hiddenResultsText } from '@/lib/errors';
import { useRealtime } from '@/lib/realtime';

export function VoterDashboard() {
  const queryClient = useQueryClient();
  const positions = useQuery(queries.positions());
  const results = useQuery(queries.dashboard());

  useRealtime({
    results: (payload) => queryClient.setQueryData<ResultsResponseLike>(queryKeys.dashboard, (prev) => withResults(prev, payload.results)),
  });

  return (
    <div className="grid gap-6">
      <PositionResults
        positions={positions.data?.body.data}
        groups={results.data?.body.data.data}
        loading={results.isPending}
        error={results.isError}
        defaultKey="Chairperson_National"
        noVotesText="No votes at the moment, Go to Elections tab to vote"
        hiddenText={hiddenResultsText(results)}
      />
      <AuthenticatorHint />
    </div>
  );
}

/** The way into the authenticator flow (enrolment needs a signed-in voter, so it starts here). */
export function AuthenticatorHint() {
  return (
    <p className="text-sm text-muted-foreground">
      Sign in next time without waiting for a text:{' '}
      <Link to="/scan-qr" className="text-primary underline underline-offset-2">
        set up an authenticator app
      </Link>
      .
    </p>
  );
}
