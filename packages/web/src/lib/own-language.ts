import { api } from './api';
import { getOwnLanguagePending, setOwnLanguagePending } from './session';

/** The one scope of the saves, so TanStack Query sends them one after another, in the order chosen. */
export const OWN_LANGUAGE_SCOPE = { id: 'own-language' } as const;

/**
 * docs/i18n.md "Which language is used": a signed-in member's choice in the switcher, from the
 * moment it is made until their record answers it. Until then this device's choice is the newer
 * one, so the session check's language (the record's, perhaps from before the choice: a page left
 * before its save was answered, or two quick choices answered out of order) does not undo it, and
 * the choice is sent again. Kept in local storage with the session (lib/session.ts), so a sign-out
 * forgets it.
 */
export const pendingOwnLanguage = getOwnLanguagePending;

/** The member chose `code`: remembered until the record holds it. */
export const markOwnLanguagePending = (code: string) => setOwnLanguagePending(code);

/** The record now holds `code`: forgotten, unless a later choice is still on its way. */
export function ownLanguageSaved(code: string | null | undefined) {
  if (getOwnLanguagePending() === code) setOwnLanguagePending(null);
}

let resending: Promise<void> | null = null;

/**
 * Sends the pending choice again (at most one at a time); `keepalive` lets it finish if this page
 * goes too. A refusal other than a lost session (which clears storage itself) gives it up.
 */
export function resendOwnLanguage(code: string): Promise<void> {
  resending ??= api.members.setOwnLanguage
    .mutate({ body: { language: code }, fetchOptions: { keepalive: true } })
    .then((res) => {
      if (res.status === 200) ownLanguageSaved(res.body.data.language);
      else if (res.status < 500 && res.status !== 429) ownLanguageSaved(code);
    })
    .catch(() => undefined)
    .finally(() => {
      resending = null;
    });
  return resending;
}
