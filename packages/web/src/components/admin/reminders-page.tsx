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

const reminderSchema = CreateReminderBody.omit({ dry_run: true });

export const DEFAULT_REMINDER = 'Dear {name}, voting is open and you have not voted yet. Please sign in and cast your vote.';

/**
 * Reminders to the members who have not voted: SMS or email, `{name}` filled in, a count first
 * (dry run), then sent in the background at the server's rate with live progress below.
 */
export function RemindersPage() {
  const id = useId();
  const [counted, setCounted] = useState<number | null>(null);
  const create = useCreateReminder();
  const form = useZodForm(reminderSchema, { defaultValues: { channel: 'sms', message: DEFAULT_REMINDER } });
  const channel = form.watch('channel');
  const message = form.watch('message');
  const list = useQuery({
    ...queries.reminders(),
    // Progress while a campaign runs; nothing to poll otherwise.
    refetchInterval: (q) => (q.state.data?.body.data.some((r) => r.status !== 'done') ? 1000 : false),
  });

  const submit = (dryRun: boolean) =>
    form.handleSubmit(async (body) => {
      const res = await create.mutateAsync({ body: { ...body, dry_run: dryRun } }).catch(() => null);
      if (!res) return;
      if (dryRun) {
        setCounted(res.body.recipients);
        return;
      }
      setCounted(null);
      toast({
        variant: 'success',
        title: `Reminder queued for ${res.body.recipients} ${res.body.recipients === 1 ? 'member' : 'members'}`,
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
          Remind members who have not voted
        </h2>
        <p className="text-sm text-muted-foreground">
          Goes to every member without a ballot yet. A member reminded in the last hour is left out, so pressing send twice does not reach
          anyone twice.
        </p>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">Send by</legend>
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
              <Label htmlFor={`${id}-sms`}>SMS</Label>
            </span>
            <span className="flex items-center gap-2">
              <RadioGroupItem id={`${id}-email`} value="email" />
              <Label htmlFor={`${id}-email`}>Email</Label>
            </span>
          </RadioGroup>
        </fieldset>
        <FormField
          id={`${id}-message`}
          label="Message"
          description={
            <>
              <code>{'{name}'}</code> is replaced with each member&apos;s name. {message.length}/1000
            </>
          }
          error={form.formState.errors.message?.message}
        >
          <Textarea maxLength={1000} {...form.register('message', { onChange: () => setCounted(null) })} />
        </FormField>
        <p role="status" className="text-sm">
          {counted !== null ? `${counted} ${counted === 1 ? 'member' : 'members'} would receive this reminder.` : ''}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={create.isPending || !message.trim()} onClick={() => void submit(true)()}>
            Count recipients
          </Button>
          <Button type="submit" disabled={create.isPending || !message.trim()}>
            Send reminder
          </Button>
        </div>
      </form>
      <section aria-labelledby={`${id}-progress`} className="grid gap-3">
        <h2 id={`${id}-progress`} className="text-lg font-semibold">
          Recent reminders
        </h2>
        {list.isPending ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : list.isError ? (
          <p className="text-sm text-destructive">The reminders could not be loaded.</p>
        ) : list.data.body.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No reminders have been sent.</p>
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

const STATUS_TEXT: Record<Reminder['status'], string> = { queued: 'Queued', sending: 'Sending', done: 'Done' };

export function ReminderProgress({ reminder: r }: { reminder: Reminder }) {
  const settled = r.sent + r.failed + r.skipped;
  const pct = r.total === 0 ? 100 : Math.round((settled / r.total) * 100);
  return (
    <li className="grid gap-2 rounded-lg border border-border bg-card p-4 shadow-sm" aria-label={`Reminder ${r.id}`}>
      <p className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <strong>
          #{r.id} by {r.channel === 'sms' ? 'SMS' : 'email'}
        </strong>
        <span>{STATUS_TEXT[r.status]}</span>
      </p>
      <progress
        className="h-2 w-full accent-primary"
        max={Math.max(r.total, 1)}
        value={r.total === 0 ? 1 : settled}
        aria-label={`Reminder ${r.id} progress`}
      >
        {pct}%
      </progress>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {r.sent} sent, {r.failed} failed, {r.skipped} skipped of {r.total}
      </p>
    </li>
  );
}
