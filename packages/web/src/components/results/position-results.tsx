import { useId, useMemo, useState } from 'react';
import type { Position, ResultGroup } from '@kura/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { positionKey, positionLabel } from '@/lib/format';
import { RetryButton } from '@/components/layout/screen-error';
import { ResultsRows } from './results-rows';
import { cn } from '@/lib/utils';
import { contentIn, titleIn, useT } from '@/i18n';

/** The English texts (tests read them); the screen shows the catalogue's results.none and results.firstPreferences. */
export const NO_RESULTS_TEXT = 'No results available';
/** A ranked position's live counts (docs/api.md "Ranked positions"). */
export const FIRST_PREFERENCES_TEXT = 'First preferences only: the count by single transferable vote runs when voting closes.';

type Props = {
  positions: Position[] | undefined;
  groups: ResultGroup[] | undefined;
  loading?: boolean;
  error?: boolean;
  /** name_level of the position selected first */
  defaultKey: string;
  /** what an empty position says (differs per screen) */
  noVotesText: string;
  /** shown instead of 'No results available' when the server withheld the results (their visibility) */
  hiddenText?: string;
  /** reads the results again: a failed read (not withheld results) then offers Retry */
  onRetry?: () => void;
  className?: string;
};

type Option = { key: string; label: string };

/** A position dropdown (label name + level, value name_level) and the results card for it. */
export function PositionResults({ positions, groups, loading, error, defaultKey, noVotesText, hiddenText, onRetry, className }: Props) {
  const { t, tReceived, optionName, locale } = useT();
  const selectId = useId();
  // Names in the reader's language where the admin translated them (docs/i18n.md "Ballot content"); keys stay the originals.
  const options: Option[] = useMemo(() => {
    if (positions && positions.length > 0)
      return positions.map((p) => ({
        key: positionKey(p),
        label: positionLabel({ ...p, name: contentIn(locale, p.name, p.translations, 'name') }),
      }));
    return (groups ?? []).map((g) => ({ key: g.key, label: titleIn(locale, g) }));
  }, [positions, groups, locale]);

  const [chosen, setChosen] = useState<string | null>(null);
  const selected = chosen ?? (options.some((o) => o.key === defaultKey) || options.length === 0 ? defaultKey : options[0]!.key);
  const group = groups?.find((g) => g.key === selected);
  // Nothing to choose yet (loading, failed, or an organisation with no positions): the default is
  // only a key, often of demo content ('Chairperson_National'), so it is never shown as a name.
  const none = options.length === 0;
  const label = options.find((o) => o.key === selected)?.label ?? selected.replace(/_/g, ' ');

  return (
    <div className={cn('grid gap-4', className)}>
      <div className="grid max-w-sm gap-2">
        <Label htmlFor={selectId}>{t('results.position')}</Label>
        <Select value={none ? '' : selected} onValueChange={setChosen} disabled={none}>
          <SelectTrigger id={selectId} className="custom-colours border-transparent" aria-label={t('results.position')}>
            <SelectValue placeholder={loading ? t('results.loadingPositions') : t('results.choosePosition')} />
          </SelectTrigger>
          <SelectContent className="custom-colours">
            {options.map((o) => (
              <SelectItem key={o.key} value={o.key} className="focus:bg-white/20">
                {o.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <Card className="w-full max-w-md">
        <CardHeader>
          <CardTitle>{group ? titleIn(locale, group) : none ? t('results.list') : label}</CardTitle>
        </CardHeader>
        <CardContent aria-live="polite">
          {loading ? (
            <p className="text-muted-foreground" role="status">
              {t('results.loading')}
            </p>
          ) : error && hiddenText ? (
            <p className="text-muted-foreground">{tReceived(hiddenText)}</p>
          ) : error && onRetry && !groups ? (
            <div className="grid justify-items-start gap-3">
              <p className="text-muted-foreground">{t('results.none')}</p>
              <RetryButton onRetry={onRetry} label={t('screenError.retryResults')} />
            </div>
          ) : error || !groups || groups.length === 0 ? (
            <p className="text-muted-foreground">{t('results.none')}</p>
          ) : !group || group.total <= 0 || group.values.length === 0 ? (
            <p className="text-muted-foreground">{noVotesText}</p>
          ) : (
            <div className="grid gap-3">
              {group.first_preferences_only && <p className="text-sm text-muted-foreground">{t('results.firstPreferences')}</p>}
              <ResultsRows
                values={
                  // A motion's values are the contract's options: said by their catalogue keys.
                  group.kind === 'motion'
                    ? group.values.map((v) => ({ ...v, title: optionName(v.title), name: optionName(v.name) }))
                    : group.values
                }
                total={group.total}
              />
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
