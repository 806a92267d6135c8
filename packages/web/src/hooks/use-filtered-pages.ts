import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { activeFilters, appliedFilters, listSearchSchema, type Filters, type ListSearch } from '@/lib/list-search';

/**
 * docs/screens.md "Staff pages" for logs, vvpat, members and issues: Search turns on filter mode
 * and goes to page 1, Reset turns it off (and clears the form). Page, filter mode and the applied
 * filters are the route's search params (lib/list-search.ts), so they survive a reload and travel
 * in a shared link; only the form being typed in is local. The bounds of the page come from the
 * query's body, which this hook runs before: pass `page` and `clampPage` to `useLastPage` with the
 * body's last page.
 */
export function useFilteredPages<F extends Filters>(empty: F) {
  // Callers pass a module-level constant, so `empty` keeps its identity between renders.
  const parse = useMemo(() => listSearchSchema(empty), [empty]);
  const raw = useSearch({ strict: false }) as Record<string, unknown>;
  const search = useMemo(() => parse(raw), [parse, raw]);
  const navigate = useNavigate();
  const go = useCallback(
    (next: (prev: ListSearch<F>) => ListSearch<F>, replace = false) =>
      void navigate({
        to: '.',
        search: ((prev: Record<string, unknown>) => parse(next(parse(prev)) as Record<string, unknown>)) as never,
        replace,
      }),
    [navigate, parse],
  );

  const applied = useMemo(() => appliedFilters(empty, search), [empty, search]);
  const filterMode = search.filtered === true;
  const page = search.page ?? 1;
  const [draft, setDraft] = useState<F>(applied);
  // The form follows the URL when it changes under it (Search, Reset, back and forward).
  const appliedKey = JSON.stringify(applied);
  const shown = useRef(appliedKey);
  useEffect(() => {
    if (shown.current === appliedKey) return;
    shown.current = appliedKey;
    setDraft(applied);
  }, [appliedKey, applied]);

  const setField = useCallback((key: keyof F, value: string) => setDraft((d) => ({ ...d, [key]: value })), []);
  const setPage = useCallback((p: number) => go((prev) => ({ ...prev, page: p })), [go]);
  /** Steps back onto the last page when the list shrank, replacing the entry that went past it. */
  const clampPage = useCallback((p: number) => go((prev) => ({ ...prev, page: p }), true), [go]);
  const searchNow = useCallback(() => go(() => ({ ...activeFilters(draft), filtered: true }) as ListSearch<F>), [go, draft]);
  const reset = useCallback(() => {
    setDraft(empty);
    go(() => ({}));
  }, [empty, go]);

  return { draft, setField, applied, filterMode, page, setPage, clampPage, search: searchNow, reset, params: search };
}
