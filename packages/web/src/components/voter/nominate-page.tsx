import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Nomination, Position } from '@kura/contract';
import { EmptyState, ErrorState, Loading } from '@/components/layout/page-states';
import { Supporters } from '@/components/nominations/supporters';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import {
  useAcceptNomination,
  useAppealNomination,
  useCreateNomination,
  useSupportNomination,
  useWithdrawNomination,
} from '@/lib/mutations';
import { queries } from '@/lib/queries';
import { getPfNumber } from '@/lib/session';
import { useT } from '@/i18n';

/**
 * The voter's Nominations page (docs/screens.md "Nominations"): what waits for the member first
 * (support requests, a nomination to accept, a decision to appeal), then their nominations and
 * their status, then the form to nominate a member for a position that takes nominations.
 */
export function Nominate() {
  const { t } = useT();
  const mine = useQuery(queries.myNominations());
  // Read again on every visit: a position opened for nominations since the dashboard read the list
  // shows at once, not after the list's minute in the cache.
  const positions = useQuery({ ...queries.positions(), staleTime: 0 });
  // My member number as the server has it (psk/register): what was typed at sign-in may be a phone
  // or an e-mail, and a Google sign-in stores none; the stored one only if that read fails.
  const entry = useQuery(queries.myRegisterEntry());
  const me = entry.data?.body.data.member_no ?? (entry.isError ? (getPfNumber() ?? '') : '');

  if (mine.isPending || entry.isPending) return <Loading label={t('nominations.loading')} />;
  if (mine.isError) return <ErrorState onRetry={() => void mine.refetch()}>{t('nominations.failed')}</ErrorState>;
  const list = mine.data.body.data;
  const supportRequests = list.filter(
    (n) => n.status === 'awaiting_support' && n.supporters.some((s) => s.member_no === me && !s.confirmed),
  );
  const toAccept = list.filter(
    (n) => n.nominee.member_no === me && n.accepted === null && (n.status === 'awaiting_support' || n.status === 'awaiting_acceptance'),
  );
  const toAppeal = list.filter((n) => n.nominee.member_no === me && n.status === 'invalid' && n.appeal === null);
  const open = (positions.data?.body.data ?? []).filter((p) => p.nomination);

  return (
    <div className="grid max-w-3xl gap-6">
      <section aria-labelledby="waiting" className="grid gap-3">
        <h2 id="waiting" className="text-lg font-semibold">
          {t('nominations.waiting')}
        </h2>
        {supportRequests.length + toAccept.length + toAppeal.length === 0 ? (
          <EmptyState>{t('nominations.nothingWaiting')}</EmptyState>
        ) : null}
        {supportRequests.map((n) => (
          <SupportRequest key={`s${n.id}`} nomination={n} me={me} />
        ))}
        {toAccept.map((n) => (
          <AcceptRequest key={`a${n.id}`} nomination={n} />
        ))}
        {toAppeal.map((n) => (
          <AppealForm key={`p${n.id}`} nomination={n} />
        ))}
      </section>

      <section aria-labelledby="mine" className="grid gap-3">
        <h2 id="mine" className="text-lg font-semibold">
          {t('nominations.mine')}
        </h2>
        {list.length === 0 ? <EmptyState>{t('nominations.none')}</EmptyState> : null}
        {list.map((n) => (
          <NominationCard key={n.id} nomination={n} me={me} />
        ))}
      </section>

      <section aria-labelledby="nominate" className="grid gap-3">
        <h2 id="nominate" className="text-lg font-semibold">
          {t('nominations.nominate')}
        </h2>
        {positions.isPending ? <Loading /> : open.length === 0 ? <EmptyState>{t('nominations.noPositions')}</EmptyState> : null}
        {open.length > 0 ? <NominateForm positions={open} me={me} /> : null}
      </section>
    </div>
  );
}

function StatusLine({ nomination }: { nomination: Nomination }) {
  const { t } = useT();
  return (
    <p className="text-sm">
      {t('nominations.status')}: <strong>{t(`nominations.status.${nomination.status}`)}</strong>
      {nomination.decision?.reason ? ` — ${nomination.decision.reason}` : ''}
      {nomination.appeal ? ` · ${t('nominations.appealStatus')}: ${t(`nominations.appeal.${nomination.appeal.status}`)}` : ''}
    </p>
  );
}

