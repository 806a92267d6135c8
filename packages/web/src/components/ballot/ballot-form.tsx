import { useRef, useState } from 'react';
import type { BallotGroup } from '@kura/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
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
import { capitalise } from '@/lib/format';
import { cn } from '@/lib/utils';

export type Choice = { id: number; name: string; photo: string | null; positionId: number; position: string; seats: number };
/** By position id: one candidate, or up to `seats` of them for a position with several seats. */
export type Choices = Record<number, Choice[]>;

/** The vote body's value for a position: one id (one seat, as the spec has it) or a list. */
export function choiceValue(list: Choice[]): number | number[] {
  return list.length === 1 && (list[0]?.seats ?? 1) <= 1 ? list[0]!.id : list.map((c) => c.id);
}

type Props = {
  groups: BallotGroup[];
  /** positions (by id) already voted for: shown plainly, not selectable */
  votedPositionIds?: ReadonlySet<number>;
  /** why voting is not possible now (e.g. disabled), or null */
  blockedReason?: string | null;
  submitting?: boolean;
  onConfirm: (choices: Choices) => Promise<boolean>;
};

export const DEFAULT_PHOTO = '/default-avatar.svg';

/**
 * Election (voter) (docs/screens.md "Ballot and results"): a card per position, one radio group per position named after it;
 * each radio's value is the candidate id and it carries name, photo and position id. A position with several seats has
 * checkboxes instead, which stop at its number of seats ("Choose up to N").
 */
