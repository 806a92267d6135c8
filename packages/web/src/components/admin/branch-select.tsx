import type { Branch } from '@kura/contract';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useT } from '@/i18n';

type Props = {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  branches: Branch[];
  loading?: boolean;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
};

/** A branch select whose value is the branch name (the API accepts a branch id or name). */
/** Used inside a FormField, which gives it the id and the aria attributes of its trigger. */
export function BranchSelect({ id, value, onChange, branches, loading, 'aria-invalid': invalid, 'aria-describedby': describedBy }: Props) {
  const { t } = useT();
  const names = branches.map((b) => b.name);
  // Keep the current branch selectable even when the list failed or does not hold it.
  if (value && !names.includes(value)) names.unshift(value);
  return (
    <Select value={value || undefined} onValueChange={onChange}>
      <SelectTrigger id={id} aria-invalid={invalid ? true : undefined} aria-describedby={describedBy}>
        <SelectValue placeholder={loading ? t('admin.branch.loading') : t('admin.branch.choose')} />
      </SelectTrigger>
      <SelectContent>
        {names.map((n) => (
          <SelectItem key={n} value={n}>
            {n}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
