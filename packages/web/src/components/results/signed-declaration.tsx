import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Download, FileText, KeyRound, PenLine } from 'lucide-react';
import type { Signature } from '@kura/contract';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { errorMessage, firstFieldError } from '@/lib/errors';
import { formatDateTime, useElection } from '@/lib/election';
import { usePutSigningKey, useSignDeclaration } from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { getAccountType, getToken, hasSession } from '@/lib/session';
import { declarationText, generateSigningKey, loadSigningKey, signText, type SignatureKind } from '@/lib/signing';
import { t, useT } from '@/i18n';

/** Staff (an admin or an agent) signed in on this device: they may register a key, sign and download the pack. */
export const isStaffSession = () => {
  const type = getAccountType();
  return hasSession() && (type === 'admin' || type === 'agent');
};

/** Saves bytes as a file through a temporary link (the browser's own download). */
function saveFile(data: Blob, filename: string) {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** GET psk/results/declaration.pdf of one election, in the reader's language. */
export const declarationPdfHref = (electionId: number, locale: string) =>
  `/api/v1/psk/results/declaration.pdf?${new URLSearchParams({ election_id: String(electionId), ...(locale === 'en' || locale === 'sw' ? { lang: locale } : {}) })}`;

/**
 * Below the declaration once the election is closed (docs/screens.md "Declaration"): the PDF, the
 * evidence pack's digest, the signatures with each signer's name, role, key fingerprint and
 * statement; for staff, the evidence pack and the form to sign.
 */
export function SignedDeclaration({ electionId }: { electionId: number }) {
  const { locale } = useT();
  const staff = isStaffSession();
  const digest = useQuery({ ...queries.evidenceDigest(electionId), retry: false });
  const signatures = useQuery({ ...queries.signatures(electionId), retry: false });
  const { texts } = useElection(electionId);
  const value = digest.data?.body.data.digest;
  return (
    <section className="declaration-position grid gap-3" aria-labelledby="signed-h">
      <h2 id="signed-h" className="text-lg font-semibold">
        {t('signed.heading')}
      </h2>
      <p className="print:hidden">
        <a className="inline-flex items-center gap-2 underline" href={declarationPdfHref(electionId, locale)} download>
          <FileText aria-hidden="true" className="size-4" />
          {t('signed.downloadPdf')}
        </a>
      </p>
      <div className="grid gap-1 text-sm">
        <p>{t('signed.digestIntro')}</p>
        {digest.isPending ? (
          <p className="text-muted-foreground">{t('signed.loading')}</p>
        ) : value ? (
          <p className="break-all font-mono text-xs" data-testid="evidence-digest">
            {value}
          </p>
        ) : (
          <p className="text-destructive">{t('signed.loadFailed')}</p>
        )}
      </div>
      {staff && <DownloadPack electionId={electionId} />}
      <h3 className="font-semibold">{t('signed.signatures')}</h3>
      {signatures.isPending ? (
        <p className="text-sm text-muted-foreground">{t('signed.loading')}</p>
      ) : signatures.isError ? (
        <p className="text-sm text-destructive">{t('signed.loadFailed')}</p>
      ) : signatures.data.body.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('signed.none')}</p>
      ) : (
        <ul className="grid gap-3">
          {signatures.data.body.data.map((s) => (
            <SignatureItem key={`${s.fingerprint}-${s.signed_at}`} signature={s} when={(iso) => formatDateTime(iso, texts.timeZone)} />
          ))}
        </ul>
      )}
      {staff && value && <SignForm electionId={electionId} digest={value} />}
    </section>
  );
}

function SignatureItem({ signature: s, when }: { signature: Signature; when: (iso: string) => string }) {
  return (
    <li className="grid gap-1 rounded-md border border-border p-3 text-sm" data-testid="signature">
      <p>
        <span className="font-semibold">{s.name}</span> ({s.role === 'admin' ? t('signed.roleAdmin') : t('signed.roleAgent')}){' '}
        {s.kind === 'certify' ? t('signed.certified') : t('signed.disputed')}, <time dateTime={s.signed_at}>{when(s.signed_at)}</time>
      </p>
      <p>
        {t('signed.fingerprint')} <code className="font-mono">{s.fingerprint}</code>
      </p>
      <blockquote className="border-l-2 border-border pl-3 whitespace-pre-wrap">{s.statement}</blockquote>
    </li>
  );
}

/** GET elections/{id}/evidence with the session's token (a link cannot carry it), saved as a file. */
function DownloadPack({ electionId }: { electionId: number }) {
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const token = getToken();
      const res = await fetch(`/api/v1/elections/${electionId}/evidence`, {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        credentials: 'include',
      });
      if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? res.statusText);
      saveFile(await res.blob(), `evidence-election-${electionId}.zip`);
    } catch (err) {
      toast({ variant: 'destructive', title: t('signed.packFailed'), description: err instanceof Error ? err.message : undefined });
    } finally {
      setBusy(false);
    }
  };
  return (
    <p className="print:hidden">
      <Button variant="outline" onClick={() => void onClick()} disabled={busy}>
        <Download aria-hidden="true" />
        {busy ? t('signed.packBusy') : t('signed.downloadPack')}
      </Button>
    </p>
  );
}

/**
 * "Sign": the signer loads their key file (read here, never sent), chooses certify or dispute,
 * writes a statement and confirms; the browser signs the exact declaration text and sends the
 * signature. The server's refusal (a key registered after the close, a key that is not theirs,
 * a second signature) is shown under the form.
 */
