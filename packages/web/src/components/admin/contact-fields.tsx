import type { Branch } from '@kura/contract';
import { FieldError } from '@/components/auth/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { BranchSelect } from './branch-select';

/** The details both edit dialogs change; the member dialog adds `member_no`. */
export type ContactValues = { name: string; phone: string; email: string; county: string };

type TextKey = 'name' | 'member_no' | 'phone' | 'email';

const TEXT_FIELDS: { key: TextKey; label: string; input: React.ComponentProps<'input'> }[] = [
  { key: 'name', label: 'Name', input: { autoComplete: 'off', maxLength: 150 } },
  { key: 'member_no', label: 'Member no', input: { autoComplete: 'off', maxLength: 50 } },
  { key: 'phone', label: 'Phone', input: { inputMode: 'numeric', autoComplete: 'off', maxLength: 10 } },
  { key: 'email', label: 'Email', input: { type: 'email', autoComplete: 'off', maxLength: 150 } },
];

type Props<V extends ContactValues> = {
  /** prefix of the field ids (the dialog's useId) */
  id: string;
  values: V;
  errors: Record<string, string>;
  onChange: (key: keyof V, value: string) => void;
  branches: Branch[];
  branchesLoading: boolean;
};

/**
 * Name, Member no (only when the values hold one), Phone, Email and the Branch select of the
 * member and candidate edit dialogs (docs/screens.md "Staff pages"), each with its field message.
 */
export function ContactFields<V extends ContactValues>({ id, values, errors, onChange, branches, branchesLoading }: Props<V>) {
  const text = values as ContactValues & { member_no?: string };
  return (
    <>
      {TEXT_FIELDS.filter(({ key }) => key in values).map(({ key, label, input }) => (
        <div key={key} className="grid gap-2">
          <Label htmlFor={`${id}-${key}`}>{label}</Label>
          <Input
            id={`${id}-${key}`}
            value={text[key]}
            onChange={(ev) => onChange(key as keyof V, ev.target.value)}
            aria-invalid={errors[key] ? true : undefined}
            aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
            {...input}
          />
          <FieldError id={`${id}-${key}-error`} message={errors[key]} />
        </div>
      ))}
      <div className="grid gap-2">
        <Label htmlFor={`${id}-county`}>Branch</Label>
        <BranchSelect
          id={`${id}-county`}
          value={values.county}
          onChange={(v) => onChange('county', v)}
          branches={branches}
          loading={branchesLoading}
          invalid={Boolean(errors.county)}
          describedBy={errors.county ? `${id}-county-error` : undefined}
        />
        <FieldError id={`${id}-county-error`} message={errors.county} />
      </div>
    </>
  );
}
