import { useId, useState } from 'react';
import type { Election, ResultsVisibility } from '@kura/contract';
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
import { Button, buttonVariants } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { toast } from '@/hooks/use-toast';
import { formatDateTime, useElection } from '@/lib/election';
import { useCloseElection, useUpdateElection } from '@/lib/mutations';
import { fromZonedInput, isKnownZone, knownTimeZones, timeZoneLabel, toZonedInput } from '@/lib/zoned-time';
import { useT, type MessageKey } from '@/i18n';

/** One sentence per mode, as the back office shows it (SECURITY.md "Results visibility"). */
const VISIBILITY_KEY: Record<ResultsVisibility, MessageKey> = {
  live: 'admin.schedule.live',
  staff: 'admin.schedule.staff',
  after_close: 'admin.schedule.afterClose',
};

const PHASE_TEXT: Record<Election['phase'], MessageKey> = {
  setup: 'admin.schedule.phase.setup',
  scheduled: 'admin.schedule.phase.scheduled',
  open: 'admin.schedule.phase.open',
  paused: 'admin.schedule.phase.paused',
  closed: 'admin.schedule.phase.closed',
};

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
  const [opensAt, setOpensAt] = useState('');
  const [closesAt, setClosesAt] = useState('');
  const [timeZone, setTimeZone] = useState('UTC');
  const [zones] = useState(knownTimeZones);
  const [visibility, setVisibility] = useState<ResultsVisibility>('live');
  const [today] = useState(() => Date.now());
  // The fields start from the election, and again each time it is read anew (after a save).
  const [shown, setShown] = useState<Election | undefined>(undefined);
  if (election && election !== shown) {
    setShown(election);
    // A server from before the time-zone field answers none: UTC, as the database defaults.
    const stored = election.time_zone ?? 'UTC';
    setTimeZone(stored);
    setOpensAt(toZonedInput(election.opens_at, stored));
    setClosesAt(toZonedInput(election.closes_at, stored));
    setVisibility(election.results_visibility);
  }
  if (!election) return null;
  const closed = election.phase === 'closed';

  // The inputs hold wall-clock times; they are read in the zone chosen here (until saved, the
  // stored zone is still what the server has).
  const zone = isKnownZone(timeZone) ? timeZone : (election.time_zone ?? 'UTC');
  // The offset that applies on polling day (daylight saving may differ from today's).
  const pollingDay = new Date(fromZonedInput(opensAt, zone) ?? today);
  const save = () =>
    update.mutate(
      {
        body: {
          time_zone: timeZone.trim(),
          opens_at: fromZonedInput(opensAt, zone),
          closes_at: fromZonedInput(closesAt, zone),
          results_visibility: visibility,
        },
      },
      { onSuccess: () => toast({ variant: 'success', title: t('admin.schedule.saved') }) },
    );
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
      <fieldset disabled={closed} className="grid gap-4">
        <div className="grid gap-2 sm:max-w-sm">
          <Label htmlFor={`${id}-zone`}>{t('admin.schedule.zone')}</Label>
          <Input
            id={`${id}-zone`}
            list={`${id}-zones`}
            value={timeZone}
            onChange={(e) => setTimeZone(e.target.value)}
            autoComplete="off"
            aria-describedby={`${id}-zone-hint`}
          />
          <datalist id={`${id}-zones`}>
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </div>
        <p className="text-sm" id={`${id}-zone-hint`}>
          {tRich('admin.schedule.zoneHint', { zone: timeZoneLabel(zone, pollingDay), strong: (chunks) => <strong>{chunks}</strong> })}
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={`${id}-opens`}>{t('admin.schedule.opens')}</Label>
            <Input id={`${id}-opens`} type="datetime-local" step={1} value={opensAt} onChange={(e) => setOpensAt(e.target.value)} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-closes`}>{t('admin.schedule.closes')}</Label>
            <Input id={`${id}-closes`} type="datetime-local" step={1} value={closesAt} onChange={(e) => setClosesAt(e.target.value)} />
          </div>
        </div>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">{t('admin.schedule.visibility')}</legend>
          <RadioGroup value={visibility} onValueChange={(v) => setVisibility(v as ResultsVisibility)} className="grid gap-3">
            {(Object.keys(VISIBILITY_KEY) as ResultsVisibility[]).map((mode) => (
              <span key={mode} className="flex items-start gap-2">
                <RadioGroupItem id={`${id}-${mode}`} value={mode} className="mt-0.5" />
                <Label htmlFor={`${id}-${mode}`} className="font-normal leading-snug">
                  {t(VISIBILITY_KEY[mode])}
                </Label>
              </span>
            ))}
          </RadioGroup>
        </fieldset>
        <div>
          <Button onClick={() => void save()} disabled={update.isPending}>
            {t('admin.schedule.save')}
          </Button>
        </div>
      </fieldset>
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
