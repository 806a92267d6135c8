import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Election } from '@kura/contract';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useElectionParam, useSetElectionParam } from '@/lib/election-search';
import { queries } from '@/lib/queries';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';

/** An election as a list names it: its title (or "Untitled election"), its phase, archived or current. */
export function useElectionName() {
  const { t } = useT();
  return (e: Election, currentId?: number) =>
    t('elections.option', {
      title: e.title.trim() || t('elections.untitled'),
      phase: e.archived ? t('elections.archived') : t(`elections.phase.${e.phase}`),
      current: e.id !== undefined && e.id === currentId ? 'yes' : 'no',
    });
}

/**
 * The election a staff page shows, named as the switcher names it, while the switcher shows (more
 * than one election, or `?election=N`); else undefined. For a dialog, which hides the page's switcher,
 * to say which election it acts on.
 */
export function useShownElectionName(): string | undefined {
  const selected = useElectionParam();
  const name = useElectionName();
  const list = useQuery(queries.elections());
  const current = useQuery(queries.election());
  const elections = list.data?.body.data ?? [];
  const currentId = current.data?.body.data.id;
  if (selected === undefined && elections.length < 2) return undefined;
  const shown = elections.find((e) => e.id !== undefined && e.id === (selected ?? currentId));
  return shown ? name(shown, currentId) : undefined;
}

/**
 * The staff pages' election switcher (docs/api.md "Many elections"): a labelled Radix select
 * (a combobox, keyboard usable) of GET elections, each with its title and phase. Choosing one sets
 * the page's `?election=N` (lib/election-search.ts), so a reload or a shared link keeps it; with no
 * param it shows the current election. An installation with a single election shows no switcher.
 * `clear` names the page's search params that go with the choice (a list's filters); pass a
 * module-level constant.
 */
export function ElectionSwitcher({ className, clear }: { className?: string; clear?: readonly string[] }) {
  const { t } = useT();
  const id = useId();
  const selected = useElectionParam();
  const setElection = useSetElectionParam(clear);
  const name = useElectionName();
  const list = useQuery(queries.elections());
  const current = useQuery(queries.election());
  const elections = (list.data?.body.data ?? []).filter((e): e is Election & { id: number } => e.id !== undefined);
  const currentId = current.data?.body.data.id;
  if (selected === undefined && elections.length < 2) return null;

  const value = selected ?? currentId;
  const known = value !== undefined && elections.some((e) => e.id === value);
  const placeholder = list.isPending
    ? t('elections.switcher.loading')
    : list.isError
      ? t('elections.switcher.loadError')
      : t('elections.switcher.choose');

  return (
    <div className={cn('grid w-full gap-1 sm:max-w-sm', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {t('elections.switcher.label')}
      </label>
      <Select value={known ? String(value) : ''} onValueChange={(v) => setElection(Number(v))} disabled={elections.length === 0}>
        <SelectTrigger id={id}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent aria-label={t('elections.switcher.label')}>
          {elections.map((e) => (
            <SelectItem key={e.id} value={String(e.id)}>
              {name(e, currentId)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
