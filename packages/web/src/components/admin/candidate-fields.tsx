import { useCallback, useEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import type { z } from 'zod';
import { MAX_STATEMENT_LENGTH, type UpdateCandidateBody } from '@kura/contract';
import { FieldError } from '@/components/forms';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { CandidatePhoto } from './candidate-photo';
import { intlLocale, t, useT } from '@/i18n';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The server checks the bytes; this catches the obvious mistakes before the upload. */
export function imageProblem(file: File): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return t('admin.candidate.imageType');
  if (file.size > MAX_IMAGE_BYTES) return t('admin.candidate.imageSize');
  return null;
}

/** A local preview URL of the chosen file, revoked when it changes. */
export function usePreview(image: File | null): string | null {
  const preview = useMemo(() => (image && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(image) : null), [image]);
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);
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
  const { t } = useT();
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
      <Label htmlFor={`${id}-image`}>{t('admin.candidate.picture')}</Label>
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
      {preview && <p className="text-xs text-muted-foreground">{t('admin.candidate.preview')}</p>}
      <FieldError id={`${id}-image-error`} message={error} />
    </div>
  );
}

/** "123 of 2,000 characters": how much of the statement is used. */
export const statementCount = (text: string) =>
  t('admin.candidate.statementCount', {
    count: text.length.toLocaleString(intlLocale()),
    max: MAX_STATEMENT_LENGTH.toLocaleString(intlLocale()),
  });

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
  const { t } = useT();
  return (
    <div className="grid gap-2">
      <Label htmlFor={`${id}-statement`}>{t('admin.candidate.statement')}</Label>
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
        {t('admin.candidate.statementHint', { count: statementCount(value) })}
      </p>
      <FieldError id={`${id}-statement-error`} message={error} />
    </div>
  );
}

/** The photo input of a candidate dialog: emptied when the dialog opens again. */
export function useFileInput() {
  const fileRef = useRef<HTMLInputElement>(null);
  const clear = useCallback(() => {
    if (fileRef.current) fileRef.current.value = '';
  }, []);
  return { fileRef, clear };
}

/**
 * The photo field, then `note` (if any), then the statement field of both candidate dialogs: a
 * refused file reports its message to `onImageError`.
 */
export function CandidateMediaFields({
  id,
  fileRef,
  current,
  name,
  image,
  onImage,
  statement,
  onStatement,
  errors,
  onImageError,
  note,
}: {
  id: string;
  fileRef: RefObject<HTMLInputElement | null>;
  current: string | null;
  name: string;
  image: File | null;
  onImage: (file: File | null) => void;
  statement: string;
  onStatement: (value: string) => void;
  errors: Partial<Record<string, string>>;
  onImageError: (message: string) => void;
  note?: ReactNode;
}) {
  return (
    <>
      <PhotoField
        id={id}
        fileRef={fileRef}
        current={current}
        name={name}
        image={image}
        error={errors.image}
        onImage={onImage}
        onError={onImageError}
      />
      {note}
      <StatementField id={id} value={statement} error={errors.statement} onChange={onStatement} />
    </>
  );
}

/**
 * The multipart candidate edit both dialogs send: the photo (if one was chosen), the contact
 * fields, position_ids[] and the statement. An empty statement is sent (it clears the current one)
 * unless `emptyStatement` is 'omit' (absent keeps it).
 */
export function candidateForm(data: z.output<typeof UpdateCandidateBody>, image: File | null, emptyStatement: 'send' | 'omit'): FormData {
  const form = new FormData();
  if (image) form.append('image', image);
  form.append('name', data.name);
  form.append('phone', data.phone);
  form.append('email', data.email ?? '');
  form.append('county', data.county);
  for (const pid of data.position_ids) form.append('position_ids[]', String(pid));
  if (data.statement || emptyStatement === 'send') form.append('statement', data.statement ?? '');
  // The statement in other languages, as JSON text (docs/api.md updateCandidate); absent keeps them.
  if (data.translations !== undefined) form.append('translations', JSON.stringify(data.translations));
  return form;
}
