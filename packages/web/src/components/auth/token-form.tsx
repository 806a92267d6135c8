import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { FieldError } from './field-error';
import { tokenFormSchema, type TokenValues } from '@/lib/identifier';

type Props = {
  label: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (token: string) => void | Promise<void>;
  autoFocus?: boolean;
};

/** A 6-digit code field with the spec's messages (length 6, digits only). */
export function TokenForm({ label, submitLabel, pending, onSubmit, autoFocus = true }: Props) {
  const id = useId();
  const form = useForm<TokenValues>({ resolver: zodResolver(tokenFormSchema), mode: 'onChange', defaultValues: { token: '' } });
  const error = form.formState.errors.token?.message;
  return (
    <form onSubmit={form.handleSubmit((v) => onSubmit(v.token.trim()))} className="grid gap-3" noValidate>
      <div className="grid gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...form.register('token')}
        />
        <FieldError id={`${id}-error`} message={error} />
      </div>
      <Button type="submit" disabled={pending || Boolean(error)}>
        {pending ? 'Verifying…' : submitLabel}
      </Button>
    </form>
  );
}
