import { useEffect, useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { DataTable, rowClass, Td } from '@/components/staff/data-table';
import { Pager } from '@/components/staff/pager';
import { useLastPage } from '@/hooks/use-last-page';
import { SearchForm, type SearchField } from '@/components/staff/search-form';
import { useFilteredPages } from '@/hooks/use-filtered-pages';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/hooks/use-toast';
import { VVPAT_FILTERS } from '@/lib/list-search';
import { errorStatus, hiddenResultsText } from '@/lib/errors';
import { positionLabel } from '@/lib/format';
import { queries } from '@/lib/queries';

export const VVPAT_FETCH_ERROR = 'An error occurred while fetching the data. Please try again later.';
const ANY = 'any';
const EMPTY = VVPAT_FILTERS;
// The position is a select, passed to the form as an extra control.
const FIELDS: SearchField<keyof typeof EMPTY>[] = [{ key: 'vvpat', label: 'VPAT Ref', maxLength: 64, autoComplete: 'off' }];

/** Vvpat fetch (docs/screens.md "Staff pages"): a 401 says the session expired, anything else the generic error. */
export function vvpatErrorToast(status: number | undefined) {
  if (status === 401) toast({ variant: 'destructive', title: 'Unauthorized', description: 'Your session has expired' });
  else toast({ variant: 'destructive', title: 'Error', description: VVPAT_FETCH_ERROR });
}

/** Verifiable Paper Audit Trail (admin) (docs/screens.md "Staff pages"): search by ref and position, table, pager. */
export function VvpatPage() {
  const id = useId();
  const f = useFilteredPages(EMPTY);
  const positions = useQuery(queries.positions());

  const q = useQuery(queries.vvpat(f.params));
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
      <SearchForm label="Search the audit trail" fields={FIELDS} filters={f} columns={2}>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-position`}>Position</Label>
          <Select value={f.draft.position || ANY} onValueChange={(v) => f.setField('position', v === ANY ? '' : v)}>
            <SelectTrigger id={`${id}-position`}>
              <SelectValue placeholder={positions.isPending ? 'Loading positions…' : 'All positions'} />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>All positions</SelectItem>
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
        <Loading label="Loading the audit trail…" />
      ) : hidden ? (
        <EmptyState>{hidden}</EmptyState>
      ) : q.isError && !body ? (
        <ErrorState>{status === 401 ? 'Your session has expired' : VVPAT_FETCH_ERROR}</ErrorState>
      ) : votes.length === 0 ? (
        <EmptyState>{f.filterMode ? 'No receipts match the search.' : 'No votes have been cast yet.'}</EmptyState>
      ) : (
        <DataTable
          caption="Verifiable paper audit trail"
          headers={['#', 'VPAT Ref', 'Candidate Selected', 'Vote Count', 'Position']}
          minWidth="min-w-[36rem]"
          busy={q.isFetching}
        >
          {votes.map((v, i) => (
            <tr key={`${v.vvpat}-${i}`} className={rowClass}>
              <Td>{offset + i + 1}</Td>
              <Td className="font-mono">{v.vvpat}</Td>
              <Td>{v.name}</Td>
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
        label="Audit trail pages"
      />
    </div>
  );
}
