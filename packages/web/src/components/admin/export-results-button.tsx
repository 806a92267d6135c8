import { useState } from 'react';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { errorMessage } from '@/lib/errors';
import { electionQuery } from '@/lib/queries';
import { useT } from '@/i18n';

/** Saves text as a file through a temporary link (the browser's own download). */
export function download(text: string, filename: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads GET psk/results/export?format=csv (beyond the spec, for admins): the chosen election's, else the current one's. */
export function ExportResultsButton({ election }: { election?: number }) {
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const res = await api.elections.exportResults.query({ query: { format: 'csv', ...electionQuery(election) } });
      const body = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      // The server names the file after the election (Content-Disposition); the date keeps two exports apart.
      const named = /filename="([^"]+)\.csv"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'results';
      download(body, `${named}-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (err) {
      toast({
        variant: 'destructive',
        title: t('admin.export.error'),
        description: errorMessage(err) ?? t('common.somethingWrong'),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" onClick={onClick} disabled={busy}>
      <Download aria-hidden="true" />
      {busy ? t('admin.export.busy') : t('admin.export.button')}
    </Button>
  );
}
