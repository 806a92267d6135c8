import { z } from 'zod';

/**
 * The search params of the paged staff lists (docs/screens.md "Staff pages"): the page, whether a
 * search is applied, and the applied filter fields. They live in the URL, so a reload or a shared
 * link opens the same page of the same search. Each list route passes its schema to
 * `validateSearch`; a malformed value is dropped rather than failing the page.
 */
export type Filters = Record<string, string>;
export type ListSearch<F extends Filters = Filters> = { page?: number; filtered?: boolean } & Partial<F>;

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

const text = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim() || undefined)
  .optional()
  .catch(undefined);

export function listSearchSchema<F extends Filters>(empty: F) {
  const fields = Object.fromEntries(Object.keys(empty).map((k) => [k, text])) as Record<keyof F, typeof text>;
  const schema = z.object({
    page: z.coerce.number().int().min(1).optional().catch(undefined),
    filtered: z.boolean().optional().catch(undefined),
    ...fields,
  });
  /** Parses raw search params into the list's search; drops unknown keys, empty fields and page 1. */
  return (raw: Record<string, unknown>): ListSearch<F> => {
    const parsed = schema.parse(raw) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(parsed))
      if (v !== undefined && !(k === 'page' && v === 1) && !(k === 'filtered' && v === false)) out[k] = v;
    return out as ListSearch<F>;
  };
}

/** The list's filter form fields as the search holds them (missing ones empty). */
export function appliedFilters<F extends Filters>(empty: F, search: ListSearch<F>): F {
  const out = { ...empty };
  for (const k of Object.keys(empty) as (keyof F)[]) {
    const v = search[k];
    if (typeof v === 'string') out[k] = v as F[keyof F];
  }
  return out;
}

export const MEMBER_FILTERS = { query: '', county: '', phone: '', email: '' };
export const LOG_FILTERS = { name: '', activity: '', user_id: '', user_type: '', ip_address: '' };
export const VVPAT_FILTERS = { vvpat: '', position: '' };
export const NO_FILTERS = {};

export const membersSearch = listSearchSchema(MEMBER_FILTERS);
export const logsSearch = listSearchSchema(LOG_FILTERS);
export const vvpatSearch = listSearchSchema(VVPAT_FILTERS);
export const issuesSearch = listSearchSchema(NO_FILTERS);
