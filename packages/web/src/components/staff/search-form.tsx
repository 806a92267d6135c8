import { useId, type ReactNode } from 'react';
import { Search, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import type { Filters } from '@/lib/list-search';
import { useT } from '@/i18n';

export type SearchField<K extends string> = { key: K; label: string; maxLength: number; type?: string; autoComplete?: string };

type Props<F extends Filters> = {
  /** names the search landmark */
  label: string;
  fields: SearchField<keyof F & string>[];
  /** useFilteredPages' (filters in the URL), or a list's own state with the same four members */
  filters: { draft: F; setField: (key: keyof F & string, value: string) => void; search: () => void; reset: () => void };
  /** the logs page shows Reset only while a filter is active (docs/screens.md "Staff pages") */
  showReset?: boolean;
  /** the field grid's columns from the sm and lg breakpoints up */
  columns?: 2 | 4;
  /** controls after the text fields, in the same grid (the vvpat position select) */
  children?: ReactNode;
};

const GRID = { 2: 'sm:grid-cols-2', 4: 'sm:grid-cols-2 lg:grid-cols-4' };

/** The filter form of the logs, members and vvpat pages: labelled fields, then Search and Reset. */
export function SearchForm<F extends Filters>({ label, fields, filters, showReset = true, columns = 4, children }: Props<F>) {
  const { t } = useT();
  const id = useId();
  return (
    <form
      role="search"
      aria-label={label}
      className="grid gap-4 rounded-lg border border-border bg-card p-4"
      onSubmit={(e) => {
        e.preventDefault();
        filters.search();
      }}
    >
      <div className={cn('grid gap-3', GRID[columns])}>
        {fields.map((fd) => (
          <div key={fd.key} className="grid gap-2">
            <Label htmlFor={`${id}-${fd.key}`}>{fd.label}</Label>
            <Input
              id={`${id}-${fd.key}`}
              type={fd.type}
              value={filters.draft[fd.key]}
              maxLength={fd.maxLength}
              autoComplete={fd.autoComplete}
              onChange={(e) => filters.setField(fd.key, e.target.value)}
            />
          </div>
        ))}
        {children}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit">
          <Search aria-hidden="true" />
          {t('staff.search.search')}
        </Button>
        {showReset && (
          <Button variant="outline" onClick={filters.reset}>
            <X aria-hidden="true" />
            {t('staff.search.reset')}
          </Button>
        )}
      </div>
    </form>
  );
}
