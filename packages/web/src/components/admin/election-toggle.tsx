import { useId, useState } from 'react';
import * as SwitchPrimitive from '@radix-ui/react-switch';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/hooks/use-toast';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { useToggleElection } from '@/lib/mutations';
import { cn } from '@/lib/utils';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

/**
 * Election status (docs/screens.md "Staff pages"): active '1' means voting enabled. The switch flips it and says
 * 'Voting has been enabled' or 'Voting has been disabled'; a failure shows 'Failed to update
 * election status' with the server message or 'Something went wrong'.
 */
export function ElectionToggle({ election }: { election?: number }) {
  const { t, tReceived } = useT();
  const id = useId();
  const status = useQuery(queries.electionStatus(election));
  const toggle = useToggleElection(election);
  const active = status.data?.body.active === '1';
  // Read only when voting is being turned on (refetch below).
  const positionsQuery = useQuery({ ...queries.candidatePositions(election), enabled: false });
  const candidatesQuery = useQuery({ ...queries.candidates(election), enabled: false });
  const [empty, setEmpty] = useState<string[] | null>(null);
  // The first opening freezes the roll for good (docs/screens.md "Staff pages"), so it is confirmed
  // as the close is; the positions nobody stands for are named in the same question.
  const electionQuery = useQuery(queries.election(election));
  const [opening, setOpening] = useState<string[] | null>(null);
  const queryClient = useQueryClient();
  // GET election carries no roll size (it is every page's texts): the size the question names is
  // read fresh from GET elections/{id} as the switch is flipped (an import just before counts).
  const [rollSize, setRollSize] = useState<number | undefined>(undefined);
  const freshRollSize = async (): Promise<number | undefined> => {
    const id = election ?? electionQuery.data?.body.data.id;
    if (id === undefined) return undefined;
    try {
      return (await queryClient.fetchQuery({ ...queries.electionById(id), staleTime: 0 })).body.data.roll_size;
    } catch {
      return undefined;
    }
  };
  const firstOpening = (() => {
    const e = electionQuery.data?.body.data;
    return e !== undefined && !e.roll_frozen_at && (e.phase === 'setup' || e.phase === 'scheduled');
  })();

  /** Candidates positions (not motions) that no candidate stands for; [] when every one has one or the lists cannot be read (then the server decides). */
  const positionsWithoutCandidate = async (): Promise<string[]> => {
    try {
      const [p, c] = await Promise.all([positionsQuery.refetch(), candidatesQuery.refetch()]);
      const positions = p.data;
      const candidates = c.data;
      if (positions?.status !== 200 || candidates?.status !== 200) return [];
      const named = new Set(candidates.body.data.data.candidates.flatMap((c) => c.positions.map((p) => p.id)));
      // A motion's options are Yes, No and Abstain: it takes no candidates.
      return positions.body.data.data.filter((p) => p.kind !== 'motion' && !named.has(p.id)).map((p) => `${p.name} - ${p.level}`);
    } catch {
      return [];
    }
  };

  /** Turning voting on while a position has no candidate asks first. */
  const onSwitch = async (next: boolean) => {
    if (next) {
      const missing = await positionsWithoutCandidate();
      if (firstOpening) {
        setRollSize(await freshRollSize());
        setOpening(missing);
        return;
      }
      if (missing.length > 0) {
        setEmpty(missing);
        return;
      }
    }
    await onChange(next);
  };

  const onChange = async (next: boolean) => {
    const res = await toggle.mutateAsync({ body: { status: next } }).catch(() => null);
    if (res)
      toast({
        variant: 'success',
        title: tReceived(res.body.message) || (res.body.active === '1' ? t('admin.toggle.enabled') : t('admin.toggle.disabled')),
      });
  };

  const stateText = status.isPending
    ? t('admin.toggle.checking')
    : status.isError
      ? t('admin.toggle.loadError')
      : active
        ? t('admin.toggle.isEnabled')
        : t('admin.toggle.isDisabled');

  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-border bg-card p-4 shadow-sm"
    >
      <div className="grid gap-1">
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          {t('admin.toggle.heading')}
        </h2>
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {stateText}
        </p>
      </div>
      <div className="flex items-center gap-3">
        <label htmlFor={id} className="text-sm font-medium">
          {t('admin.toggle.label')}
        </label>
        <SwitchPrimitive.Root
          id={id}
          checked={active}
          disabled={status.isPending || status.isError || toggle.isPending}
          onCheckedChange={(v) => void onSwitch(v)}
          className={cn(
            'peer inline-flex h-7 w-12 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-50',
            'data-[state=checked]:bg-success data-[state=unchecked]:bg-input',
          )}
        >
          <SwitchPrimitive.Thumb className="pointer-events-none block size-6 rounded-full bg-background shadow-lg ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0" />
        </SwitchPrimitive.Root>
      </div>
      <AlertDialog open={opening !== null} onOpenChange={(open) => !open && setOpening(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('admin.toggle.openTitle')}</AlertDialogTitle>
            <AlertDialogDescription>
              {t('admin.toggle.openText', { count: rollSize ?? electionQuery.data?.body.data.roll_size ?? 0 })}
            </AlertDialogDescription>
            {opening && opening.length > 0 ? (
              <p className="text-sm font-medium text-destructive">{t('admin.toggle.emptyText', { positions: opening.join(', ') })}</p>
            ) : null}
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
            <AlertDialogAction
              onClick={() => {
                setOpening(null);
                void onChange(true).then(() => electionQuery.refetch());
              }}
            >
              {t('admin.toggle.openConfirm')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      <AlertDialog open={empty !== null} onOpenChange={(open) => !open && setEmpty(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('admin.toggle.emptyTitle')}</AlertDialogTitle>
            <AlertDialogDescription>{t('admin.toggle.emptyText', { positions: empty?.join(', ') })}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
            <AlertDialogAction
              onClick={() => {
                setEmpty(null);
                void onChange(true);
              }}
            >
              {t('admin.toggle.enableAnyway')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}