function SupportRequest({ nomination, me }: { nomination: Nomination; me: string }) {
  const { t } = useT();
  const support = useSupportNomination();
  const role = nomination.supporters.find((s) => s.member_no === me)?.role ?? 'seconder';
  const answer = async (confirm: boolean) => {
    const res = await support.mutateAsync({ params: { id: nomination.id }, body: { confirm } }).catch(() => null);
    if (res) toast({ variant: 'success', title: t(confirm ? 'nominations.supported' : 'nominations.declined') });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {t('nominations.supportRequest', {
            role: t(`nominations.role.${role}`),
            nominee: nomination.nominee.name,
            position: nomination.position,
          })}
        </CardTitle>
        <CardDescription>{nomination.statement}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        <Button disabled={support.isPending} onClick={() => void answer(true)}>
          {t('nominations.confirm')}
        </Button>
        <Button variant="outline" disabled={support.isPending} onClick={() => void answer(false)}>
          {t('nominations.decline')}
        </Button>
      </CardContent>
    </Card>
  );
}

function AcceptRequest({ nomination }: { nomination: Nomination }) {
  const { t } = useT();
  const id = useId();
  const accept = useAcceptNomination();
  const [statement, setStatement] = useState(nomination.statement ?? '');
  const [photo, setPhoto] = useState<File | null>(null);
  const [declining, setDeclining] = useState(false);
  const send = async (yes: boolean) => {
    const form = new FormData();
    form.append('accept', String(yes));
    if (yes) form.append('statement', statement);
    if (yes && photo) form.append('photo', photo);
    const res = await accept.mutateAsync({ params: { id: nomination.id }, body: form as never }).catch(() => null);
    if (res) toast({ variant: 'success', title: t(yes ? 'nominations.accepted' : 'nominations.declined') });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('nominations.acceptRequest', { position: nomination.position })}</CardTitle>
        <Supporters nomination={nomination} />
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-statement`}>{t('nominations.statement')}</Label>
          <Textarea id={`${id}-statement`} maxLength={2000} value={statement} onChange={(e) => setStatement(e.target.value)} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-photo`}>{t('nominations.photo')}</Label>
          <Input
            id={`${id}-photo`}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            onChange={(e) => setPhoto(e.target.files?.[0] ?? null)}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button disabled={accept.isPending} onClick={() => void send(true)}>
            {t('nominations.accept')}
          </Button>
          {declining ? (
            <Button variant="destructive" disabled={accept.isPending} onClick={() => void send(false)}>
              {t('nominations.confirmDecline')}
            </Button>
          ) : (
            <Button variant="outline" onClick={() => setDeclining(true)}>
              {t('nominations.decline')}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function AppealForm({ nomination }: { nomination: Nomination }) {
  const { t } = useT();
  const id = useId();
  const appeal = useAppealNomination();
  const [grounds, setGrounds] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await appeal.mutateAsync({ params: { id: nomination.id }, body: { grounds } }).catch(() => null);
    if (res) toast({ variant: 'success', title: t('nominations.appealed') });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('nominations.appealTitle', { position: nomination.position })}</CardTitle>
        <StatusLine nomination={nomination} />
      </CardHeader>
      <CardContent>
        <form className="grid gap-2" onSubmit={(e) => void submit(e)}>
          <Label htmlFor={`${id}-grounds`}>{t('nominations.grounds')}</Label>
          <Textarea id={`${id}-grounds`} required maxLength={2000} value={grounds} onChange={(e) => setGrounds(e.target.value)} />
          <div>
            <Button type="submit" disabled={appeal.isPending || grounds.trim() === ''}>
              {t('nominations.appeal')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function NominationCard({ nomination, me }: { nomination: Nomination; me: string }) {
  const { t } = useT();
  const withdraw = useWithdrawNomination();
  const [confirming, setConfirming] = useState(false);
  const firstProposer = nomination.supporters.find((s) => s.role === 'proposer')?.member_no;
  const mayWithdraw = nomination.status !== 'withdrawn' && (nomination.nominee.member_no === me || firstProposer === me);
  const run = async () => {
    const res = await withdraw.mutateAsync({ params: { id: nomination.id } }).catch(() => null);
    setConfirming(false);
    if (res) toast({ variant: 'success', title: t('nominations.withdrawn') });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {t('nominations.heading', {
            name: nomination.nominee.name,
            memberNo: nomination.nominee.member_no,
            position: nomination.position,
          })}
        </CardTitle>
        <StatusLine nomination={nomination} />
        <Supporters nomination={nomination} />
      </CardHeader>
      {mayWithdraw ? (
        <CardContent className="flex gap-2">
          {confirming ? (
            <>
              <Button variant="destructive" disabled={withdraw.isPending} onClick={() => void run()}>
                {t('nominations.confirmWithdraw')}
              </Button>
              <Button variant="outline" onClick={() => setConfirming(false)}>
                {t('nominations.cancel')}
              </Button>
            </>
          ) : (
            <Button variant="outline" onClick={() => setConfirming(true)}>
              {t('nominations.withdraw')}
            </Button>
          )}
        </CardContent>
      ) : null}
    </Card>
  );
}

function NominateForm({ positions, me }: { positions: Position[]; me: string }) {
  const { t } = useT();
  const id = useId();
  const create = useCreateNomination();
  const [positionId, setPositionId] = useState<number>(positions[0]!.id);
  const position = positions.find((p) => p.id === positionId) ?? positions[0]!;
  const rule = position.nomination!;
  const [nominee, setNominee] = useState('');
  const [proposers, setProposers] = useState<string[]>([]);
  const [seconders, setSeconders] = useState<string[]>([]);
  const [statement, setStatement] = useState('');
  const self = rule.self && nominee.trim() === me;
  // The caller is the first proposer unless they nominate themselves.
  const proposerAt = (i: number) => (i === 0 && !self ? me : (proposers[i] ?? ''));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const supporters = [
      ...Array.from({ length: rule.proposers }, (_, i) => ({ member_no: proposerAt(i).trim(), role: 'proposer' as const })),
      ...Array.from({ length: rule.seconders }, (_, i) => ({ member_no: (seconders[i] ?? '').trim(), role: 'seconder' as const })),
    ];
    const res = await create
      .mutateAsync({
        body: { position_id: position.id, nominee_member_no: nominee.trim(), supporters, ...(statement ? { statement } : {}) },
      })
      .catch(() => null);
    if (!res) return;
    toast({ variant: 'success', title: t('nominations.made') });
    setNominee('');
    setProposers([]);
    setSeconders([]);
    setStatement('');
  };
  const field = (key: string, label: string, value: string, onChange: (v: string) => void, disabled = false) => (
    <div className="grid gap-1" key={key}>
      <Label htmlFor={`${id}-${key}`}>{label}</Label>
      <Input id={`${id}-${key}`} value={value} disabled={disabled} required maxLength={50} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
  const nomineeField = field('nominee', t('nominations.nomineeNo'), nominee, setNominee);
  return (
    <form className="grid gap-3" onSubmit={(e) => void submit(e)}>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-position`}>{t('nominations.position')}</Label>
        <select
          id={`${id}-position`}
          className="h-10 w-full rounded-md border bg-background px-3"
          value={positionId}
          onChange={(e) => setPositionId(Number(e.target.value))}
        >
          {positions.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} {p.level}
            </option>
          ))}
        </select>
        <p className="text-sm text-muted-foreground">{t('nominations.rule', { proposers: rule.proposers, seconders: rule.seconders })}</p>
      </div>
      {nomineeField}
      {Array.from({ length: rule.proposers }, (_, i) =>
        field(
          `p${i}`,
          t('nominations.proposerNo', { n: i + 1 }),
          proposerAt(i),
          (v) => setProposers((l) => Object.assign([...l], { [i]: v })),
          i === 0 && !self,
        ),
      )}
      {Array.from({ length: rule.seconders }, (_, i) =>
        field(`s${i}`, t('nominations.seconderNo', { n: i + 1 }), seconders[i] ?? '', (v) =>
          setSeconders((l) => Object.assign([...l], { [i]: v })),
        ),
      )}
      <div className="grid gap-1">
        <Label htmlFor={`${id}-statement`}>{t('nominations.statement')}</Label>
        <Textarea id={`${id}-statement`} maxLength={2000} value={statement} onChange={(e) => setStatement(e.target.value)} />
      </div>
      <div>
        <Button type="submit" disabled={create.isPending}>
          {t('nominations.submit')}
        </Button>
      </div>
    </form>
  );
}
