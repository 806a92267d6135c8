import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Position } from '@kura/contract';
import { ChevronDown, ChevronUp, Pencil, Trash2, UserPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useCandidatePositions } from '@/hooks/use-admin-lists';
import { toast } from '@/hooks/use-toast';
import { useDeletePosition, useReorderPositions } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { AddCandidateDialog } from '../add-candidate-dialog';
import { ruleWords } from '../rule-editor';
import { EditPositionForm, NewPositionForm } from './position-form';
import { SectionProblem, useProblem } from './section-problem';
import { t, useT, type MessageKey } from '@/i18n';
import { useElectionParam } from '@/lib/election-search';

const label = (p: Position) => `${p.name} - ${p.level}`;

const THRESHOLD_WORDS = {
  majority: 'admin.position.threshold.majority',
  two_thirds: 'admin.position.threshold.two_thirds',
  three_quarters: 'admin.position.threshold.three_quarters',
} as const satisfies Record<string, MessageKey>;
const METHOD_WORDS = {
  plurality: 'admin.position.method.plurality',
  approval: 'admin.position.method.approval',
  ranked: 'admin.position.method.ranked',
} as const satisfies Record<string, MessageKey>;

/** "2 seats · ranked" or "Motion · two thirds · quorum 40%" (docs/screens.md "Set-up"). */
export function positionSummary(p: Pick<Position, 'kind' | 'seats' | 'method' | 'threshold' | 'quorum_percent'>): string {
  if (p.kind === 'motion') {
    const threshold = t(THRESHOLD_WORDS[p.threshold ?? 'majority']);
    return p.quorum_percent
      ? t('admin.position.motionSummaryQuorum', { threshold, quorum: String(p.quorum_percent) })
      : t('admin.position.motionSummary', { threshold });
  }
  return t('admin.position.seatsSummary', { number: String(p.seats), count: p.seats, method: t(METHOD_WORDS[p.method ?? 'plurality']) });
}

/** The order after moving the position at `index` one place up (-1) or down (1): every id, once. */
export function movedOrder(positions: Pick<Position, 'id'>[], index: number, by: -1 | 1): number[] {
  const order = positions.map((p) => p.id);
  const [id] = order.splice(index, 1);
  order.splice(index + by, 0, id!);
  return order;
}

/** Positions in the admin's order: move, edit, delete, add a candidate; the add form below. */
export function PositionsSection() {
  const { t } = useT();
  const id = useId();
  const election = useElectionParam();
  const { positions } = useCandidatePositions(election);
  const reorder = useReorderPositions(election);
  const remove = useDeletePosition();
  const [editing, setEditing] = useState<number | null>(null);
  const [addingTo, setAddingTo] = useState<number | null>(null);
  const problem = useProblem();
  const candidates = useQuery(queries.candidates(election));
  const defs = useQuery(queries.memberAttributes()).data?.body.data ?? [];
  const candidatesOf = (positionId: number) =>
    (candidates.data?.body.data.data.candidates ?? []).filter((c) => c.positions.some((p) => p.id === positionId)).map((c) => c.name);

  /** The whole new order in one call (PUT positions/order): all or nothing. */
  const move = (index: number, by: -1 | 1) =>
    void problem.run(() => reorder.mutateAsync({ body: { position_ids: movedOrder(positions, index, by) } }));
  const onDelete = async (p: Position) => {
    if (await problem.run(() => remove.mutateAsync({ params: { id: p.id } })))
      toast({ variant: 'success', title: t('admin.position.deleted') });
  };

  return (
    <section aria-labelledby={`${id}-h`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id={`${id}-h`} className="mb-3 text-lg font-semibold">
        {t('admin.setup.positions')}
      </h2>
      <SectionProblem problem={problem.text} />
      <ol className="mb-4 grid gap-2" aria-label={t('admin.setup.positions')}>
        {positions.length === 0 && <li className="text-sm text-muted-foreground">{t('admin.position.none')}</li>}
        {positions.map((p, i) => (
          <li key={p.id} className="rounded-md border border-border p-2">
            {editing === p.id ? (
              <EditPositionForm position={p} run={problem.run} onDone={() => setEditing(null)} />
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                <div className="min-w-0 flex-1 text-sm">
                  <p className="font-medium break-words">{label(p)}</p>
                  <p className="text-muted-foreground">
                    {positionSummary(p)}
                    {p.description ? ` · ${p.description}` : ''}
                  </p>
                  {p.kind !== 'motion' && p.nomination && (
                    <p className="text-muted-foreground">
                      {t('admin.position.nominationSummary', { proposers: p.nomination.proposers, seconders: p.nomination.seconders })}
                    </p>
                  )}
                  {p.kind !== 'motion' && (p.eligibility?.length ?? 0) > 0 && (
                    <p className="text-muted-foreground break-words">
                      {t('admin.position.eligibilitySummary', { rules: p.eligibility!.map((r) => ruleWords(r, defs)).join('; ') })}
                    </p>
                  )}
                  {p.kind !== 'motion' && (
                    <p className="text-muted-foreground break-words">
                      {candidatesOf(p.id).length === 0
                        ? t('admin.position.noCandidate')
                        : t('admin.position.candidates', { names: candidatesOf(p.id).join(', ') })}
                    </p>
                  )}
                </div>
                {p.kind !== 'motion' && (
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    aria-label={t('admin.position.addCandidateFor', { position: label(p) })}
                    onClick={() => setAddingTo(p.id)}
                  >
                    <UserPlus aria-hidden="true" />
                    {t('admin.position.candidate')}
                  </Button>
                )}
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={t('admin.position.moveUp', { position: label(p) })}
                  disabled={i === 0 || reorder.isPending}
                  onClick={() => move(i, -1)}
                >
                  <ChevronUp aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={t('admin.position.moveDown', { position: label(p) })}
                  disabled={i === positions.length - 1 || reorder.isPending}
                  onClick={() => move(i, 1)}
                >
                  <ChevronDown aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={t('admin.position.edit', { position: label(p) })}
                  onClick={() => setEditing(p.id)}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={t('admin.position.delete', { position: label(p) })}
                  onClick={() => void onDelete(p)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            )}
          </li>
        ))}
      </ol>
      <NewPositionForm run={problem.run} />
      <AddCandidateDialog open={addingTo !== null} positionId={addingTo ?? undefined} onClose={() => setAddingTo(null)} />
    </section>
  );
}
