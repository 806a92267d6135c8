import { useRef, useState } from 'react';
import { useBlocker } from '@tanstack/react-router';
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
import { RankedChoice } from '@/components/ballot/ranked-choice';
import { clearBallotDraft, readBallotDraft, writeBallotDraft } from '@/lib/ballot-draft';
import { motionRule } from '@/lib/motion-rule';
import { cn } from '@/lib/utils';
import { ballotGroupIn, contentIn, optionName, t, useT, type Locale } from '@/i18n';

/** How a position is voted on the ballot: a candidates position's method, or a motion. */
export type BallotMethod = 'plurality' | 'approval' | 'ranked' | 'motion';

export const ballotMethod = (g: Pick<BallotGroup, 'kind' | 'method'>): BallotMethod =>
  g.kind === 'motion' ? 'motion' : (g.method ?? 'plurality');

export type Choice = {
  id: number;
  name: string;
  photo: string | null;
  positionId: number;
  position: string;
  seats: number;
  method: BallotMethod;
};
/**
 * By position id: one candidate, up to `seats` of them for a plurality position with several seats,
 * any number for approval, the voter's order for ranked (first preference first), one option for a motion.
 */
export type Choices = Record<number, Choice[]>;

/** The vote body's value for a position (docs/api.md "POST psk/vote"): one id, or a list (in order for ranked). */
export function choiceValue(list: Choice[]): number | number[] {
  const method = list[0]?.method ?? 'plurality';
  if (method === 'approval' || method === 'ranked') return list.map((c) => c.id);
  return list.length === 1 && (list[0]?.seats ?? 1) <= 1 ? list[0]!.id : list.map((c) => c.id);
}

/** How a position's choice reads in the confirmation: "Yes", "A, B" or "1. A, 2. B". */
export function choiceText(list: Choice[]): string {
  return list[0]?.method === 'ranked'
    ? list.map((c, i) => t('ballot.rankedItem', { rank: i + 1, name: c.name })).join(', ')
    : list.map((c) => (c.method === 'motion' ? optionName(c.name) : c.name)).join(', ');
}

/**
 * A position's heading as the admin typed it (never re-cased): its name alone when the ballot has
 * no branch position (an organisation with one level), else the name with its level, the word
 * "National" in the reader's language or the branch's name.
 */
export function positionHeading(
  locale: Locale,
  group: Pick<BallotGroup, 'title' | 'name' | 'branch' | 'translations'>,
  withLevels: boolean,
): string {
  if (group.name === undefined) return contentIn(locale, group.title, group.translations, 'title');
  const name = contentIn(locale, group.name, group.translations, 'name');
  if (!withLevels) return name;
  return group.branch ? t('ballot.branchPosition', { name, branch: group.branch }) : t('ballot.nationalPosition', { name });
}

/** How many a position takes on a ballot: a plurality position its seats, a motion one, else every candidate. */
const seatsOf = (group: BallotGroup) => {
  const method = ballotMethod(group);
  return method === 'plurality' ? (group.seats ?? 1) : method === 'motion' ? 1 : group.candidates.length;
};

const choiceOf = (group: BallotGroup, c: { id: number; name: string; photo: string | null }): Choice => ({
  id: c.id,
  name: c.name,
  photo: c.photo,
  positionId: group.position_id,
  position: group.title,
  seats: seatsOf(group),
  method: ballotMethod(group),
});

/** A kept draft as choices: only candidates still standing, positions not yet voted, within each position's limit. */
function draftChoices(draft: Record<number, number[]>, groups: BallotGroup[], voted: ReadonlySet<number> | undefined): Choices {
  const out: Choices = {};
  for (const group of groups) {
    const ids = draft[group.position_id];
    if (!ids || voted?.has(group.position_id)) continue;
    const byId = new Map(group.candidates.map((c) => [c.id, c]));
    const list = [...new Set(ids)].flatMap((id) => {
      const c = byId.get(id);
      return c ? [choiceOf(group, c)] : [];
    });
    const limit = ballotMethod(group) === 'approval' || ballotMethod(group) === 'ranked' ? list.length : seatsOf(group);
    if (list.length > 0) out[group.position_id] = list.slice(0, limit);
  }
  return out;
}

/** A motion's quorum, when the ballot carries it (docs/api.md lists it on Position; the ballot may add it). */
type BallotGroupWithQuorum = BallotGroup & { quorum_percent?: number | null };

