import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Checkbox } from '@/components/ui/checkbox';
import { useT } from '@/i18n';

type Props = {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
};

/** The required consent checkbox, linking the data collection, privacy and terms documents. */
export function ConsentField({ id, checked, onChange, error }: Props) {
  const { tRich, tReceived } = useT();
  const link = (to: '/data-collection' | '/privacy' | '/terms') => (chunks: ReactNode[]) => (
    <Link to={to} target="_blank" className="text-primary underline underline-offset-2">
      {chunks}
    </Link>
  );
  return (
    <div className="grid gap-1">
      <div className="flex items-start gap-3">
        <Checkbox
          id={id}
          checked={checked}
          onCheckedChange={(v) => onChange(v === true)}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="mt-0.5"
        />
        <label htmlFor={id} className="text-sm leading-snug">
          {tRich('signIn.consent', { data: link('/data-collection'), privacy: link('/privacy'), terms: link('/terms') })}
        </label>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {tReceived(error)}
        </p>
      )}
    </div>
  );
}
