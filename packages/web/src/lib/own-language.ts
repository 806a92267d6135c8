import { MutationObserver, type QueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './queries';
import { getOwnLanguagePending, setOwnLanguagePending } from './session';

/**
 * docs/i18n.md "Which language is used": a signed-in member's choice in the switcher, from the
 * moment it is made until their record answers it. Until then this device's choice is the newer
 * one, so the session check's language (the record's, perhaps from before the choice: a page left
 * before its save was answered, or two quick choices answered out of order) does not undo it, and
 * the choice is sent again. Kept in local storage with the session (lib/session.ts), so a sign-out
 * forgets it.
 */
export const pendingOwnLanguage = getOwnLanguagePending;

/** The record now holds `code`: forgotten, unless a later choice is still on its way. */
export function ownLanguageSaved(code: string | null | undefined) {
  if (getOwnLanguagePending() === code) setOwnLanguagePending(null);
}

/** The one scope of the saves in the app's query client: they go one after another, in the order asked. */
const SCOPE = { id: 'own-language' } as const;

/** Whether a save is on its way (the session check then leaves the pending choice to it). */
export const savingOwnLanguage = (queryClient: QueryClient): boolean =>
  queryClient.isMutating({ predicate: (mutation) => mutation.options.scope?.id === SCOPE.id }) > 0;

/**
 * Saves `code` on the member's record (the switcher, and the session check sending a pending choice
 * again): pending on this device until the record answers. Each save goes after the ones before it
 * and with `keepalive`, so it finishes if this page goes. The record's answer becomes the cached
 * session check's language (never ahead of the record: the guard reads it). A refusal gives the
 * choice up, except a lost session (which clears storage itself), a rate limit or a server failure,
 * which leave it pending for the next session check; so does a request that never arrived.
 */
export async function saveOwnLanguage(queryClient: QueryClient, code: string): Promise<void> {
  setOwnLanguagePending(code);
  const save = new MutationObserver(queryClient, {
    mutationFn: (language: string) => api.members.setOwnLanguage.mutate({ body: { language }, fetchOptions: { keepalive: true } }),
    scope: SCOPE,
  });
  const res = await save.mutate(code).catch(() => null);
  if (res === null) return;
  if (res.status === 200) {
    const { language } = res.body.data;
    ownLanguageSaved(language);
    queryClient.setQueriesData<{ status: number; body: { data?: Record<string, unknown> } }>(
      { queryKey: queryKeys.validateVoter },
      (old) => (old?.status === 200 && old.body.data ? { ...old, body: { ...old.body, data: { ...old.body.data, language } } } : old),
    );
  } else if (res.status < 500 && res.status !== 429) ownLanguageSaved(code);
}
