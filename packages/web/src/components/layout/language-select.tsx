import { useId } from 'react';
import { Languages } from 'lucide-react';
import { LANGUAGE_NAMES, PSEUDO_LOCALE, SHIPPED_LANGUAGES, isShipped, pseudoAllowed, setLocale, useT, type Locale } from '@/i18n';
import { useSaveOwnLanguage } from '@/lib/mutations';
import { getAccountType, hasSession } from '@/lib/session';
import { cn } from '@/lib/utils';

/**
 * The language switcher (docs/i18n.md): a labelled native select, so keyboard, screen reader and
 * phone pickers all work. Each language is named in itself; the choice applies at once and is
 * remembered on this device, and a signed-in member's is saved on their record too.
 */
export function LanguageSelect({ className, compact = false }: { className?: string; compact?: boolean }) {
  const { t, locale } = useT();
  const id = useId();
  const save = useSaveOwnLanguage();
  const choose = (code: Locale) => {
    setLocale(code);
    if (isShipped(code) && hasSession() && getAccountType() === 'member') save(code);
  };
  const options: Locale[] = pseudoAllowed() ? [...SHIPPED_LANGUAGES, PSEUDO_LOCALE] : [...SHIPPED_LANGUAGES];
  return (
    <div className={cn('flex items-center gap-2 text-sm', className)}>
      <Languages className="size-4 shrink-0" aria-hidden="true" />
      {/* In a narrow header the label is read, not shown (the icon stands for it). */}
      <label htmlFor={id} className={compact ? 'sr-only sm:not-sr-only' : undefined}>
        {t('language.label')}
      </label>
      <select
        id={id}
        value={locale}
        onChange={(e) => choose(e.target.value as Locale)}
        className="h-8 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {options.map((code) => (
          <option key={code} value={code} lang={code === PSEUDO_LOCALE ? 'en' : code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
