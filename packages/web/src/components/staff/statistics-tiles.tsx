import type { Statistics } from '@kura/contract';
import { ErrorState } from '@/components/layout/page-states';
import { cn } from '@/lib/utils';
import { intlLocale, t, useT, type MessageKey } from '@/i18n';

export const STATISTICS_HEADING = 'General Election Statistics';

type Tile = {
  key: Exclude<keyof Statistics, 'channels'>;
  singular: string;
  plural: string;
  singularKey: MessageKey;
  pluralKey: MessageKey;
};

/** docs/screens.md "Staff pages": the five tiles, in order, each with its singular and plural wording. */
export const STATISTICS_TILES: readonly Tile[] = [
  {
    key: 'votesCasted',
    singular: 'Vote cast (one per position)',
    plural: 'Votes cast (one per position)',
    singularKey: 'staff.stats.votesCasted.one',
    pluralKey: 'staff.stats.votesCasted.other',
  },
  {
    key: 'verifiedMembers',
    singular: 'Member verified',
    plural: 'Members verified',
    singularKey: 'staff.stats.verifiedMembers.one',
    pluralKey: 'staff.stats.verifiedMembers.other',
  },
  {
    key: 'unverifiedMembers',
    singular: 'Member not verified',
    plural: 'Members not verified',
    singularKey: 'staff.stats.unverifiedMembers.one',
    pluralKey: 'staff.stats.unverifiedMembers.other',
  },
  {
    key: 'membersVoted',
    singular: 'Member Voted',
    plural: 'Members Voted',
    singularKey: 'staff.stats.membersVoted.one',
    pluralKey: 'staff.stats.membersVoted.other',
  },
  {
    key: 'membersNotVoted',
    singular: 'Member not Voted',
    plural: 'Members not Voted',
    singularKey: 'staff.stats.membersNotVoted.one',
    pluralKey: 'staff.stats.membersNotVoted.other',
  },
];

/** The wording follows the count: exactly one reads singular, anything else plural ("0 Members"). */
export function tileLabel(tile: Pick<Tile, 'singularKey' | 'pluralKey'>, count: number): string {
  return t(count === 1 ? tile.singularKey : tile.pluralKey);
}

type Props = {
  statistics: Statistics | undefined;
  loading?: boolean;
  error?: boolean;
  /** reads the statistics again (the Retry of the error state) */
  onRetry?: () => void;
  className?: string;
};

/** 'General Election Statistics': five counters that update in place when the live channel sends new ones. */
export function StatisticsTiles({ statistics, loading, error, onRetry, className }: Props) {
  const { t } = useT();
  return (
    <section aria-labelledby="statistics-heading" className={cn('grid gap-3', className)}>
      <h2 id="statistics-heading" className="text-lg font-semibold">
        {t('staff.stats.heading')}
      </h2>
      {error && !statistics ? (
        <ErrorState onRetry={onRetry} retryLabel={t('screenError.retryStatistics')}>
          {t('staff.stats.error')}
        </ErrorState>
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
                <p className="text-3xl font-bold tabular-nums text-primary">
                  {count === undefined ? '–' : count.toLocaleString(intlLocale())}
                </p>
                <p className="mt-1 text-sm font-medium text-muted-foreground">
                  {count === undefined ? t(tile.pluralKey) : tileLabel(tile, count)}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
