import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BellRing, MessageSquareWarning } from 'lucide-react';
import { PositionResults } from '@/components/results/position-results';
import { StatisticsTiles } from '@/components/staff/statistics-tiles';
import { buttonVariants } from '@/components/ui/button';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { useElectionParam } from '@/lib/election-search';
import { queries, type ResultsResponseLike, withAdminStatistics, withResults } from '@/lib/queries';
import { hiddenResultsText } from '@/lib/errors';
import { useRealtime } from '@/lib/realtime';
import { cn } from '@/lib/utils';
import { ElectionSchedule } from './election-schedule';
import { ElectionToggle } from './election-toggle';
import { ExportResultsButton } from './export-results-button';
import { useT } from '@/i18n';

export const ADMIN_DEFAULT_POSITION = 'Chairperson_National';
export const ADMIN_NO_VOTES = 'No votes at the moment';

/**
 * Admin dashboard (docs/screens.md "Staff pages"): the election status toggle, results per position and the
 * five statistics tiles, live from the tally and statistics channels. The 'Report an Issue or
 * Help' button sits in the shell's page-title banner, above this content.
 */
export function AdminDashboard() {
  const { t } = useT();
  const queryClient = useQueryClient();
  const election = useElectionParam();
  const positions = useQuery(queries.positions(election));
  const results = useQuery(queries.adminResults(election));
  const statistics = useQuery(queries.adminStatistics(election));
  // An installation may have no election at all (every one deleted): an empty dashboard that says where to start.
  const elections = useQuery(queries.elections());
  const none = elections.data?.body.data.length === 0;

  // The chosen election's channels (`tally:7`), else the current one's.
  useRealtime(
    {
      tally: (payload) =>
        queryClient.setQueryData<ResultsResponseLike>(queries.adminResults(election).queryKey, (prev) =>
          withResults(prev, payload.results),
        ),
      statistics: (payload) =>
        queryClient.setQueryData(queries.adminStatistics(election).queryKey, (prev) => withAdminStatistics(prev, payload.statistics)),
    },
    true,
    election,
  );

  if (none) {
    return (
      <div className="grid gap-4 rounded-lg border border-dashed border-border p-6">
        <p role="status">{t('admin.dashboard.noElection')}</p>
        <Link to="/admin/elections" className={cn(buttonVariants(), 'justify-self-start')}>
          {t('admin.dashboard.toElections')}
        </Link>
      </div>
    );
  }
  return (
    <div className="grid gap-8">
      <ElectionSwitcher />
      <div className="flex flex-wrap gap-2">
        <ExportResultsButton election={election} />
        <Link to="/admin/issues" className={cn(buttonVariants({ variant: 'outline' }))}>
          <MessageSquareWarning aria-hidden="true" />
          {t('admin.dashboard.issues')}
        </Link>
        <Link to="/admin/reminders" className={cn(buttonVariants({ variant: 'outline' }))}>
          <BellRing aria-hidden="true" />
          {t('admin.dashboard.reminders')}
        </Link>
      </div>
      <ElectionToggle election={election} />
      {/* A fresh form for each election: an edit of the one left is not the new one's to save. */}
      <ElectionSchedule key={election ?? 'current'} election={election} />
      <PositionResults
        positions={positions.data?.body.data}
        groups={results.data?.body.data.data}
        loading={results.isPending}
        error={results.isError}
        defaultKey={ADMIN_DEFAULT_POSITION}
        noVotesText={t('agent.noVotes')}
        hiddenText={hiddenResultsText(results)}
        onRetry={() => void results.refetch()}
      />
      <StatisticsTiles
        statistics={statistics.data?.body.data.data}
        loading={statistics.isPending}
        error={statistics.isError}
        onRetry={() => void statistics.refetch()}
      />
    </div>
  );
}
