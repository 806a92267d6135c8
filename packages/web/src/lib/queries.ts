import { keepPreviousData, queryOptions, type EnsureQueryDataOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Claim, NominationStatus, ResultGroup, Statistics } from '@kura/contract';
import { api } from './api';
import { activeFilters, appliedFilters, LOG_FILTERS, MEMBER_FILTERS, VVPAT_FILTERS, type ListSearch } from './list-search';

/** Query keys shared between screens and the realtime handlers that refresh them. */
export const queryKeys = {
  election: ['election'] as const,
  electionStatus: ['election', 'status'] as const,
  positions: ['positions'] as const,
  publicResults: ['results', 'public'] as const,
  finalResults: ['results', 'final'] as const,
  /** GET elections/{id}/evidence/digest and elections/{id}/signatures, under the election's id */
  evidenceDigest: ['evidence', 'digest'] as const,
  signatures: ['evidence', 'signatures'] as const,
  commitments: ['commitments'] as const,
  organisation: ['organisation'] as const,
  /** GET elections (the list) and GET elections/{id} (one, under its id) */
  elections: ['elections'] as const,
  // voter
  validateVoter: ['validate', 'voter'] as const,
  dashboard: ['results', 'dashboard'] as const,
  ballot: ['ballot'] as const,
  myVvpat: ['vvpat', 'mine'] as const,
  items: ['items'] as const,
  // staff
  validateStaff: ['validate', 'staff'] as const,
  adminResults: ['results', 'admin'] as const,
  adminStatistics: ['statistics', 'admin'] as const,
  agentResults: ['results', 'agent'] as const,
  agentStatistics: ['statistics', 'agent'] as const,
  branches: ['branches'] as const,
  candidatePositions: ['positions', 'candidate'] as const,
  members: ['admin', 'members'] as const,
  candidates: ['admin', 'candidates'] as const,
  logs: ['admin', 'logs'] as const,
  vvpat: ['admin', 'vvpat'] as const,
  issues: ['admin', 'issues'] as const,
  reminders: ['admin', 'reminders'] as const,
  /** the voter's nominations, the admin's queue and the public list (docs/api.md "Nominations") */
  nominations: ['nominations'] as const,
  /** the member's register entry and claims, the roll and the claims queue (docs/api.md "The register") */
  register: ['register'] as const,
  agents: ['admin', 'agents'] as const,
  staff: ['admin', 'staff'] as const,
  staffStatus: ['staff', 'status'] as const,
  ussdStatus: ['admin', 'ussd', 'status'] as const,
  /** the organisation's member attributes (docs/api.md "The register") */
  memberAttributes: ['admin', 'attributes'] as const,
};

/** A successful answer of a contract route (what ts-rest's useQuery hands to the screen). */
type Ok<R> = Extract<R, { status: 200 | 201 | 202 | 204 }>;

/** Awaits a ts-rest call and throws its response when it is not 2xx, as ts-rest's useQuery does. */
async function ok<R extends { status: number }>(call: Promise<R>): Promise<Ok<R>> {
  const res = await call;
  if (res.status < 200 || res.status > 299) throw res;
  return res as Ok<R>;
}

const LIST_STALE_MS = 5 * 60_000;

/**
 * An election-scoped entry's key: the family's key (queryKeys, what a refresh invalidates) and the
 * election, `null` for the current one (the call without `?election_id`).
 */
export const electionKey = <K extends readonly unknown[]>(key: K, election?: number) => [...key, { election: election ?? null }] as const;

/** The `query` of a call of the voting and results family: `?election_id=N`, or nothing for the current election. */
export const electionQuery = (election?: number) => (election === undefined ? {} : { election_id: election });

/**
 * The one registry of the app's queries (TanStack Query `queryOptions`): each screen reads with
 * `useQuery(queries.x(...))`, each route loader warms the same entry with
 * `ensureQueryData(queries.x(...))`, and the realtime handlers write into the same keys.
 */
