import { useState } from 'react';
import { Info } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';
import { TokenForm } from './token-form';

type Props = {
  /** What was sent where ('Enter 6 digit secure OTP'). */
  prompt: string;
  /** The code field's label. */
  label: string;
  /** Sends the code; the step shows 'Verifying…' until it settles. */
  onSubmit: (token: string) => Promise<void>;
  /** Keeps the step busy after success, while the success message shows before the redirect. */
  redirecting?: boolean;
  onBack: () => void;
};

/**
 * The code-entry step of every sign-in and of sign-up (docs/screens.md "Sign-in and session
 * loss"): what was sent where, the code field, and the way back to the details.
 */
export function CodeStep({ prompt, label, onSubmit, redirecting = false, onBack }: Props) {
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const submit = async (token: string) => {
    setBusy(true);
    try {
      await onSubmit(token);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p className="flex items-center gap-2 rounded-md bg-muted px-3 py-2 text-sm" role="note">
        <Info className="size-4 shrink-0" aria-hidden="true" />
        {prompt}
      </p>
      <TokenForm label={label} submitLabel={t('code.verify')} pending={busy || redirecting} onSubmit={submit} />
      <Button variant="link" disabled={redirecting} onClick={onBack}>
        {t('code.back')}
      </Button>
    </>
  );
}
