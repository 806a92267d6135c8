import { Link } from '@tanstack/react-router';
import { useQueries, useQuery } from '@tanstack/react-query';
import { CheckCircle2, CircleDashed } from 'lucide-react';
import type { BallotGroup, Election } from '@kura/contract';
import { buttonVariants } from '@/components/ui/button';
import { Loading } from '@/components/layout/page-states';
import { errorStatus } from '@/lib/errors';
import { formatDateTime, useElection } from '@/lib/election';
import { queries } from '@/lib/queries';
import { votedPositionIds } from '@/lib/receipts';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';

type OpenElection = Election & { id: number };

/** Where a voter stands in one election: not on its roll, voted for every position, some, or none. */
export type Standing = 'off-roll' | 'voted' | 'partly' | 'not-voted';

export function standingOf(groups: readonly BallotGroup[] | undefined, refused: boolean, voted: Set<number>): Standing {
  const open = (groups ?? []).filter((g) => g.candidates.length > 0);
  if (refused || open.length === 0) return 'off-roll';
  const done = open.filter((g) => voted.has(g.position_id)).length;
  return done === open.length ? 'voted' : done > 0 ? 'partly' : 'not-voted';
}

/**
 * The voter's open elections (docs/api.md "Many elections": a voter's dashboard lists every open
 * election the voter is on the roll of, each with voted / not voted and its own ballot): one card
 * per election with its title, where the voter stands and the way to its ballot
 * (`/voter/elect?election=N`). An election whose ballot is empty or refused is not the voter's.
 */
export function MyElections() {
  const { t } = useT();
  const { texts } = useElection();
  const list = useQuery(queries.elections());
  const mine = useQuery(queries.myVvpat());
  const open = (list.data?.body.data ?? []).filter(
    (e): e is OpenElection => e.id !== undefined && !e.archived && (e.phase === 'open' || e.phase === 'paused'),
  );
  const ballots = useQueries({
    queries: open.map((e) => ({ ...queries.ballot(e.id), retry: false })),
  });
  if (list.isError) return null; // a server without many elections: the dashboard stays as it was
  const pending = list.isPending || mine.isPending || ballots.some((b) => b.isPending);
  const receipts = mine.data?.body.data.votes ?? [];
  const cards = open
    .map((e, i) => {
      const b = ballots[i];
      const groups = b?.data?.body.data;
      const refused = b?.isError === true && errorStatus(b.error) === 403;
      return { election: e, groups, standing: standingOf(groups, refused, votedPositionIds(receipts, groups ?? [], e)) };
    })
    .filter((c) => c.standing !== 'off-roll');

  return (
    <section aria-labelledby="my-elections-h" className="grid gap-3">
      <h2 id="my-elections-h" className="text-lg font-semibold">
        {t('myElections.title')}
      </h2>
      {pending ? (
        <Loading label={t('myElections.loading')} />
      ) : cards.length === 0 ? (
        <p className="text-muted-foreground">{t('myElections.none')}</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {cards.map(({ election: e, standing }) => {
            const title = e.title.trim() || t('myElections.untitled');
            const voted = standing === 'voted';
            return (
              <li key={e.id} className="grid gap-3 rounded-md border border-border p-4" data-testid={`my-election-${e.id}`}>
                <div className="grid gap-1">
                  <h3 className="font-semibold">{title}</h3>
                  {e.closes_at && (
                    <p className="text-sm text-muted-foreground">
                      {t('myElections.closes', { date: formatDateTime(e.closes_at, texts.timeZone) })}
                    </p>
                  )}
                  <p className={cn('flex items-center gap-2 text-sm font-medium', voted ? 'text-green-800' : 'text-foreground')}>
                    {voted ? (
                      <CheckCircle2 className="size-4" aria-hidden="true" />
                    ) : (
                      <CircleDashed className="size-4" aria-hidden="true" />
                    )}
                    {standing === 'voted'
                      ? t('myElections.voted')
                      : standing === 'partly'
                        ? t('myElections.partly')
                        : t('myElections.notVoted')}
                  </p>
                  {e.phase === 'paused' && <p className="text-sm text-amber-900">{t('myElections.paused')}</p>}
                </div>
                <div className="flex flex-wrap gap-2">
                  {!voted && (
                    <Link to="/voter/elect" search={{ election: e.id }} className={cn(buttonVariants({ size: 'sm' }))}>
                      {t('myElections.vote', { title })}
                    </Link>
                  )}
                  {standing !== 'not-voted' && (
                    <Link to="/voter/vpat" className={cn(buttonVariants({ variant: 'outline', size: 'sm' }))}>
                      {t('myElections.receipts')}
                    </Link>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
