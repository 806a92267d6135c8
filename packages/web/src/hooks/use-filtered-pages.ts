import { useCallback, useState } from 'react';

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
 * docs/screens.md "Staff pages" for logs, vvpat and members: Search turns on filter mode and goes to page 1, Reset
 * turns it off (and clears the form). The bounds of the page come from the query's body, which
 * this hook runs before: pass `page` and `setPage` to `useLastPage` with the body's last page.
 */
export function useFilteredPages<F extends Filters>(empty: F) {
  // Callers pass a module-level constant, so `empty` keeps its identity between renders.
  const [draft, setDraft] = useState<F>(empty);
  const [applied, setApplied] = useState<F>(empty);
  const [filterMode, setFilterMode] = useState(false);
  const [page, setPage] = useState(1);

  const setField = useCallback((key: keyof F, value: string) => setDraft((d) => ({ ...d, [key]: value })), []);
  const search = useCallback(() => {
    setApplied(draft);
    setFilterMode(true);
    setPage(1);
  }, [draft]);
  const reset = useCallback(() => {
    setDraft(empty);
    setApplied(empty);
    setFilterMode(false);
    setPage(1);
  }, [empty]);

  return { draft, setField, applied, filterMode, page, setPage, search, reset };
}
