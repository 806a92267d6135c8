import { useEffect, useState } from 'react';
import { wholeLastPage } from '@/lib/pages';

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
