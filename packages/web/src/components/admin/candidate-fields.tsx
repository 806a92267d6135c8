import { useCallback, useEffect, useRef, useState, type Dispatch, type ReactNode, type RefObject, type SetStateAction } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { MAX_STATEMENT_LENGTH, type UpdateCandidateBody } from '@kura/contract';
import { FieldError } from '@/components/auth/field-error';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { errorMessage, fieldErrorsOf, firstFieldError } from '@/lib/errors';
import { queryKeys } from '@/lib/queries';
import { CandidatePhoto } from './candidate-photo';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The server checks the bytes; this catches the obvious mistakes before the upload. */
export function imageProblem(file: File): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return 'Images must be JPEG, PNG or WebP files';
  if (file.size > MAX_IMAGE_BYTES) return 'The image must be at most 5 MB';
  return null;
}

/** A local preview URL of the chosen file, revoked when it changes. */
export function usePreview(image: File | null): string | null {
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!image || typeof URL.createObjectURL !== 'function') {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);
  return preview;
}

/**
 * Profile picture (optional): the current photo or the chosen file's preview, and the file input.
 * A file that is not an image is refused here with its message; `onImage(null)` clears the choice.
 */
export function PhotoField({
  id,
  fileRef,
  current,
  name,
  image,
  error,
  onImage,
  onError,
}: {
  id: string;
  fileRef: RefObject<HTMLInputElement | null>;
  current: string | null;
  name: string;
  image: File | null;
  error?: string;
  onImage: (file: File | null) => void;
  onError: (message: string) => void;
}) {
  const preview = usePreview(image);
  const onFile = (file: File | undefined) => {
    if (!file) {
      onImage(null);
      return;
    }
    const problem = imageProblem(file);
    onError(problem ?? '');
    onImage(problem ? null : file);
    if (problem && fileRef.current) fileRef.current.value = '';
  };
  return (
    <div className="grid gap-2">
      <Label htmlFor={`${id}-image`}>Profile picture (optional)</Label>
      <div className="flex items-center gap-3">
        <CandidatePhoto src={preview ?? current} name={name} className="size-16" />
        <input
          ref={fileRef}
          id={`${id}-image`}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-image-error` : undefined}
          onChange={(ev) => onFile(ev.target.files?.[0])}
          className="min-w-0 text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5"
        />
      </div>
      {preview && <p className="text-xs text-muted-foreground">Preview of the new picture; it is saved with the form.</p>}
      <FieldError id={`${id}-image-error`} message={error} />
    </div>
  );
}

/** "123 of 2,000 characters": how much of the statement is used. */
export const statementCount = (text: string) =>
  `${text.length.toLocaleString('en')} of ${MAX_STATEMENT_LENGTH.toLocaleString('en')} characters`;

/** The candidate's statement to voters (shown on the ballot), at most 2,000 characters, with a counter. */
export function StatementField({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={`${id}-statement`}>Statement to voters (optional)</Label>
      <Textarea
        id={`${id}-statement`}
        value={value}
        maxLength={MAX_STATEMENT_LENGTH}
        rows={5}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-statement-count${error ? ` ${id}-statement-error` : ''}`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-statement-count`} className="text-xs text-muted-foreground">
        {statementCount(value)}; voters read it on the ballot.
      </p>
      <FieldError id={`${id}-statement-error`} message={error} />
    </div>
  );
}

type Errors = Record<string, string>;

/** The photo and statement both candidate dialogs keep: the chosen file, its input and the statement text. */
export function useCandidateMedia() {
  const fileRef = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<File | null>(null);
  const [statement, setStatement] = useState('');
  /** No file chosen (the input emptied too) and the statement set to `next`. */
  const reset = useCallback((next: string) => {
    setImage(null);
    setStatement(next);
    if (fileRef.current) fileRef.current.value = '';
  }, []);
  return { fileRef, image, setImage, statement, setStatement, reset };
}

export type CandidateMedia = ReturnType<typeof useCandidateMedia>;

/**
 * The photo field, then `note` (if any), then the statement field, their messages kept in the
 * dialog's `errors`: a refused file sets `errors.image`, typing clears `errors.statement`.
 */
export function CandidateMediaFields({
  id,
  media,
  current,
  name,
  errors,
  setErrors,
  note,
}: {
  id: string;
  media: CandidateMedia;
  current: string | null;
  name: string;
  errors: Errors;
  setErrors: Dispatch<SetStateAction<Errors>>;
  note?: ReactNode;
}) {
  return (
    <>
      <PhotoField
        id={id}
        fileRef={media.fileRef}
        current={current}
        name={name}
        image={media.image}
        error={errors.image}
        onImage={media.setImage}
        onError={(message) => setErrors((e) => ({ ...e, image: message }))}
      />
      {note}
      <StatementField
        id={id}
        value={media.statement}
        error={errors.statement}
        onChange={(v) => {
          media.setStatement(v);
          setErrors((e) => (e.statement ? { ...e, statement: '' } : e));
        }}
      />
    </>
  );
}

/**
 * The multipart candidate edit both dialogs send: the photo (if one was chosen), the contact
 * fields, position_ids[] and the statement. An empty statement is sent (it clears the current one)
 * unless `emptyStatement` is 'omit' (absent keeps it).
 */
export function candidateForm(data: z.infer<typeof UpdateCandidateBody>, image: File | null, emptyStatement: 'send' | 'omit'): FormData {
  const form = new FormData();
  if (image) form.append('image', image);
  form.append('name', data.name);
  form.append('phone', data.phone);
  form.append('email', data.email);
  form.append('county', data.county);
  for (const pid of data.position_ids) form.append('position_ids[]', String(pid));
  if (data.statement || emptyStatement === 'send') form.append('statement', data.statement ?? '');
  return form;
}

/**
 * Sends a candidate edit: on success a toast (`saved`), the candidates and members lists
 * refreshed, and true; on failure the server's field errors to `onFieldErrors`, a toast titled
 * `failed`, and false.
 */
export function useCandidateSave() {
  const queryClient = useQueryClient();
  const update = api.candidates.updateCandidate.useMutation();
  const save = async ({
    id,
    form,
    saved,
    failed,
    onFieldErrors,
  }: {
    id: number;
    form: FormData;
    saved: { title: string; description?: string };
    failed: string;
    onFieldErrors: (fields: Errors) => void;
  }): Promise<boolean> => {
    try {
      await update.mutateAsync({ params: { id }, body: form });
      toast({ variant: 'success', ...saved });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.candidates }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members }),
      ]);
      return true;
    } catch (err) {
      onFieldErrors(fieldErrorsOf(err));
      toast({ variant: 'destructive', title: failed, description: firstFieldError(err) ?? errorMessage(err) ?? 'Please try again.' });
      return false;
    }
  };
  return { save, pending: update.isPending };
}
