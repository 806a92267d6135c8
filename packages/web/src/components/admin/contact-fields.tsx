import type { Branch } from '@kura/contract';
import { FormField } from '@/components/forms';
import { Input } from '@/components/ui/input';
import { BranchSelect } from './branch-select';
import { useT, type MessageKey } from '@/i18n';

/** The details both edit dialogs change; the member dialog adds `member_no`. */
export type ContactValues = { name: string; phone: string; email: string; county: string };

type TextKey = 'name' | 'member_no' | 'phone' | 'email';

const TEXT_FIELDS: { key: TextKey; label: MessageKey; input: React.ComponentProps<'input'> }[] = [
  { key: 'name', label: 'admin.field.name', input: { autoComplete: 'off', maxLength: 150 } },
  { key: 'member_no', label: 'admin.field.memberNo', input: { autoComplete: 'off', maxLength: 50 } },
  // Any Kenyan spelling (0712 345 678, +254 712-345-678); the server stores E.164.
  { key: 'phone', label: 'admin.field.phone', input: { type: 'tel', inputMode: 'tel', autoComplete: 'off', maxLength: 20 } },
  { key: 'email', label: 'admin.field.email', input: { type: 'email', autoComplete: 'off', maxLength: 150 } },
];

type Props<V extends ContactValues> = {
  /** prefix of the field ids (the dialog's useId) */
  id: string;
  /** The form's values (react-hook-form's `watch()`). */
  values: V;
  /** The form's field messages (components/forms.tsx `fieldMessages`). */
  errors: Partial<Record<string, string>>;
  /** Sets one field (react-hook-form's `setValue`). */
  onChange: (key: TextKey | 'county', value: string) => void;
  branches: Branch[];
  branchesLoading: boolean;
};

/**
 * Name, Member no (only when the values hold one), Phone, Email and the Branch select of the
 * member and candidate edit dialogs (docs/screens.md "Staff pages"), each with its field message.
 */
export function ContactFields<V extends ContactValues>({ id, values, errors, onChange, branches, branchesLoading }: Props<V>) {
  const { t } = useT();
  const text = values as ContactValues & { member_no?: string };
  return (
    <>
      {TEXT_FIELDS.filter(({ key }) => key in values).map(({ key, label, input }) => (
        <FormField key={key} id={`${id}-${key}`} label={t(label)} error={errors[key]}>
          <Input value={text[key] ?? ''} onChange={(ev) => onChange(key, ev.target.value)} {...input} />
        </FormField>
      ))}
      <FormField id={`${id}-county`} label={t('admin.field.branch')} error={errors.county}>
        <BranchSelect value={values.county} onChange={(v) => onChange('county', v)} branches={branches} loading={branchesLoading} />
      </FormField>
    </>
  );
}
