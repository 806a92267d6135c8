import { useEffect, useState } from 'react';
import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/** A last page the pager can show: a whole number, at least 1. */
const wholeLastPage = (lastPage: number) => Math.max(1, Math.floor(lastPage) || 1);

/** Keeps a page number between 1 and the last page (docs/screens.md "Staff pages": the pager is bounded). */
export function clampPage(page: number, lastPage: number): number {
  const p = Math.floor(page) || 1;
  return Math.min(Math.max(1, p), wholeLastPage(lastPage));
}

/**
 * The last page of a server-paged list, read from the body on screen in the same render: state
 * set in an effect would leave a commit in which the new rows sit under the old 'Page X of Y'.
 * Without a body (first load, or a page that failed) the last one reported stands, so a failure
 * does not throw the user back to page 1. A list that shrank below the current page (a search,
 * a change made elsewhere) steps back to its new last page.
 */
export function useLastPage(page: number, setPage: (page: number) => void, reported: number | undefined): number {
  const [known, setKnown] = useState(1);
  if (reported !== undefined && reported !== known) setKnown(reported);
  const lastPage = wholeLastPage(reported ?? known);
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage, setPage]);
  return lastPage;
}

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
export function Pager({ page, lastPage, onPageChange, disabled = false, className, label = 'Pagination' }: Props) {
  const last = wholeLastPage(lastPage);
  const current = clampPage(page, last);
  const go = (target: number) => {
    const next = clampPage(target, last);
    if (next !== current) onPageChange(next);
  };
  const atStart = current <= 1;
  const atEnd = current >= last;
  return (
    <nav aria-label={label} className={cn('flex flex-wrap items-center justify-center gap-2', className)}>
      <Button variant="outline" size="sm" onClick={() => go(1)} disabled={disabled || atStart}>
        <ChevronFirst aria-hidden="true" />
        First
      </Button>
      <Button variant="outline" size="sm" onClick={() => go(current - 1)} disabled={disabled || atStart}>
        <ChevronLeft aria-hidden="true" />
        Back
      </Button>
      <span className="px-2 text-sm tabular-nums" aria-live="polite" aria-atomic="true">
        Page {current} of {last}
      </span>
      <Button variant="outline" size="sm" onClick={() => go(current + 1)} disabled={disabled || atEnd}>
        Next
        <ChevronRight aria-hidden="true" />
      </Button>
      <Button variant="outline" size="sm" onClick={() => go(last)} disabled={disabled || atEnd}>
        Last
        <ChevronLast aria-hidden="true" />
      </Button>
    </nav>
  );
}
