import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Circle } from 'lucide-react';
import { useBranches, useCandidatePositions } from '@/hooks/use-admin-lists';
import { useElection } from '@/lib/election';
import { queries } from '@/lib/queries';
import { useT } from '@/i18n';
import { useElectionParam } from '@/lib/election-search';

/** How agents come to exist: the operator creates them, there is no screen for it (the English of `admin.setup.addAgent`). */
export const ADD_AGENT_TEXT =
  'Ask the operator to add an agent (observer): AGENT_EMAILS at start, or the agent:create command (pnpm cli agent:create <email>). Agents sign in at /agent/login with an emailed code.';

type CheckItem = { label: string; done: boolean; detail: string };

/** What is set up and what is left (docs/screens.md, Set-up). */
export function SetupChecklist() {
  const { t } = useT();
  const chosen = useElectionParam();
  const { election } = useElection(chosen);
  const { branches } = useBranches();
  const { positions } = useCandidatePositions(chosen);
  const candidates = useQuery(queries.candidates(chosen));
  const members = useQuery(queries.memberCount());
  const agents = useQuery(queries.agents());
  const agentCount = agents.data?.body.data.length ?? 0;
  const list = candidates.data?.body.data.data.candidates ?? [];
  const withCandidate = new Set(list.flatMap((c) => c.positions.map((p) => p.id)));
  // A motion's options are Yes, No and Abstain: it takes no candidates.
  const empty = positions.filter((p) => p.kind !== 'motion' && !withCandidate.has(p.id));
  const onlyMotions = positions.length > 0 && positions.every((p) => p.kind === 'motion');
  const memberTotal = members.data?.body.total ?? 0;
  // The roll's size is on GET elections/{id} (the frozen roll's once voting first opened).
  const electionId = chosen ?? election?.id;
  const byId = useQuery({ ...queries.electionById(electionId ?? 0), enabled: electionId !== undefined });
  const rolled = byId.data?.body.data;
  const rollSize = rolled?.roll_size;
  const textsDone = Boolean(election?.title && election.organisation);
  const scheduled = Boolean(election?.opens_at && election.closes_at);
  const runBySwitch = election?.phase === 'open' || election?.phase === 'paused' || election?.phase === 'closed';

  // An election without an id (a server of the single-election shape) has no roll to show.
  const roll: CheckItem[] =
    electionId === undefined
      ? []
      : [
          {
            label: t('admin.setup.roll'),
            done: (rollSize ?? 0) > 0,
            detail:
              rollSize === undefined
                ? byId.isError
                  ? t('admin.setup.rollUnknown')
                  : t('common.loading')
                : rolled?.roll_frozen_at
                  ? t('admin.setup.rollFrozen', { number: String(rollSize), count: rollSize })
                  : rollSize > 0
                    ? t('admin.setup.rollSize', { number: String(rollSize), count: rollSize })
                    : t('admin.setup.rollEmpty'),
          },
        ];

  const items: CheckItem[] = [
    {
      label: t('admin.setup.texts'),
      done: textsDone,
      detail: textsDone
        ? t('admin.setup.textsDone', { organisation: election!.organisation, title: election!.title })
        : t('admin.setup.textsTodo'),
    },
    {
      label: t('admin.setup.branches'),
      done: branches.length > 0,
      detail:
        branches.length > 0
          ? t('admin.setup.branchCount', { number: String(branches.length), count: branches.length })
          : t('admin.setup.branchesTodo'),
    },
    {
      label: t('admin.setup.positions'),
      done: positions.length > 0,
      detail:
        positions.length > 0
          ? t('admin.setup.positionCount', { number: String(positions.length), count: positions.length })
          : t('admin.setup.positionsTodo'),
    },
    {
      label: t('admin.setup.candidates'),
      done: positions.length > 0 && empty.length === 0,
      detail:
        positions.length === 0
          ? t('admin.setup.positionsFirst')
          : onlyMotions
            ? t('admin.setup.motionsOnly')
            : empty.length === 0
              ? positions.some((p) => p.kind === 'motion')
                ? t('admin.setup.allHaveMotions')
                : t('admin.setup.allHave')
              : t('admin.setup.noCandidateFor', { positions: empty.map((p) => `${p.name} - ${p.level}`).join(', ') }),
    },
    {
      label: t('admin.setup.members'),
      done: memberTotal > 0,
      detail: memberTotal > 0 ? t('admin.setup.memberCount', { number: String(memberTotal) }) : t('admin.setup.membersTodo'),
    },
    ...roll,
    {
      label: t('admin.setup.agents'),
      done: agentCount > 0,
      detail:
        agentCount > 0
          ? t('admin.setup.agentCount', { number: String(agentCount), count: agentCount })
          : t('admin.setup.addAgent', { email: `<${t('admin.setup.addAgentEmail')}>` }),
    },
    {
      label: t('admin.setup.schedule'),
      // Voting run with the switch alone needs no schedule: once it has been opened, this is settled.
      done: scheduled || runBySwitch,
      detail: scheduled ? t('admin.setup.scheduled') : runBySwitch ? t('admin.setup.bySwitch') : t('admin.setup.scheduleTodo'),
    },
  ];

  return (
    <section aria-labelledby="setup-checklist" className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id="setup-checklist" className="mb-3 text-lg font-semibold">
        {t('admin.setup.checklist')}
      </h2>
      <ul className="grid gap-2" aria-label={t('admin.setup.checklist')}>
        {items.map((i) => (
          <li key={i.label} className="flex items-start gap-2 text-sm">
            {i.done ? (
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
            ) : (
              <Circle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
            )}
            <span>
              <strong>{i.label}</strong>
              <span className="sr-only">{i.done ? t('admin.setup.done') : t('admin.setup.todo')}</span>:{' '}
              <span className="break-words">{i.detail}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
