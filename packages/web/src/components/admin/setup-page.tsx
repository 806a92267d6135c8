import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Branch, Position } from '@kura/contract';
import { CheckCircle2, ChevronDown, ChevronUp, Circle, Pencil, Trash2, UserPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { api } from '@/lib/api';
import { errorMessage, firstFieldError } from '@/lib/errors';
import { useElection } from '@/lib/election';
import { queries, queryKeys } from '@/lib/queries';
import { AddCandidateDialog } from './add-candidate-dialog';
import { useBranches, useCandidatePositions } from '@/hooks/use-admin-lists';

/** How agents come to exist: the operator creates them, there is no screen for it. */
export const ADD_AGENT_TEXT =
  'Ask the operator to add an agent (observer): AGENT_EMAILS at start, or the agent:create command (pnpm cli agent:create <email>). Agents sign in at /agent/login with an emailed code.';

/** The server's reason for a failed call: the 409/422 message, or a generic one. */
const reasonOf = (err: unknown) => firstFieldError(err) ?? errorMessage(err) ?? 'Please try again.';

function failed(title: string, err: unknown) {
  toast({ variant: 'destructive', title, description: reasonOf(err) });
}

/** docs/api.md "Setting up": the admin sets up the organisation's election on one page. */
export function SetupPage() {
  return (
    <div className="grid gap-6">
      <SetupChecklist />
      <OrganisationForm />
      <BranchesSection />
      <PositionsSection />
    </div>
  );
}

type CheckItem = { label: string; done: boolean; detail: string };

function SetupChecklist() {
  const { election } = useElection();
  const { branches } = useBranches();
  const { positions } = useCandidatePositions();
  const candidates = useQuery(queries.candidates());
  const members = useQuery(queries.memberCount());
  const agents = useQuery(queries.agents());
  const agentCount = agents.data?.body.data.length ?? 0;
  const list = candidates.data?.body.data.data.candidates ?? [];
  const withCandidate = new Set(list.flatMap((c) => c.positions.map((p) => p.id)));
  const empty = positions.filter((p) => !withCandidate.has(p.id));
  const memberTotal = members.data?.body.total ?? 0;
  const textsDone = Boolean(election?.title && election.organisation);
  const scheduled = Boolean(election?.opens_at && election.closes_at);
  const runBySwitch = election?.phase === 'open' || election?.phase === 'paused' || election?.phase === 'closed';

  const items: CheckItem[] = [
    {
      label: 'Organisation texts',
      done: textsDone,
      detail: textsDone ? `${election!.organisation}: ${election!.title}` : 'Enter the election title and the organisation name.',
    },
    {
      label: 'Branches',
      done: branches.length > 0,
      detail: branches.length > 0 ? `${branches.length} ${branches.length === 1 ? 'branch' : 'branches'}` : 'Add at least one branch.',
    },
    {
      label: 'Positions',
      done: positions.length > 0,
      detail:
        positions.length > 0 ? `${positions.length} ${positions.length === 1 ? 'position' : 'positions'}` : 'Add at least one position.',
    },
    {
      label: 'Candidates',
      done: positions.length > 0 && empty.length === 0,
      detail:
        positions.length === 0
          ? 'Add positions first.'
          : empty.length === 0
            ? 'Every position has a candidate.'
            : `No candidate for: ${empty.map((p) => `${p.name} - ${p.level}`).join(', ')}`,
    },
    { label: 'Members', done: memberTotal > 0, detail: memberTotal > 0 ? `${memberTotal} members` : 'Import the members (Manage).' },
    {
      label: 'Agents',
      done: agentCount > 0,
      detail: agentCount > 0 ? `${agentCount} ${agentCount === 1 ? 'agent' : 'agents'} (observers)` : ADD_AGENT_TEXT,
    },
    {
      label: 'Schedule',
      // Voting run with the switch alone needs no schedule: once it has been opened, this is settled.
      done: scheduled || runBySwitch,
      detail: scheduled
        ? 'Opening and closing times are set.'
        : runBySwitch
          ? 'No schedule: voting is opened and closed with the switch (Home).'
          : 'Set the opening and closing times (Home), or open and close voting with the switch there.',
    },
  ];

  return (
    <section aria-labelledby="setup-checklist" className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id="setup-checklist" className="mb-3 text-lg font-semibold">
        Set-up checklist
      </h2>
      <ul className="grid gap-2" aria-label="Set-up checklist">
        {items.map((i) => (
          <li key={i.label} className="flex items-start gap-2 text-sm">
            {i.done ? (
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
            ) : (
              <Circle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
            )}
            <span>
              <strong>{i.label}</strong>
              <span className="sr-only">{i.done ? ' (done)' : ' (to do)'}</span>: <span className="break-words">{i.detail}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function OrganisationForm() {
  const id = useId();
  const queryClient = useQueryClient();
  const { election } = useElection();
  const update = api.elections.updateElection.useMutation();
  const [form, setForm] = useState({ title: '', organisation: '', website: '', support_email: '' });
  const [loaded, setLoaded] = useState(false);
  // Filled once from the server, so a late answer never overwrites what the admin typed.
  useEffect(() => {
    if (!election || loaded) return;
    setLoaded(true);
    setForm({
      title: election.title,
      organisation: election.organisation,
      website: election.website ?? '',
      support_email: election.support_email ?? '',
    });
  }, [election, loaded]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await update.mutateAsync({
        body: {
          title: form.title,
          organisation: form.organisation,
          website: form.website.trim() || null,
          support_email: form.support_email.trim() || null,
        },
      });
      toast({ variant: 'success', title: 'Organisation texts saved' });
      await queryClient.invalidateQueries({ queryKey: queryKeys.election });
    } catch (err) {
      failed('Failed to save the organisation texts', err);
    }
  };

  const field = (key: keyof typeof form, label: string, type = 'text') => (
    <div className="grid gap-1">
      <Label htmlFor={`${id}-${key}`}>{label}</Label>
      <Input id={`${id}-${key}`} type={type} value={form[key]} onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))} />
    </div>
  );

  return (
    <section aria-labelledby={`${id}-h`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id={`${id}-h`} className="mb-3 text-lg font-semibold">
        Organisation
      </h2>
      <form onSubmit={(e) => void onSubmit(e)} className="grid gap-3 sm:grid-cols-2">
        {field('title', 'Election title')}
        {field('organisation', 'Organisation name')}
        {field('website', 'Website', 'url')}
        {field('support_email', 'Support email', 'email')}
        <Button type="submit" disabled={update.isPending} className="w-fit">
          {update.isPending ? 'Saving…' : 'Save organisation texts'}
        </Button>
      </form>
    </section>
  );
}

function BranchesSection() {
  const id = useId();
  const queryClient = useQueryClient();
  const { branches } = useBranches();
  const create = api.setup.createBranch.useMutation();
  const rename = api.setup.updateBranch.useMutation();
  const remove = api.setup.deleteBranch.useMutation();
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ id: number; name: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.branches });
  const run = async (title: string, work: () => Promise<unknown>, done: string) => {
    setProblem(null);
    try {
      await work();
      toast({ variant: 'success', title: done });
      await refresh();
      return true;
    } catch (err) {
      setProblem(reasonOf(err));
      failed(title, err);
      return false;
    }
  };

  const onAdd = async (e: FormEvent) => {
    e.preventDefault();
    if (await run('Failed to add the branch', () => create.mutateAsync({ body: { name } }), 'Branch added')) setName('');
  };

  return (
    <section aria-labelledby={`${id}-h`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id={`${id}-h`} className="mb-3 text-lg font-semibold">
        Branches
      </h2>
      {problem && (
        <p role="alert" className="mb-2 text-sm text-destructive">
          {problem}
        </p>
      )}
      <ul className="mb-3 grid gap-2" aria-label="Branches">
        {branches.length === 0 && <li className="text-sm text-muted-foreground">No branches yet.</li>}
        {branches.map((b: Branch) => (
          <li key={b.id} className="flex flex-wrap items-center gap-2">
            {editing?.id === b.id ? (
              <form
                className="flex flex-wrap items-center gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  void run(
                    'Failed to rename the branch',
                    () => rename.mutateAsync({ params: { id: b.id }, body: { name: editing.name } }),
                    'Branch renamed',
                  ).then((ok) => ok && setEditing(null));
                }}
              >
                <Input
                  aria-label={`New name of ${b.name}`}
                  value={editing.name}
                  onChange={(e) => setEditing({ id: b.id, name: e.target.value })}
                  className="w-48"
                />
                <Button type="submit" size="sm">
                  Save
                </Button>
                <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
              </form>
            ) : (
              <>
                <span className="min-w-0 flex-1 break-words">{b.name}</span>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={`Rename ${b.name}`}
                  onClick={() => setEditing({ id: b.id, name: b.name })}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={`Delete ${b.name}`}
                  onClick={() =>
                    void run('Failed to delete the branch', () => remove.mutateAsync({ params: { id: b.id } }), 'Branch deleted')
                  }
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void onAdd(e)} className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-name`}>New branch name</Label>
          <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} className="w-56" />
        </div>
        <Button type="submit" disabled={create.isPending || !name.trim()}>
          Add branch
        </Button>
      </form>
    </section>
  );
}

type Scope = 'national' | 'branch' | 'every';

function PositionsSection() {
  const id = useId();
  const queryClient = useQueryClient();
  const { branches } = useBranches();
  const { positions } = useCandidatePositions();
  const create = api.setup.createPosition.useMutation();
  const update = api.setup.updatePosition.useMutation();
  const remove = api.setup.deletePosition.useMutation();
  const [form, setForm] = useState({ name: '', seats: '1', description: '', scope: 'national' as Scope, branch: '' });
  const [editing, setEditing] = useState<{ id: number; name: string; seats: string; description: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [addingTo, setAddingTo] = useState<number | null>(null);
  const candidates = useQuery(queries.candidates());
  const candidatesOf = (positionId: number) =>
    (candidates.data?.body.data.data.candidates ?? []).filter((c) => c.positions.some((p) => p.id === positionId)).map((c) => c.name);

  const run = async (title: string, work: () => Promise<unknown>, done: string | null) => {
    setProblem(null);
    try {
      await work();
      if (done) toast({ variant: 'success', title: done });
      return true;
    } catch (err) {
      setProblem(reasonOf(err));
      failed(title, err);
      return false;
    } finally {
      await queryClient.invalidateQueries({ queryKey: queryKeys.positions });
    }
  };

  const onAdd = async (e: FormEvent) => {
    e.preventDefault();
    const body = {
      name: form.name,
      seats: Number(form.seats) || 1,
      description: form.description.trim() || null,
      ...(form.scope === 'every'
        ? { every_branch: true }
        : form.scope === 'branch'
          ? { branch_id: Number(form.branch) }
          : { branch_id: null }),
    };
    if (await run('Failed to add the position', () => create.mutateAsync({ body }), 'Position added'))
      setForm((f) => ({ ...f, name: '', description: '', seats: '1' }));
  };

  /** Moves one position and numbers every position's sort_order by its new place. */
  const move = (index: number, by: -1 | 1) => {
    const order = [...positions];
    const [p] = order.splice(index, 1);
    order.splice(index + by, 0, p!);
    void run(
      'Failed to move the position',
      () => Promise.all(order.map((q, i) => update.mutateAsync({ params: { id: q.id }, body: { sort_order: i } }))),
      null,
    );
  };

  const label = (p: Position) => `${p.name} - ${p.level}`;

  return (
    <section aria-labelledby={`${id}-h`} className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id={`${id}-h`} className="mb-3 text-lg font-semibold">
        Positions
      </h2>
      {problem && (
        <p role="alert" className="mb-2 text-sm text-destructive">
          {problem}
        </p>
      )}
      <ol className="mb-4 grid gap-2" aria-label="Positions">
        {positions.length === 0 && <li className="text-sm text-muted-foreground">No positions yet.</li>}
        {positions.map((p, i) => (
          <li key={p.id} className="rounded-md border border-border p-2">
            {editing?.id === p.id ? (
              <form
                className="grid gap-2 sm:grid-cols-[1fr_6rem]"
                onSubmit={(e) => {
                  e.preventDefault();
                  void run(
                    'Failed to update the position',
                    () =>
                      update.mutateAsync({
                        params: { id: p.id },
                        body: { name: editing.name, seats: Number(editing.seats) || 1, description: editing.description.trim() || null },
                      }),
                    'Position updated',
                  ).then((ok) => ok && setEditing(null));
                }}
              >
                <div className="grid gap-1">
                  <Label htmlFor={`${id}-e-name`}>Name</Label>
                  <Input id={`${id}-e-name`} value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.target.value })} />
                </div>
                <div className="grid gap-1">
                  <Label htmlFor={`${id}-e-seats`}>Seats</Label>
                  <Input
                    id={`${id}-e-seats`}
                    type="number"
                    min={1}
                    max={50}
                    value={editing.seats}
                    onChange={(e) => setEditing({ ...editing, seats: e.target.value })}
                  />
                </div>
                <div className="grid gap-1 sm:col-span-2">
                  <Label htmlFor={`${id}-e-desc`}>Description</Label>
                  <Textarea
                    id={`${id}-e-desc`}
                    value={editing.description}
                    onChange={(e) => setEditing({ ...editing, description: e.target.value })}
                  />
                </div>
                <div className="flex gap-2">
                  <Button type="submit" size="sm">
                    Save
                  </Button>
                  <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(null)}>
                    Cancel
                  </Button>
                </div>
              </form>
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                <div className="min-w-0 flex-1 text-sm">
                  <p className="font-medium break-words">{label(p)}</p>
                  <p className="text-muted-foreground">
                    {p.seats} {p.seats === 1 ? 'seat' : 'seats'}
                    {p.description ? ` · ${p.description}` : ''}
                  </p>
                  <p className="text-muted-foreground break-words">
                    {candidatesOf(p.id).length === 0 ? 'No candidate yet' : `Candidates: ${candidatesOf(p.id).join(', ')}`}
                  </p>
                </div>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={`Add a candidate for ${label(p)}`}
                  onClick={() => setAddingTo(p.id)}
                >
                  <UserPlus aria-hidden="true" />
                  Candidate
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={`Move ${label(p)} up`}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                >
                  <ChevronUp aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={`Move ${label(p)} down`}
                  disabled={i === positions.length - 1}
                  onClick={() => move(i, 1)}
                >
                  <ChevronDown aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={`Edit ${label(p)}`}
                  onClick={() => setEditing({ id: p.id, name: p.name, seats: String(p.seats), description: p.description ?? '' })}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={`Delete ${label(p)}`}
                  onClick={() =>
                    void run('Failed to delete the position', () => remove.mutateAsync({ params: { id: p.id } }), 'Position deleted')
                  }
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            )}
          </li>
        ))}
      </ol>
      <form onSubmit={(e) => void onAdd(e)} className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-name`}>New position name</Label>
          <Input id={`${id}-name`} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-seats`}>Seats</Label>
          <Input
            id={`${id}-seats`}
            type="number"
            min={1}
            max={50}
            value={form.seats}
            onChange={(e) => setForm({ ...form, seats: e.target.value })}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-scope`}>Elected by</Label>
          <select
            id={`${id}-scope`}
            value={form.scope}
            onChange={(e) => setForm({ ...form, scope: e.target.value as Scope })}
            className="h-9 rounded-md border border-input bg-background px-2 text-sm"
          >
            <option value="national">All members (national)</option>
            <option value="branch">One branch</option>
            <option value="every">Every branch (one position per branch)</option>
          </select>
        </div>
        {form.scope === 'branch' && (
          <div className="grid gap-1">
            <Label htmlFor={`${id}-branch`}>Branch</Label>
            <select
              id={`${id}-branch`}
              value={form.branch}
              onChange={(e) => setForm({ ...form, branch: e.target.value })}
              className="h-9 rounded-md border border-input bg-background px-2 text-sm"
            >
              <option value="">Choose a branch</option>
              {branches.map((b) => (
                <option key={b.id} value={String(b.id)}>
                  {b.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="grid gap-1 sm:col-span-2">
          <Label htmlFor={`${id}-desc`}>Description (optional)</Label>
          <Textarea id={`${id}-desc`} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </div>
        <Button
          type="submit"
          className="w-fit"
          disabled={create.isPending || !form.name.trim() || (form.scope === 'branch' && !form.branch)}
        >
          Add position
        </Button>
      </form>
      <AddCandidateDialog open={addingTo !== null} positionId={addingTo ?? undefined} onClose={() => setAddingTo(null)} />
    </section>
  );
}