export const queries = {
  election: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.election, election),
      queryFn: ({ signal }) => ok(api.elections.getElection.query({ query: electionQuery(election), fetchOptions: { signal } })),
      staleTime: 60_000,
    }),
  electionStatus: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.electionStatus, election),
      queryFn: ({ signal }) => ok(api.elections.getElectionStatus.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  positions: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.positions, election),
      queryFn: ({ signal }) => ok(api.members.listPositions.query({ query: electionQuery(election), fetchOptions: { signal } })),
      staleTime: LIST_STALE_MS,
    }),
  publicResults: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.publicResults, election),
      queryFn: ({ signal }) => ok(api.elections.getResults.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  finalResults: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.finalResults, election),
      queryFn: ({ signal }) => ok(api.lifecycle.getFinalResults.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  /** The evidence pack's manifest and digest (after the close; fixed from then on). */
  evidenceDigest: (id: number) =>
    queryOptions({
      queryKey: [...queryKeys.evidenceDigest, id] as const,
      queryFn: ({ signal }) => ok(api.evidence.getEvidenceDigest.query({ params: { id }, fetchOptions: { signal } })),
      staleTime: Infinity,
    }),
  /** Who certified or disputed the result, with each statement. */
  signatures: (id: number) =>
    queryOptions({
      queryKey: [...queryKeys.signatures, id] as const,
      queryFn: ({ signal }) => ok(api.evidence.listSignatures.query({ params: { id }, fetchOptions: { signal } })),
    }),
  /** Anyone's receipt check: every answer (found, 404, a refusal) is the page's to show, not retried. */
  receipt: (vvpat: string) =>
    queryOptions({
      queryKey: ['receipt', vvpat] as const,
      queryFn: ({ signal }) => api.elections.getReceipt.query({ params: { vvpat }, fetchOptions: { signal } }),
      retry: false,
      staleTime: 0,
    }),
  commitments: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.commitments, election),
      queryFn: ({ signal }) => ok(api.elections.listCommitments.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  organisation: () =>
    queryOptions({
      queryKey: queryKeys.organisation,
      queryFn: ({ signal }) => ok(api.organisation.getOrganisation.query({ fetchOptions: { signal } })),
      staleTime: 60_000,
    }),
  /** One election by its id, an archived one too (its declaration stays reachable by its address). */
  electionById: (id: number) =>
    queryOptions({
      queryKey: [...queryKeys.elections, id] as const,
      queryFn: ({ signal }) => ok(api.organisation.getElectionById.query({ params: { id }, fetchOptions: { signal } })),
      staleTime: 60_000,
    }),
  /** Every election, newest first (archived ones for staff). */
  elections: () =>
    queryOptions({
      queryKey: [...queryKeys.elections, 'list'] as const,
      queryFn: ({ signal }) => ok(api.organisation.listElections.query({ fetchOptions: { signal } })),
      staleTime: 60_000,
    }),
  // voter
  dashboard: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.dashboard, election),
      queryFn: ({ signal }) => ok(api.elections.getDashboard.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  ballot: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.ballot, election),
      queryFn: ({ signal }) => ok(api.ballots.getBallot.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  myVvpat: () =>
    queryOptions({ queryKey: queryKeys.myVvpat, queryFn: ({ signal }) => ok(api.vvpat.getMyVvpat.query({ fetchOptions: { signal } })) }),
  items: () =>
    queryOptions({ queryKey: queryKeys.items, queryFn: ({ signal }) => ok(api.ballots.listItems.query({ fetchOptions: { signal } })) }),
  // staff
  adminResults: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.adminResults, election),
      queryFn: ({ signal }) => ok(api.elections.getResults.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  adminStatistics: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.adminStatistics, election),
      queryFn: ({ signal }) => ok(api.elections.getStatistics.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  agentResults: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.agentResults, election),
      queryFn: ({ signal }) => ok(api.elections.getAgentResults.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  agentStatistics: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.agentStatistics, election),
      queryFn: ({ signal }) => ok(api.elections.getAgentStatistics.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  branches: () =>
    queryOptions({
      queryKey: queryKeys.branches,
      queryFn: ({ signal }) => ok(api.members.listBranches.query({ fetchOptions: { signal } })),
      staleTime: LIST_STALE_MS,
    }),
  candidatePositions: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.candidatePositions, election),
      queryFn: ({ signal }) => ok(api.members.listCandidatePositions.query({ query: electionQuery(election), fetchOptions: { signal } })),
      staleTime: LIST_STALE_MS,
    }),
  candidates: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.candidates, election),
      queryFn: ({ signal }) => ok(api.candidates.listCandidates.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  /** One member per page: only the total is read (the set-up checklist). */
  memberCount: () =>
    queryOptions({
      queryKey: [...queryKeys.members, 'count'] as const,
      queryFn: ({ signal }) => ok(api.members.listMembers.query({ query: { page: 1, per_page: 1 }, fetchOptions: { signal } })),
    }),
  agents: () =>
    queryOptions({ queryKey: queryKeys.agents, queryFn: ({ signal }) => ok(api.setup.listAgents.query({ fetchOptions: { signal } })) }),
  /** The USSD channel's state and callback path (the admin's USSD page). */
  ussdStatus: () =>
    queryOptions({
      queryKey: queryKeys.ussdStatus,
      queryFn: ({ signal }) => ok(api.ussd.getUssdStatus.query({ fetchOptions: { signal } })),
    }),
  myNominations: (election?: number) =>
    queryOptions({
      queryKey: electionKey([...queryKeys.nominations, 'mine'] as const, election),
      queryFn: ({ signal }) => ok(api.nominations.listMyNominations.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  nominationQueue: (filter: { status?: NominationStatus; page?: number }, election?: number) =>
    queryOptions({
      queryKey: electionKey([...queryKeys.nominations, 'queue', filter] as const, election),
      queryFn: ({ signal }) =>
        ok(
          api.nominations.listNominations.query({
            query: { ...electionQuery(election), ...(filter.status ? { status: filter.status } : {}), page: filter.page ?? 1 },
            fetchOptions: { signal },
          }),
        ),
      placeholderData: keepPreviousData,
    }),
  publicNominations: (election: number) =>
    queryOptions({
      queryKey: [...queryKeys.nominations, 'public', election] as const,
      queryFn: ({ signal }) => ok(api.nominations.listPublicNominations.query({ params: { id: election }, fetchOptions: { signal } })),
      retry: false,
    }),
  /** GET psk/register: am I on the roll of the election (else the current one), the reasons and the inspection window. */
  myRegisterEntry: (election?: number) =>
    queryOptions({
      queryKey: electionKey([...queryKeys.register, 'mine'] as const, election),
      queryFn: ({ signal }) => ok(api.register.getMyRegisterEntry.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  /** GET psk/register/claims: the member's own claims, newest first. */
  myClaims: (election?: number) =>
    queryOptions({
      queryKey: electionKey([...queryKeys.register, 'my-claims'] as const, election),
      queryFn: ({ signal }) => ok(api.register.listMyClaims.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),
  /** GET elections/{id}/roll: the roll's size by branch, and once frozen when and its hash. */
  roll: (election: number) =>
    queryOptions({
      queryKey: [...queryKeys.register, 'roll', election] as const,
      queryFn: ({ signal }) => ok(api.register.getRoll.query({ params: { id: election }, fetchOptions: { signal } })),
    }),
  /** GET elections/{id}/roll/members: one page of the roll as it stands. */
  rollMembers: (election: number, page: number, filter: { query?: string; branch?: string } = {}) =>
    queryOptions({
      queryKey: [...queryKeys.register, 'roll-members', election, page, filter.query ?? '', filter.branch ?? ''] as const,
      queryFn: ({ signal }) =>
        ok(
          api.register.getRollMembers.query({
            params: { id: election },
            query: { page, ...(filter.query ? { query: filter.query } : {}), ...(filter.branch ? { branch: filter.branch } : {}) },
            fetchOptions: { signal },
          }),
        ),
      placeholderData: keepPreviousData,
    }),
  /** GET register/claims: the election's claims queue (of one status), oldest first. */
  claimQueue: (filter: { status?: Claim['status']; page?: number }, election?: number) =>
    queryOptions({
      queryKey: electionKey([...queryKeys.register, 'queue', filter] as const, election),
      queryFn: ({ signal }) =>
        ok(
          api.register.listClaims.query({
            query: { ...electionQuery(election), ...(filter.status ? { status: filter.status } : {}), page: filter.page ?? 1 },
            fetchOptions: { signal },
          }),
        ),
      placeholderData: keepPreviousData,
    }),
  /** The organisation's member attributes (GET organisation/attributes, admin). */
  memberAttributes: () =>
    queryOptions({
      queryKey: queryKeys.memberAttributes,
      queryFn: ({ signal }) => ok(api.register.getAttributes.query({ fetchOptions: { signal } })),
      staleTime: 60_000,
    }),
  reminders: (election?: number) =>
    queryOptions({
      queryKey: electionKey(queryKeys.reminders, election),
      queryFn: ({ signal }) => ok(api.reminders.listReminders.query({ query: electionQuery(election), fetchOptions: { signal } })),
    }),

  // The paged lists: one entry per page of a search (lib/list-search.ts); the previous page stays
  // on screen while the next one loads.
  members: (search: ListSearch<typeof MEMBER_FILTERS>) => {
    const page = search.page ?? 1;
    const applied = appliedFilters(MEMBER_FILTERS, search);
    return queryOptions({
      queryKey: [...queryKeys.members, search.filtered ? applied : null, page] as const,
      queryFn: ({ signal }) =>
        search.filtered
          ? ok(api.members.searchMembers.query({ query: { ...activeFilters(applied), page }, fetchOptions: { signal } }))
          : ok(api.members.listMembers.query({ query: { page }, fetchOptions: { signal } })),
      placeholderData: keepPreviousData,
    });
  },
  logs: (search: ListSearch<typeof LOG_FILTERS>) => {
    const page = search.page ?? 1;
    const applied = appliedFilters(LOG_FILTERS, search);
    return queryOptions({
      queryKey: [...queryKeys.logs, search.filtered ? applied : null, page] as const,
      queryFn: ({ signal }) =>
        search.filtered
          ? ok(api.logs.searchLogs.query({ query: { ...activeFilters(applied), page }, fetchOptions: { signal } }))
          : ok(api.logs.listLogs.query({ query: { page }, fetchOptions: { signal } })),
      placeholderData: keepPreviousData,
    });
  },
  /** The audit trail of one election (`?election_id`), else the current one's. */
  vvpat: (search: ListSearch<typeof VVPAT_FILTERS>, election?: number) => {
    const page = search.page ?? 1;
    const applied = appliedFilters(VVPAT_FILTERS, search);
    const ref = applied.vvpat.trim();
    const positionId = applied.position ? Number(applied.position) : undefined;
    return queryOptions({
      queryKey: [...electionKey(queryKeys.vvpat, election), search.filtered ? applied : null, page] as const,
      queryFn: ({ signal }) =>
        search.filtered
          ? ok(
              api.vvpat.searchVvpat.query({
                query: {
                  page,
                  ...(ref ? { vvpat: ref } : {}),
                  ...(positionId ? { psk_position_id: positionId } : {}),
                  ...electionQuery(election),
                },
                fetchOptions: { signal },
              }),
            )
          : ok(api.vvpat.listVvpat.query({ query: { page, ...electionQuery(election) }, fetchOptions: { signal } })),
      placeholderData: keepPreviousData,
    });
  },
  /** The signed-in admin's or agent's own name (GET validate/admin), for the display-name form. */
  ownStaff: () =>
    queryOptions({
      queryKey: [...queryKeys.validateStaff, 'own'] as const,
      queryFn: ({ signal }) => ok(api.auth.validateStaff.query({ fetchOptions: { signal } })),
    }),
  /** Every admin and agent (GET staff). */
  staff: () =>
    queryOptions({
      queryKey: queryKeys.staff,
      queryFn: ({ signal }) => ok(api.staff.listStaff.query({ fetchOptions: { signal } })),
    }),
  /** Whether the installation has an admin yet (an empty install's first screens say how to make one). */
  staffStatus: () =>
    queryOptions({
      queryKey: queryKeys.staffStatus,
      queryFn: ({ signal }) => ok(api.staff.getStaffStatus.query({ fetchOptions: { signal } })),
      staleTime: 60_000,
    }),
  issues: (search: { page?: number }) => {
    const page = search.page ?? 1;
    return queryOptions({
      queryKey: [...queryKeys.issues, page] as const,
      queryFn: ({ signal }) => ok(api.help.listIssues.query({ query: { page }, fetchOptions: { signal } })),
      placeholderData: keepPreviousData,
    });
  },
};

/**
 * A route loader's warm-up (TanStack Router's loader + ensureQueryData): on entering the page (or
 * on hovering a link to it) its data is fetched while the route resolves, so the page opens with
 * it. A search change within the page (the next page, a new search) does not hold the navigation:
 * the page keeps its rows on screen with its own busy state, as before. A failure is left to the
 * page, which shows its own message, as it does for a failure after it opened.
 */
export function preload<T, K extends QueryKey>(
  queryClient: QueryClient,
  options: EnsureQueryDataOptions<T, Error, T, K>,
  cause: 'preload' | 'enter' | 'stay',
): Promise<void> | undefined {
  const done = queryClient.ensureQueryData(options).then(
    () => undefined,
    () => undefined, // the page's query reports it
  );
  return cause === 'stay' ? undefined : done;
}

type Response<B> = { status: number; body: B; headers: Headers };

/** The results responses are `{data: {data: ResultGroup[]}}`; realtime sends the bare list. */
export type ResultsResponseLike = Response<{ data: { data: ResultGroup[] } }>;

export function withResults(prev: ResultsResponseLike | undefined, results: ResultGroup[]): ResultsResponseLike {
  return { status: 200, headers: prev?.headers ?? new Headers(), body: { data: { data: results } } };
}

/** GET statistics answers `{data: {data: Statistics}}`; the live channel sends the bare counters. */
export function withAdminStatistics(prev: Response<{ data: { data: Statistics } }> | undefined, statistics: Statistics) {
  return { status: 200 as const, headers: prev?.headers ?? new Headers(), body: { data: { data: statistics } } };
}

/** GET agent/statistics answers `{data: Statistics}`. */
export function withAgentStatistics(prev: Response<{ data: Statistics }> | undefined, statistics: Statistics) {
  return { status: 200 as const, headers: prev?.headers ?? new Headers(), body: { data: statistics } };
}
