import { useId, useRef, useState } from 'react';
import { Download, Upload } from 'lucide-react';
import { CONTACT_CHANGE_AFTER_VOTE } from '@kura/contract';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { useImportMembers } from '@/lib/mutations';
import { api } from '@/lib/api';
import { errorMessage } from '@/lib/errors';
import { download } from './export-results-button';
import { useT } from '@/i18n';

type Result = { created: number; updated: number; errors: { line: number; message: string; issue?: string }[] };

/** Beyond the spec: import members from a CSV (docs/operations.md "Importing members"), with its template, its formats and a summary. */
export function MemberImport() {
  const { t, tRich, tReceived } = useT();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const importMembers = useImportMembers();
  const [result, setResult] = useState<Result | null>(null);
  const [createBranches, setCreateBranches] = useState(false);
  /** The file last sent, kept so refused contact changes can be confirmed without choosing it again. */
  const [lastFile, setLastFile] = useState<File | null>(null);

  /** GET members/import/template, saved as a file: the header the import takes and two example lines. */
  const downloadTemplate = async () => {
    try {
      const res = await api.members.getImportTemplate.query();
      if (res.status !== 200) throw res;
      download(typeof res.body === 'string' ? res.body : String(res.body), 'members-template.csv');
    } catch (err) {
      toast({
        variant: 'destructive',
        title: t('admin.import.templateError'),
        description: errorMessage(err) ?? t('common.somethingWrong'),
      });
    }
  };

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
        toast({
          variant: 'success',
          title: t('admin.import.imported'),
          description: t('admin.import.importedText', { created: String(res.body.created), updated: String(res.body.updated) }),
        });
      } else {
        toast({ variant: 'destructive', title: t('admin.import.failed'), description: t('admin.import.failedText') });
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
        aria-label={t('admin.import.file')}
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      <Button variant="outline" onClick={() => inputRef.current?.click()} disabled={importMembers.isPending} className="w-fit">
        <Upload aria-hidden="true" />
        {importMembers.isPending ? t('admin.import.busy') : t('admin.import.button')}
      </Button>
      <label className="flex w-fit items-center gap-2 text-sm">
        <input type="checkbox" checked={createBranches} onChange={(e) => setCreateBranches(e.target.checked)} className="size-4" />
        {t('admin.import.createBranches')}
      </label>
      <Button variant="link" onClick={() => void downloadTemplate()} className="w-fit px-0">
        <Download aria-hidden="true" />
        {t('admin.import.template')}
      </Button>
      <div className="grid gap-1 text-xs text-muted-foreground">
        <p>{t('admin.import.columns')}</p>
        <p>{t('admin.import.formatMemberNo')}</p>
        <p>{t('admin.import.formatPhone')}</p>
        <p>{t('admin.import.formatEmail')}</p>
      </div>
      {result && (
        <div
          role="status"
          aria-label={t('admin.import.result')}
          className="grid gap-1 rounded-md border border-border bg-muted/40 px-3 py-2 text-sm"
        >
          <p>
            {result.errors.length > 0
              ? tRich('admin.import.summaryErrors', {
                  created: String(result.created),
                  updated: String(result.updated),
                  number: String(result.errors.length),
                  count: result.errors.length,
                  b: (chunks) => <strong>{chunks}</strong>,
                })
              : tRich('admin.import.summary', {
                  created: String(result.created),
                  updated: String(result.updated),
                  b: (chunks) => <strong>{chunks}</strong>,
                })}
          </p>
          {result.errors.length > 0 && (
            <ul className="list-disc pl-5 text-destructive">
              {result.errors.slice(0, 50).map((e) => (
                <li key={`${e.line}-${e.message}`}>{t('admin.import.line', { line: String(e.line), message: tReceived(e.message) })}</li>
              ))}
              {result.errors.length > 50 && <li>{t('admin.import.more', { number: String(result.errors.length - 50) })}</li>}
            </ul>
          )}
          {lastFile && result.errors.some((e) => e.issue === CONTACT_CHANGE_AFTER_VOTE) && (
            <div className="grid gap-2 pt-1">
              <p>{t('admin.import.contactWarning')}</p>
              <Button
                variant="destructive"
                className="w-fit"
                disabled={importMembers.isPending}
                onClick={() => void onFile(lastFile, true)}
              >
                {t('admin.import.confirm')}
              </Button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
