import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Member } from '@kura/contract';
import { Pencil, Plus, Trash2, UserPlus } from 'lucide-react';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { DataTable, rowClass, Td } from '@/components/staff/data-table';
import { Pager } from '@/components/staff/pager';
import { useLastPage } from '@/hooks/use-last-page';
import { SearchForm, type SearchField } from '@/components/staff/search-form';
import { useFilteredPages } from '@/hooks/use-filtered-pages';
import { Button } from '@/components/ui/button';
import { AssignPositionDialog } from './assign-position-dialog';
import { MemberEditDialog } from './member-edit-dialog';
import { MemberImport } from './member-import';
import { MemberAddDialog } from './member-add-dialog';
import { MemberRemoveDialog } from './member-remove-dialog';
import { memberLanguageName } from './member-language-field';
import { MEMBER_FILTERS } from '@/lib/list-search';
import { queries } from '@/lib/queries';
import { useT, type MessageKey } from '@/i18n';

const EMPTY = MEMBER_FILTERS;
const FIELDS: (SearchField<keyof typeof EMPTY> & { label: MessageKey })[] = [
  { key: 'query', label: 'admin.members.search', type: 'text', maxLength: 150 },
  { key: 'county', label: 'admin.members.county', type: 'text', maxLength: 150 },
  { key: 'phone', label: 'admin.field.phone', type: 'text', maxLength: 150 },
  { key: 'email', label: 'admin.field.email', type: 'email', maxLength: 150 },
];

/** Members page (docs/screens.md "Staff pages"): search form, table, pager, Add member, Edit, Assign Position and Remove member dialogs. */
export function MembersPage() {
  const { t } = useT();
  const f = useFilteredPages(EMPTY);
  const [editing, setEditing] = useState<Member | null>(null);
  const [assigning, setAssigning] = useState<Member | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);

  const q = useQuery(queries.members(f.params));
  const body = q.data?.body;
  const lastPage = useLastPage(f.page, f.clampPage, body?.last_page);

  const offset = body ? (body.current_page - 1) * body.per_page : 0;

  return (
    <div className="grid gap-6">
      <SearchForm label={t('admin.members.searchLabel')} fields={FIELDS.map((fd) => ({ ...fd, label: t(fd.label) }))} filters={f} />

      <div className="flex flex-wrap items-start gap-4">
        <Button onClick={() => setAdding(true)} className="w-fit">
          <Plus aria-hidden="true" />
          {t('admin.members.add')}
        </Button>
      </div>

      <MemberImport />

      {q.isPending ? (
        <Loading label={t('admin.members.loading')} />
      ) : q.isError && !body ? (
        <ErrorState>{t('admin.members.loadError')}</ErrorState>
      ) : !body || body.data.length === 0 ? (
        <EmptyState>{f.filterMode ? t('admin.members.noMatch') : t('admin.members.none')}</EmptyState>
      ) : (
        <DataTable
          caption={t('admin.members.caption')}
          headers={[
            '#',
            t('admin.members.memberNo'),
            t('admin.field.name'),
            t('admin.field.email'),
            t('admin.field.phone'),
            t('admin.field.branch'),
            t('admin.field.language'),
            t('admin.members.edit'),
            t('admin.members.assign'),
            t('admin.members.remove'),
          ]}
          minWidth="min-w-[64rem]"
          busy={q.isFetching}
        >
          {body.data.map((m, i) => (
            <tr key={m.id} className={rowClass}>
              <Td>{offset + i + 1}</Td>
              <Td className="font-mono">{m.member_no}</Td>
              <Td>{m.name}</Td>
              {/* Whole addresses and numbers: the table scrolls sideways on a phone instead of
                  folding an address into a letter column (break-all made every row seven lines). */}
              <Td className="break-words">{m.email}</Td>
              <Td className="whitespace-nowrap">{m.phone}</Td>
              <Td>{m.county}</Td>
              <Td>{memberLanguageName(m.language, t)}</Td>
              <Td>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setEditing(m)}
                  aria-label={t('admin.members.editName', { name: m.name })}
                >
                  <Pencil aria-hidden="true" />
                  {t('admin.members.edit')}
                </Button>
              </Td>
              <Td>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setAssigning(m)}
                  aria-label={t('admin.members.assignName', { name: m.name })}
                >
                  <UserPlus aria-hidden="true" />
                  {t('admin.members.assign')}
                </Button>
              </Td>
              <Td>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setRemoving(m)}
                  aria-label={t('admin.members.removeName', { name: m.name })}
                >
                  <Trash2 aria-hidden="true" />
                  {t('admin.members.remove')}
                </Button>
              </Td>
            </tr>
          ))}
        </DataTable>
      )}

      <Pager
        page={f.page}
        lastPage={lastPage}
        onPageChange={f.setPage}
        disabled={q.isFetching && q.isPlaceholderData}
        label={t('admin.members.pages')}
      />

      <MemberEditDialog member={editing} onClose={() => setEditing(null)} />
      <AssignPositionDialog member={assigning} onClose={() => setAssigning(null)} />
      <MemberAddDialog open={adding} onClose={() => setAdding(false)} />
      <MemberRemoveDialog member={removing} onClose={() => setRemoving(null)} />
    </div>
  );
}
