import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PositionResults } from '@/components/results/position-results';
import { StatisticsTiles } from '@/components/staff/statistics-tiles';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { useElectionParam } from '@/lib/election-search';
import { queries, type ResultsResponseLike, withAgentStatistics, withResults } from '@/lib/queries';
import { hiddenResultsText } from '@/lib/errors';
import { useRealtime } from '@/lib/realtime';
import { OwnNameForm } from '@/components/staff/own-name-form';
import { useT } from '@/i18n';

export const AGENT_DEFAULT_POSITION = 'President_National';
export const AGENT_NO_VOTES = 'No votes at the moment';

/**
 * Agent dashboard (docs/screens.md "Staff pages"): read-only results for a chosen position (default President_National)
 * and the five statistics tiles, kept live by the tally and statistics channels (the socket
 * carries the agent's token, which the statistics channel needs).
 */
export function AgentDashboard() {
  const { t } = useT();
  const queryClient = useQueryClient();
  const election = useElectionParam();
  const positions = useQuery(queries.positions(election));
  const results = useQuery(queries.agentResults(election));
  const statistics = useQuery(queries.agentStatistics(election));

  // The chosen election's channels (`tally:7`), else the current one's.
  useRealtime(
    {
      tally: (payload) =>
        queryClient.setQueryData<ResultsResponseLike>(queries.agentResults(election).queryKey, (prev) =>
          withResults(prev, payload.results),
        ),
      statistics: (payload) =>
        queryClient.setQueryData(queries.agentStatistics(election).queryKey, (prev) => withAgentStatistics(prev, payload.statistics)),
    },
    true,
    election,
  );

  return (
    <div className="grid gap-8">
      <ElectionSwitcher />
      <PositionResults
        positions={positions.data?.body.data}
        groups={results.data?.body.data.data}
        loading={results.isPending}
        error={results.isError}
        defaultKey={AGENT_DEFAULT_POSITION}
        noVotesText={t('agent.noVotes')}
        hiddenText={hiddenResultsText(results)}
      />
      <StatisticsTiles statistics={statistics.data?.body.data} loading={statistics.isPending} error={statistics.isError} />
      <OwnNameForm />
    </div>
  );
}
