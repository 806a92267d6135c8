import { FormField, selectClass } from '@/components/forms';
import { LANGUAGE_NAMES, SHIPPED_LANGUAGES, useT } from '@/i18n';

/**
 * A member's own language (docs/api.md "Languages"): the language of their SMS, e-mails and USSD
 * screens, or the organisation's default (the empty value). The admin sees and sets it here.
 */
export function MemberLanguageField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const { t } = useT();
  return (
    <FormField id={`${id}-language`} label={t('admin.field.language')} description={t('admin.field.languageHint')} error={error}>
      <select className={selectClass} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('admin.field.languageDefault')}</option>
        {SHIPPED_LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </FormField>
  );
}

/** How the members table names a member's language: the language's own name, or "Default". */
export function memberLanguageName(language: string | null, t: (key: 'admin.field.languageDefaultShort') => string): string {
  return language && language in LANGUAGE_NAMES
    ? LANGUAGE_NAMES[language as keyof typeof LANGUAGE_NAMES]
    : t('admin.field.languageDefaultShort');
}
