import { useState } from 'react';
import { LifeBuoy } from 'lucide-react';
import { z } from 'zod';
import { MAX_ISSUE_IMAGES, said } from '@kura/contract';
import { FormField, FormFooter, useZodForm } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { useReportIssue } from '@/lib/mutations';
import { t, useT } from '@/i18n';

/** The report's fields: the details (required, 5000 characters at most) and up to MAX_ISSUE_IMAGES images. */
const issueSchema = z
  .object({
    details: z
      .string()
      .trim()
      .min(1, said('field.isRequired', { field: 'details' })),
    images: z.custom<FileList | null>().optional(),
  })
  .transform((v) => ({ details: v.details, images: Array.from(v.images ?? []) }))
  .refine(
    (v) => v.images.length <= MAX_ISSUE_IMAGES,
    () => ({ message: t('issue.tooManyImages', { max: MAX_ISSUE_IMAGES }), path: ['details'] }),
  );

/** The issue dialog and its report toasts (docs/screens.md "Messages and timings"). */
export function IssueDialog({ triggerLabel }: { triggerLabel?: string }) {
  useT();
  const [open, setOpen] = useState(false);
  const report = useReportIssue();
  const form = useZodForm(issueSchema, { reValidateMode: 'onSubmit', defaultValues: { details: '', images: null } });
  const error = form.formState.errors.details?.message;

  const submit = form.handleSubmit(async ({ details, images }) => {
    const body = new FormData();
    body.append('details', details);
    for (const f of images) body.append('images[]', f);
    try {
      await report.mutateAsync({ body });
      toast({
        variant: 'success',
        title: t('issue.reported'),
        description: t('issue.thanks'),
      });
      form.reset();
      setOpen(false);
    } catch {
      // the hook toasts the failure
    }
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <LifeBuoy aria-hidden="true" />
          {triggerLabel ?? t('issue.open')}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('issue.open')}</DialogTitle>
            <DialogDescription>{t('issue.description')}</DialogDescription>
          </DialogHeader>
          <FormField label={t('issue.details')} error={error}>
            <Textarea maxLength={5000} {...form.register('details', { onChange: () => form.clearErrors('details') })} />
          </FormField>
          <FormField label={t('issue.attachment')}>
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp"
              multiple
              className="text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5"
              {...form.register('images')}
            />
          </FormField>
          <FormFooter
            pending={report.isPending}
            submitLabel={t('common.submit')}
            pendingLabel={t('common.submitting')}
            onCancel={() => setOpen(false)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
