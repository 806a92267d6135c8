import { useEffect, useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { DataTable, rowClass, Td } from '@/components/staff/data-table';
import { Pager } from '@/components/staff/pager';
import { useLastPage } from '@/hooks/use-last-page';
import { SearchForm, type SearchField } from '@/components/staff/search-form';
import { useFilteredPages } from '@/hooks/use-filtered-pages';
import { Label } from '@/components/ui/label';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/hooks/use-toast';
import { useElectionParam } from '@/lib/election-search';
import { VVPAT_FILTERS } from '@/lib/list-search';
import { errorStatus, hiddenResultsText } from '@/lib/errors';
import { positionLabel } from '@/lib/format';
import { queries } from '@/lib/queries';
import { t, useT, type MessageKey } from '@/i18n';

const ANY = 'any';
const EMPTY = VVPAT_FILTERS;
// Another election's trail starts unfiltered: its positions are not this one's.
const CLEARED_WITH_ELECTION = ['filtered', ...Object.keys(VVPAT_FILTERS)];
// The position is a select, passed to the form as an extra control.
const FIELDS: (SearchField<keyof typeof EMPTY> & { label: MessageKey })[] = [
  { key: 'vvpat', label: 'admin.vvpat.ref', maxLength: 64, autoComplete: 'off' },
];

/** Vvpat fetch (docs/screens.md "Staff pages"): a 401 says the session expired, anything else the generic error. */
export function vvpatErrorToast(status: number | undefined) {
  if (status === 401) toast({ variant: 'destructive', title: t('admin.vvpat.unauthorized'), description: t('admin.vvpat.expired') });
  else toast({ variant: 'destructive', title: t('admin.vvpat.error'), description: t('admin.vvpat.fetchError') });
}

/**
 * Receipts of every ballot (admin) (docs/screens.md "Staff pages"): search by ref and position,
 * table, pager; of the election the switcher chose (`?election=N`), else the current one.
 */
export function VvpatPage() {
  const { t, tReceived, optionName } = useT();
  const id = useId();
  const election = useElectionParam();
  const f = useFilteredPages(EMPTY);
  const positions = useQuery(queries.positions(election));

  const q = useQuery(queries.vvpat(f.params, election));
  const body = q.data?.body;
  const lastPage = useLastPage(f.page, f.clampPage, body?.meta.last_page);
  const status = q.isError ? errorStatus(q.error) : undefined;
  // Under results visibility "after_close" the audit trail waits for the close, like the results (the server says why).
  const hidden = hiddenResultsText(q);
  useEffect(() => {
    if (q.isError && !hidden) vvpatErrorToast(status);
  }, [q.isError, q.errorUpdatedAt, status, hidden]);

  const offset = body ? (body.meta.current_page - 1) * body.meta.per_page : 0;
  const votes = body?.data.votes ?? [];

  return (
    <div className="grid gap-6">
      <ElectionSwitcher clear={CLEARED_WITH_ELECTION} />
      <SearchForm label={t('admin.vvpat.searchLabel')} fields={FIELDS.map((fd) => ({ ...fd, label: t(fd.label) }))} filters={f} columns={2}>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-position`}>{t('admin.vvpat.position')}</Label>
          <Select value={f.draft.position || ANY} onValueChange={(v) => f.setField('position', v === ANY ? '' : v)}>
            <SelectTrigger id={`${id}-position`}>
              <SelectValue placeholder={positions.isPending ? t('admin.positions.loading') : t('admin.vvpat.allPositions')} />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>{t('admin.vvpat.allPositions')}</SelectItem>
              {(positions.data?.body.data ?? []).map((p) => (
                <SelectItem key={p.id} value={String(p.id)}>
                  {positionLabel(p)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </SearchForm>

      {q.isPending ? (
        <Loading label={t('admin.vvpat.loading')} />
      ) : hidden ? (
        <EmptyState>{tReceived(hidden)}</EmptyState>
      ) : q.isError && !body ? (
        <ErrorState>{status === 401 ? t('admin.vvpat.expired') : t('admin.vvpat.fetchError')}</ErrorState>
      ) : votes.length === 0 ? (
        <EmptyState>{f.filterMode ? t('admin.vvpat.noMatch') : t('admin.vvpat.none')}</EmptyState>
      ) : (
        <DataTable
          caption={t('admin.vvpat.caption')}
          headers={['#', t('admin.vvpat.ref'), t('admin.vvpat.candidate'), t('admin.vvpat.count'), t('admin.vvpat.position')]}
          minWidth="min-w-[36rem]"
          busy={q.isFetching}
        >
          {votes.map((v, i) => (
            <tr key={`${v.vvpat}-${i}`} className={rowClass}>
              <Td>{offset + i + 1}</Td>
              <Td className="font-mono">{v.vvpat}</Td>
              <Td>{v.kind === 'motion' ? optionName(v.name) : v.name}</Td>
              <Td>{v.count ?? '–'}</Td>
              <Td>{v.position}</Td>
            </tr>
          ))}
        </DataTable>
      )}

      <Pager
        page={f.page}
        lastPage={lastPage}
        onPageChange={f.setPage}
        disabled={q.isFetching && q.isPlaceholderData}
        label={t('admin.vvpat.pages')}
      />
    </div>
  );
}
