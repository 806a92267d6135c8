import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Circle } from 'lucide-react';
import { useBranches, useCandidatePositions } from '@/hooks/use-admin-lists';
import { useElection } from '@/lib/election';
import { queries } from '@/lib/queries';

/** How agents come to exist: the operator creates them, there is no screen for it. */
export const ADD_AGENT_TEXT =
  'Ask the operator to add an agent (observer): AGENT_EMAILS at start, or the agent:create command (pnpm cli agent:create <email>). Agents sign in at /agent/login with an emailed code.';

type CheckItem = { label: string; done: boolean; detail: string };

/** What is set up and what is left (docs/screens.md, Set-up). */
export function SetupChecklist() {
  const { election } = useElection();
  const { branches } = useBranches();
  const { positions } = useCandidatePositions();
  const candidates = useQuery(queries.candidates());
  const members = useQuery(queries.memberCount());
  const agents = useQuery(queries.agents());
  const agentCount = agents.data?.body.data.length ?? 0;
  const list = candidates.data?.body.data.data.candidates ?? [];
  const withCandidate = new Set(list.flatMap((c) => c.positions.map((p) => p.id)));
  // A motion's options are Yes, No and Abstain: it takes no candidates.
  const empty = positions.filter((p) => p.kind !== 'motion' && !withCandidate.has(p.id));
  const onlyMotions = positions.length > 0 && positions.every((p) => p.kind === 'motion');
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
          : onlyMotions
            ? 'Motions need no candidates.'
            : empty.length === 0
              ? positions.some((p) => p.kind === 'motion')
                ? 'Every position has a candidate (motions need none).'
                : 'Every position has a candidate.'
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
