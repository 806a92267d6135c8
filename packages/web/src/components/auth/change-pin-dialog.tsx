import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { ChangePinBody } from '@kura/contract';
import { FormField, FormFooter, setServerErrors, useZodForm } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { fieldErrorsOf } from '@/lib/errors';
import { useChangePin } from '@/lib/mutations';
import { t, useT } from '@/i18n';

/**
 * Change pin (docs/screens.md "Screens"): the pin of the authenticator sign-in. The current
 * pin is the default pin until the member sets their own; the rules are the contract's, checked
 * here first and again by the server.
 */
export function ChangePinDialog() {
  useT();
  const [open, setOpen] = useState(false);
  const change = useChangePin();
  const form = useZodForm(ChangePinBody, { defaultValues: { current_pin: '', new_pin: '' } });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (body) => {
    try {
      await change.mutateAsync({ body });
      toast({
        variant: 'success',
        title: t('pin.changed'),
        description: t('pin.changedDescription'),
      });
      form.reset();
      setOpen(false);
    } catch (err) {
      setServerErrors(form, fieldErrorsOf(err));
    }
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <KeyRound aria-hidden="true" />
          {t('pin.open')}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('pin.open')}</DialogTitle>
            <DialogDescription>{t('pin.description')}</DialogDescription>
          </DialogHeader>
          <FormField label={t('pin.current')} error={errors.current_pin?.message}>
            <Input type="password" inputMode="numeric" autoComplete="current-password" maxLength={100} {...form.register('current_pin')} />
          </FormField>
          <FormField label={t('pin.new')} description={t('pin.newHint')} error={errors.new_pin?.message}>
            <Input type="password" inputMode="numeric" autoComplete="new-password" maxLength={8} {...form.register('new_pin')} />
          </FormField>
          <FormFooter
            pending={change.isPending}
            submitLabel={t('common.save')}
            pendingLabel={t('common.saving')}
            onCancel={() => setOpen(false)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
