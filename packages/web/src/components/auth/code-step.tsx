import { useEffect, useId, useState } from 'react';
import { Info } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';
import { RESEND_WAIT_SECONDS } from '@/lib/time';
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
  /**
   * Offers "Resend code" (after the server's wait): sends a new code and answers the seconds to
   * wait before the next one (a 429's Retry-After), or 0 when the send failed for another reason.
   */
  onResend?: () => Promise<number>;
};

/**
 * The code-entry step of every sign-in and of sign-up (docs/screens.md "Sign-in and session
 * loss"): what was sent where, the code field, and the way back to the details.
 */
export function CodeStep({ prompt, label, onSubmit, redirecting = false, onBack, onResend }: Props) {
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
      {onResend && <ResendCode onResend={onResend} disabled={redirecting} />}
      <Button variant="link" disabled={redirecting} onClick={onBack}>
        {t('code.back')}
      </Button>
    </>
  );
}

/**
 * "Resend code" with the wait shown (docs/screens.md "Sign-in and session loss"): a countdown
 * from the server's one-code-a-minute rule, started when the step opens. The button stays in the
 * tab order while waiting (aria-disabled, described by the countdown), and a polite live region
 * says only the changes (a new code sent, the wait over), not every second.
 */
export function ResendCode({ onResend, disabled = false }: { onResend: () => Promise<number>; disabled?: boolean }) {
  const { t } = useT();
  const countdownId = useId();
  const [until, setUntil] = useState(() => Date.now() + RESEND_WAIT_SECONDS * 1000);
  const [now, setNow] = useState(() => Date.now());
  const [sending, setSending] = useState(false);
  const [resent, setResent] = useState(false);
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  const waiting = seconds > 0;

  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waiting]);

  const resend = async () => {
    if (waiting || sending || disabled) return;
    setSending(true);
    try {
      const wait = await onResend();
      const at = Date.now();
      setResent(wait >= RESEND_WAIT_SECONDS);
      setNow(at);
      setUntil(at + wait * 1000);
    } finally {
      setSending(false);
    }
  };

  const unavailable = waiting || sending || disabled;
  return (
    <div className="grid justify-items-center gap-1 text-center text-sm">
      <Button
        type="button"
        variant="outline"
        aria-disabled={unavailable}
        aria-describedby={countdownId}
        className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
        onClick={() => void resend()}
      >
        {t('code.resend')}
      </Button>
      <p id={countdownId} className="text-muted-foreground">
        {waiting ? t('code.resendIn', { seconds }) : t('code.resendNow')}
      </p>
      <p className="sr-only" aria-live="polite" data-testid="resend-status">
        {waiting ? (resent ? t('code.resent') : '') : t('code.resendNow')}
      </p>
    </div>
  );
}
