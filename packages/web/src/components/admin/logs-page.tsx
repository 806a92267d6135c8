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
import { t, useT, type MessageKey } from '@/i18n';
import { formatInZone } from '@/lib/zoned-time';

const EMPTY = LOG_FILTERS;
const ANY = 'any';
/** Members and staff number their ids separately: a user id means nothing without whose it is. */
export const USER_TYPES = [
  { value: 'voter', label: 'admin.logs.type.voter' },
  { value: 'staff', label: 'admin.logs.type.staff' },
  { value: 'admin', label: 'admin.logs.type.admin' },
  { value: 'agent', label: 'admin.logs.type.agent' },
] as const satisfies readonly { value: string; label: MessageKey }[];
const TYPE_LABEL: Record<string, MessageKey> = {
  voter: 'admin.logs.whose.voter',
  admin: 'admin.logs.whose.admin',
  agent: 'admin.logs.whose.agent',
};

/** The User ID cell: N/A when empty, else the id and whose it is. */
export function userIdCell(entry: { user_id: number | null; user_type?: string | null }): string {
  if (entry.user_id === null || entry.user_id === undefined || String(entry.user_id) === '') return t('admin.logs.na');
  const type = entry.user_type ? TYPE_LABEL[entry.user_type] : undefined;
  return type ? t('admin.logs.userIdOf', { id: String(entry.user_id), type: t(type) }) : String(entry.user_id);
}

const FIELDS: (SearchField<keyof typeof EMPTY> & { label: MessageKey })[] = [
  { key: 'name', label: 'admin.field.name', maxLength: 150 },
  { key: 'activity', label: 'admin.logs.activity', maxLength: 150 },
  { key: 'user_id', label: 'admin.logs.userId', maxLength: 20 },
  { key: 'ip_address', label: 'admin.logs.ip', maxLength: 64 },
];

/**
 * Dates on the organisation's clock, as every other page shows them ("3 May 2026, 08:00 EAT": the
 * reader's language, the organisation's IANA zone from GET organisation); the raw value when it
 * does not parse. Until the organisation is read, UTC, named as such.
 */
export function formatDateTime(value: string, timeZone = 'UTC'): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : formatInZone(value, timeZone);
}

/** The organisation's time zone for staff tables (logs, reported issues). */
export function useOrganisationZone(): string {
  const organisation = useQuery(queries.organisation());
  return organisation.data?.body?.data?.time_zone ?? 'UTC';
}

/** System logs (docs/screens.md "Staff pages"): filters, table and pager; Reset shows only while a filter is active. */
export function LogsPage() {
  const { t } = useT();
  const id = useId();
  const f = useFilteredPages(EMPTY);
  const filterActive = f.filterMode || hasAnyFilter(f.draft);

  const q = useQuery(queries.logs(f.params));
  const zone = useOrganisationZone();
  const page = q.data?.body.data;
  const lastPage = useLastPage(f.page, f.clampPage, page?.last_page);
  useEffect(() => {
    if (q.isError) toast({ variant: 'destructive', title: t('admin.logs.failed') });
  }, [q.isError, q.errorUpdatedAt, t]);

  return (
    <div className="grid gap-6">
      <SearchForm
        label={t('admin.logs.filter')}
        fields={FIELDS.map((fd) => ({ ...fd, label: t(fd.label) }))}
        filters={f}
        showReset={filterActive}
      >
        <div className="grid gap-2">
          <Label htmlFor={`${id}-user-type`}>{t('admin.logs.userType')}</Label>
          <Select value={f.draft.user_type || ANY} onValueChange={(v) => f.setField('user_type', v === ANY ? '' : v)}>
            <SelectTrigger id={`${id}-user-type`}>
              <SelectValue placeholder={t('admin.logs.everyone')} />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>{t('admin.logs.everyone')}</SelectItem>
              {USER_TYPES.map((type) => (
                <SelectItem key={type.value} value={type.value}>
                  {t(type.label)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </SearchForm>

      {q.isPending ? (
        <Loading label={t('admin.logs.loading')} />
      ) : q.isError && !page ? (
        <ErrorState>{t('admin.logs.failed')}</ErrorState>
      ) : !page || page.data.length === 0 ? (
        <EmptyState>{f.filterMode ? t('admin.logs.noMatch') : t('admin.logs.none')}</EmptyState>
      ) : (
        <DataTable
          caption={t('admin.logs.caption')}
          headers={[
            t('admin.logs.col.id'),
            t('admin.field.name'),
            t('admin.logs.activity'),
            t('admin.logs.col.userId'),
            t('admin.logs.col.created'),
            t('admin.logs.col.updated'),
            t('admin.logs.col.ip'),
            t('admin.logs.col.status'),
          ]}
          minWidth="min-w-[60rem]"
          busy={q.isFetching}
        >
          {page.data.map((l) => (
            <tr key={l.id} className={rowClass}>
              <Td>{l.id}</Td>
              <Td>{l.name}</Td>
              <Td>{l.activity}</Td>
              <Td>{userIdCell(l)}</Td>
              <Td className="whitespace-nowrap">{formatDateTime(l.created_at, zone)}</Td>
              <Td className="whitespace-nowrap">{formatDateTime(l.updated_at, zone)}</Td>
              <Td className="font-mono">{l.ip_address}</Td>
              <Td>{l.status}</Td>
            </tr>
          ))}
        </DataTable>
      )}

      <Pager
        page={f.page}
        lastPage={lastPage}
        onPageChange={f.setPage}
        disabled={q.isFetching && q.isPlaceholderData}
        label={t('admin.logs.pages')}
      />
    </div>
  );
}
