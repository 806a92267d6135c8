import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FormField, useZodForm } from '@/components/forms';
import { tokenFormSchema } from '@/lib/identifier';
import { useT } from '@/i18n';

type Props = {
  label: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (token: string) => void | Promise<void>;
  autoFocus?: boolean;
};

/** A 6-digit code field with the spec's messages (length 6, digits only). */
export function TokenForm({ label, submitLabel, pending, onSubmit, autoFocus = true }: Props) {
  const { t } = useT();
  const form = useZodForm(tokenFormSchema, { mode: 'onChange', defaultValues: { token: '' } });
  const error = form.formState.errors.token?.message;
  return (
    <form onSubmit={form.handleSubmit((v) => onSubmit(v.token.trim()))} className="grid gap-3" noValidate>
      <FormField label={label} error={error}>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={12} autoFocus={autoFocus} {...form.register('token')} />
      </FormField>
      <Button type="submit" disabled={pending || Boolean(error)}>
        {pending ? t('code.verifying') : submitLabel}
      </Button>
    </form>
  );
}
