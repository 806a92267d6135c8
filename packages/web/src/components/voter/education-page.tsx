import { Link } from '@tanstack/react-router';
import type { Election } from '@kura/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useElection } from '@/lib/election';
import { formatOrdinalDay } from '@/lib/zoned-time';

/** Education (docs/screens.md "Screens"): six steps and the voting window footer. */
export const EDUCATION_STEPS = [
  { title: 'Go to the elections tab', body: 'Open Voting in the menu to see the positions you can vote for.' },
  { title: 'Pick a candidate', body: 'In each position, choose one candidate by selecting the button next to their name.' },
  { title: 'Confirm', body: 'Press Vote, check your choices, then press Yes! to cast your vote. Reset clears your choices.' },
  { title: 'Try vvpat', body: 'Open Vvpt in the menu to see a receipt code for each position you voted for.' },
  {
    title: 'Vvpat allows vote verifiability',
    body: 'Your receipt codes let you check that your votes are in the count, without showing anyone whom you chose.',
  },
  { title: 'Thank you', body: 'Thank you for voting.' },
];

export const VOTING_WINDOW_TEXT = 'voting starts on 8th Jan 2025 and ends on 9th August 2027';

/**
 * The footer's voting window: from the election's schedule, on the organisation's calendar, in the
 * sentence the tutorial has always had; without a schedule, that sentence as it stands.
 */
export function votingWindowText(election: Pick<Election, 'opens_at' | 'closes_at' | 'time_zone'> | undefined): string {
  if (!election?.opens_at || !election.closes_at) return VOTING_WINDOW_TEXT;
  return `voting starts on ${formatOrdinalDay(election.opens_at, election.time_zone)} and ends on ${formatOrdinalDay(election.closes_at, election.time_zone, 'long')}`;
}

export function Education() {
  const { election } = useElection();
  return (
    <div className="grid max-w-3xl gap-4">
      <ol className="grid gap-4">
        {EDUCATION_STEPS.map((s, i) => (
          <li key={s.title}>
            <Card>
              <CardHeader>
                <CardTitle>
                  <span className="mr-2 inline-flex size-8 items-center justify-center rounded-full bg-primary text-base text-primary-foreground">
                    {i + 1}
                  </span>
                  {s.title}
                </CardTitle>
              </CardHeader>
              <CardContent>
                <p>{s.body}</p>
                {i === 0 && (
                  <Link to="/voter/elect" className="mt-2 inline-block text-primary underline">
                    Go to Voting
                  </Link>
                )}
                {i === 3 && (
                  <Link to="/voter/vpat" className="mt-2 inline-block text-primary underline">
                    Go to Vvpt
                  </Link>
                )}
                {i === 4 && (
                  <Link to="/receipt" className="mt-2 inline-block text-primary underline">
                    Check a receipt
                  </Link>
                )}
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>
      <footer className="rounded-md bg-muted px-4 py-3 text-center text-sm">{votingWindowText(election)}</footer>
    </div>
  );
}
