import { useEffect, useRef, useState } from 'react';
import { ArrowDown, ArrowUp, Plus, X } from 'lucide-react';
import type { BallotGroup } from '@kura/contract';

type BallotCandidate = BallotGroup['candidates'][number];
import { Button } from '@/components/ui/button';
import { t, useT } from '@/i18n';

const DEFAULT_PHOTO = '/default-avatar.svg';

/** The candidate's photo as on a plurality ballot (decorative: the name is beside it). */
function Photo({ src }: { src: string | null }) {
  return (
    <img
      src={src || DEFAULT_PHOTO}
      alt=""
      className="size-10 shrink-0 rounded-full object-cover"
      onError={(e) => {
        if (!e.currentTarget.src.endsWith(DEFAULT_PHOTO)) e.currentTarget.src = DEFAULT_PHOTO;
      }}
    />
  );
}

/** "Your order: 1. X, 2. Y" (docs/screens.md "Ballot and results"). */
export function orderText(names: string[]): string {
  return t('ranked.orderText', { list: names.map((name, i) => t('ballot.rankedItem', { rank: i + 1, name })).join(', ') });
}

type Control = 'up' | 'down' | 'remove' | 'add';
const rankControlId = (positionId: number, id: number, control: Control) => `rank-${positionId}-${id}-${control}`;

type Props = {
  positionId: number;
  candidates: BallotCandidate[];
  /** the ranked candidate ids, first preference first */
  order: number[];
  onChange: (order: number[]) => void;
  disabled?: boolean;
  describedBy?: string;
};

/**
 * A ranked position (docs/screens.md "Ballot and results"): the voter ranks as many candidates as
 * they wish with buttons only (add, move up, move down, remove), so keyboard, screen reader and
 * touch all work and nothing needs dragging. The ranked candidates come first, in the voter's
 * order; each change is announced in a live region, and focus stays on the moved candidate.
 */
export function RankedChoice({ positionId, candidates, order, onChange, disabled, describedBy }: Props) {
  useT();
  const [announcement, setAnnouncement] = useState('');
  const focusTarget = useRef<{ id: number; control: Control } | null>(null);
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const ranked = order.map((id) => byId.get(id)).filter((c): c is BallotCandidate => c !== undefined);
  const unranked = candidates.filter((c) => !order.includes(c.id));
  const controlId = (id: number, control: Control) => rankControlId(positionId, id, control);

  // The row moved in the list: put focus back on its control (or the nearest one still usable).
  useEffect(() => {
    const target = focusTarget.current;
    if (!target) return;
    focusTarget.current = null;
    const fallbacks: Control[] = [target.control, 'up', 'down', 'remove', 'add'];
    for (const control of fallbacks) {
      const el = document.getElementById(rankControlId(positionId, target.id, control)) as HTMLButtonElement | null;
      if (el && !el.disabled) {
        el.focus();
        break;
      }
    }
  }, [order, positionId]);

  const change = (next: number[], id: number, control: Control) => {
    const name = byId.get(id)?.name ?? '';
    const at = next.indexOf(id);
    setAnnouncement(at >= 0 ? t('ranked.nowNumber', { name, position: at + 1, count: next.length }) : t('ranked.noLonger', { name }));
    onChange(next);
    focusTarget.current = { id, control };
  };

  const move = (id: number, by: -1 | 1) => {
    const from = order.indexOf(id);
    const to = from + by;
    if (from < 0 || to < 0 || to >= order.length) return;
    const next = [...order];
    next.splice(from, 1);
    next.splice(to, 0, id);
    change(next, id, by < 0 ? 'up' : 'down');
  };

  return (
    <div className="grid gap-3" aria-describedby={describedBy}>
      {ranked.length > 0 && (
        <ol className="grid gap-2" aria-label={t('ranked.yourOrder')}>
          {ranked.map((c, i) => (
            <li key={c.id} className="flex items-center gap-2 rounded-md border border-primary bg-secondary p-2">
              <span className="w-6 text-center font-semibold" aria-hidden="true">
                {i + 1}
              </span>
              <Photo src={c.photo} />
              <span className="min-w-0 flex-1 break-words font-medium">{c.name}</span>
              <Button
                id={controlId(c.id, 'up')}
                size="icon"
                variant="outline"
                aria-label={t('ranked.moveUp', { name: c.name })}
                disabled={disabled || i === 0}
                onClick={() => move(c.id, -1)}
              >
                <ArrowUp aria-hidden="true" />
              </Button>
              <Button
                id={controlId(c.id, 'down')}
                size="icon"
                variant="outline"
                aria-label={t('ranked.moveDown', { name: c.name })}
                disabled={disabled || i === ranked.length - 1}
                onClick={() => move(c.id, 1)}
              >
                <ArrowDown aria-hidden="true" />
              </Button>
              <Button
                id={controlId(c.id, 'remove')}
                size="icon"
                variant="ghost"
                aria-label={t('ranked.remove', { name: c.name })}
                disabled={disabled}
                onClick={() =>
                  change(
                    order.filter((x) => x !== c.id),
                    c.id,
                    'add',
                  )
                }
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ol>
      )}
      {unranked.length > 0 && (
        <ul className="grid gap-2" aria-label={t('ranked.notRanked')}>
          {unranked.map((c) => (
            <li key={c.id} className="flex items-center gap-2 rounded-md border border-border p-2">
              <Photo src={c.photo} />
              <span className="min-w-0 flex-1">
                <span className="block font-medium">{c.name}</span>
                {c.statement && (
                  <details className="mt-1 text-sm text-muted-foreground">
                    <summary className="cursor-pointer text-primary underline-offset-2 hover:underline">
                      {t('common.readStatement')}
                    </summary>
                    <p className="mt-1 whitespace-pre-line break-words">{c.statement}</p>
                  </details>
                )}
              </span>
              <Button
                id={controlId(c.id, 'add')}
                size="sm"
                variant="outline"
                aria-label={t('ranked.rankAs', { name: c.name, position: order.length + 1 })}
                disabled={disabled}
                onClick={() => change([...order, c.id], c.id, 'up')}
              >
                {/* The visible word is part of the name (WCAG 2.5.3 label in name; axe label-content-name-mismatch). */}
                <Plus aria-hidden="true" /> {t('ranked.rank')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <p className="text-sm">{order.length > 0 ? orderText(ranked.map((c) => c.name)) : t('ranked.noneYet')}</p>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}
