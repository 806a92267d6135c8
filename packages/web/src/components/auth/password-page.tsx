import { useId, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { AuthCard } from '@/components/auth/auth-card';
import { FieldError } from '@/components/auth/field-error';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { api, ensureCsrfCookie } from '@/lib/api';
import { errorIssue, errorMessage } from '@/lib/errors';
import { config } from '@/lib/config';
import { getPfNumber, setPfNumber } from '@/lib/session';
import { SECRET_REQUEST_DELAY_MS, sleep } from '@/lib/time';

const REQUIRED = 'The password field is required';

/** Authenticator sign-in, step 1: the pin. */
export function PasswordStep() {
  const navigate = useNavigate();
  const passId = useId();
  const memberId = useId();
  const stored = getPfNumber();
  const [memberNo, setMemberNo] = useState(stored ?? '');
  const [pass, setPass] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signPass = api.auth.signPass.useMutation();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!pass) {
      setError(REQUIRED);
      return;
    }
    const pfNumber = memberNo.trim();
    if (!pfNumber) {
      setError('Enter your member number');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await sleep(SECRET_REQUEST_DELAY_MS);
      await ensureCsrfCookie();
      await signPass.mutateAsync({ body: { pass, pfNumber } });
      setPfNumber(pfNumber);
      void navigate({ to: '/verify-token' });
    } catch (err) {
      const message = errorIssue(err) ?? errorMessage(err) ?? 'Please try again';
      setError(message);
      toast({ variant: 'destructive', title: 'There has been the following issue', description: message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicLayout>
      <AuthCard title="Enter your pin">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          {!stored && (
            <div className="grid gap-2">
              <Label htmlFor={memberId}>Member number</Label>
              <Input id={memberId} value={memberNo} maxLength={50} autoComplete="username" onChange={(e) => setMemberNo(e.target.value)} />
            </div>
          )}
          <div className="grid gap-2">
            <Label htmlFor={passId}>Password</Label>
            <Input
              id={passId}
              type="password"
              autoComplete="current-password"
              value={pass}
              maxLength={100}
              aria-describedby={`${passId}-hint${error ? ` ${passId}-error` : ''}`}
              aria-invalid={error ? true : undefined}
              onChange={(e) => {
                setPass(e.target.value);
                setError(null);
              }}
            />
            <p id={`${passId}-hint`} className="text-sm text-muted-foreground">
              The default pin is {config.defaultPin} and can be changed via a USSD code.
            </p>
            <FieldError id={`${passId}-error`} message={error ?? undefined} />
          </div>
          <Button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Continue'}
          </Button>
        </form>
      </AuthCard>
    </PublicLayout>
  );
}
