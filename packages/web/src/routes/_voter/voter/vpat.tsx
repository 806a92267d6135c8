import { useEffect } from 'react';
import { createFileRoute } from '@tanstack/react-router';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { toast } from '@/components/ui/use-toast';
import { api, errorStatus } from '@/lib/api';
import { queryKeys } from '@/lib/queries';

export const Route = createFileRoute('/_voter/voter/vpat')({
  component: VoterVvpat,
});

const FETCH_ERROR = 'An error occurred while fetching the data. Please try again later.';

function VoterVvpat() {
  const q = api.vvpat.getMyVvpat.useQuery({ queryKey: queryKeys.myVvpat });
  const status = q.isError ? errorStatus(q.error) : undefined;

  useEffect(() => {
    if (!q.isError) return;
    if (status === 401) toast({ variant: 'destructive', title: 'Unauthorized', description: 'Your session has expired' });
    else toast({ variant: 'destructive', title: 'Error', description: FETCH_ERROR });
  }, [q.isError, status]);

  if (q.isPending) return <Loading label="Loading your receipts…" />;
  if (q.isError) return <ErrorState>{status === 401 ? 'Your session has expired' : FETCH_ERROR}</ErrorState>;
  const votes = q.data.body.data.votes;
  if (votes.length === 0) return <EmptyState>You have not voted yet. Your receipt codes will show here after you vote.</EmptyState>;

  return (
    <div className="overflow-x-auto rounded-md border border-border">
      <table className="w-full min-w-[28rem] text-left text-sm">
        <caption className="sr-only">Your votes and their receipt codes</caption>
        <thead className="bg-muted">
          <tr>
            <th scope="col" className="px-3 py-2">
              #
            </th>
            <th scope="col" className="px-3 py-2">
              VPAT Ref
            </th>
            <th scope="col" className="px-3 py-2">
              Candidate Selected
            </th>
            <th scope="col" className="px-3 py-2">
              Position
            </th>
          </tr>
        </thead>
        <tbody>
          {votes.map((v, i) => (
            <tr key={v.vvpat} className="border-t border-border">
              <td className="px-3 py-2">{i + 1}</td>
              <td className="px-3 py-2 font-mono">{v.vvpat}</td>
              <td className="px-3 py-2">{v.name}</td>
              <td className="px-3 py-2">{v.position}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
