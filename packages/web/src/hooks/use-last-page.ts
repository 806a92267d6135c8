import { useEffect, useState } from 'react';
import { wholeLastPage } from '@/lib/pages';

/**
 * The last page of a server-paged list, read from the body on screen in the same render: state
 * set in an effect would leave a commit in which the new rows sit under the old 'Page X of Y'.
 * Without a body (first load, or a page that failed) the last one reported stands, so a failure
 * does not throw the user back to page 1. A list that shrank below the current page (a search,
 * a change made elsewhere) steps back to its new last page; before any count is known (a page
 * opened from the URL) the page is left as it is.
 */
export function useLastPage(page: number, setPage: (page: number) => void, reported: number | undefined): number {
  const [known, setKnown] = useState<number | undefined>(undefined);
  if (reported !== undefined && reported !== known) setKnown(reported);
  const count = reported ?? known;
  const lastPage = wholeLastPage(count ?? 1);
  useEffect(() => {
    // Only a count the server reported bounds the page: a page opened from the URL waits for it.
    if (count !== undefined && page > lastPage) setPage(lastPage);
  }, [count, page, lastPage, setPage]);
  return lastPage;
}
