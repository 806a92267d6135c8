/** A last page the pager can show: a whole number, at least 1. */
export const wholeLastPage = (lastPage: number) => Math.max(1, Math.floor(lastPage) || 1);

/** Keeps a page number between 1 and the last page (docs/screens.md "Staff pages": the pager is bounded). */
export function clampPage(page: number, lastPage: number): number {
  const p = Math.floor(page) || 1;
  return Math.min(Math.max(1, p), wholeLastPage(lastPage));
}
