import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CreateReminderBody, type Reminder } from '@kura/contract';
import { FormField, useZodForm } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { useCreateReminder } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { useT, type MessageKey } from '@/i18n';
import { TranslationFields, translationValues, useOtherLanguages } from './translation-fields';

const reminderSchema = CreateReminderBody.omit({ dry_run: true });

/**
 * Reminders to the members who have not voted: SMS or email, `{name}` filled in, a count first
 * (dry run), then sent in the background at the server's rate with live progress below. The message
 * may be written in each other language too; members whose language it is get that one.
 */
export function RemindersPage() {
  const { t, tRich } = useT();
  const id = useId();
  const [counted, setCounted] = useState<number | null>(null);
  const create = useCreateReminder();
  const languages = useOtherLanguages();
  const form = useZodForm(reminderSchema, {
    defaultValues: {
      channel: 'sms',
      message: t('admin.reminders.default', { name: '{name}' }),
      translations: translationValues(undefined, languages, ['message']),
    },
  });
  const channel = form.watch('channel');
  const message = form.watch('message');
  const list = useQuery({
    ...queries.reminders(),
    // Progress while a campaign runs; nothing to poll otherwise.
    refetchInterval: (q) => (q.state.data?.body.data.some((r) => r.status !== 'done') ? 1000 : false),
  });

  const submit = (dryRun: boolean) =>
    form.handleSubmit(async ({ translations, ...body }) => {
      // The message in other languages goes only when the admin wrote one (docs/api.md "Languages").
      const translated = translations && Object.keys(translations).length > 0 ? { translations } : {};
      const res = await create.mutateAsync({ body: { ...body, ...translated, dry_run: dryRun } }).catch(() => null);
      if (!res) return;
      if (dryRun) {
        setCounted(res.body.recipients);
        return;
      }
      setCounted(null);
      toast({
        variant: 'success',
        title: t('admin.reminders.queued', { number: String(res.body.recipients), count: res.body.recipients }),
      });
    });

  return (
    <div className="grid gap-8">
      <form
        onSubmit={submit(false)}
        className="grid max-w-2xl gap-4 rounded-lg border border-border bg-card p-4 shadow-sm"
        aria-labelledby={`${id}-h`}
      >
        <h2 id={`${id}-h`} className="text-lg font-semibold">
          {t('admin.reminders.heading')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('admin.reminders.intro')}</p>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">{t('admin.reminders.sendBy')}</legend>
          <RadioGroup
            value={channel}
            onValueChange={(v) => {
              form.setValue('channel', v === 'email' ? 'email' : 'sms');
              setCounted(null);
            }}
            className="flex gap-6"
          >
            <span className="flex items-center gap-2">
              <RadioGroupItem id={`${id}-sms`} value="sms" />
              <Label htmlFor={`${id}-sms`}>{t('admin.reminders.sms')}</Label>
            </span>
            <span className="flex items-center gap-2">
              <RadioGroupItem id={`${id}-email`} value="email" />
              <Label htmlFor={`${id}-email`}>{t('admin.reminders.email')}</Label>
            </span>
          </RadioGroup>
        </fieldset>
        <FormField
          id={`${id}-message`}
          label={t('admin.reminders.message')}
          description={
            <>
              {tRich('admin.reminders.hint', {
                placeholder: '{name}',
                length: String(message.length),
                code: (chunks) => <code>{chunks}</code>,
              })}
            </>
          }
          error={form.formState.errors.message?.message}
        >
          <Textarea maxLength={1000} {...form.register('message', { onChange: () => setCounted(null) })} />
        </FormField>
        <TranslationFields
          form={form}
          className="grid gap-2 rounded-md border border-border p-3"
          fields={[{ name: 'message', label: 'admin.reminders.messageIn', multiline: true }]}
        />
        <p role="status" className="text-sm">
          {counted !== null ? t('admin.reminders.wouldReceive', { number: String(counted), count: counted }) : ''}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={create.isPending || !message.trim()} onClick={() => void submit(true)()}>
            {t('admin.reminders.count')}
          </Button>
          <Button type="submit" disabled={create.isPending || !message.trim()}>
            {t('admin.reminders.send')}
          </Button>
        </div>
      </form>
      <section aria-labelledby={`${id}-progress`} className="grid gap-3">
        <h2 id={`${id}-progress`} className="text-lg font-semibold">
          {t('admin.reminders.recent')}
        </h2>
        {list.isPending ? (
          <p className="text-sm text-muted-foreground">{t('common.loading')}</p>
        ) : list.isError ? (
          <p className="text-sm text-destructive">{t('admin.reminders.loadError')}</p>
        ) : list.data.body.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('admin.reminders.none')}</p>
        ) : (
          <ul className="grid gap-3">
            {list.data.body.data.map((r) => (
              <ReminderProgress key={r.id} reminder={r} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

const STATUS_TEXT: Record<Reminder['status'], MessageKey> = {
  queued: 'admin.reminders.status.queued',
  sending: 'admin.reminders.status.sending',
  done: 'admin.reminders.status.done',
};

export function ReminderProgress({ reminder: r }: { reminder: Reminder }) {
  const { t } = useT();
  const settled = r.sent + r.failed + r.skipped;
  const pct = r.total === 0 ? 100 : Math.round((settled / r.total) * 100);
  return (
    <li
      className="grid gap-2 rounded-lg border border-border bg-card p-4 shadow-sm"
      aria-label={t('admin.reminders.label', { id: String(r.id) })}
    >
      <p className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <strong>{t(r.channel === 'sms' ? 'admin.reminders.bySms' : 'admin.reminders.byEmail', { id: String(r.id) })}</strong>
        <span>{t(STATUS_TEXT[r.status])}</span>
      </p>
      <progress
        className="h-2 w-full accent-primary"
        max={Math.max(r.total, 1)}
        value={r.total === 0 ? 1 : settled}
        aria-label={t('admin.reminders.progress', { id: String(r.id) })}
      >
        {pct}%
      </progress>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {t('admin.reminders.tally', { sent: String(r.sent), failed: String(r.failed), skipped: String(r.skipped), total: String(r.total) })}
      </p>
    </li>
  );
}
