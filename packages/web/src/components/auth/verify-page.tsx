import { useId, useState } from 'react';
import type { z } from 'zod';
import type { DetailsResponse } from '@kura/contract';
import { AuthCard } from '@/components/auth/auth-card';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { api } from '@/lib/api';
import { errorMessage, firstFieldError } from '@/lib/errors';

type Details = z.infer<typeof DetailsResponse>;

export function VerifyDetails() {
  const inputId = useId();
  const [value, setValue] = useState('');
  const [details, setDetails] = useState<Details | null>(null);
  const [error, setError] = useState<string | null>(null);
  const lookup = api.members.getMemberDetails.useMutation();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setDetails(null);
    setError(null);
    const memberNo = value.trim();
    if (!memberNo) {
      setError('Enter your member number or email');
      return;
    }
    try {
      const res = await lookup.mutateAsync({ body: { member_no: memberNo } });
      setDetails(res.body);
    } catch (err) {
      setError(firstFieldError(err) ?? errorMessage(err) ?? 'Something went wrong. Please try again later.');
    }
  };

  return (
    <PublicLayout>
      <AuthCard title="Verify your member details" description="Check the details we hold for you before the voting date.">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor={inputId}>Enter your member number or email</Label>
            <Input
              id={inputId}
              value={value}
              maxLength={150}
              onChange={(e) => setValue(e.target.value)}
              aria-describedby={error ? `${inputId}-error` : undefined}
            />
          </div>
          <Button type="submit" disabled={lookup.isPending}>
            {lookup.isPending ? 'Checking…' : 'Submit'}
          </Button>
        </form>
        <div aria-live="polite" className="mt-6">
          {error && (
            <p id={`${inputId}-error`} role="alert" className="font-medium text-red-600">
              {error}
            </p>
          )}
          {details && (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-md border border-border p-4 text-sm">
              <dt className="font-medium">Phone</dt>
              <dd className="break-all">{details.phone}</dd>
              <dt className="font-medium">Email</dt>
              <dd className="break-all">{details.email}</dd>
              <dt className="font-medium">Branch</dt>
              <dd>{details.branch || 'Shown once you sign in'}</dd>
              <dt className="font-medium">Support</dt>
              <dd className="break-all">
                If these details are wrong, contact the secretariat at{' '}
                {details.support_email ? (
                  <a className="text-primary underline" href={`mailto:${details.support_email}`}>
                    {details.support_email}
                  </a>
                ) : (
                  'the organisation'
                )}
                .
              </dd>
            </dl>
          )}
        </div>
      </AuthCard>
    </PublicLayout>
  );
}
