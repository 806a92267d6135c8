import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { CheckCircle2, XCircle } from 'lucide-react';
import { z } from 'zod';
import { FormField, useZodForm } from '@/components/forms';
import { PublicLayout } from '@/components/layout/public-layout';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorMessage, errorStatus, firstFieldError } from '@/lib/errors';
import { queries } from '@/lib/queries';
import { receiptElection } from '@/lib/receipts';
import { says, t, useT } from '@/i18n';
import { positionTitleIn } from '@/lib/format';

const receiptSchema = z.object({
  vvpat: z
    .string()
    .trim()
    .refine((v) => v.length > 0, says('validation.enterReceiptCode')),
});

const strongCode = (chunks: ReactNode[]) => <span className="font-mono font-semibold">{chunks}</span>;

type Outcome =
  | { kind: 'found'; vvpat: string; position: string; election?: string }
  | { kind: 'missing'; vvpat: string }
  | { kind: 'error'; message: string };

/**
 * Anyone can check that a receipt code is in the count. The answer names the position, never the
 * candidate: the code proves the ballot was counted, not how it was cast.
 */
export function ReceiptCheck() {
  const { tRich, tReceived } = useT();
  const { code } = useSearch({ strict: false }) as { code?: string };
  const form = useZodForm(receiptSchema, { reValidateMode: 'onSubmit', defaultValues: { vvpat: code ?? '' } });
  // The code the page was opened with is checked by itself; then each submitted one.
  const [checked, setChecked] = useState(code?.trim() || null);
  const receipt = useQuery({ ...queries.receipt(checked ?? ''), enabled: checked !== null });
  const pending = receipt.isFetching;

  const submit = form.handleSubmit(({ vvpat }) => {
    if (vvpat === checked) void receipt.refetch();
    else setChecked(vvpat);
  });

  const outcome: Outcome | null = (() => {
    if (checked === null || pending) return null;
    const res = receipt.data;
    // The server names the receipt's election where it holds several (docs/api.md "Many elections").
    if (res?.status === 200)
      return { kind: 'found', vvpat: res.body.vvpat, position: res.body.position, election: receiptElection(res.body)?.title };
    if (res?.status === 404 || errorStatus(receipt.error) === 404) return { kind: 'missing', vvpat: checked };
    if (res) return { kind: 'error', message: tReceived(firstFieldError(res) ?? errorMessage(res)) || t('common.somethingWrong') };
    if (receipt.isError) return { kind: 'error', message: tReceived(errorMessage(receipt.error)) || t('common.somethingWrong') };
    return null;
  })();

  return (
    <PublicLayout>
      <div className="grid gap-6">
        <div className="grid gap-2">
          <h1 className="text-2xl font-semibold">{t('receipt.title')}</h1>
          <p className="text-muted-foreground">
            {tRich('receipt.intro', { mono: (chunks) => <span className="font-mono">{chunks}</span> })}
          </p>
        </div>
        <form className="grid gap-3" noValidate onSubmit={submit}>
          <FormField label={t('receipt.label')} error={form.formState.errors.vvpat?.message}>
            <Input maxLength={64} autoComplete="off" spellCheck={false} className="font-mono" {...form.register('vvpat')} />
          </FormField>
          <Button type="submit" disabled={pending}>
            {pending ? t('common.checking') : t('receipt.submit')}
          </Button>
        </form>
        <div aria-live="polite">
          {outcome?.kind === 'found' && (
            <p role="status" className="flex items-start gap-2 rounded-md border border-green-600/40 bg-green-50 px-4 py-3 text-green-900">
              <CheckCircle2 className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
              <span>
                {tRich('receipt.found', { code: outcome.vvpat, position: positionTitleIn(outcome.position), mono: strongCode })}
                {outcome.election && <> {t('receipt.election', { title: outcome.election })}</>}
              </span>
            </p>
          )}
          {outcome?.kind === 'missing' && (
            <p role="alert" className="flex items-start gap-2 rounded-md border border-destructive/40 bg-red-50 px-4 py-3 text-destructive">
              <XCircle className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
              <span>{tRich('receipt.missing', { code: outcome.vvpat, mono: strongCode })}</span>
            </p>
          )}
          {outcome?.kind === 'error' && (
            <p role="alert" className="font-medium text-destructive">
              {outcome.message}
            </p>
          )}
        </div>
        <p className="text-sm text-muted-foreground">
          {tRich('receipt.commitments', {
            link: (chunks) => (
              <Link to="/commitments" className="text-primary underline">
                {chunks}
              </Link>
            ),
          })}
        </p>
      </div>
    </PublicLayout>
  );
}
