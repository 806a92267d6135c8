import { DEFAULT_PER_PAGE, type PageMeta, type PageQuery, type Paginated } from '@kura/contract';

export type PageRequest = { page: number; perPage: number; offset: number };

/** `?page&per_page` (already range-checked by the contract) → limit/offset. */
export function pageRequest(query: PageQuery): PageRequest {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}

/**
 * The paginator's counters, for answers that carry them apart from the rows (the vvpat pages'
 * `meta`). `last_page` is at least 1 even when there is nothing (see `paginate`).
 */
export function pageMeta(total: number, page: PageRequest): PageMeta {
  return { current_page: page.page, last_page: Math.max(1, Math.ceil(total / page.perPage)), per_page: page.perPage, total };
}

/**
 * The paginator of docs/api.md "Conventions". `last_page` is at least 1 even when there is nothing, because the
 * pager shows "Page 1 of 1" rather than "Page 1 of 0"; a page past the end is simply empty.
 */
export function paginate<T>(data: T[], total: number, page: PageRequest): Paginated<T> {
  return { data, ...pageMeta(total, page) };
}

/** Escapes LIKE/ILIKE wildcards so a search for `50%` or `a_b` matches those characters literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
