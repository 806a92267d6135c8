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
import { receiptElection } from '@/lib/receipts';
import { positionTitleIn } from '@/lib/format';
import { optionName, t, useT } from '@/i18n';

export function VoterVvpat() {
  useT();
  const q = useQuery(queries.myVvpat());
  const status = q.isError ? errorStatus(q.error) : undefined;

  useEffect(() => {
    if (!q.isError) return;
    if (status === 401) toast({ variant: 'destructive', title: t('vvpat.unauthorized'), description: t('vvpat.expired') });
    else toast({ variant: 'destructive', title: t('vvpat.error'), description: t('vvpat.fetchError') });
  }, [q.isError, status]);

  if (q.isPending) return <Loading label={t('vvpat.loading')} />;
  if (q.isError) return <ErrorState>{status === 401 ? t('vvpat.expired') : t('vvpat.fetchError')}</ErrorState>;
  const votes = q.data.body.data.votes;
  if (votes.length === 0) return <EmptyState>{t('vvpat.none')}</EmptyState>;
  // Receipts of every election (docs/api.md "Many elections"): when they span more than one, each row names its election.
  const electionOf = (v: VvpatRow) => receiptElection(v)?.title ?? '';
  const showElection = new Set(votes.map(electionOf)).size > 1;

  return (
    <div className="grid gap-4">
      <ReceiptActions votes={votes} />
      {/* Fits a phone (cells wrap, no minimum width); should it still scroll, the region is focusable so a keyboard can scroll it. */}
      <div className="overflow-x-auto rounded-md border border-border" tabIndex={0} role="region" aria-label={t('vvpat.tableLabel')}>
        <table className="w-full text-left text-sm [&_td]:break-words sm:min-w-[28rem]">
          <caption className="sr-only">{t('vvpat.tableLabel')}</caption>
          <thead className="bg-muted">
            <tr>
              <th scope="col" className="px-3 py-2">
                #
              </th>
              {showElection && (
                <th scope="col" className="px-3 py-2">
                  {t('vvpat.election')}
                </th>
              )}
              <th scope="col" className="px-3 py-2">
                {t('vvpat.ref')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('vvpat.candidate')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('vvpat.position')}
              </th>
            </tr>
          </thead>
          <tbody>
            {votes.map((v, i) => (
              // A ballot for several seats (or a ranked one) is one receipt with a row per choice.
              <tr key={`${v.vvpat}-${i}`} className="border-t border-border">
                <td className="px-3 py-2">{i + 1}</td>
                {showElection && <td className="px-3 py-2">{electionOf(v)}</td>}
                <td className="px-3 py-2 font-mono">
                  <Link
                    to="/receipt"
                    search={{ code: v.vvpat }}
                    className="text-primary underline-offset-4 hover:underline"
                    aria-label={t('vvpat.checkReceipt', { code: v.vvpat })}
                  >
                    {v.vvpat}
                  </Link>
                </td>
                {/* A ranked ballot's rows carry the voter's order: "1. Zola Z"; a motion's option is said in the reader's language. */}
                <td className="px-3 py-2">
                  {v.rank ? t('ballot.rankedItem', { rank: v.rank, name: v.name }) : v.kind === 'motion' ? optionName(v.name) : v.name}
                </td>
                <td className="px-3 py-2">{positionTitleIn(v.position)}</td>
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
  const lines = votes.map((v) => {
    const election = receiptElection(v)?.title;
    return election ? `${v.vvpat}  ${election}: ${v.position}` : `${v.vvpat}  ${v.position}`;
  });
  return `${lines.join('\n')}\n\n${t('vvpat.textFooter', { url: `${origin}/receipt` })}\n`;
}

function ReceiptActions({ votes }: { votes: VvpatRow[] }) {
  const { tRich } = useT();
  const [copied, setCopied] = useState<string | null>(null);
  const text = receiptsText(votes, window.location.origin);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(t('vvpat.copied'));
    } catch {
      setCopied(t('vvpat.copyRefused'));
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = t('vvpat.fileName');
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="grid gap-2">
      <p className="text-sm text-muted-foreground">
        {tRich('vvpat.keep', {
          link: (chunks) => (
            <Link to="/receipt" className="text-primary underline">
              {chunks}
            </Link>
          ),
        })}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          {t('vvpat.copy')}
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          <Download aria-hidden="true" />
          {t('vvpat.download')}
        </Button>
        <span role="status" className="self-center text-sm">
          {copied ?? ''}
        </span>
      </div>
    </div>
  );
}
