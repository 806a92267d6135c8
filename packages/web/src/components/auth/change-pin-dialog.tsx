import { useId, useState } from 'react';
import { KeyRound } from 'lucide-react';
import { ChangePinBody } from '@kura/contract';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { FieldError } from '@/components/auth/field-error';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { errorMessage, fieldErrorsOf, firstFieldError, zodFieldErrors } from '@/lib/errors';

type Values = { current_pin: string; new_pin: string };
const EMPTY: Values = { current_pin: '', new_pin: '' };

/**
 * Change pin (docs/screens.md "Screens"): the pin of the authenticator sign-in. The current
 * pin is the default pin until the member sets their own; the rules are the contract's, checked
 * here first and again by the server.
 */
export function ChangePinDialog() {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = api.auth.changePin.useMutation();

  const reset = () => {
    setValues(EMPTY);
    setErrors({});
  };

  const set = (key: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: '' }));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = ChangePinBody.safeParse(values);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error.issues));
      return;
    }
    try {
      await change.mutateAsync({ body: parsed.data });
      toast({
        variant: 'success',
        title: 'Pin changed',
        description: 'Use your new pin the next time you sign in with your authenticator app.',
      });
      reset();
      setOpen(false);
    } catch (err) {
      setErrors(fieldErrorsOf(err));
      toast({ variant: 'destructive', title: 'Error changing pin', description: firstFieldError(err) ?? errorMessage(err) });
    }
  };

  const field = (key: keyof Values, label: string, hint?: string) => (
    <div className="grid gap-2">
      <Label htmlFor={`${id}-${key}`}>{label}</Label>
      <Input
        id={`${id}-${key}`}
        type="password"
        inputMode="numeric"
        autoComplete={key === 'new_pin' ? 'new-password' : 'current-password'}
        maxLength={key === 'new_pin' ? 8 : 100}
        value={values[key]}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={[hint ? `${id}-${key}-hint` : '', errors[key] ? `${id}-${key}-error` : ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => set(key, e.target.value)}
      />
      {hint && (
        <p id={`${id}-${key}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-${key}-error`} message={errors[key]} />
    </div>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <KeyRound aria-hidden="true" />
          Change pin
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Change pin</DialogTitle>
            <DialogDescription>
              The pin you enter before the token from your authenticator app. Until you change it, it is the default pin.
            </DialogDescription>
          </DialogHeader>
          {field('current_pin', 'Current pin')}
          {field('new_pin', 'New pin', '4 to 8 digits, not the default pin, not one digit repeated or a run like 1234.')}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Saving…' : 'Save'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
