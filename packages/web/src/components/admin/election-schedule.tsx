import { useEffect, useId, useState } from 'react';
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

/** One sentence per mode, as the back office shows it (SECURITY.md "Results visibility"). */
export const VISIBILITY_TEXT: Record<ResultsVisibility, string> = {
  live: 'Live: anyone sees the counts as votes arrive; at low turnout, someone who knows when a member voted can read that vote off the next update.',
  staff: 'Staff only: admins and agents see the counts while voting runs; members and the public see them once voting closes.',
  after_close:
    'After close: nobody sees per-candidate counts until voting closes (agents keep turnout); the safest for a small electorate.',
};

const PHASE_TEXT: Record<Election['phase'], string> = {
  setup: 'Set-up: voting has not been opened yet.',
  scheduled: 'Scheduled: voting opens by itself at the opening time.',
  open: 'Open: members can vote.',
  paused: 'Paused: voting is switched off for now.',
  closed: 'Closed: the result is declared and nothing can change.',
};

/**
 * The election's life in the back office: the schedule (opens and closes on its own), who sees
 * results while voting runs, and the final close with a confirm dialog that names what it does.
 */
export function ElectionSchedule() {
  const id = useId();
  const { election } = useElection();
  const update = useUpdateElection();
  const close = useCloseElection();
  const [opensAt, setOpensAt] = useState('');
  const [closesAt, setClosesAt] = useState('');
  const [timeZone, setTimeZone] = useState('UTC');
  const [zones] = useState(knownTimeZones);
  const [visibility, setVisibility] = useState<ResultsVisibility>('live');
  useEffect(() => {
    if (!election) return;
    // A server from before the time-zone field answers none: UTC, as the database defaults.
    const stored = election.time_zone ?? 'UTC';
    setTimeZone(stored);
    setOpensAt(toZonedInput(election.opens_at, stored));
    setClosesAt(toZonedInput(election.closes_at, stored));
    setVisibility(election.results_visibility);
  }, [election]);
  if (!election) return null;
  const closed = election.phase === 'closed';

  // The inputs hold wall-clock times; they are read in the zone chosen here (until saved, the
  // stored zone is still what the server has).
  const zone = isKnownZone(timeZone) ? timeZone : (election.time_zone ?? 'UTC');
  // The offset that applies on polling day (daylight saving may differ from today's).
  const pollingDay = new Date(fromZonedInput(opensAt, zone) ?? Date.now());
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
      { onSuccess: () => toast({ variant: 'success', title: 'Schedule saved' }) },
    );
  const closeNow = () => close.mutate({}, { onSuccess: () => toast({ variant: 'success', title: 'The election is closed' }) });

  return (
    <section aria-labelledby={`${id}-h`} className="grid gap-4 rounded-lg border border-border bg-card p-4 shadow-sm">
      <div className="grid gap-1">
        <h2 id={`${id}-h`} className="text-lg font-semibold">
          Schedule and results
        </h2>
        <p className="text-sm text-muted-foreground" data-testid="election-phase">
          {PHASE_TEXT[election.phase]}
        </p>
      </div>
      <fieldset disabled={closed} className="grid gap-4">
        <div className="grid gap-2 sm:max-w-sm">
          <Label htmlFor={`${id}-zone`}>The organisation's time zone</Label>
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
          Times are in <strong>{timeZoneLabel(zone, pollingDay)}</strong>, for every admin and member wherever they are. Voting opens and
          closes by itself at these times; the switch above pauses and resumes in between.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={`${id}-opens`}>Voting opens</Label>
            <Input id={`${id}-opens`} type="datetime-local" step={1} value={opensAt} onChange={(e) => setOpensAt(e.target.value)} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-closes`}>Voting closes</Label>
            <Input id={`${id}-closes`} type="datetime-local" step={1} value={closesAt} onChange={(e) => setClosesAt(e.target.value)} />
          </div>
        </div>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">Who sees results while voting runs</legend>
          <RadioGroup value={visibility} onValueChange={(v) => setVisibility(v as ResultsVisibility)} className="grid gap-3">
            {(Object.keys(VISIBILITY_TEXT) as ResultsVisibility[]).map((mode) => (
              <span key={mode} className="flex items-start gap-2">
                <RadioGroupItem id={`${id}-${mode}`} value={mode} className="mt-0.5" />
                <Label htmlFor={`${id}-${mode}`} className="font-normal leading-snug">
                  {VISIBILITY_TEXT[mode]}
                </Label>
              </span>
            ))}
          </RadioGroup>
        </fieldset>
        <div>
          <Button onClick={() => void save()} disabled={update.isPending}>
            Save schedule
          </Button>
        </div>
      </fieldset>
      <div className="grid gap-2 border-t border-border pt-4">
        {closed ? (
          <p className="text-sm">
            The election is closed.{' '}
            <a href="/results" className="text-primary underline">
              Open the declared results
            </a>
          </p>
        ) : (
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="destructive" className="justify-self-start">
                Close the election
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Close the election for good?</AlertDialogTitle>
                <AlertDialogDescription>
                  Voting ends now and cannot be reopened. Every ballot still waiting is moved into the ballot box, a final commitment is
                  published, the audit (audit:verify) is run and its result stored, and the result is declared publicly. The schedule, the
                  switch and the set-up can no longer change.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={() => void closeNow()}>
                  Close the election
                </AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        )}
        {election.opens_at && !closed && (
          <p className="text-xs text-muted-foreground">
            Opens {formatDateTime(election.opens_at, election.time_zone ?? 'UTC')}
            {election.closes_at ? `, closes ${formatDateTime(election.closes_at, election.time_zone ?? 'UTC')}` : ''}.
          </p>
        )}
      </div>
    </section>
  );
}
