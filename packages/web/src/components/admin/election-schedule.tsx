import { useId } from 'react';
import { z } from 'zod';
import { UpdateElectionBody, type Election } from '@kura/contract';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { fieldMessages, FormFooter, setServerErrors, StoredChangedNote, useStoredValues, useZodForm } from '@/components/forms';
import { Button, buttonVariants } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { formatDateTime, useElection } from '@/lib/election';
import { fieldErrorsOf } from '@/lib/errors';
import { useCloseElection, useUpdateElection } from '@/lib/mutations';
import { fromZonedInput, isKnownZone } from '@/lib/zoned-time';
import { useT, type MessageKey } from '@/i18n';
import { ScheduleFields, scheduleShape, scheduleValues } from './schedule-fields';

const PHASE_TEXT: Record<Election['phase'], MessageKey> = {
  setup: 'admin.schedule.phase.setup',
  scheduled: 'admin.schedule.phase.scheduled',
  open: 'admin.schedule.phase.open',
  paused: 'admin.schedule.phase.paused',
  closed: 'admin.schedule.phase.closed',
};

/** The schedule card's form: the organisation's time zone (saved with it, PUT election) and the schedule read in it. */
const scheduleSchema = z.object({ time_zone: UpdateElectionBody.innerType().shape.time_zone.unwrap(), ...scheduleShape });

/**
 * The election's life in the back office: the schedule (opens and closes on its own), who sees
 * results while voting runs, and the final close with a confirm dialog that names what it does.
 */
export function ElectionSchedule({ election: electionId }: { election?: number }) {
  const { t, tRich } = useT();
  const id = useId();
  const { election } = useElection(electionId);
  const update = useUpdateElection(undefined, electionId);
  const close = useCloseElection(electionId);
  const form = useZodForm(scheduleSchema, { defaultValues: { time_zone: 'UTC', opens_at: '', closes_at: '', results_visibility: 'live' } });
  // The fields start from the election and follow it each time it is read anew (live events, a
  // save), but never over what the admin is typing.
  // A server from before the time-zone field answers none: UTC, as the database defaults.
  const storedZone = election ? (election.time_zone ?? 'UTC') : undefined;
  const changedElsewhere = useStoredValues(
    form,
    election && storedZone ? { time_zone: storedZone, ...scheduleValues(election, storedZone) } : undefined,
  );
  const values = form.watch();
  if (!election) return null;
  const closed = election.phase === 'closed';

  // The inputs hold wall-clock times; they are read in the zone chosen here (until saved, the
  // stored zone is still what the server has).
  const zone = isKnownZone(values.time_zone) ? values.time_zone.trim() : (election.time_zone ?? 'UTC');
  const onSubmit = form.handleSubmit(async (v) => {
    const sent = form.getValues();
    try {
      await update.mutateAsync({
        body: {
          time_zone: v.time_zone,
          opens_at: fromZonedInput(v.opens_at, v.time_zone),
          closes_at: fromZonedInput(v.closes_at, v.time_zone),
          results_visibility: v.results_visibility,
        },
      });
      // clean again, with what was saved: the election read anew fills the fields from here on
      form.reset(sent);
      toast({ variant: 'success', title: t('admin.schedule.saved') });
    } catch (err) {
      // the hook toasted it; a field's message goes under the field
      setServerErrors(form, fieldErrorsOf(err));
    }
  });
  const closeNow = () => close.mutate({}, { onSuccess: () => toast({ variant: 'success', title: t('admin.schedule.closedToast') }) });

  return (
    <section aria-labelledby={`${id}-h`} className="grid gap-4 rounded-lg border border-border bg-card p-4 shadow-sm">
      <div className="grid gap-1">
        <h2 id={`${id}-h`} className="text-lg font-semibold">
          {t('admin.schedule.heading')}
        </h2>
        <p className="text-sm text-muted-foreground" data-testid="election-phase">
          {t(PHASE_TEXT[election.phase])}
        </p>
      </div>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <fieldset disabled={closed} className="grid gap-4">
          <ScheduleFields
            id={id}
            values={values}
            errors={fieldMessages(form.formState.errors)}
            onChange={(key, value) => form.setValue(key, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
            zone={zone}
          />
          <StoredChangedNote show={changedElsewhere} />
          <FormFooter
            pending={update.isPending}
            submitLabel={t('admin.schedule.save')}
            pendingLabel={t('common.saving')}
            className="sm:justify-start"
          />
        </fieldset>
      </form>
      <div className="grid gap-2 border-t border-border pt-4">
        {closed ? (
          <p className="text-sm">
            {tRich('admin.schedule.isClosed', {
              link: (chunks) => (
                <a href="/results" className="text-primary underline">
                  {chunks}
                </a>
              ),
            })}
          </p>
        ) : (
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="destructive" className="justify-self-start">
                {t('admin.schedule.close')}
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>{t('admin.schedule.closeTitle')}</AlertDialogTitle>
                <AlertDialogDescription>{t('admin.schedule.closeText')}</AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
                <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={() => void closeNow()}>
                  {t('admin.schedule.close')}
                </AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        )}
        {election.opens_at && !closed && (
          <p className="text-xs text-muted-foreground">
            {election.closes_at
              ? t('admin.schedule.opensClosesAt', {
                  opens: formatDateTime(election.opens_at, election.time_zone ?? 'UTC'),
                  closes: formatDateTime(election.closes_at, election.time_zone ?? 'UTC'),
                })
              : t('admin.schedule.opensAt', { opens: formatDateTime(election.opens_at, election.time_zone ?? 'UTC') })}
          </p>
        )}
      </div>
    </section>
  );
}
