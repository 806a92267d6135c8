import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { clampPage, wholeLastPage } from '@/lib/pages';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';

type Props = {
  page: number;
  lastPage: number;
  onPageChange: (page: number) => void;
  /** while a page is loading the buttons wait */
  disabled?: boolean;
  className?: string;
  /** names the pager for screen readers when a screen has more than one */
  label?: string;
};

/** First, Back, 'Page X of Y', Next and Last; never leaves the range 1..last page. */
export function Pager({ page, lastPage, onPageChange, disabled = false, className, label }: Props) {
  const { t } = useT();
  const last = wholeLastPage(lastPage);
  const current = clampPage(page, last);
  const go = (target: number) => {
    const next = clampPage(target, last);
    if (next !== current) onPageChange(next);
  };
  const atStart = current <= 1;
  const atEnd = current >= last;
  return (
    <nav aria-label={label ?? t('staff.pager.label')} className={cn('flex flex-wrap items-center justify-center gap-2', className)}>
      <Button variant="outline" size="sm" onClick={() => go(1)} disabled={disabled || atStart}>
        <ChevronFirst aria-hidden="true" />
        {t('staff.pager.first')}
      </Button>
      <Button variant="outline" size="sm" onClick={() => go(current - 1)} disabled={disabled || atStart}>
        <ChevronLeft aria-hidden="true" />
        {t('staff.pager.back')}
      </Button>
      <span className="px-2 text-sm tabular-nums" aria-live="polite" aria-atomic="true">
        {t('staff.pager.page', { page: String(current), last: String(last) })}
      </span>
      <Button variant="outline" size="sm" onClick={() => go(current + 1)} disabled={disabled || atEnd}>
        {t('staff.pager.next')}
        <ChevronRight aria-hidden="true" />
      </Button>
      <Button variant="outline" size="sm" onClick={() => go(last)} disabled={disabled || atEnd}>
        {t('staff.pager.last')}
        <ChevronLast aria-hidden="true" />
      </Button>
    </nav>
  );
}
