import { useId, useRef, useState } from 'react';
import { Upload } from 'lucide-react';
import { CONTACT_CHANGE_AFTER_VOTE } from '@kura/contract';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { useImportMembers } from '@/lib/mutations';

type Result = { created: number; updated: number; errors: { line: number; message: string; issue?: string }[] };

/** Beyond the spec: import members from a CSV (member_no,name,email,phone,branch), with a summary. */
export function MemberImport() {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const importMembers = useImportMembers();
  const [result, setResult] = useState<Result | null>(null);
  const [createBranches, setCreateBranches] = useState(false);
  /** The file last sent, kept so refused contact changes can be confirmed without choosing it again. */
  const [lastFile, setLastFile] = useState<File | null>(null);

  const onFile = async (file: File | undefined, confirmContactChanges = false) => {
    if (!file) return;
    const form = new FormData();
    form.append('file', file);
    if (confirmContactChanges) form.append('confirm_contact_changes', '1');
    setResult(null);
    setLastFile(file);
    try {
      const res = await importMembers.mutateAsync({ body: form, query: createBranches ? { create_branches: '1' } : {} });
      setResult(res.body);
      if (res.body.errors.length === 0) {
        toast({ variant: 'success', title: 'Members imported', description: `${res.body.created} created, ${res.body.updated} updated` });
      } else {
        toast({ variant: 'destructive', title: 'Import failed', description: 'Nothing was imported. Fix the lines listed and try again.' });
      }
    } catch {
      // the hook toasts the failure
    } finally {
      if (inputRef.current) inputRef.current.value = '';
    }
  };

  return (
    <div className="grid gap-2">
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        tabIndex={-1}
        aria-label="CSV file of members"
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      <Button variant="outline" onClick={() => inputRef.current?.click()} disabled={importMembers.isPending} className="w-fit">
        <Upload aria-hidden="true" />
        {importMembers.isPending ? 'Importing…' : 'Import members (CSV)'}
      </Button>
      <label className="flex w-fit items-center gap-2 text-sm">
        <input type="checkbox" checked={createBranches} onChange={(e) => setCreateBranches(e.target.checked)} className="size-4" />
        Create branches that don't exist yet
      </label>
      <p className="text-xs text-muted-foreground">Columns: member_no, name, email, phone, branch</p>
      {result && (
        <div role="status" aria-label="Import result" className="grid gap-1 rounded-md border border-border bg-muted/40 px-3 py-2 text-sm">
          <p>
            <strong>{result.created}</strong> created, <strong>{result.updated}</strong> updated
            {result.errors.length > 0 && (
              <>
                , <strong>{result.errors.length}</strong> {result.errors.length === 1 ? 'line' : 'lines'} with errors (nothing was imported)
              </>
            )}
          </p>
          {result.errors.length > 0 && (
            <ul className="list-disc pl-5 text-destructive">
              {result.errors.slice(0, 50).map((e) => (
                <li key={`${e.line}-${e.message}`}>
                  Line {e.line}: {e.message}
                </li>
              ))}
              {result.errors.length > 50 && <li>…and {result.errors.length - 50} more</li>}
            </ul>
          )}
          {lastFile && result.errors.some((e) => e.issue === CONTACT_CHANGE_AFTER_VOTE) && (
            <div className="grid gap-2 pt-1">
              <p>
                Some lines change the phone or email of members who have already voted. Their sign-in codes would go to the new phone or
                email; each member is told on the old one. Import again only if you are sure these members asked for it.
              </p>
              <Button
                variant="destructive"
                className="w-fit"
                disabled={importMembers.isPending}
                onClick={() => void onFile(lastFile, true)}
              >
                Confirm the contact changes and import again
              </Button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
