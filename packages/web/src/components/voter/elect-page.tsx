import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { BallotForm, choiceValue, type Choices } from '@/components/ballot/ballot-form';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { toast } from '@/hooks/use-toast';
import { errorIssue, errorMessage, errorStatus, firstFieldError } from '@/lib/errors';
import { useElectionParam } from '@/lib/election-search';
import { useCastVote } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { votedPositionIds as receiptsVotedFor } from '@/lib/receipts';
import { t, useT } from '@/i18n';

/** The English texts (tests read them); the screen shows the catalogue's elect.voted and elect.disabled. */
export const VOTED_BANNER = 'You have successfully voted';
export const VOTING_DISABLED = 'Voting is currently disabled. Please come back when voting opens.';
/** The server's refusal of a member who is not on the election's roll (docs/api.md "The roll"). */
export const NOT_ON_ROLL = 'You are not on the roll for this election';

// By `issue`, which stays English: the message comes in the reader's language.
const notOnRoll = (err: unknown) => errorStatus(err) === 403 && (errorIssue(err) === NOT_ON_ROLL || errorMessage(err) === NOT_ON_ROLL);

/**
 * The ballot of one election (docs/api.md "Many elections"): the one the URL names
 * (`/voter/elect?election=7`, the calls then carry `?election_id=7`), else the current one.
 */
export function Elect() {
  const { tReceived } = useT();
  const election = useElectionParam();
  const ballot = useQuery({ ...queries.ballot(election), retry: (count, err) => !notOnRoll(err) && count < 1 });
  const status = useQuery(queries.electionStatus(election));
  const mine = useQuery(queries.myVvpat());
  const list = useQuery(queries.elections());
  const current = useQuery(queries.election());
  const vote = useCastVote(election);
  const [refused, setRefused] = useState(false);
  const [voted, setVoted] = useState(false);
  // Positions voted for in this visit, from the vote's receipts (before the receipts list refetches).
  const [justVoted, setJustVoted] = useState<number[]>([]);
  const bannerRef = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const groups = useMemo(() => ballot.data?.body.data ?? [], [ballot.data]);
  // This election: its id and title, to tell its receipts from another election's (a copied
  // election has the same position titles) and to name it above the ballot.
  const electionId = election ?? current.data?.body.data.id;
  const title = (list.data?.body.data.find((e) => e.id === electionId) ?? (election === undefined ? current.data?.body.data : undefined))
    ?.title;
  // The voter's own receipts of this election name the positions already voted for.
  const votedPositionIds = useMemo(() => {
    const done = receiptsVotedFor(mine.data?.body.data.votes ?? [], groups, { id: electionId, title });
    return new Set([...done, ...justVoted]);
  }, [mine.data, groups, justVoted, electionId, title]);

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
      if (notOnRoll(err)) {
        setRefused(true);
        return false;
      }
      setFailure(t('elect.failed', { reason: tReceived(firstFieldError(err) ?? errorMessage(err)) || t('elect.tryAgain') }));
      return false;
    }
  };

  // Nothing left to vote for: the ballot goes, so focus goes to the banner rather than the page.
  useEffect(() => {
    if (voted && allVoted) bannerRef.current?.focus();
  }, [voted, allVoted]);

  // The ballot waits for the election it belongs to as well: its draft is kept under the election's
  // id, and a form drawn before the id arrived started again when it did, dropping a choice made
  // meanwhile (a quick voter on a slow connection).
  if (ballot.isPending || (election === undefined && current.isPending)) return <Loading label={t('elect.loading')} />;
  const heading = title?.trim() ? (
    <h2 className="text-xl font-semibold" data-testid="ballot-election">
      {title}
    </h2>
  ) : null;
  if (refused || (ballot.isError && notOnRoll(ballot.error))) {
    return (
      <div className="grid max-w-5xl gap-4">
        {heading}
        <NotOnRoll />
      </div>
    );
  }
  if (ballot.isError) {
    return <ErrorState>{tReceived(errorMessage(ballot.error)) || t('elect.loadFailed')}</ErrorState>;
  }

  return (
    <div className="grid max-w-5xl gap-6">
      {heading}
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
          key={electionId ?? 'current'}
          groups={groups}
          votedPositionIds={votedPositionIds}
          blockedReason={disabled ? t('elect.disabled') : null}
          submitting={vote.isPending}
          onConfirm={confirm}
          draftKey={electionId === undefined ? undefined : String(electionId)}
        />
      )}
    </div>
  );
}

/** A member off this election's roll: said plainly, with the way back to their other elections. */
function NotOnRoll() {
  useT();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      className="grid gap-2 rounded-md border border-destructive/40 bg-red-50 px-4 py-3 text-destructive focus:outline-none"
    >
      <p className="font-semibold">{t('elect.notOnRoll')}</p>
      <p className="text-foreground">
        {t('elect.notOnRollHelp')}{' '}
        <Link to="/voter" className="text-primary underline">
          {t('elect.backToElections')}
        </Link>
      </p>
    </div>
  );
}
