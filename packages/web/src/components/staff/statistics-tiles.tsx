import type { Statistics } from '@kura/contract';
import { ErrorState } from '@/components/layout/page-states';
import { cn } from '@/lib/utils';

export const STATISTICS_HEADING = 'General Election Statistics';

type Tile = { key: keyof Statistics; singular: string; plural: string };

/** docs/screens.md "Staff pages": the five tiles, in order, each with its singular and plural wording. */
export const STATISTICS_TILES: readonly Tile[] = [
  { key: 'votesCasted', singular: 'Vote Casted', plural: 'Votes Casted' },
  { key: 'verifiedMembers', singular: 'Member verified', plural: 'Members verified' },
  { key: 'unverifiedMembers', singular: 'Member not verified', plural: 'Members not verified' },
  { key: 'membersVoted', singular: 'Member Voted', plural: 'Members Voted' },
  { key: 'membersNotVoted', singular: 'Member not Voted', plural: 'Members not Voted' },
];

/** The wording follows the count: exactly one reads singular, anything else plural ("0 Members"). */
export function tileLabel(tile: Pick<Tile, 'singular' | 'plural'>, count: number): string {
  return count === 1 ? tile.singular : tile.plural;
}

type Props = {
  statistics: Statistics | undefined;
  loading?: boolean;
  error?: boolean;
  className?: string;
};

/** 'General Election Statistics': five counters that update in place when the live channel sends new ones. */
export function StatisticsTiles({ statistics, loading, error, className }: Props) {
  return (
    <section aria-labelledby="statistics-heading" className={cn('grid gap-3', className)}>
      <h2 id="statistics-heading" className="text-lg font-semibold">
        {STATISTICS_HEADING}
      </h2>
      {error && !statistics ? (
        <ErrorState>The statistics could not be loaded. Please try again later.</ErrorState>
      ) : (
        <ul
          className="grid grid-cols-1 gap-3 min-[400px]:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5"
          aria-live="polite"
          aria-busy={loading ? true : undefined}
        >
          {STATISTICS_TILES.map((tile) => {
            const count = statistics?.[tile.key];
            return (
              <li key={tile.key} className="rounded-lg border border-border bg-card p-4 shadow-sm" data-testid={`tile-${tile.key}`}>
                <p className="text-3xl font-bold tabular-nums text-primary">{count === undefined ? '–' : count.toLocaleString()}</p>
                <p className="mt-1 text-sm font-medium text-muted-foreground">
                  {count === undefined ? tile.plural : tileLabel(tile, count)}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
