import type { FieldErrors, FieldValues, UseFormReturn } from 'react-hook-form';
import type { ContentTranslations } from '@/i18n';
import { LANGUAGE_NAMES, SHIPPED_LANGUAGES, useT, type MessageKey, type ShippedLanguage } from '@/i18n';
import { FormField } from '@/components/forms';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useElection } from '@/lib/election';

/** The form's values of the organisation's texts in other languages: language → field → text. */
export type TranslationValues = Record<string, Record<string, string>>;

/** The shipped languages other than the organisation's default: the ones an admin may translate into. */
export function useOtherLanguages(): ShippedLanguage[] {
  const { election } = useElection();
  const fallback = election?.default_language ?? 'en';
  return SHIPPED_LANGUAGES.filter((code) => code !== fallback);
}

/**
 * The form's starting translations: every stored one (a language that is now the default keeps
 * its texts, since the whole object replaces the stored one), and an empty field for each field of
 * each other language.
 */
export function translationValues(stored: ContentTranslations, languages: readonly string[], fields: readonly string[]): TranslationValues {
  const out: TranslationValues = {};
  for (const [code, texts] of Object.entries(stored ?? {})) out[code] = { ...texts };
  for (const code of languages) out[code] = { ...Object.fromEntries(fields.map((f) => [f, ''])), ...out[code] };
  return out;
}

type Field = { name: string; label: MessageKey; multiline?: boolean };

function errorAt(errors: FieldErrors, code: string, field: string): string | undefined {
  const group = (errors.translations as Record<string, Record<string, { message?: string }> | undefined> | undefined)?.[code];
  return group?.[field]?.message;
}

/**
 * The optional fields of a text in each non-default language (docs/i18n.md "Ballot content"): one
 * group per language, named in itself, its controls marked with their language. Empty is no
 * translation: members reading that language see the original.
 */
export function TranslationFields<T extends FieldValues>({
  form: typed,
  fields,
  className,
}: {
  form: UseFormReturn<T, unknown, any>;
  fields: readonly Field[];
  className?: string;
}) {
  const { t } = useT();
  const languages = useOtherLanguages();
  // The form's values hold `translations` (language → field → text): these paths are its own.
  const form = typed as unknown as UseFormReturn<{ translations: TranslationValues }>;
  const errors = form.formState.errors as FieldErrors;
  return (
    <>
      {languages.map((code) => {
        const language = LANGUAGE_NAMES[code];
        return (
          <fieldset key={code} className={className ?? 'grid gap-2 rounded-md border border-border p-3 sm:col-span-2'}>
            <legend className="px-1 text-sm font-medium">{t('admin.translation.heading', { language })}</legend>
            <p className="text-sm text-muted-foreground">{t('admin.translation.hint', { language })}</p>
            {fields.map((f) => (
              <FormField key={f.name} label={t(f.label, { language })} error={errorAt(errors, code, f.name)} className="gap-1">
                {f.multiline ? (
                  <Textarea lang={code} {...form.register(`translations.${code}.${f.name}`)} />
                ) : (
                  <Input lang={code} {...form.register(`translations.${code}.${f.name}`)} />
                )}
              </FormField>
            ))}
          </fieldset>
        );
      })}
    </>
  );
}
