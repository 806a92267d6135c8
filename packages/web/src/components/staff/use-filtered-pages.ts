import { useCallback, useEffect, useState } from 'react';
import { clampPage } from './pager';

export type Filters = Record<string, string>;

/** Whether any field holds text. */
export function hasAnyFilter(filters: Filters): boolean {
  return Object.values(filters).some((v) => v.trim() !== '');
}

/** Only the fields that hold text, trimmed (empty filters are not sent). */
export function activeFilters<F extends Filters>(filters: F): Partial<F> {
  const out: Partial<F> = {};
  for (const [k, v] of Object.entries(filters)) if (v.trim() !== '') (out as Filters)[k] = v.trim();
  return out;
}

/**
 * Spec §4 for logs, vvpat and members: Search turns on filter mode and goes to page 1, Reset
 * turns it off (and clears the form). The page stays between 1 and the last page the server
 * reported.
 */
export function useFilteredPages<F extends Filters>(empty: F) {
  // Callers pass a module-level constant, so `empty` keeps its identity between renders.
  const [draft, setDraft] = useState<F>(empty);
  const [applied, setApplied] = useState<F>(empty);
  const [filterMode, setFilterMode] = useState(false);
  const [page, setPageRaw] = useState(1);
  const [lastPage, setLastPage] = useState(1);

  const setField = useCallback((key: keyof F, value: string) => setDraft((d) => ({ ...d, [key]: value })), []);
  const search = useCallback(() => {
    setApplied(draft);
    setFilterMode(true);
    setPageRaw(1);
  }, [draft]);
  const reset = useCallback(() => {
    setDraft(empty);
    setApplied(empty);
    setFilterMode(false);
    setPageRaw(1);
  }, [empty]);
  const setPage = useCallback((p: number) => setPageRaw(clampPage(p, lastPage)), [lastPage]);

  // A search can shrink the list below the current page: step back to the new last page.
  useEffect(() => {
    if (page > lastPage) setPageRaw(Math.max(1, lastPage));
  }, [page, lastPage]);

  return { draft, setField, applied, filterMode, page, setPage, lastPage, setLastPage, search, reset };
}
