import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Pager } from '@/components/staff/pager';
import { useLastPage } from '@/hooks/use-last-page';
import { toast } from '@/hooks/use-toast';
import { useFilteredPages } from '@/hooks/use-filtered-pages';
import { NO_FILTERS } from '@/lib/list-search';
import { errorMessage } from '@/lib/errors';
import { formatDateTime, useOrganisationZone } from './logs-page';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

/** Beyond the spec: the issues reported through 'Report an Issue or Help', newest first. */
export function IssuesPage() {
  const { t } = useT();
  const { page, setPage, clampPage, params } = useFilteredPages(NO_FILTERS);
  const q = useQuery(queries.issues(params));
  const zone = useOrganisationZone();
  useEffect(() => {
    if (q.isError)
      toast({ variant: 'destructive', title: t('admin.issues.fetchError'), description: errorMessage(q.error) ?? t('admin.tryAgain') });
  }, [q.isError, q.error, t]);

  const body = q.data?.body;
  const lastPage = useLastPage(page, clampPage, body?.last_page);

  if (q.isPending) return <Loading label={t('admin.issues.loading')} />;
  if (q.isError && !body) return <ErrorState>{t('admin.issues.loadError')}</ErrorState>;
  if (!body || body.data.length === 0) return <EmptyState>{t('admin.issues.empty')}</EmptyState>;

  return (
    <div className="grid gap-6">
      <ul className="grid gap-3" aria-busy={q.isFetching ? true : undefined}>
        {body.data.map((r) => (
          <li key={r.id} className="grid gap-2 rounded-lg border border-border bg-card p-4 shadow-sm">
            <p className="flex flex-wrap items-baseline justify-between gap-2 text-sm text-muted-foreground">
              <span>
                <strong className="text-foreground">{r.reporter_name}</strong> ({r.role})
              </span>
              <time dateTime={r.created_at}>{formatDateTime(r.created_at, zone)}</time>
            </p>
            <p className="whitespace-pre-wrap break-words">{r.details}</p>
            {r.images.length > 0 && (
              <ul className="flex flex-wrap gap-2" aria-label={t('admin.issues.attachments')}>
                {r.images.map((src, i) => (
                  <li key={src}>
                    <a
                      href={src}
                      target="_blank"
                      rel="noreferrer"
                      className="block rounded-md focus-visible:outline-2 focus-visible:outline-ring"
                    >
                      <img
                        src={src}
                        alt={t('admin.issues.attachment', { number: String(i + 1), name: r.reporter_name })}
                        className="size-20 rounded-md border border-border object-cover"
                      />
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <Pager
        page={page}
        lastPage={lastPage}
        onPageChange={setPage}
        disabled={q.isFetching && q.isPlaceholderData}
        label={t('admin.issues.pages')}
      />
    </div>
  );
}
