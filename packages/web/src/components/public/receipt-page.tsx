import { useEffect, useId, useState } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { CheckCircle2, XCircle } from 'lucide-react';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { api } from '@/lib/api';
import { errorMessage, errorStatus, firstFieldError } from '@/lib/errors';

type Outcome = { kind: 'found'; vvpat: string; position: string } | { kind: 'missing'; vvpat: string } | { kind: 'error'; message: string };

/**
 * Anyone can check that a receipt code is in the count. The answer names the position, never the
 * candidate: the code proves the ballot was counted, not how it was cast.
 */
export function ReceiptCheck() {
  const id = useId();
  const { code } = useSearch({ strict: false }) as { code?: string };
  const [value, setValue] = useState(code ?? '');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, setPending] = useState(false);

  const check = async (raw: string) => {
    const vvpat = raw.trim();
    setOutcome(null);
    if (!vvpat) {
      setOutcome({ kind: 'error', message: 'Enter a receipt code' });
      return;
    }
    setPending(true);
    try {
      const res = await api.elections.getReceipt.query({ params: { vvpat } });
      if (res.status === 200) setOutcome({ kind: 'found', vvpat: res.body.vvpat, position: res.body.position });
      else if (res.status === 404) setOutcome({ kind: 'missing', vvpat });
      else
        setOutcome({
          kind: 'error',
          message: firstFieldError(res) ?? errorMessage(res) ?? 'Something went wrong. Please try again later.',
        });
    } catch (err) {
      setOutcome(
        errorStatus(err) === 404
          ? { kind: 'missing', vvpat }
          : { kind: 'error', message: errorMessage(err) ?? 'Something went wrong. Please try again later.' },
      );
    } finally {
      setPending(false);
    }
  };

  useEffect(() => {
    if (code) void check(code);
    // Only the code the page was opened with is checked by itself.
  }, []);

  return (
    <PublicLayout>
      <div className="grid gap-6">
        <div className="grid gap-2">
          <h1 className="text-2xl font-semibold">Check a receipt</h1>
          <p className="text-muted-foreground">
            Paste a receipt code (like <span className="font-mono">VP-7K3Q-M9XD</span>) to see whether that ballot is in the count. The
            answer shows the position only, never the choice, so a receipt is safe to check on any device.
          </p>
        </div>
        <form
          className="grid gap-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void check(value);
          }}
        >
          <Label htmlFor={id}>Receipt code</Label>
          <Input
            id={id}
            value={value}
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            onChange={(e) => setValue(e.target.value)}
          />
          <Button type="submit" disabled={pending}>
            {pending ? 'Checking…' : 'Check receipt'}
          </Button>
        </form>
        <div aria-live="polite">
          {outcome?.kind === 'found' && (
            <p role="status" className="flex items-start gap-2 rounded-md border border-green-600/40 bg-green-50 px-4 py-3 text-green-900">
              <CheckCircle2 className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
              <span>
                Receipt <span className="font-mono font-semibold">{outcome.vvpat}</span> is in the count, for {outcome.position}.
              </span>
            </p>
          )}
          {outcome?.kind === 'missing' && (
            <p role="alert" className="flex items-start gap-2 rounded-md border border-destructive/40 bg-red-50 px-4 py-3 text-destructive">
              <XCircle className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
              <span>
                No ballot has the receipt code <span className="font-mono font-semibold">{outcome.vvpat}</span>. Check the code for typing
                mistakes; if it is right, report it to the returning officer.
              </span>
            </p>
          )}
          {outcome?.kind === 'error' && (
            <p role="alert" className="font-medium text-destructive">
              {outcome.message}
            </p>
          )}
        </div>
        <p className="text-sm text-muted-foreground">
          The count is also fixed by the{' '}
          <Link to="/commitments" className="text-primary underline">
            published commitments
          </Link>
          .
        </p>
      </div>
    </PublicLayout>
  );
}
