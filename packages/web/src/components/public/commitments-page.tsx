import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { PublicLayout } from '@/components/layout/public-layout';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { formatDateTime, useElection } from '@/lib/election';
import { useElectionParam } from '@/lib/election-search';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

/**
 * The published commitments to one election's ballot set, newest first, with how to check one: the
 * URL's election (`/commitments?election=7`), else the current one; the switcher moves between them.
 */
export function Commitments() {
  const { t, tRich } = useT();
  const election = useElectionParam();
  const { texts, election: shown } = useElection(election);
  const q = useQuery({ ...queries.commitments(election), refetchInterval: 60_000 });
  return (
    <PublicLayout wide>
      <div className="grid gap-6">
        <div className="grid gap-2">
          <h1 className="text-2xl font-semibold">{t('commitments.title')}</h1>
          <p className="max-w-3xl text-muted-foreground">
            {tRich('commitments.intro', {
              code: (chunks) => <code>{chunks}</code>,
              link: (chunks) => (
                <Link to="/receipt" className="text-primary underline">
                  {chunks}
                </Link>
              ),
            })}
          </p>
        </div>
        <ElectionSwitcher />
        {/* Ballots join the committed set in shuffled batches (or at the close): a small election reads 0 until then. */}
        {q.data?.status === 200 && q.data.body.mix_batch !== undefined && shown?.phase !== 'closed' && (
          <p className="max-w-3xl rounded-md border border-border bg-muted px-4 py-3 text-sm" data-testid="commitments-batch">
            {t('commitments.batch', { batch: q.data.body.mix_batch })}
          </p>
        )}
        {q.isPending ? (
          <Loading label={t('commitments.loading')} />
        ) : q.isError ? (
          <ErrorState>{t('commitments.loadFailed')}</ErrorState>
        ) : q.data.body.data.length === 0 ? (
          <EmptyState>{t('commitments.none')}</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-md border border-border" tabIndex={0} role="region" aria-label={t('commitments.title')}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('commitments.caption')}</caption>
              <thead className="bg-muted">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    {t('commitments.time')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    {t('commitments.ballots')}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t('commitments.hash')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {q.data.body.data.map((c) => (
                  <tr key={`${c.at}-${c.hash}`} className="border-t border-border">
                    <td className="whitespace-nowrap px-3 py-2">
                      <time dateTime={c.at}>{formatDateTime(c.at, texts.timeZone)}</time>
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{c.count}</td>
                    <td className="break-all px-3 py-2 font-mono text-xs">{c.hash}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </PublicLayout>
  );
}
