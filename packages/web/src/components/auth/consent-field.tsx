import { Link } from '@tanstack/react-router';
import { Checkbox } from '@/components/ui/checkbox';

type Props = {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
};

/** The required consent checkbox, linking the data collection, privacy and terms documents. */
export function ConsentField({ id, checked, onChange, error }: Props) {
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
          I agree to the{' '}
          <Link to="/data-collection" target="_blank" className="text-primary underline underline-offset-2">
            data collection
          </Link>
          ,{' '}
          <Link to="/privacy" target="_blank" className="text-primary underline underline-offset-2">
            privacy policy
          </Link>{' '}
          and{' '}
          <Link to="/terms" target="_blank" className="text-primary underline underline-offset-2">
            terms and conditions
          </Link>
          .
        </label>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
