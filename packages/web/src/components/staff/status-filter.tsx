import { Button } from '@/components/ui/button';

/**
 * A queue's status filter (the Nominations and Register pages): one toggle button per status, and
 * `undefined` for all of them; the chosen one is pressed (`aria-pressed`). Choosing one calls
 * `onChange`, which also sends the list back to its first page.
 */
export function StatusFilter<S extends string>({
  statuses,
  value,
  onChange,
  label,
  labelOf,
}: {
  statuses: readonly (S | undefined)[];
  value: S | undefined;
  onChange: (status: S | undefined) => void;
  /** The group's accessible name. */
  label: string;
  labelOf: (status: S | undefined) => string;
}) {
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label={label}>
      {statuses.map((s) => (
        <Button
          key={s ?? 'all'}
          size="sm"
          variant={s === value ? 'default' : 'outline'}
          aria-pressed={s === value}
          onClick={() => onChange(s)}
        >
          {labelOf(s)}
        </Button>
      ))}
    </div>
  );
}
