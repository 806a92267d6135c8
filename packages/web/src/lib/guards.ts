import { redirect } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './queries';
import { clearSession, hasSession, setAccountType, setName } from './session';

const VALIDATION_TTL_MS = 60_000;

/**
 * docs/screens.md "Sign-in and session loss" voter guard: no stored token or hash → /sign-in; otherwise ask the validation
 * endpoint. A non-200 or an error clears storage and goes to /sign-in; a voter becomes account
 * type `member`. The answer is cached for a minute so moving between voter pages stays quick.
 */
export async function requireVoter(queryClient: QueryClient) {
  if (!hasSession()) throw redirect({ to: '/sign-in' });
  let ok = false;
  try {
    const res = await queryClient.fetchQuery({
      queryKey: queryKeys.validateVoter,
      queryFn: () => api.auth.validateVoter.query(),
      staleTime: VALIDATION_TTL_MS,
    });
    if (res.status === 200 && res.body.user_type === 'voter') {
      setAccountType('member');
      if (res.body.data?.name) setName(res.body.data.name);
      ok = true;
    }
  } catch {
    ok = false;
  }
  if (!ok) {
    queryClient.removeQueries({ queryKey: queryKeys.validateVoter });
    clearSession();
    throw redirect({ to: '/sign-in' });
  }
}