export function BallotForm({ groups, votedPositionIds, blockedReason, submitting, onConfirm }: Props) {
  const [choices, setChoices] = useState<Choices>({});
  const [confirming, setConfirming] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  // The dialog has no trigger of its own: closing it (Cancel, Escape or Yes!) returns focus here.
  const voteButton = useRef<HTMLButtonElement>(null);
  const visible = groups.filter((g) => g.candidates.length > 0);
  const chosen = Object.values(choices).filter((list) => list.length > 0);

  const reset = () => {
    setChoices({});
    setHint(null);
  };

  const onVote = (e: React.FormEvent) => {
    e.preventDefault();
    if (blockedReason || submitting) return;
    if (chosen.length === 0) {
      setHint('Choose a candidate for at least one position.');
      return;
    }
    setHint(null);
    setConfirming(true);
  };

  return (
    <form onSubmit={onVote} onReset={reset} className="grid gap-6" aria-describedby={hint ? 'ballot-hint' : undefined}>
      <div className="grid gap-4 lg:grid-cols-2">
        {visible.map((group) => {
          const voted = votedPositionIds?.has(group.position_id) ?? false;
          const headingId = `position-${group.position_id}`;
          const seats = group.seats ?? 1;
          const multi = seats > 1;
          const picked = choices[group.position_id] ?? [];
          const full = multi && picked.length >= seats;
          return (
            <Card key={group.position_id}>
              <CardHeader>
                <CardTitle id={headingId} className="capitalize">
                  {capitalise(group.title)}
                </CardTitle>
                {multi && !voted && (
                  <p id={`${headingId}-seats`} className="text-sm text-muted-foreground">
                    Choose up to {seats} ({picked.length} chosen)
                  </p>
                )}
                {voted && <p className="text-sm font-medium text-green-800">You have already voted for this position.</p>}
              </CardHeader>
              <CardContent>
                <fieldset
                  aria-labelledby={headingId}
                  aria-describedby={multi ? `${headingId}-seats` : undefined}
                  disabled={voted || Boolean(blockedReason) || submitting}
                  className="grid gap-2"
                >
                  {group.candidates.map((c) => {
                    const inputId = `candidate-${group.position_id}-${c.id}`;
                    const checked = picked.some((p) => p.id === c.id);
                    const choice: Choice = {
                      id: c.id,
                      name: c.name,
                      photo: c.photo,
                      positionId: group.position_id,
                      position: group.title,
                      seats,
                    };
                    return (
                      <label
                        key={c.id}
                        htmlFor={inputId}
                        className={cn(
                          'flex cursor-pointer items-center gap-3 rounded-md border border-border p-3 hover:bg-muted has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                          checked && 'border-primary bg-secondary',
                          (voted || blockedReason) && 'cursor-not-allowed opacity-70',
                        )}
                      >
                        <img
                          src={c.photo || DEFAULT_PHOTO}
                          alt=""
                          className="size-12 shrink-0 rounded-full object-cover"
                          onError={(e) => {
                            if (!e.currentTarget.src.endsWith(DEFAULT_PHOTO)) e.currentTarget.src = DEFAULT_PHOTO;
                          }}
                        />
                        <span className="min-w-0 flex-1">
                          <span className="block font-medium">{c.name}</span>
                          {c.statement && (
                            <details className="mt-1 text-sm text-muted-foreground" onClick={(e) => e.stopPropagation()}>
                              <summary className="cursor-pointer text-primary underline-offset-2 hover:underline">Read statement</summary>
                              <p className="mt-1 whitespace-pre-line break-words">{c.statement}</p>
                            </details>
                          )}
                        </span>
                        <input
                          id={inputId}
                          type={multi ? 'checkbox' : 'radio'}
                          name={group.title}
                          value={c.id}
                          data-name={c.name}
                          data-photo={c.photo ?? ''}
                          data-position-id={group.position_id}
                          checked={checked}
                          disabled={multi && full && !checked}
                          onChange={() =>
                            setChoices((prev) => {
                              if (!multi) return { ...prev, [group.position_id]: [choice] };
                              const current = prev[group.position_id] ?? [];
                              const next = current.some((p) => p.id === c.id)
                                ? current.filter((p) => p.id !== c.id)
                                : current.length < seats
                                  ? [...current, choice]
                                  : current;
                              return { ...prev, [group.position_id]: next };
                            })
                          }
                          className="size-5 shrink-0 accent-primary"
                        />
                      </label>
                    );
                  })}
                </fieldset>
              </CardContent>
            </Card>
          );
        })}
      </div>

      {hint && (
        <p id="ballot-hint" role="alert" className="text-sm text-destructive">
          {hint}
        </p>
      )}

      <div className="flex flex-wrap gap-3">
        {/* Not `disabled` while submitting: focus comes back to this button when the dialog closes. */}
        <Button ref={voteButton} type="submit" disabled={Boolean(blockedReason)} aria-disabled={submitting || undefined}>
          {submitting ? 'Voting…' : 'Vote'}
        </Button>
        <Button type="reset" variant="outline" disabled={submitting}>
          Reset
        </Button>
      </div>

      <AlertDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open) setConfirming(false);
        }}
      >
        <AlertDialogContent
          // Escape is Cancel: both reset the choices (docs/screens.md "Ballot and results").
          onEscapeKeyDown={reset}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            voteButton.current?.focus();
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>Are you sure?</AlertDialogTitle>
            <AlertDialogDescription asChild>
              <div className="grid gap-2">
                <p>You are voting for:</p>
                <ul className="grid gap-1">
                  {chosen.map((list) => (
                    <li key={list[0]!.positionId}>
                      <span className="font-medium capitalize">{list[0]!.position}</span>: {list.map((c) => c.name).join(', ')}
                    </li>
                  ))}
                </ul>
                <p>A vote cannot be changed once cast.</p>
              </div>
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel
              onClick={() => {
                // docs/screens.md "Ballot and results": cancelling the confirmation resets the form.
                reset();
              }}
            >
              Cancel
            </AlertDialogCancel>
            <AlertDialogAction
              onClick={async () => {
                setConfirming(false);
                const ok = await onConfirm(choices);
                if (ok) reset();
              }}
            >
              Yes!
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </form>
  );
}
