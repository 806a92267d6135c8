import { useEffect, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
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
import { api } from '@/lib/api';
import { errorMessage, firstFieldError } from '@/lib/errors';
import { formatDateTime, useElection } from '@/lib/election';
import { queryKeys } from '@/lib/queries';

/** One sentence per mode, as the back office shows it (SECURITY.md "Results visibility"). */
export const VISIBILITY_TEXT: Record<ResultsVisibility, string> = {
  live: 'Live: anyone sees the counts as votes arrive; at low turnout, someone who knows when a member voted can read that vote off the next update.',
  staff: 'Staff only: admins and agents see the counts while voting runs; members and the public see them once voting closes.',
  after_close: 'After close: nobody sees per-candidate counts until voting closes (agents keep turnout); the safest for a small electorate.',
};

const PHASE_TEXT: Record<Election['phase'], string> = {
  setup: 'Set-up: voting has not been opened yet.',
  scheduled: 'Scheduled: voting opens by itself at the opening time.',
  open: 'Open: members can vote.',
  paused: 'Paused: voting is switched off for now.',
  closed: 'Closed: the result is declared and nothing can change.',
};

/** The organisation's time zone as this browser sees it, with its UTC offset. */
export function timeZoneLabel(at = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
  const minutes = -at.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `${zone} (UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')})`;
}

/** ISO → the value of a datetime-local input, in this browser's zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A datetime-local value (this browser's zone) → ISO 8601 with an offset, or null when empty. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * The election's life in the back office: the schedule (opens and closes on its own), who sees
 * results while voting runs, and the final close with a confirm dialog that names what it does.
 */
export function ElectionSchedule() {
  const id = useId();
  const queryClient = useQueryClient();
  const { election } = useElection();
  const update = api.elections.updateElection.useMutation();
  const close = api.lifecycle.closeElection.useMutation();
  const [opensAt, setOpensAt] = useState('');
  const [closesAt, setClosesAt] = useState('');
  const [visibility, setVisibility] = useState<ResultsVisibility>('live');
  useEffect(() => {
    if (!election) return;
    setOpensAt(toLocalInput(election.opens_at));
    setClosesAt(toLocalInput(election.closes_at));
    setVisibility(election.results_visibility);
  }, [election]);
  if (!election) return null;
  const closed = election.phase === 'closed';

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.election, exact: true });
    await queryClient.invalidateQueries({ queryKey: queryKeys.electionStatus });
  };
  const save = async () => {
    try {
      await update.mutateAsync({ body: { opens_at: fromLocalInput(opensAt), closes_at: fromLocalInput(closesAt), results_visibility: visibility } });
      toast({ variant: 'success', title: 'Schedule saved' });
      await refresh();
    } catch (err) {
      toast({ variant: 'destructive', title: 'The schedule could not be saved', description: firstFieldError(err) ?? errorMessage(err) ?? 'Something went wrong' });
    }
  };
  const closeNow = async () => {
    try {
      await close.mutateAsync({});
      toast({ variant: 'success', title: 'The election is closed' });
      await refresh();
    } catch (err) {
      toast({ variant: 'destructive', title: 'The election could not be closed', description: errorMessage(err) ?? 'Something went wrong' });
    }
  };

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
        <p className="text-sm">
          Times are in <strong>{timeZoneLabel()}</strong>. Voting opens and closes by itself at these times; the switch above pauses and resumes in between.
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
            The election is closed. <a href="/results" className="text-primary underline">Open the declared results</a>
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
                  Voting ends now and cannot be reopened. Every ballot still waiting is moved into the ballot box, a final commitment is published, the audit
                  (audit:verify) is run and its result stored, and the result is declared publicly. The schedule, the switch and the set-up can no longer change.
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
        {election.opens_at && !closed && <p className="text-xs text-muted-foreground">Opens {formatDateTime(election.opens_at)}{election.closes_at ? `, closes ${formatDateTime(election.closes_at)}` : ''}.</p>}
      </div>
    </section>
  );
}
