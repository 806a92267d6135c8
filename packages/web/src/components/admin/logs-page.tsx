import { useEffect, useId } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Search, X } from 'lucide-react';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { DataTable, rowClass, Td } from '@/components/staff/data-table';
import { Pager } from '@/components/staff/pager';
import { staffKeys } from '@/components/staff/staff-queries';
import { activeFilters, hasAnyFilter, useFilteredPages } from '@/components/staff/use-filtered-pages';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api';

export const LOGS_FAILED = 'Failed to fetch logs. Please try again later.';

const EMPTY = { name: '', activity: '', user_id: '', ip_address: '' };
const FIELDS: { key: keyof typeof EMPTY; label: string; max: number }[] = [
  { key: 'name', label: 'Name', max: 150 },
  { key: 'activity', label: 'Activity', max: 150 },
  { key: 'user_id', label: 'User id', max: 20 },
  { key: 'ip_address', label: 'Ip address', max: 64 },
];

/** Dates as the browser's locale writes them; the raw value when it does not parse. */
export function formatDateTime(value: string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString();
}

/** Spec §2 "System logs": filters, table and pager; Reset shows only while a filter is active. */
export function LogsPage() {
  const id = useId();
  const f = useFilteredPages(EMPTY);
  const filterActive = f.filterMode || hasAnyFilter(f.draft);

  const q = useQuery({
    queryKey: [...staffKeys.logs, f.filterMode ? f.applied : null, f.page],
    queryFn: async () => {
      const res = f.filterMode
        ? await api.logs.searchLogs.query({ query: { ...activeFilters(f.applied), page: f.page } })
        : await api.logs.listLogs.query({ query: { page: f.page } });
      if (res.status !== 200) throw res;
      return res;
    },
    placeholderData: keepPreviousData,
  });
  const page = q.data?.body.data;
  const { setLastPage } = f;
  useEffect(() => {
    if (page) setLastPage(page.last_page);
  }, [page, setLastPage]);
  useEffect(() => {
    if (q.isError) toast({ variant: 'destructive', title: LOGS_FAILED });
  }, [q.isError, q.errorUpdatedAt]);

  return (
    <div className="grid gap-6">
      <form
        role="search"
        aria-label="Filter logs"
        className="grid gap-4 rounded-lg border border-border bg-card p-4"
        onSubmit={(e) => {
          e.preventDefault();
          f.search();
        }}
      >
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {FIELDS.map((fd) => (
            <div key={fd.key} className="grid gap-2">
              <Label htmlFor={`${id}-${fd.key}`}>{fd.label}</Label>
              <Input id={`${id}-${fd.key}`} value={f.draft[fd.key]} maxLength={fd.max} onChange={(e) => f.setField(fd.key, e.target.value)} />
            </div>
          ))}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit">
            <Search aria-hidden="true" />
            Search
          </Button>
          {filterActive && (
            <Button variant="outline" onClick={f.reset}>
              <X aria-hidden="true" />
              Reset
            </Button>
          )}
        </div>
      </form>

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
              <Td>{l.user_id === null || l.user_id === undefined || String(l.user_id) === '' ? 'N/A' : l.user_id}</Td>
              <Td className="whitespace-nowrap">{formatDateTime(l.created_at)}</Td>
              <Td className="whitespace-nowrap">{formatDateTime(l.updated_at)}</Td>
              <Td className="font-mono">{l.ip_address}</Td>
              <Td>{l.status}</Td>
            </tr>
          ))}
        </DataTable>
      )}

      <Pager page={f.page} lastPage={f.lastPage} onPageChange={f.setPage} disabled={q.isFetching && q.isPlaceholderData} label="Log pages" />
    </div>
  );
}
