import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Copy, Download } from 'lucide-react';
import type { VvpatRow } from '@kura/contract';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { toast } from '@/hooks/use-toast';
import { errorStatus } from '@/lib/errors';
import { queries } from '@/lib/queries';

const FETCH_ERROR = 'An error occurred while fetching the data. Please try again later.';

export function VoterVvpat() {
  const q = useQuery(queries.myVvpat());
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
    <div className="grid gap-4">
      <ReceiptActions votes={votes} />
      {/* Fits a phone (cells wrap, no minimum width); should it still scroll, the region is focusable so a keyboard can scroll it. */}
      <div
        className="overflow-x-auto rounded-md border border-border"
        tabIndex={0}
        role="region"
        aria-label="Your votes and their receipt codes"
      >
        <table className="w-full text-left text-sm [&_td]:break-words sm:min-w-[28rem]">
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
                <td className="px-3 py-2 font-mono">
                  <Link
                    to="/receipt"
                    search={{ code: v.vvpat }}
                    className="text-primary underline-offset-4 hover:underline"
                    aria-label={`Check receipt ${v.vvpat}`}
                  >
                    {v.vvpat}
                  </Link>
                </td>
                <td className="px-3 py-2">{v.name}</td>
                <td className="px-3 py-2">{v.position}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * The codes as text: code and position per line, never the candidate, so a saved or pasted copy
 * shows that the ballots are counted (anyone can check at /receipt) without showing the choice.
 */
function receiptsText(votes: VvpatRow[], origin: string): string {
  const lines = votes.map((v) => `${v.vvpat}  ${v.position}`);
  return `${lines.join('\n')}\n\nCheck any of these codes at ${origin}/receipt\n`;
}

function ReceiptActions({ votes }: { votes: VvpatRow[] }) {
  const [copied, setCopied] = useState<string | null>(null);
  const text = receiptsText(votes, window.location.origin);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('Receipt codes copied.');
    } catch {
      setCopied('Copying is not allowed here: use Download instead.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'receipt-codes.txt';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="grid gap-2">
      <p className="text-sm text-muted-foreground">
        Keep your receipt codes: anyone can check a code on the{' '}
        <Link to="/receipt" className="text-primary underline">
          Check a receipt
        </Link>{' '}
        page, which confirms the ballot is counted without showing whom it was for. The copy and the download hold the codes and positions
        only.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy codes
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          <Download aria-hidden="true" />
          Download codes
        </Button>
        <span role="status" className="self-center text-sm">
          {copied ?? ''}
        </span>
      </div>
    </div>
  );
}
