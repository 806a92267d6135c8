import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Election } from '@kura/contract';
import { formatDateTime, useElection } from '@/lib/election';
import { cn } from '@/lib/utils';
import { queryKeys } from '@/lib/queries';
import { t, useT } from '@/i18n';

/** "2 d 03:04:05", "03:04:05" */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(total / 86_400);
  const pad = (n: number) => String(n).padStart(2, '0');
  const hms = `${pad(Math.floor((total % 86_400) / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  return d > 0 ? t('countdown.days', { days: d, time: hms }) : hms;
}

/** What the countdown says for an election at `now`: null when there is nothing to announce. */
export function countdownText(e: Election, now: number): { text: string; target?: string; link?: boolean } | null {
  const opens = e.opens_at ? Date.parse(e.opens_at) : null;
  const closes = e.closes_at ? Date.parse(e.closes_at) : null;
  if (e.phase === 'closed') return { text: t('countdown.closed'), link: true };
  if (e.phase === 'scheduled' && opens !== null) {
    return opens > now
      ? { text: t('countdown.opensIn', { time: formatCountdown(opens - now) }), target: e.opens_at! }
      : { text: t('countdown.opening') };
  }
  if (e.phase === 'open') {
    if (closes === null) return { text: t('countdown.open') };
    return closes > now
      ? { text: t('countdown.closesIn', { time: formatCountdown(closes - now) }), target: e.closes_at! }
      : { text: t('countdown.closing') };
  }
  if (e.phase === 'paused') return { text: t('countdown.paused') };
  return null;
}

/** The first wait before asking the server again once an opening or closing is due, and the longest. */
export const REFLIP_FIRST_MS = 1000;
export const REFLIP_MAX_MS = 15_000;

/**
 * The landing and sign-in pages' live notice: when voting opens or closes, counting down each
 * second; when a moment passes it asks the server again, so the page opens (or closes) by itself.
 */
export function VotingCountdown({ className }: { className?: string }) {
  useT();
  const { election } = useElection();
  const queryClient = useQueryClient();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const due = election && [election.opens_at, election.closes_at].some((t) => t && Date.parse(t) <= now && Date.parse(t) > now - 60_000);
  const pendingFlip =
    due && !(election.phase === 'closed' || (election.phase === 'open' && (!election.closes_at || Date.parse(election.closes_at) > now)));
  useEffect(() => {
    if (!pendingFlip) return;
    // The server opens and closes on its own; ask again until its phase shows it: after 1 s, then
    // waits doubling to 15 s, each spread by ±30 %, so every page open at the moment (thousands, on
    // election morning) does not ask the server every second together.
    let timer: ReturnType<typeof setTimeout>;
    const ask = (attempt: number) => {
      const wait = Math.min(REFLIP_MAX_MS, REFLIP_FIRST_MS * 2 ** attempt) * (0.7 + Math.random() * 0.6);
      timer = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.election });
        ask(attempt + 1);
      }, wait);
    };
    ask(0);
    return () => clearTimeout(timer);
  }, [pendingFlip, queryClient]);
  if (!election) return null;
  const notice = countdownText(election, now);
  if (!notice) return null;
  return (
    <p
      role="status"
      aria-live="off"
      data-testid="voting-countdown"
      className={cn('bg-secondary px-4 py-2 text-center text-sm font-medium text-secondary-foreground', className)}
    >
      <span>{notice.text}</span>
      {notice.target && <span className="text-muted-foreground"> ({formatDateTime(notice.target, election.time_zone)})</span>}
      {notice.link && (
        <>
          {' '}
          <Link to="/results" className="underline underline-offset-4">
            {t('countdown.seeResults')}
          </Link>
        </>
      )}
    </p>
  );
}
