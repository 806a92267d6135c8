import { redirect } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './queries';
import { ownLanguageSaved, pendingOwnLanguage, saveOwnLanguage, savingOwnLanguage } from './own-language';
import { loadCatalogue, setMemberLanguage } from '@/i18n';
import { clearSession, getToken, hasSession, loginRouteFor, setAccountType, setName, type AccountType } from './session';

/** A session check's answer is reused for a minute so moving between pages stays quick. */
const VALIDATION_TTL_MS = 60_000;

export type StaffArea = 'admin' | 'agent';
type Role = 'voter' | StaffArea;
type LoginRoute = ReturnType<typeof loginRouteFor>;

/** Waits before the second and third try of a session check the server could not answer. */
const CHECK_RETRY_DELAYS_MS = [400, 1200];

/** A session check the server could not answer (5xx, 429, network): the session is kept. */
export class SessionCheckUnavailable extends Error {
  constructor(readonly status: number | null) {
    super(`The session could not be checked (${status ?? 'network error'})`);
    this.name = 'SessionCheckUnavailable';
  }
}

/**
 * docs/screens.md "Sign-in and session loss", the one session check of the guarded layouts: no
 * stored token or hash → /sign-in; otherwise ask the validation endpoint of the area (cached,
 * keyed by token so a cached answer never outlives the session that produced it). A refusal (401,
 * 403) or a role the area does not take clears storage and goes to the area's own sign-in
 * (`login`: /sign-in, /admin/login or /agent/login), so staff never land on the voter's. A check
 * the server could not answer (5xx, 429, no network) is not a refusal: it is tried three times,
 * then the screen's own error state offers Retry, and the session is kept (a busy server on
 * election day must not sign everyone out). Answers the role.
 */
async function validatedRole<R extends Role>(
  queryClient: QueryClient,
  base: readonly string[],
  validate: () => Promise<{ status: number; body: unknown }>,
  accepts: readonly R[],
  login: LoginRoute,
): Promise<R> {
  if (!hasSession()) throw redirect({ to: login });
  const queryKey = [...base, getToken()];
  let role: R | null = null;
  for (let attempt = 0; ; attempt++) {
    let res: { status: number; body: unknown } | null = null;
    try {
      res = await queryClient.fetchQuery({ queryKey, queryFn: validate, staleTime: VALIDATION_TTL_MS });
    } catch {
      res = null;
    }
    const refused = res !== null && (res.status === 200 || res.status === 401 || res.status === 403);
    if (refused) {
      const body =
        res!.status === 200 ? (res!.body as { user_type?: string; data?: { name?: string; language?: string | null } | null }) : undefined;
      if (body && accepts.includes(body.user_type as R)) {
        role = body.user_type as R;
        if (body.data?.name) setName(body.data.name);
        // docs/api.md "Languages": the signed-in member's own language comes first; a choice made
        // here that the record has not answered yet is newer than it, and is sent again.
        const pending = pendingOwnLanguage();
        const recorded = body.data?.language ?? null;
        if (pending !== null && pending === recorded) ownLanguageSaved(pending);
        else if (pending !== null && !savingOwnLanguage(queryClient)) void saveOwnLanguage(queryClient, pending);
        const own = pending ?? recorded;
        // The page opens in the member's language: its catalogue is loaded first (a chunk, once).
        if (own) {
          await loadCatalogue(own).catch(() => undefined);
          setMemberLanguage(own);
        }
      }
      break;
    }
    // Not an answer about the session: never kept for reuse, tried again, then shown as an error.
    queryClient.removeQueries({ queryKey });
    const delay = CHECK_RETRY_DELAYS_MS[attempt];
    if (delay === undefined) throw new SessionCheckUnavailable(res?.status ?? null);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  if (!role) {
    queryClient.removeQueries({ queryKey: base });
    clearSession();
    throw redirect({ to: login });
  }
  return role;
}

/** Voter layout guard: a voter becomes account type `member`. */
export async function requireVoter(queryClient: QueryClient) {
  await validatedRole(queryClient, queryKeys.validateVoter, () => api.auth.validateVoter.query(), ['voter'], '/sign-in');
  setAccountType('member');
}

/**
 * Admin and agent layout guard (GET validate/admin): an admin belongs in /admin and an agent in
 * /agent, so each is sent to its own area from the other one. Without a session, or refused, the
 * person goes to that area's login (/admin/login, /agent/login).
 */
export async function requireStaff(queryClient: QueryClient, area: StaffArea) {
  const role = await validatedRole(
    queryClient,
    queryKeys.validateStaff,
    () => api.auth.validateStaff.query(),
    ['admin', 'agent'],
    loginRouteFor(area satisfies AccountType),
  );
  setAccountType(role);
  if (role !== area) throw redirect({ to: role === 'admin' ? '/admin' : '/agent' });
}
