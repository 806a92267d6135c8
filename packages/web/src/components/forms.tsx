import * as React from 'react';
import { useId, useLayoutEffect } from 'react';
import { Slot } from '@radix-ui/react-slot';
import { useForm, type FieldErrors, type FieldValues, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';

/**
 * The app's one way to build a form (docs/architecture.md "How to add a screen"): react-hook-form validated by a
 * zod schema (the contract's, or one built from it), one `FormField` per control and one
 * `FormFooter`. The schema's input type is what the fields hold, its output type is what the
 * submit handler receives, so no cast is needed.
 */
export type ZodForm<S extends z.ZodType<FieldValues, z.ZodTypeDef, FieldValues>> = UseFormReturn<z.input<S>, unknown, z.output<S>>;

export function useZodForm<S extends z.ZodType<FieldValues, z.ZodTypeDef, FieldValues>>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {},
): ZodForm<S> {
  return useForm<z.input<S>, unknown, z.output<S>>({ ...options, resolver: zodResolver<z.input<S>, unknown, z.output<S>>(schema) });
}

/**
 * Keeps a form that edits what the server holds (the election's schedule, the organisation's
 * texts) in step with it without losing the admin's typing: each time `stored` (the values read
 * from the server, undefined until then) changes, the form takes them while it is clean (nothing
 * typed, or just saved), and keeps the admin's edits while it is dirty. The screen's query is read
 * anew on live events (another admin's save, voting switched, a scheduled opening), so without
 * this a refetch would wipe a half-typed time. After a successful save the form calls
 * `form.reset(sent)` with the values it sent: clean again, it then follows the server's answer.
 * Returns true while the stored values changed under unsaved edits (saving replaces that change),
 * for the form's `StoredChangedNote`.
 *
 * The values land in a layout effect: in the same task as the render that brought them, so no
 * keystroke can fall between the fields drawn empty and their filling (typed text would be kept
 * with the stored value spliced in front). A form should show its fields only once `stored` is
 * there (a loading line before), so nothing is typed into fields the stored values then replace.
 */
export function useStoredValues<T extends FieldValues>(form: UseFormReturn<T, any, any>, stored: T | undefined): boolean {
  // Compared by content: a refetch answering the same data, or a new object of the same values, changes nothing.
  const key = stored === undefined ? undefined : sameOrder(stored);
  const { isDirty, isSubmitting, defaultValues } = form.formState;
  // What the form was last filled with (its clean state).
  const filled = sameOrder(defaultValues);
  const { reset } = form;
  useLayoutEffect(() => {
    // Not over edits, not under a save running (its reset follows), not again over the same values.
    if (key === undefined || isDirty || isSubmitting || key === filled) return;
    reset(JSON.parse(key) as T);
  }, [key, filled, isDirty, isSubmitting, reset]);
  // Not while saving: the save's own refetch lands before the form is reset to what it sent.
  return isDirty && !isSubmitting && key !== undefined && key !== filled;
}

/** JSON with every object's keys in order, so values compare whatever order their fields were set in. */
function sameOrder(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** Says by the form that what it edits changed elsewhere while the admin edited it (useStoredValues' answer). */
export function StoredChangedNote({ show, className }: { show: boolean; className?: string }) {
  const { t } = useT();
  if (!show) return null;
  return (
    <p role="status" className={cn('text-sm text-amber-900', className)}>
      {t('forms.changedElsewhere')}
    </p>
  );
}

/** The field's own message under it, read by screen readers as it appears. */
export function FieldError({ id, message }: { id: string; message?: string | null }) {
  // A contract message carried by its code is said in the active language; the web's and the server's are shown as they are.
  const { tReceived } = useT();
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-destructive">
      {tReceived(message)}
    </p>
  );
}

type FormFieldProps = {
  label: React.ReactNode;
  /** A hint under the control, announced with it. */
  description?: React.ReactNode;
  /** The field's error message (the form's `formState.errors.x?.message`, or the server's). */
  error?: string | null;
  /** The id of the control; one is made when left out. */
  id?: string;
  className?: string;
  /** One control (Input, Textarea, a Select trigger...): it receives id, aria-invalid and aria-describedby. */
  children: React.ReactElement;
};

/**
 * The class of every native `<select>` in a form. `w-full`: a select is as wide as its longest
 * option, which on a phone pushed Election Set-up 16–46 px past the screen; sized by its column,
 * it narrows with it.
 */
export const selectClass = 'h-9 w-full rounded-md border border-input bg-background px-2 text-sm';

/**
 * A label, one control, an optional hint and the error: the control is tied to its label by id,
 * to the hint and the error by aria-describedby, and is aria-invalid while the error shows.
 */
export function FormField({ label, description, error, id, className, children }: FormFieldProps) {
  const made = useId();
  const controlId = id ?? made;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [description ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={controlId}>{label}</Label>
      <Slot id={controlId} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
        {children}
      </Slot>
      {description && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

type FormFooterProps = {
  pending: boolean;
  submitLabel: string;
  /** The submit button's text while the request runs ('Saving…'). */
  pendingLabel: string;
  /** Leave out for a form without a cancel button. */
  onCancel?: () => void;
  cancelLabel?: string;
  /** Disables submit while true (besides while pending). */
  disabled?: boolean;
  className?: string;
};

/** Cancel and submit at the end of a form; submit is disabled and relabelled while pending. */
export function FormFooter({ pending, submitLabel, pendingLabel, onCancel, cancelLabel, disabled, className }: FormFooterProps) {
  const { t } = useT();
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}>
      {onCancel && (
        <Button type="button" variant="outline" onClick={onCancel}>
          {cancelLabel ?? t('common.cancel')}
        </Button>
      )}
      <Button type="submit" disabled={pending || disabled}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </div>
  );
}

/** Puts a server refusal's field messages (lib/errors.ts fieldErrorsOf) on the form's fields. */
export function setServerErrors<T extends FieldValues>(form: UseFormReturn<T, unknown, any>, errors: Record<string, string>) {
  for (const [name, message] of Object.entries(errors)) {
    form.setError(name as Parameters<typeof form.setError>[0], { type: 'server', message });
  }
}

/** The form's field messages by field name (the first level), for field groups that take plain messages. */
export function fieldMessages(errors: FieldErrors): Partial<Record<string, string>> {
  const out: Partial<Record<string, string>> = {};
  for (const [name, error] of Object.entries(errors)) {
    const message = (error as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message) out[name] = message;
  }
  return out;
}
