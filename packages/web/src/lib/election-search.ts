import { useCallback } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { z } from 'zod';
import { MAX_ID } from '@kura/contract';

/**
 * The election a staff page shows (docs/api.md "Many elections, motions and ranked counts"): the
 * `election` search param, `?election=7`, so a reload or a shared link opens the same election.
 * No param: the current election (the calls go without `?election_id`). The root route validates
 * it (`validateSearch`), the staff layouts keep it from page to page (`retainSearchParams`); a
 * malformed value is dropped rather than failing the page.
 */
export type ElectionSearch = { election?: number };

const electionParam = z.coerce.number().int().min(1).max(MAX_ID).optional().catch(undefined);

/** The root route's `validateSearch`: `{election}` when the param names a plausible id, else `{}`. */
export function electionSearch(raw: Record<string, unknown>): ElectionSearch {
  const election = raw.election === undefined || raw.election === '' ? undefined : electionParam.parse(raw.election);
  return election === undefined ? {} : { election };
}

/** A list route's `validateSearch` with the election param added (its page and filters, and `election`). */
export function withElectionSearch<S extends object>(parse: (raw: Record<string, unknown>) => S) {
  return (raw: Record<string, unknown>): S & ElectionSearch => ({ ...parse(raw), ...electionSearch(raw) });
}

/** The election the URL names, or undefined for the current one. */
export function useElectionParam(): number | undefined {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  return electionSearch(search).election;
}

/**
 * Sets (or, with undefined, clears) the election param on the current page; the page number of a
 * paged list goes back to 1, since the rows are another election's, and so do the `clear` params
 * (a list's filters that name the previous election's positions).
 */
export function useSetElectionParam(clear: readonly string[] = NONE) {
  const navigate = useNavigate();
  return useCallback(
    (election: number | undefined) =>
      void navigate({
        to: '.',
        search: (prev: Record<string, unknown>) => {
          const { election: _previous, page: _page, ...rest } = prev;
          for (const key of clear) delete rest[key];
          return (election === undefined ? rest : { ...rest, election }) as never;
        },
      }),
    [navigate, clear],
  );
}

const NONE: readonly string[] = [];
