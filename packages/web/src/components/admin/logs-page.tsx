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
import { hasAnyFilter, LOG_FILTERS } from '@/lib/list-search';
import { queries } from '@/lib/queries';

export const LOGS_FAILED = 'Failed to fetch logs. Please try again later.';

const EMPTY = LOG_FILTERS;
const ANY = 'any';
/** Members and staff number their ids separately: a user id means nothing without whose it is. */
export const USER_TYPES = [
  { value: 'voter', label: 'Members (voters)' },
  { value: 'staff', label: 'Staff (admins and agents)' },
  { value: 'admin', label: 'Admins' },
  { value: 'agent', label: 'Agents' },
] as const;
const TYPE_LABEL: Record<string, string> = { voter: 'member', admin: 'admin', agent: 'agent' };

/** The User ID cell: N/A when empty, else the id and whose it is. */
export function userIdCell(entry: { user_id: number | null; user_type?: string | null }): string {
  if (entry.user_id === null || entry.user_id === undefined || String(entry.user_id) === '') return 'N/A';
  const type = entry.user_type ? TYPE_LABEL[entry.user_type] : undefined;
  return type ? `${entry.user_id} (${type})` : String(entry.user_id);
}

const FIELDS: SearchField<keyof typeof EMPTY>[] = [
  { key: 'name', label: 'Name', maxLength: 150 },
  { key: 'activity', label: 'Activity', maxLength: 150 },
  { key: 'user_id', label: 'User id', maxLength: 20 },
  { key: 'ip_address', label: 'Ip address', maxLength: 64 },
];

/** Dates as the browser's locale writes them; the raw value when it does not parse. */
export function formatDateTime(value: string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString();
}

/** System logs (docs/screens.md "Staff pages"): filters, table and pager; Reset shows only while a filter is active. */
export function LogsPage() {
  const id = useId();
  const f = useFilteredPages(EMPTY);
  const filterActive = f.filterMode || hasAnyFilter(f.draft);

  const q = useQuery(queries.logs(f.params));
  const page = q.data?.body.data;
  const lastPage = useLastPage(f.page, f.clampPage, page?.last_page);
  useEffect(() => {
    if (q.isError) toast({ variant: 'destructive', title: LOGS_FAILED });
  }, [q.isError, q.errorUpdatedAt]);

  return (
    <div className="grid gap-6">
      <SearchForm label="Filter logs" fields={FIELDS} filters={f} showReset={filterActive}>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-user-type`}>User type</Label>
          <Select value={f.draft.user_type || ANY} onValueChange={(v) => f.setField('user_type', v === ANY ? '' : v)}>
            <SelectTrigger id={`${id}-user-type`}>
              <SelectValue placeholder="Everyone" />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Everyone</SelectItem>
              {USER_TYPES.map((t) => (
                <SelectItem key={t.value} value={t.value}>
                  {t.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </SearchForm>

      {q.isPending ? (
        <Loading label="Loading logs…" />
      ) : q.isError && !page ? (
        <ErrorState>{LOGS_FAILED}</ErrorState>
      ) : !page || page.data.length === 0 ? (
        <EmptyState>{f.filterMode ? 'No log entries match the filters.' : 'There are no log entries yet.'}</EmptyState>
      ) : (
        <DataTable
          caption="System logs"
          headers={['ID', 'Name', 'Activity', 'User ID', 'Created At', 'Updated At', 'IP Address', 'Status']}
          minWidth="min-w-[60rem]"
          busy={q.isFetching}
        >
          {page.data.map((l) => (
            <tr key={l.id} className={rowClass}>
              <Td>{l.id}</Td>
              <Td>{l.name}</Td>
              <Td>{l.activity}</Td>
              <Td>{userIdCell(l)}</Td>
              <Td className="whitespace-nowrap">{formatDateTime(l.created_at)}</Td>
              <Td className="whitespace-nowrap">{formatDateTime(l.updated_at)}</Td>
              <Td className="font-mono">{l.ip_address}</Td>
              <Td>{l.status}</Td>
            </tr>
          ))}
        </DataTable>
      )}

      <Pager page={f.page} lastPage={lastPage} onPageChange={f.setPage} disabled={q.isFetching && q.isPlaceholderData} label="Log pages" />
    </div>
  );
}
