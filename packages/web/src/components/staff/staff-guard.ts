import { redirect } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { clearSession, getToken, hasSession, setAccountType, setName } from '@/lib/session';

const VALIDATION_TTL_MS = 60_000;

export type StaffArea = 'admin' | 'agent';

/** Keyed by token so a cached answer never outlives the session that produced it. */
export const staffValidationKey = (token: string | null) => ['validate', 'staff', token] as const;

/**
 * docs/screens.md "Sign-in and session loss" admin guard, used by both staff areas: no stored token or hash → /sign-in; otherwise
 * ask GET validate/admin. A non-200 or an error clears storage and goes to /sign-in. An admin
 * belongs in /admin and an agent in /agent, so each is sent to its own area from the other one.
 */
export async function requireStaff(queryClient: QueryClient, area: StaffArea) {
  if (!hasSession()) throw redirect({ to: '/sign-in' });
  const token = getToken();
  let userType: StaffArea | null = null;
  try {
    const res = await queryClient.fetchQuery({
      queryKey: staffValidationKey(token),
      queryFn: () => api.auth.validateStaff.query(),
      staleTime: VALIDATION_TTL_MS,
    });
    if (res.status === 200 && (res.body.user_type === 'admin' || res.body.user_type === 'agent')) {
      userType = res.body.user_type;
      if (res.body.data?.name) setName(res.body.data.name);
    }
  } catch {
    userType = null;
  }
  if (!userType) {
    queryClient.removeQueries({ queryKey: ['validate', 'staff'] });
    clearSession();
    throw redirect({ to: '/sign-in' });
  }
  setAccountType(userType);
  if (userType !== area) throw redirect({ to: userType === 'admin' ? '/admin' : '/agent' });
}
