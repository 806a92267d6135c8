import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { Election } from '@kura/contract';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { PublicLayout } from '@/components/layout/public-layout';
import { formatDateTime, useElection } from '@/lib/election';
import { PublicNominations } from './public-nominations';
import { RollSummary } from '@/components/results/roll-summary';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

type Listed = Election & { id: number };

/** The phases the public list shows: voting open or paused, or closed; never set-up, scheduled or archived. */
export function publicElections(list: readonly Election[]): Listed[] {
  return list.filter(
    (e): e is Listed => e.id !== undefined && !e.archived && (e.phase === 'open' || e.phase === 'paused' || e.phase === 'closed'),
  );
}

/** Archived elections that were held (closed before archiving): their declarations stay public. */
export function pastElections(list: readonly Election[]): Listed[] {
  return list.filter((e): e is Listed => e.id !== undefined && e.archived === true && e.phase === 'closed');
}

const linkClass = 'text-primary underline underline-offset-4 hover:no-underline';

/**
 * The public list of elections (docs/api.md "Many elections"): each open or closed one that is not
 * archived, with its phase, its voting window, and links to its live results, its declaration
 * (`/results?election=N`) and the commitments to its ballots (`/commitments?election=N`), and its
 * roll: the size, when it froze, the hash and the size by branch (docs/api.md "The register").
 */
export function ElectionsPage() {
  const { t } = useT();
  const { texts, election: current } = useElection();
  const q = useQuery(queries.elections());
  const elections = q.data ? publicElections(q.data.body.data) : [];
  const past = q.data ? pastElections(q.data.body.data) : [];
  const when = (iso: string) => formatDateTime(iso, texts.timeZone);
  return (
    <PublicLayout wide>
      <div className="grid gap-6">
        <div className="grid gap-2">
          <h1 className="text-2xl font-semibold">{t('electionsPage.title')}</h1>
          <p className="max-w-3xl text-muted-foreground">{t('electionsPage.intro')}</p>
        </div>
        {q.isPending ? (
          <Loading label={t('electionsPage.loading')} />
        ) : q.isError ? (
          <ErrorState>{t('electionsPage.loadFailed')}</ErrorState>
        ) : elections.length === 0 ? (
          <EmptyState>{past.length > 0 ? t('electionsPage.noneOpen') : t('electionsPage.none')}</EmptyState>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2">
            {elections.map((e) => {
              const title = e.title.trim() || t('elections.untitled');
              const closed = e.phase === 'closed';
              return (
                <li key={e.id} className="grid content-start gap-3 rounded-md border border-border p-4" data-testid={`election-${e.id}`}>
                  <div className="grid gap-1">
                    <h2 className="text-lg font-semibold">{title}</h2>
                    <p className="text-sm">
                      {t('electionsPage.phase', { phase: t(`elections.phase.${e.phase}`) })}
                      {current?.id === e.id && <> · {t('electionsPage.current')}</>}
                    </p>
                    {e.opens_at && e.closes_at && (
                      <p className="text-sm text-muted-foreground">
                        {t('electionsPage.window', { start: when(e.opens_at), end: when(e.closes_at) })}
                      </p>
                    )}
                    {e.description?.trim() && <p className="text-sm">{e.description}</p>}
                  </div>
                  <section className="grid gap-2" aria-label={t('roll.titleOf', { title })}>
                    <h3 className="text-sm font-semibold">{t('roll.title')}</h3>
                    <RollSummary election={e.id} zone={texts.timeZone} />
                  </section>
                  <PublicNominations election={e} />
                  <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm" aria-label={t('electionsPage.linksLabel', { title })}>
                    {!closed && (
                      <li>
                        {/* Each link's name says whose page it is ("Live results of By-election 2027"), starting with its visible text. */}
                        <Link to="/" search={{ election: e.id }} className={linkClass} aria-label={t('electionsPage.resultsOf', { title })}>
                          {t('electionsPage.results')}
                        </Link>
                      </li>
                    )}
                    <li>
                      <Link
                        to="/results"
                        search={{ election: e.id }}
                        className={linkClass}
                        aria-label={closed ? t('electionsPage.declarationOf', { title }) : t('electionsPage.declarationLaterOf', { title })}
                      >
                        {closed ? t('electionsPage.declaration') : t('electionsPage.declarationLater')}
                      </Link>
                    </li>
                    <li>
                      <Link
                        to="/commitments"
                        search={{ election: e.id }}
                        className={linkClass}
                        aria-label={t('electionsPage.commitmentsOf', { title })}
                      >
                        {t('electionsPage.commitments')}
                      </Link>
                    </li>
                  </ul>
                </li>
              );
            })}
          </ul>
        )}
        {past.length > 0 && (
          <section className="grid gap-3" aria-labelledby="past-elections">
            <h2 id="past-elections" className="text-xl font-semibold">
              {t('electionsPage.past')}
            </h2>
            <ul className="grid gap-2">
              {past.map((e) => {
                const title = e.title.trim() || t('elections.untitled');
                return (
                  <li key={e.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1" data-testid={`past-election-${e.id}`}>
                    <span className="font-medium">{title}</span>
                    {e.closed_at && (
                      <span className="text-sm text-muted-foreground">{t('electionsPage.closedOn', { date: when(e.closed_at) })}</span>
                    )}
                    <Link
                      to="/results"
                      search={{ election: e.id }}
                      className={linkClass}
                      aria-label={t('electionsPage.declarationOf', { title })}
                    >
                      {t('electionsPage.declaration')}
                    </Link>
                    <Link
                      to="/commitments"
                      search={{ election: e.id }}
                      className={linkClass}
                      aria-label={t('electionsPage.commitmentsOf', { title })}
                    >
                      {t('electionsPage.commitments')}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        )}
      </div>
    </PublicLayout>
  );
}
