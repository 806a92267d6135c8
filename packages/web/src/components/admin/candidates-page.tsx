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
import { queries } from '@/lib/queries';

export const NO_POSITIONS = 'No positions assigned';

/** Positions and levels as the table shows them (docs/screens.md "Staff pages"). */
export function candidateColumns(c: Pick<Candidate, 'positions'>) {
  if (c.positions.length === 0) return { positions: NO_POSITIONS, level: '-' };
  return { positions: c.positions.map((p) => p.name).join(', '), level: [...new Set(c.positions.map((p) => p.level))].join(', ') };
}

/** Candidates page (docs/screens.md "Staff pages"): Add candidate, the table and the Edit Candidate dialog. */
export function CandidatesPage() {
  const q = useQuery(queries.candidates());
  const [editing, setEditing] = useState<Candidate | null>(null);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    // docs/screens.md "Staff pages": a destructive toast with the server's issue text.
    if (q.isError) toast({ variant: 'destructive', title: errorIssue(q.error) ?? errorMessage(q.error) ?? 'Error fetching candidates' });
  }, [q.isError, q.error]);

  if (q.isPending) return <Loading label="Loading candidates…" />;
  if (q.isError) return <ErrorState>The candidates could not be loaded. Please try again later.</ErrorState>;
  const candidates = q.data.body.data.data.candidates;
  const addDialog = <AddCandidateDialog open={adding} onClose={() => setAdding(false)} />;
  const addButton = (
    <Button className="w-fit" onClick={() => setAdding(true)}>
      <UserPlus aria-hidden="true" />
      Add candidate
    </Button>
  );
  if (candidates.length === 0)
    return (
      <div className="grid gap-4">
        {addButton}
        <EmptyState>There are no candidates yet. Add one here, or assign a position to a member on the Manage page.</EmptyState>
        {addDialog}
      </div>
    );

  return (
    <div className="grid gap-4">
      {addButton}
      <DataTable
        caption="Candidates"
        headers={['#', 'Photo', 'Member No', 'Positions', 'Level', 'Name', 'Phone', 'Branch', 'Edit']}
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
                <Button variant="outline" size="sm" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
                  <Pencil aria-hidden="true" />
                  Edit
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
