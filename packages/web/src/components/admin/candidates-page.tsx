import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Candidate } from '@kura/contract';
import { Pencil, UserPlus } from 'lucide-react';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { DataTable, rowClass, Td } from '@/components/staff/data-table';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { errorIssue, errorMessage } from '@/lib/errors';
import { AddCandidateDialog } from './add-candidate-dialog';
import { CandidateEditDialog } from './candidate-edit-dialog';
import { CandidatePhoto } from './candidate-photo';
import { ElectionSwitcher } from '@/components/staff/election-switcher';
import { useElectionParam } from '@/lib/election-search';
import { queries } from '@/lib/queries';
import { t as translate, useT } from '@/i18n';

/** Positions and levels as the table shows them (docs/screens.md "Staff pages"). */
export function candidateColumns(c: Pick<Candidate, 'positions'>) {
  if (c.positions.length === 0) return { positions: translate('admin.candidates.noPositions'), level: '-' };
  return { positions: c.positions.map((p) => p.name).join(', '), level: [...new Set(c.positions.map((p) => p.level))].join(', ') };
}

/**
 * Candidates page (docs/screens.md "Staff pages"): the election switcher, Add candidate, the table and the Edit
 * Candidate dialog; of the election the switcher chose (`?election=N`), else the current one.
 */
export function CandidatesPage() {
  const election = useElectionParam();
  return (
    <div className="grid gap-4">
      <ElectionSwitcher />
      {/* Another election's list starts afresh: no dialog left open on the previous one's candidate. */}
      <ElectionCandidates key={election ?? 'current'} election={election} />
    </div>
  );
}

/** One election's candidates: Add candidate, the table and the dialogs, which act on that election. */
function ElectionCandidates({ election }: { election: number | undefined }) {
  const { t } = useT();
  const q = useQuery(queries.candidates(election));
  const [editing, setEditing] = useState<Candidate | null>(null);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    // docs/screens.md "Staff pages": a destructive toast with the server's issue text.
    if (q.isError)
      toast({ variant: 'destructive', title: errorIssue(q.error) ?? errorMessage(q.error) ?? t('admin.candidates.fetchError') });
  }, [q.isError, q.error, t]);

  if (q.isPending) return <Loading label={t('admin.candidates.loading')} />;
  if (q.isError) return <ErrorState>{t('admin.candidates.loadError')}</ErrorState>;
  const candidates = q.data.body.data.data.candidates;
  const addDialog = <AddCandidateDialog open={adding} onClose={() => setAdding(false)} />;
  const addButton = (
    <Button className="w-fit" onClick={() => setAdding(true)}>
      <UserPlus aria-hidden="true" />
      {t('admin.candidates.add')}
    </Button>
  );
  if (candidates.length === 0)
    return (
      <div className="grid gap-4">
        {addButton}
        <EmptyState>{t('admin.candidates.none')}</EmptyState>
        {addDialog}
      </div>
    );

  return (
    <div className="grid gap-4">
      {addButton}
      <DataTable
        caption={t('admin.candidates.caption')}
        headers={[
          '#',
          t('admin.candidates.photo'),
          t('admin.members.memberNo'),
          t('admin.assign.positions'),
          t('admin.candidates.level'),
          t('admin.field.name'),
          t('admin.field.phone'),
          t('admin.field.branch'),
          t('admin.members.edit'),
        ]}
        minWidth="min-w-[56rem]"
        busy={q.isFetching}
      >
        {candidates.map((c, i) => {
          const cols = candidateColumns(c);
          return (
            <tr key={c.id} className={rowClass}>
              <Td>{i + 1}</Td>
              <Td>
                <CandidatePhoto src={c.image_url} name={c.name} />
              </Td>
              <Td className="font-mono">{c.member_no}</Td>
              <Td>{cols.positions}</Td>
              <Td>{cols.level}</Td>
              <Td>{c.name}</Td>
              <Td>{c.phone}</Td>
              <Td>{c.county}</Td>
              <Td>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setEditing(c)}
                  aria-label={t('admin.members.editName', { name: c.name })}
                >
                  <Pencil aria-hidden="true" />
                  {t('admin.members.edit')}
                </Button>
              </Td>
            </tr>
          );
        })}
      </DataTable>
      <CandidateEditDialog candidate={editing} onClose={() => setEditing(null)} />
      {addDialog}
    </div>
  );
}