function SignForm({ electionId, digest }: { electionId: number; digest: string }) {
  const { tReceived } = useT();
  const id = useId();
  const sign = useSignDeclaration(electionId);
  const [keyFile, setKeyFile] = useState<File | null>(null);
  const [kind, setKind] = useState<SignatureKind>('certify');
  const [statement, setStatement] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    if (!keyFile) return setProblem(t('signed.needKey'));
    if (!statement.trim()) return setProblem(t('signed.needStatement'));
    setConfirming(true);
  };

  const onConfirm = async () => {
    setConfirming(false);
    let signature: string;
    try {
      const key = await loadSigningKey(await keyFile!.text());
      signature = await signText(key.privateKey, declarationText(electionId, digest, kind, statement.trim()));
    } catch {
      setProblem(t('signed.badKey'));
      return;
    }
    try {
      await sign.mutateAsync({ params: { id: electionId }, body: { kind, statement: statement.trim(), signature } });
      setDone(true);
      toast({ variant: 'success', title: t('signed.signedToast') });
    } catch (err) {
      setProblem(tReceived(firstFieldError(err) ?? errorMessage(err) ?? '') || t('signed.signFailed'));
    }
  };

  if (done) return <p className="text-sm print:hidden">{t('signed.thanks')}</p>;
  return (
    <form
      className="grid max-w-xl gap-3 rounded-md border border-border p-4 print:hidden"
      onSubmit={onSubmit}
      aria-labelledby={`${id}-h`}
      noValidate
    >
      <h3 id={`${id}-h`} className="font-semibold">
        {t('signed.signHeading')}
      </h3>
      <p className="text-sm text-muted-foreground">{t('signed.signIntro')}</p>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-key`}>{t('signed.keyFile')}</Label>
        <input
          id={`${id}-key`}
          type="file"
          accept=".pem,.key,text/plain"
          className="text-sm"
          onChange={(e) => setKeyFile(e.target.files?.[0] ?? null)}
        />
      </div>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">{t('signed.kind')}</legend>
        <RadioGroup value={kind} onValueChange={(v) => setKind(v as SignatureKind)}>
          {(['certify', 'dispute'] as const).map((k) => (
            <div key={k} className="flex items-center gap-2">
              <RadioGroupItem id={`${id}-${k}`} value={k} />
              <Label htmlFor={`${id}-${k}`}>{k === 'certify' ? t('signed.kindCertify') : t('signed.kindDispute')}</Label>
            </div>
          ))}
        </RadioGroup>
      </fieldset>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-statement`}>{t('signed.statement')}</Label>
        <Textarea
          id={`${id}-statement`}
          value={statement}
          maxLength={2000}
          onChange={(e) => setStatement(e.target.value)}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
      </div>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
      <div>
        <Button type="submit" disabled={sign.isPending}>
          <PenLine aria-hidden="true" />
          {sign.isPending ? t('signed.signing') : t('signed.sign')}
        </Button>
      </div>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{kind === 'certify' ? t('signed.confirmCertify') : t('signed.confirmDispute')}</AlertDialogTitle>
            <AlertDialogDescription>{t('signed.confirmText')}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('signed.cancel')}</AlertDialogCancel>
            <AlertDialogAction onClick={() => void onConfirm()}>{t('signed.sign')}</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </form>
  );
}

/**
 * "Register my signing key", before the close (docs/screens.md "Declaration"): a new key pair is
 * made in this browser, the private key saved as a file on this device and only the public key
 * sent. A key registered after an election closes cannot sign that election.
 */
export function RegisterSigningKey() {
  const { tReceived } = useT();
  const put = usePutSigningKey();
  const [confirming, setConfirming] = useState(false);
  const [registered, setRegistered] = useState<{ fingerprint: string; filename: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const onConfirm = async () => {
    setConfirming(false);
    setProblem(null);
    try {
      const key = await generateSigningKey();
      const filename = `kura-signing-key-${key.fingerprint}.pem`;
      // Saved first: a key the signer does not hold must never be the one registered.
      saveFile(new Blob([key.pem], { type: 'application/x-pem-file' }), filename);
      const res = await put.mutateAsync({ body: { public_key: key.publicKey } });
      setRegistered({ fingerprint: res.body.data.fingerprint, filename });
    } catch (err) {
      setProblem(tReceived(firstFieldError(err) ?? errorMessage(err) ?? '') || t('signed.registerFailed'));
    }
  };

  return (
    <section className="grid max-w-xl gap-2 rounded-md border border-border p-4" aria-labelledby="register-key-h">
      <h2 id="register-key-h" className="text-lg font-semibold">
        {t('signed.registerHeading')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('signed.registerIntro')}</p>
      {registered ? (
        <p className="text-sm" role="status" data-testid="registered-key">
          {t('signed.registered', { fingerprint: registered.fingerprint, filename: registered.filename })}
        </p>
      ) : null}
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
      <div>
        <Button variant="outline" onClick={() => setConfirming(true)} disabled={put.isPending}>
          <KeyRound aria-hidden="true" />
          {t('signed.register')}
        </Button>
      </div>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('signed.registerConfirmTitle')}</AlertDialogTitle>
            <AlertDialogDescription>{t('signed.registerConfirmText')}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('signed.cancel')}</AlertDialogCancel>
            <AlertDialogAction onClick={() => void onConfirm()}>{t('signed.register')}</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}
