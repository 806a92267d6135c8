import { useId, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Archive, Copy, Pencil, Plus, Settings2, Trash2 } from 'lucide-react';
import { CopyElectionBody, type Election } from '@kura/contract';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { FormField, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { ErrorState, Loading } from '@/components/layout/page-states';
import { DataTable, rowClass, Td } from '@/components/staff/data-table';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button, buttonVariants } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { formatDateTime } from '@/lib/election';
import { errorMessage, fieldErrorsOf } from '@/lib/errors';
import { useArchiveElection, useCopyElection, useDeleteElection } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';
import { ElectionForm, NewElectionForm } from './election-form';

type Listed = Election & { id: number };

/**
 * The untitled election a new installation starts with, still as it was made: no title, description
 * or schedule and never opened. The page says why it is there (and that it may go).
 */
export const untouched = (e: Listed) =>
  !e.title.trim() &&
  !e.description?.trim() &&
  !e.opens_at &&
  !e.closes_at &&
  e.roll_frozen_at == null &&
  e.phase !== 'closed' &&
  !e.archived;
type Confirmed = { kind: 'archive' | 'delete'; election: Listed };
type Action = { kind: 'copy' | 'edit'; election: Listed } | Confirmed | { kind: 'new' } | null;

/**
 * The admin's elections (docs/api.md "Many elections, motions and ranked counts"): each with its
 * phase, turnout and times; New, Edit, Copy, Archive (closed ones) and Delete (while no vote was cast),
 * each in a dialog that says what happens; the server's refusal (409, 422) shows in the dialog.
 * Each election's set-up is the Set-up page scoped to it (`/admin/setup?election=N`).
 */
export function ElectionsPage() {
  const { t } = useT();
  const list = useQuery(queries.elections());
  const organisation = useQuery(queries.organisation());
  const current = useQuery(queries.election());
  const [action, setAction] = useState<Action>(null);
  const timeZone = organisation.data?.body.data.time_zone ?? current.data?.body.data.time_zone ?? 'UTC';
  const elections = (list.data?.body.data ?? []).filter((e): e is Listed => e.id !== undefined);
  const close = () => setAction(null);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t('elections.heading')}</h2>
        <Button onClick={() => setAction({ kind: 'new' })}>
          <Plus aria-hidden="true" />
          {t('elections.new')}
        </Button>
      </div>
      {list.isPending ? (
        <Loading label={t('elections.switcher.loading')} />
      ) : list.isError ? (
        <ErrorState>{t('elections.switcher.loadError')}</ErrorState>
      ) : (
        <>
          {elections.length === 0 && (
            <p role="status" className="rounded-lg border border-dashed border-border p-4 text-sm text-muted-foreground">
              {t('elections.none')}
            </p>
          )}
          {elections.some(untouched) && (
            <p role="note" className="rounded-lg border border-border bg-muted/40 p-4 text-sm">
              {t('elections.untouchedNote')}
            </p>
          )}
          <DataTable
            caption={t('elections.caption')}
            minWidth="min-w-[52rem]"
            headers={[
              t('elections.col.title'),
              t('elections.col.phase'),
              t('elections.col.turnout'),
              t('elections.col.opened'),
              t('elections.col.closed'),
              t('elections.col.actions'),
            ]}
          >
            {elections.map((e) => (
              <ElectionRow key={e.id} election={e} currentId={current.data?.body.data.id} timeZone={timeZone} onAction={setAction} />
            ))}
          </DataTable>
        </>
      )}

      <Dialog open={action?.kind === 'new'} onOpenChange={(o) => !o && close()}>
        <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>{t('elections.newTitle')}</DialogTitle>
            <DialogDescription>{t('elections.newText')}</DialogDescription>
          </DialogHeader>
          {action?.kind === 'new' && <NewElectionForm timeZone={timeZone} onDone={close} />}
        </DialogContent>
      </Dialog>
      <Dialog open={action?.kind === 'edit'} onOpenChange={(o) => !o && close()}>
        <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
          {action?.kind === 'edit' && (
            <>
              <DialogHeader>
                <DialogTitle>{t('elections.editTitle', { title: action.election.title.trim() || t('elections.untitled') })}</DialogTitle>
                <DialogDescription>{t('elections.editText')}</DialogDescription>
              </DialogHeader>
              <ElectionForm key={action.election.id} election={action.election} timeZone={timeZone} onDone={close} />
            </>
          )}
        </DialogContent>
      </Dialog>
      <Dialog open={action?.kind === 'copy'} onOpenChange={(o) => !o && close()}>
        <DialogContent>
          {action?.kind === 'copy' && <CopyForm key={action.election.id} election={action.election} onDone={close} />}
        </DialogContent>
      </Dialog>
      <ElectionConfirmDialog
        action={action !== null && (action.kind === 'archive' || action.kind === 'delete') ? action : null}
        onDone={close}
      />
    </div>
  );
}

