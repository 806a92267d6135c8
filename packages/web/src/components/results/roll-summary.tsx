import { useQuery } from '@tanstack/react-query';
import { ErrorState, Loading } from '@/components/layout/page-states';
import { DataTable, rowClass, Td } from '@/components/staff/data-table';
import { formatDateTime } from '@/lib/election';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';

/**
 * An election's roll as `GET elections/{id}/roll` gives it to anyone (docs/api.md "The register"):
 * its size, when it froze (or that it still follows the register), the frozen roll's hash, which
 * anyone given the member numbers can check, and its size by branch. The admin's Register page and
 * the public Elections page show the same lines.
 */
export function RollSummary({ election, zone }: { election: number; zone: string }) {
  const { t } = useT();
  const roll = useQuery(queries.roll(election));
  if (roll.isPending) return <Loading label={t('roll.loading')} />;
  if (roll.isError) return <ErrorState onRetry={() => void roll.refetch()}>{t('roll.loadFailed')}</ErrorState>;
  const { size, frozen_at, hash, by_branch } = roll.data.body.data;
  return (
    <div className="grid gap-3">
      <p className="text-sm" data-testid="roll-size">
        {t('roll.size', { number: String(size), count: size })}{' '}
        {frozen_at ? t('roll.frozenAt', { date: formatDateTime(frozen_at, zone) }) : t('roll.notFrozen')}
      </p>
      {hash ? (
        <div className="grid gap-1 text-sm">
          <span className="font-medium">{t('roll.hash')}</span>
          <code className="rounded bg-muted px-2 py-1 font-mono text-xs break-all" data-testid="roll-hash">
            {hash}
          </code>
        </div>
      ) : null}
      {by_branch.length > 0 ? (
        <details>
          <summary className="cursor-pointer text-sm font-medium">
            {t('roll.byBranchSummary', { number: String(by_branch.length), count: by_branch.length })}
          </summary>
          <div className="mt-2">
            <DataTable caption={t('roll.byBranch')} headers={[t('roll.branch'), t('roll.members')]} minWidth="min-w-[16rem]">
              {by_branch.map((b) => (
                <tr key={b.branch} className={rowClass}>
                  <Td>{b.branch}</Td>
                  <Td className="tabular-nums">{b.size}</Td>
                </tr>
              ))}
            </DataTable>
          </div>
        </details>
      ) : null}
    </div>
  );
}
