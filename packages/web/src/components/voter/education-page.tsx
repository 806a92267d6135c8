import { Link } from '@tanstack/react-router';
import type { Election } from '@kura/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useElection } from '@/lib/election';
import { formatDayInZone, formatOrdinalDay } from '@/lib/zoned-time';
import { getLocale, t, useT, type MessageKey } from '@/i18n';

/** Education (docs/screens.md "Screens"): six steps and the voting window footer (English; the screen shows the catalogue's education.stepN). */
export const EDUCATION_STEPS = [
  {
    title: 'Open Voting',
    body: 'Open Voting in the menu to see the positions and motions you can vote on. Each position says how it is voted.',
  },
  {
    title: 'Make your choices',
    body: 'Where a position says "Choose one" or "Choose up to N", select the candidates you want. On a ranked position, press Rank beside your first choice, then your second, and so on; move a candidate up or down, or remove them, until the order is yours. 1 is your first choice, and you may rank as many or as few as you wish. On a motion, choose Yes, No or Abstain; the motion\'s rule says what it needs to pass. A position you leave empty is not voted.',
  },
  {
    title: 'Confirm',
    body: 'Press Vote, check your choices in the list, then press Cast my vote. Cancel or Reset clears your choices. A vote cannot be changed once cast.',
  },
  {
    title: 'See your receipts',
    body: 'Open My receipts in the menu to see a receipt code for each position you voted on; a ranked position shows your order.',
  },
  {
    title: 'Check that your vote is counted',
    body: 'Your receipt codes let you check that your votes are in the count, without showing anyone whom you chose.',
  },
  { title: 'Thank you', body: 'Thank you for voting.' },
];

/**
 * The footer's voting window: from the election's own schedule, on the organisation's calendar.
 * Without a schedule there is no window to tell, so the footer says nothing: a voter never reads
 * a date that is not this election's (the tutorial once printed a sample sentence's dates here).
 */
export function votingWindowText(election: Pick<Election, 'opens_at' | 'closes_at' | 'time_zone'> | undefined): string {
  if (!election?.opens_at || !election.closes_at) return '';
  // English keeps its ordinal days ("8th Jan 2025"); another language has its own dates from Intl.
  const day = (iso: string, month: 'short' | 'long') =>
    getLocale() === 'en' ? formatOrdinalDay(iso, election.time_zone, month) : formatDayInZone(iso, election.time_zone);
  return t('education.window', { start: day(election.opens_at, 'short'), end: day(election.closes_at, 'long') });
}

const STEP_KEYS: [MessageKey, MessageKey][] = [
  ['education.step1.title', 'education.step1.body'],
  ['education.step2.title', 'education.step2.body'],
  ['education.step3.title', 'education.step3.body'],
  ['education.step4.title', 'education.step4.body'],
  ['education.step5.title', 'education.step5.body'],
  ['education.step6.title', 'education.step6.body'],
];

export function Education() {
  useT();
  const { election } = useElection();
  const windowText = votingWindowText(election);
  return (
    <div className="grid max-w-3xl gap-4">
      <ol className="grid gap-4">
        {STEP_KEYS.map(([title, body], i) => (
          <li key={title}>
            <Card>
              <CardHeader>
                <CardTitle>
                  <span className="mr-2 inline-flex size-8 items-center justify-center rounded-full bg-primary text-base text-primary-foreground">
                    {i + 1}
                  </span>
                  <span>{t(title)}</span>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <p>{t(body)}</p>
                {i === 0 && (
                  <Link to="/voter/elect" className="mt-2 inline-block text-primary underline">
                    {t('education.goVoting')}
                  </Link>
                )}
                {i === 3 && (
                  <Link to="/voter/vpat" className="mt-2 inline-block text-primary underline">
                    {t('education.goVvpt')}
                  </Link>
                )}
                {i === 4 && (
                  <Link to="/receipt" className="mt-2 inline-block text-primary underline">
                    {t('education.checkReceipt')}
                  </Link>
                )}
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>
      {windowText && <footer className="rounded-md bg-muted px-4 py-3 text-center text-sm">{windowText}</footer>}
    </div>
  );
}
