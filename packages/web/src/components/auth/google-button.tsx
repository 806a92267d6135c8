import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { config } from '@/lib/config';
import { loadGoogleScript, type GoogleCredentialResponse } from '@/lib/google';
import { useT } from '@/i18n';

type Props = {
  onCredential: (response: GoogleCredentialResponse) => void;
  text?: 'signin_with' | 'signup_with' | 'continue_with';
  size?: 'large' | 'medium' | 'small';
};

export const GOOGLE_UNAVAILABLE_TEXT = 'Google sign-in is unavailable: it has not been set up on this server.';

/**
 * The Google Identity Services button. With no client id configured the script is not loaded
 * and a disabled button explains why.
 */
export function GoogleButton({ onCredential, text = 'signin_with', size = 'large' }: Props) {
  const { t, locale } = useT();
  // Google draws its own button: in the page's language where it has it.
  const googleLocale = locale === 'sw' ? 'sw' : 'en';
  const clientId = config.googleClientId;
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onCredential);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    callback.current = onCredential;
  });

  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    loadGoogleScript()
      .then((google) => {
        if (cancelled || !ref.current) return;
        google.accounts.id.initialize({ client_id: clientId, callback: (r) => callback.current(r), ux_mode: 'popup' });
        google.accounts.id.renderButton(ref.current, {
          type: 'standard',
          theme: 'outline',
          size,
          text,
          shape: 'rectangular',
          locale: googleLocale,
        });
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [clientId, size, text, googleLocale]);

  if (!clientId || failed) {
    const label = text === 'signup_with' ? t('google.signUp') : t('google.signIn');
    const why = failed ? t('google.failed') : t('google.unavailable');
    return (
      <div className="grid gap-1">
        <Button variant="outline" disabled aria-describedby="google-unavailable" className="w-full">
          <GoogleMark />
          {label}
        </Button>
        <p id="google-unavailable" className="text-xs text-muted-foreground">
          {why}
        </p>
      </div>
    );
  }
  return <div ref={ref} className="flex min-h-10 justify-center" data-testid="google-button" />;
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" className="size-4">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}