function ElectionRow({
  election: e,
  currentId,
  timeZone,
  onAction,
}: {
  election: Listed;
  currentId: number | undefined;
  timeZone: string;
  onAction: (a: Action) => void;
}) {
  const { t } = useT();
  const title = e.title.trim() || t('elections.untitled');
  const opened = e.roll_frozen_at != null;
  // Turnout once voting opened; before, no vote can have been cast.
  const statistics = useQuery({ ...queries.adminStatistics(e.id), enabled: opened });
  const stats = statistics.data?.body.data.data;
  const roll = stats ? stats.membersVoted + stats.membersNotVoted : 0;
  const noVote = !opened || stats?.votesCasted === 0;
  const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso, timeZone) : '–');

  return (
    <tr className={rowClass}>
      <th scope="row" className="px-3 py-2 text-left align-middle font-medium">
        <span className="block">{title}</span>
        {e.id === currentId && <span className="block text-xs font-normal text-muted-foreground">{t('elections.isCurrent')}</span>}
      </th>
      <Td>{e.archived ? t('elections.archived') : t(`elections.phase.${e.phase}`)}</Td>
      <Td>
        {!opened
          ? '–'
          : stats
            ? t('elections.turnoutOf', { voted: stats.membersVoted, roll, percent: roll > 0 ? stats.membersVoted / roll : 0 })
            : statistics.isError
              ? t('elections.turnoutUnknown')
              : t('common.loading')}
      </Td>
      <Td>{opened ? when(e.roll_frozen_at) : e.opens_at ? t('elections.scheduledFor', { when: when(e.opens_at) }) : '–'}</Td>
      <Td>
        {e.phase === 'closed'
          ? when(e.closed_at ?? e.closes_at)
          : e.closes_at
            ? t('elections.scheduledFor', { when: when(e.closes_at) })
            : '–'}
      </Td>
      <Td>
        <div className="flex flex-wrap gap-2">
          {!e.archived && (
            <Link
              to="/admin/setup"
              search={{ election: e.id }}
              className={cn(buttonVariants({ variant: 'outline', size: 'sm' }))}
              aria-label={t('elections.setupOf', { title })}
            >
              <Settings2 aria-hidden="true" />
              {t('elections.setup')}
            </Link>
          )}
          {!e.archived && (
            <Button
              size="sm"
              variant="outline"
              aria-label={t('elections.editOf', { title })}
              onClick={() => onAction({ kind: 'edit', election: e })}
            >
              <Pencil aria-hidden="true" />
              {t('elections.edit')}
            </Button>
          )}
          <Button
            size="sm"
            variant="outline"
            aria-label={t('elections.copyOf', { title })}
            onClick={() => onAction({ kind: 'copy', election: e })}
          >
            <Copy aria-hidden="true" />
            {t('elections.copy')}
          </Button>
          {e.phase === 'closed' && !e.archived && (
            <Button
              size="sm"
              variant="outline"
              aria-label={t('elections.archiveOf', { title })}
              onClick={() => onAction({ kind: 'archive', election: e })}
            >
              <Archive aria-hidden="true" />
              {t('elections.archive')}
            </Button>
          )}
          {noVote && (
            <Button
              size="sm"
              variant="outline"
              className="text-destructive"
              aria-label={t('elections.deleteOf', { title })}
              onClick={() => onAction({ kind: 'delete', election: e })}
            >
              <Trash2 aria-hidden="true" />
              {t('elections.delete')}
            </Button>
          )}
        </div>
      </Td>
    </tr>
  );
}

