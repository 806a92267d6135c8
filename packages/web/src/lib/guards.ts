import { redirect } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './queries';
import { setMemberLanguage } from '@/i18n';
import { clearSession, getToken, hasSession, loginRouteFor, setAccountType, setName, type AccountType } from './session';

/** A session check's answer is reused for a minute so moving between pages stays quick. */
const VALIDATION_TTL_MS = 60_000;

export type StaffArea = 'admin' | 'agent';
type Role = 'voter' | StaffArea;
type LoginRoute = ReturnType<typeof loginRouteFor>;

/**
 * docs/screens.md "Sign-in and session loss", the one session check of the guarded layouts: no
 * stored token or hash → /sign-in; otherwise ask the validation endpoint of the area (cached,
 * keyed by token so a cached answer never outlives the session that produced it). A non-200, an
 * error or a role the area does not take clears storage and goes to the area's own sign-in
 * (`login`: /sign-in, /admin/login or /agent/login), so staff never land on the voter's. Answers the role.
 */
async function validatedRole<R extends Role>(
  queryClient: QueryClient,
  base: readonly string[],
  validate: () => Promise<{ status: number; body: unknown }>,
  accepts: readonly R[],
  login: LoginRoute,
): Promise<R> {
  if (!hasSession()) throw redirect({ to: login });
  let role: R | null = null;
  try {
    const res = await queryClient.fetchQuery({ queryKey: [...base, getToken()], queryFn: validate, staleTime: VALIDATION_TTL_MS });
    const body =
      res.status === 200 ? (res.body as { user_type?: string; data?: { name?: string; language?: string | null } | null }) : undefined;
    if (body && accepts.includes(body.user_type as R)) {
      role = body.user_type as R;
      if (body.data?.name) setName(body.data.name);
      // docs/api.md "Languages": the signed-in member's own language comes first.
      if (body.data?.language) setMemberLanguage(body.data.language);
    }
  } catch {
    role = null;
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