type Props = {
  groups: BallotGroup[];
  /** positions (by id) already voted for: shown plainly, not selectable */
  votedPositionIds?: ReadonlySet<number>;
  /** why voting is not possible now (e.g. disabled), or null */
  blockedReason?: string | null;
  submitting?: boolean;
  onConfirm: (choices: Choices) => Promise<boolean>;
  /** where this tab keeps the choices not yet cast (lib/ballot-draft.ts), e.g. the election's id */
  draftKey?: string;
};

export const DEFAULT_PHOTO = '/default-avatar.svg';

/**
 * Election (voter) (docs/screens.md "Ballot and results"): a card per position, one radio group per position named after it;
 * each radio's value is the candidate id and it carries name, photo and position id. A position with several seats has
 * checkboxes instead, which stop at its number of seats ("Choose up to N"). An approval position has checkboxes without
 * a limit ("Choose any number"), a ranked one the voter's order (ranked-choice.tsx), a motion its text, its rule in plain
 * words and the radios Yes, No and Abstain.
 */
export function BallotForm({ groups: original, votedPositionIds, blockedReason, submitting, onConfirm, draftKey }: Props) {
  const { locale } = useT();
  // The organisation's texts in the reader's language where the admin translated them (docs/i18n.md "Ballot content").
  const withLevels = original.some((g) => Boolean(g.branch));
  const groups = original.map((g) => ({ ...ballotGroupIn(locale, g), title: positionHeading(locale, g, withLevels) }));
  // A ballot half filled survives a refresh or a trip back (docs/screens.md "Ballot and results"): the draft in this tab.
  const [kept, setChoicesState] = useState<Choices>(() =>
    draftKey ? draftChoices(readBallotDraft(draftKey), groups, votedPositionIds) : {},
  );
  // A position voted meanwhile (another tab, this vote) no longer counts among the choices.
  const choices: Choices = votedPositionIds
    ? Object.fromEntries(Object.entries(kept).filter(([id]) => !votedPositionIds.has(Number(id))))
    : kept;
  const setChoices = (update: (prev: Choices) => Choices) =>
    setChoicesState((prev) => {
      const next = update(prev);
      if (draftKey) writeBallotDraft(draftKey, Object.fromEntries(Object.entries(next).map(([id, list]) => [id, list.map((c) => c.id)])));
      return next;
    });
  const [confirming, setConfirming] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  // The dialog has no trigger of its own: closing it (Cancel, Escape or Cast my vote) returns focus here.
  const voteButton = useRef<HTMLButtonElement>(null);
  const visible = groups.filter((g) => g.candidates.length > 0);
  const chosen = Object.values(choices).filter((list) => list.length > 0);

  const reset = () => {
    setChoicesState({});
    if (draftKey) clearBallotDraft(draftKey);
    setHint(null);
  };
  const unsent = chosen.some((list) => list.length > 0 && !votedPositionIds?.has(list[0]!.positionId));
  // Leaving with choices not cast asks first: a link in the app (the dialog below) or a reload/close (the browser's own).
  const leaving = useBlocker({ shouldBlockFn: () => unsent && !submitting, enableBeforeUnload: () => unsent, withResolver: true });

  const onVote = (e: React.FormEvent) => {
    e.preventDefault();
    if (blockedReason || submitting) return;
    if (chosen.length === 0) {
      setHint(t('ballot.chooseOne'));
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
          const method = ballotMethod(group);
          const seats = seatsOf(group);
          const multi = method === 'approval' || (method === 'plurality' && seats > 1);
          const picked = choices[group.position_id] ?? [];
          const full = method === 'plurality' && multi && picked.length >= seats;
          const fieldDisabled = voted || Boolean(blockedReason) || submitting;
          const toChoice = (c: { id: number; name: string; photo: string | null }): Choice => choiceOf(group, c);
          const instruction =
            method === 'approval'
              ? t('ballot.approval', { chosen: picked.length })
              : method === 'ranked'
                ? t('ballot.ranked')
                : multi
                  ? t('ballot.upTo', { seats, chosen: picked.length })
                  : null;
          const quorum = (group as BallotGroupWithQuorum).quorum_percent;
          return (
            <Card key={group.position_id}>
              <CardHeader>
                <CardTitle id={headingId}>{group.title}</CardTitle>
                {method === 'motion' ? (
                  <div id={`${headingId}-rule`} className="grid gap-1 text-sm">
                    {group.description && <p className="whitespace-pre-line break-words">{group.description}</p>}
                    <p className="text-muted-foreground">{motionRule(group.threshold, quorum)}</p>
                  </div>
                ) : (
                  group.description && (
                    <p id={`${headingId}-description`} className="whitespace-pre-line break-words text-sm">
                      {group.description}
                    </p>
                  )
                )}
                {instruction && !voted && (
                  <p id={`${headingId}-seats`} className="text-sm text-muted-foreground">
                    {instruction}
                  </p>
                )}
                {voted && <p className="text-sm font-medium text-green-800">{t('ballot.alreadyVoted')}</p>}
              </CardHeader>
              <CardContent>
                {method === 'ranked' ? (
                  <fieldset
                    aria-labelledby={headingId}
                    aria-describedby={
                      [group.description && `${headingId}-description`, instruction && !voted && `${headingId}-seats`]
                        .filter(Boolean)
                        .join(' ') || undefined
                    }
                    disabled={fieldDisabled}
                    className="grid gap-2"
                  >
                    <RankedChoice
                      positionId={group.position_id}
                      candidates={group.candidates}
                      order={picked.map((c) => c.id)}
                      disabled={fieldDisabled}
                      describedBy={
                        [group.description && `${headingId}-description`, instruction && !voted && `${headingId}-seats`]
                          .filter(Boolean)
                          .join(' ') || undefined
                      }
                      onChange={(order) => {
                        const byId = new Map(group.candidates.map((c) => [c.id, c]));
                        setChoices((prev) => ({
                          ...prev,
                          [group.position_id]: order.flatMap((id) => {
                            const c = byId.get(id);
                            return c ? [toChoice(c)] : [];
                          }),
                        }));
                      }}
                    />
                  </fieldset>
                ) : (
                  <fieldset
                    aria-labelledby={headingId}
                    aria-describedby={
                      method === 'motion'
                        ? `${headingId}-rule`
                        : [group.description && `${headingId}-description`, instruction && !voted && `${headingId}-seats`]
                            .filter(Boolean)
                            .join(' ') || undefined
                    }
                    disabled={fieldDisabled}
                    className="grid gap-2"
                  >
                    {group.candidates.map((c) => {
                      const inputId = `candidate-${group.position_id}-${c.id}`;
                      const checked = picked.some((p) => p.id === c.id);
                      const choice = toChoice(c);
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
                          {method !== 'motion' && (
                            <img
                              src={c.photo || DEFAULT_PHOTO}
                              alt=""
                              className="size-12 shrink-0 rounded-full object-cover"
                              onError={(e) => {
                                if (!e.currentTarget.src.endsWith(DEFAULT_PHOTO)) e.currentTarget.src = DEFAULT_PHOTO;
                              }}
                            />
                          )}
                          <span className="min-w-0 flex-1">
                            {/* A motion's options are the contract's Yes, No and Abstain: said by their catalogue keys. */}
                            <span className="block font-medium">{method === 'motion' ? optionName(c.name) : c.name}</span>
                            {c.statement && (
                              <details className="mt-1 text-sm text-muted-foreground" onClick={(e) => e.stopPropagation()}>
                                <summary className="cursor-pointer text-primary underline-offset-2 hover:underline">
                                  {t('common.readStatement')}
                                </summary>
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
                            disabled={full && !checked}
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
                )}
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
          {submitting ? t('ballot.voting') : t('ballot.vote')}
        </Button>
        <Button type="reset" variant="outline" disabled={submitting}>
          {t('ballot.reset')}
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
            <AlertDialogTitle>{t('ballot.confirmTitle')}</AlertDialogTitle>
            <AlertDialogDescription asChild>
              <div className="grid gap-2">
                <p>{t('ballot.votingFor')}</p>
                <ul className="grid gap-1">
                  {chosen.map((list) => (
                    <li key={list[0]!.positionId}>
                      <span className="font-medium">{list[0]!.position}</span>: {choiceText(list)}
                    </li>
                  ))}
                </ul>
                <p>{t('ballot.cannotChange')}</p>
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
              {t('common.cancel')}
            </AlertDialogCancel>
            <AlertDialogAction
              onClick={async () => {
                setConfirming(false);
                const ok = await onConfirm(choices);
                if (ok) reset();
              }}
            >
              {t('ballot.confirmYes')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>

      <AlertDialog open={leaving.status === 'blocked'}>
        <AlertDialogContent onEscapeKeyDown={() => leaving.reset?.()}>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('ballot.leaveTitle')}</AlertDialogTitle>
            <AlertDialogDescription>{t('ballot.leaveBody')}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel onClick={() => leaving.reset?.()}>{t('ballot.stay')}</AlertDialogCancel>
            <AlertDialogAction onClick={() => leaving.proceed?.()}>{t('ballot.leave')}</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </form>
  );
}