const copySchema = z.object({ title: CopyElectionBody.shape.title, candidates: z.boolean() });

/** POST elections/{id}/copy: a new election in set-up with the same positions (and candidates when asked). */
function CopyForm({ election, onDone }: { election: Listed; onDone: () => void }) {
  const { t } = useT();
  const id = useId();
  const copy = useCopyElection();
  const title = election.title.trim() || t('elections.untitled');
  const form = useZodForm(copySchema, { defaultValues: { title: t('elections.copyTitle', { title }), candidates: false } });
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (body) => {
    setProblem(null);
    try {
      const res = await copy.mutateAsync({ params: { id: election.id }, body });
      toast({ variant: 'success', title: t('elections.copied', { title: res.body.data.title }) });
      onDone();
    } catch (err) {
      const fields = fieldErrorsOf(err);
      setServerErrors(form, fields);
      if (Object.keys(fields).length === 0) setProblem(errorMessage(err) ?? t('common.somethingWrong'));
    }
  });
  return (
    <>
      <DialogHeader>
        <DialogTitle>{t('elections.copyTitleOf', { title })}</DialogTitle>
        <DialogDescription>{t('elections.copyText')}</DialogDescription>
      </DialogHeader>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
        <FormField label={t('elections.field.newTitle')} error={form.formState.errors.title?.message}>
          <Input autoComplete="off" {...form.register('title')} />
        </FormField>
        <Controller
          control={form.control}
          name="candidates"
          render={({ field }) => (
            <span className="flex items-center gap-2">
              <Checkbox id={`${id}-candidates`} checked={field.value} onCheckedChange={(on) => field.onChange(on === true)} />
              <Label htmlFor={`${id}-candidates`} className="font-normal">
                {t('elections.field.withCandidates')}
              </Label>
            </span>
          )}
        />
        <Problem text={problem} />
        <FormFooter pending={copy.isPending} submitLabel={t('elections.copy')} pendingLabel={t('common.saving')} onCancel={onDone} />
      </form>
    </>
  );
}

function Problem({ text }: { text: string | null }) {
  const { tReceived } = useT();
  if (!text) return null;
  return (
    <p role="alert" className="text-sm text-destructive">
      {tReceived(text)}
    </p>
  );
}

/** Archive or Delete, confirmed; the dialog stays open with the server's reason when it refuses (409). */
function ElectionConfirmDialog({ action, onDone }: { action: Confirmed | null; onDone: () => void }) {
  const { t } = useT();
  const archive = useArchiveElection();
  const remove = useDeleteElection();
  const title = action ? action.election.title.trim() || t('elections.untitled') : '';
  const isDelete = action?.kind === 'delete';
  return (
    <ConfirmDialog
      open={action !== null}
      title={isDelete ? t('elections.deleteTitle', { title }) : t('elections.archiveTitle', { title })}
      description={isDelete ? t('elections.deleteText') : t('elections.archiveText')}
      confirmLabel={isDelete ? t('elections.delete') : t('elections.archive')}
      destructive={isDelete}
      pending={archive.isPending || remove.isPending}
      onClose={onDone}
      onConfirm={async () => {
        if (!action) return;
        if (isDelete) await remove.mutateAsync({ params: { id: action.election.id } });
        else await archive.mutateAsync({ params: { id: action.election.id } });
        toast({ variant: 'success', title: isDelete ? t('elections.deleted', { title }) : t('elections.archivedToast', { title }) });
        onDone();
      }}
    />
  );
}
