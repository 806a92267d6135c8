import { useQueryClient } from '@tanstack/react-query';
import { PositionResults } from '@/components/results/position-results';
import { StatisticsTiles } from '@/components/staff/statistics-tiles';
import { staffKeys, withAgentStatistics } from '@/components/staff/staff-queries';
import { api } from '@/lib/api';
import { hiddenResultsText, queryKeys, withResults, type ResultsResponseLike } from '@/lib/queries';
import { useRealtime } from '@/lib/realtime';

export const AGENT_DEFAULT_POSITION = 'President_National';
export const AGENT_NO_VOTES = 'No votes at the moment';

/**
 * Agent dashboard (docs/screens.md "Staff pages"): read-only results for a chosen position (default President_National)
 * and the five statistics tiles, kept live by the results and statistics channels (the socket
 * carries the agent's token, which the statistics channel needs).
 */
export function AgentDashboard() {
  const queryClient = useQueryClient();
  const positions = api.members.listPositions.useQuery({ queryKey: queryKeys.positions, staleTime: 5 * 60_000 });
  const results = api.elections.getAgentResults.useQuery({ queryKey: staffKeys.agentResults });
  const statistics = api.elections.getAgentStatistics.useQuery({ queryKey: staffKeys.agentStatistics });

  useRealtime({
    results: (payload) => queryClient.setQueryData<ResultsResponseLike>(staffKeys.agentResults, (prev) => withResults(prev, payload.results)),
    statistics: (payload) =>
      queryClient.setQueryData(staffKeys.agentStatistics, (prev: Parameters<typeof withAgentStatistics>[0]) => withAgentStatistics(prev, payload.statistics)),
  });

  return (
    <div className="grid gap-8">
      <PositionResults
        positions={positions.data?.body.data}
        groups={results.data?.body.data.data}
        loading={results.isPending}
        error={results.isError}
        defaultKey={AGENT_DEFAULT_POSITION}
        noVotesText={AGENT_NO_VOTES}
        hiddenText={hiddenResultsText(results)}
      />
      <StatisticsTiles statistics={statistics.data?.body.data} loading={statistics.isPending} error={statistics.isError} />
    </div>
  );
}
