import { resultText, percentage } from '@/lib/format';
import { useT } from '@/i18n';

export type ResultRow = { candidate_id?: number; title?: string; name?: string; member_no?: string; count: number };

/**
 * Results rows (docs/screens.md "Ballot and results"): a title and a bar in one fixed purple filled to the share; text reads
 * the percentage, the count and vote|votes. The column is about 20rem wide.
 */
export function ResultsRows({ values, total }: { values: ResultRow[]; total: number }) {
  const { t } = useT();
  return (
    <ul className="grid w-full max-w-[20rem] gap-4" aria-label={t('results.list')}>
      {values.map((v, i) => {
        const label = v.title || v.name || v.member_no || t('results.candidateN', { n: i + 1 });
        const share = total > 0 ? Math.min(100, (v.count / total) * 100) : 0;
        return (
          <li key={v.candidate_id ?? `${label}-${i}`} className="grid gap-1">
            <div className="flex items-baseline justify-between gap-2">
              <span className="font-medium">{label}</span>
            </div>
            <div
              className="h-3 w-full overflow-hidden rounded-full bg-muted"
              role="progressbar"
              aria-label={t('results.share', { label })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Number(share.toFixed(2))}
              aria-valuetext={percentage(v.count, total)}
            >
              <div className="h-full rounded-full bg-result-bar" style={{ width: `${share}%` }} />
            </div>
            <span className="text-sm text-muted-foreground">{resultText(v.count, total)}</span>
          </li>
        );
      })}
    </ul>
  );
}
