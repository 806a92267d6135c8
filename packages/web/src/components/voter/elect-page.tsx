import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { BallotForm, choiceValue, type Choices } from '@/components/ballot/ballot-form';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { toast } from '@/hooks/use-toast';
import { errorMessage, firstFieldError } from '@/lib/errors';
import { useCastVote } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { t, useT } from '@/i18n';

/** The English texts (tests read them); the screen shows the catalogue's elect.voted and elect.disabled. */
export const VOTED_BANNER = 'You have successfully voted';
export const VOTING_DISABLED = 'Voting is currently disabled. Please come back when voting opens.';

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[_\s]+/g, ' ')
    .trim();

export function Elect() {
  const { tKnown } = useT();
  const ballot = useQuery(queries.ballot());
  const status = useQuery(queries.electionStatus());
  const mine = useQuery(queries.myVvpat());
  const vote = useCastVote();
  const [voted, setVoted] = useState(false);
  // Positions voted for in this visit, from the vote's receipts (before the receipts list refetches).
  const [justVoted, setJustVoted] = useState<number[]>([]);
  const bannerRef = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const groups = useMemo(() => ballot.data?.body.data ?? [], [ballot.data]);
  // The voter's own receipts name the positions already voted for.
  const votedPositionIds = useMemo(() => {
    const done = new Set((mine.data?.body.data.votes ?? []).map((v) => norm(v.position)));
    return new Set([...groups.filter((g) => done.has(norm(g.title))).map((g) => g.position_id), ...justVoted]);
  }, [mine.data, groups, justVoted]);

  const disabled = status.data?.body.active === '0';
  const withCandidates = groups.filter((g) => g.candidates.length > 0);
  const allVoted = withCandidates.length > 0 && withCandidates.every((g) => votedPositionIds.has(g.position_id));

  const confirm = async (choices: Choices): Promise<boolean> => {
    setFailure(null);
    const candidates: Record<string, number | number[]> = {};
    for (const [positionId, list] of Object.entries(choices)) if (list.length > 0) candidates[positionId] = choiceValue(list);
    try {
      const res = await vote.mutateAsync({ body: { candidates } });
      const receipts = res.status === 201 ? res.body.receipts : [];
      setJustVoted((prev) => [...prev, ...receipts.map((r) => r.position_id), ...Object.keys(candidates).map(Number)]);
      setVoted(true);
      toast({ variant: 'success', title: t('elect.votedToast') });
      return true;
    } catch (err) {
      setFailure(t('elect.failed', { reason: tKnown(firstFieldError(err) ?? errorMessage(err)) || t('elect.tryAgain') }));
      return false;
    }
  };

  // Nothing left to vote for: the ballot goes, so focus goes to the banner rather than the page.
  useEffect(() => {
    if (voted && allVoted) bannerRef.current?.focus();
  }, [voted, allVoted]);

  if (ballot.isPending) return <Loading label={t('elect.loading')} />;
  if (ballot.isError) {
    return <ErrorState>{tKnown(errorMessage(ballot.error)) || t('elect.loadFailed')}</ErrorState>;
  }

  return (
    <div className="grid max-w-5xl gap-6">
      {voted && (
        <div
          ref={bannerRef}
          tabIndex={-1}
          role="status"
          className="flex flex-wrap focus:outline-none items-center gap-2 rounded-md border border-green-300 bg-green-50 px-4 py-3 text-green-900"
        >
          <CheckCircle2 className="size-5" aria-hidden="true" />
          <span className="font-semibold">{t('elect.voted')}</span>
          <Link to="/voter/vpat" className="underline">
            {t('elect.seeReceipts')}
          </Link>
        </div>
      )}
      {disabled && !voted && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 font-medium text-amber-900">
          {t('elect.disabled')}
        </p>
      )}
      {failure && <ErrorState>{failure}</ErrorState>}
      {withCandidates.length === 0 ? (
        <EmptyState>{t('elect.noPositions')}</EmptyState>
      ) : allVoted ? (
        voted ? null : (
          <p role="status" className="rounded-md border border-green-300 bg-green-50 px-4 py-3 font-medium text-green-900">
            {t('elect.allVoted')}{' '}
            <Link to="/voter/vpat" className="underline">
              {t('elect.seeReceipts')}
            </Link>
          </p>
        )
      ) : (
        // After a vote the rest of the ballot stays: the positions voted for are shown as done.
        <BallotForm
          groups={groups}
          votedPositionIds={votedPositionIds}
          blockedReason={disabled ? t('elect.disabled') : null}
          submitting={vote.isPending}
          onConfirm={confirm}
        />
      )}
    </div>
  );
}
