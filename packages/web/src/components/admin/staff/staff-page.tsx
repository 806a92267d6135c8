import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { Controller } from 'react-hook-form';
import { CreateStaffBody, type Staff } from '@kura/contract';
import { FormField, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { ErrorState, Loading } from '@/components/layout/page-states';
import { DataTable, rowClass, Td } from '@/components/staff/data-table';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { toast } from '@/hooks/use-toast';
import { formatDateTime } from '@/lib/election';
import { errorMessage, fieldErrorsOf } from '@/lib/errors';
import { useCreateStaff, useDeleteStaff } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';
import { OwnNameForm } from '@/components/staff/own-name-form';

/**
 * The admin's Staff page (docs/api.md "Running it on your own"): every admin and agent, Add (an
 * agent signs in by e-mailed code at once; an admin is e-mailed a link to set a password), Remove
 * with a confirmation (their sessions end; the server refuses the last admin and oneself), and
 * one's own display name.
 */
export function StaffPage() {
  const { t } = useT();
  const list = useQuery(queries.staff());
  const organisation = useQuery(queries.organisation());
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Staff | null>(null);
  const timeZone = organisation.data?.body.data.time_zone ?? 'UTC';
  const rows = list.data?.body.data ?? [];
  const admins = rows.filter((s) => s.role === 'admin').length;

  return (
    <div className="grid gap-6">
      <OwnNameForm />
      <div className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <h2 className="text-lg font-semibold">{t('staffPage.heading')}</h2>
            <p className="text-sm text-muted-foreground">{t('staffPage.intro')}</p>
          </div>
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" />
            {t('staffPage.add')}
          </Button>
        </div>
        {list.isPending ? (
          <Loading label={t('common.loading')} />
        ) : list.isError ? (
          <ErrorState>{t('staffPage.loadError')}</ErrorState>
        ) : (
          <DataTable
            caption={t('staffPage.caption')}
            minWidth="min-w-[40rem]"
            headers={[
              t('staffPage.col.email'),
              t('staffPage.col.name'),
              t('staffPage.col.role'),
              t('staffPage.col.added'),
              t('staffPage.col.actions'),
            ]}
          >
            {rows.map((s) => {
              const lastAdmin = s.role === 'admin' && admins <= 1;
              return (
                <tr key={s.id} className={rowClass}>
                  <th scope="row" className="px-3 py-2 text-left align-middle font-medium">
                    {s.email}
                  </th>
                  <Td>{s.name ?? '–'}</Td>
                  <Td>{s.role === 'admin' ? t('staffPage.role.admin') : t('staffPage.role.agent')}</Td>
                  <Td>{formatDateTime(s.created_at, timeZone)}</Td>
                  <Td>
                    {lastAdmin ? (
                      <span className="text-xs text-muted-foreground">{t('staffPage.lastAdmin')}</span>
                    ) : (
                      <Button
                        size="sm"
                        variant="outline"
                        className="text-destructive"
                        aria-label={t('staffPage.removeOf', { email: s.email })}
                        onClick={() => setRemoving(s)}
                      >
                        <Trash2 aria-hidden="true" />
                        {t('staffPage.remove')}
                      </Button>
                    )}
                  </Td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </div>

      <Dialog open={adding} onOpenChange={(o) => !o && setAdding(false)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('staffPage.addTitle')}</DialogTitle>
            <DialogDescription>{t('staffPage.addText')}</DialogDescription>
          </DialogHeader>
          {adding && <AddStaffForm onDone={() => setAdding(false)} />}
        </DialogContent>
      </Dialog>
      <RemoveDialog staff={removing} onDone={() => setRemoving(null)} />
    </div>
  );
}

function AddStaffForm({ onDone }: { onDone: () => void }) {
  const { t, tReceived } = useT();
  const id = useId();
  const create = useCreateStaff();
  const form = useZodForm(CreateStaffBody, { defaultValues: { email: '', role: 'agent', name: undefined } });
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (body) => {
    setProblem(null);
    try {
      const res = await create.mutateAsync({ body: { ...body, name: body.name || undefined } });
      const added = res.body.data;
      toast({
        variant: 'success',
        title:
          added.role === 'admin' ? t('staffPage.addedAdmin', { email: added.email }) : t('staffPage.addedAgent', { email: added.email }),
      });
      onDone();
    } catch (err) {
      const fields = fieldErrorsOf(err);
      setServerErrors(form, fields);
      if (Object.keys(fields).length === 0) setProblem(errorMessage(err) ?? t('common.somethingWrong'));
    }
  });
  const errors = form.formState.errors;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
      <FormField label={t('staffPage.field.email')} error={errors.email?.message}>
        <Input type="email" autoComplete="off" maxLength={150} {...form.register('email')} />
      </FormField>
      <FormField label={t('staffPage.field.name')} description={t('staffPage.field.nameHint')} error={errors.name?.message}>
        <Input autoComplete="off" maxLength={100} {...form.register('name', { setValueAs: (v: string) => (v.trim() ? v : undefined) })} />
      </FormField>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{t('staffPage.field.role')}</legend>
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <RadioGroup value={field.value} onValueChange={(v) => field.onChange(v)} className="grid gap-3">
              <span className="flex items-start gap-2">
                <RadioGroupItem id={`${id}-agent`} value="agent" />
                <Label htmlFor={`${id}-agent`} className="font-normal">
                  {t('staffPage.role.agentHint')}
                </Label>
              </span>
              <span className="flex items-start gap-2">
                <RadioGroupItem id={`${id}-admin`} value="admin" />
                <Label htmlFor={`${id}-admin`} className="font-normal">
                  {t('staffPage.role.adminHint')}
                </Label>
              </span>
            </RadioGroup>
          )}
        />
      </fieldset>
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {tReceived(problem)}
        </p>
      )}
      <FormFooter pending={create.isPending} submitLabel={t('staffPage.add')} pendingLabel={t('common.saving')} onCancel={onDone} />
    </form>
  );
}

/** Remove, confirmed; the dialog stays open with the server's reason when it refuses (409). */
function RemoveDialog({ staff, onDone }: { staff: Staff | null; onDone: () => void }) {
  const { t } = useT();
  const remove = useDeleteStaff();
  return (
    <ConfirmDialog
      open={staff !== null}
      title={t('staffPage.removeTitle', { email: staff?.email ?? '' })}
      description={t('staffPage.removeText')}
      confirmLabel={t('staffPage.remove')}
      destructive
      pending={remove.isPending}
      onClose={onDone}
      onConfirm={async () => {
        if (!staff) return;
        await remove.mutateAsync({ params: { id: staff.id } });
        toast({ variant: 'success', title: t('staffPage.removed', { email: staff.email }) });
        onDone();
      }}
    />
  );
}
