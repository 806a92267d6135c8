import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { PublicLayout } from '@/components/layout/public-layout';
import { formatDateTime, useElection } from '@/lib/election';
import { queries } from '@/lib/queries';

/** The published commitments to the ballot set, newest first, with how to check one. */
export function Commitments() {
  const { texts } = useElection();
  const q = useQuery({ ...queries.commitments(), refetchInterval: 60_000 });
  return (
    <PublicLayout wide>
      <div className="grid gap-6">
        <div className="grid gap-2">
          <h1 className="text-2xl font-semibold">Published commitments</h1>
          <p className="max-w-3xl text-muted-foreground">
            Each commitment fixes the set of ballots counted at that moment: their number and a SHA-256 hash over every ballot, one line{' '}
            <code>receipt,position_id,candidate_id</code> per ballot in receipt order. Anyone holding the ballots (the returning
            officer&apos;s export, an observer&apos;s copy) can recompute the hash; <code>audit:verify</code> does so. A changed, added or
            removed ballot gives a different hash, so keep a copy of the latest one. To check your own ballot, use{' '}
            <Link to="/receipt" className="text-primary underline">
              Check a receipt
            </Link>
            .
          </p>
        </div>
        {q.isPending ? (
          <Loading label="Loading commitments…" />
        ) : q.isError ? (
          <ErrorState>The commitments could not be loaded. Please try again later.</ErrorState>
        ) : q.data.body.data.length === 0 ? (
          <EmptyState>No commitment has been published yet. The first is recorded when voting opens.</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-md border border-border" tabIndex={0} role="region" aria-label="Published commitments">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Published commitments, newest first</caption>
              <thead className="bg-muted">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Time
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Ballots
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Hash (SHA-256)
                  </th>
                </tr>
              </thead>
              <tbody>
                {q.data.body.data.map((c) => (
                  <tr key={`${c.at}-${c.hash}`} className="border-t border-border">
                    <td className="whitespace-nowrap px-3 py-2">
                      <time dateTime={c.at}>{formatDateTime(c.at, texts.timeZone)}</time>
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{c.count}</td>
                    <td className="break-all px-3 py-2 font-mono text-xs">{c.hash}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </PublicLayout>
  );
}
