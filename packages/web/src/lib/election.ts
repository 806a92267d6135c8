import type { Election } from '@kura/contract';
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { setOrganisationDefault } from '@/i18n';
import { queries } from './queries';
import { formatInZone } from './zoned-time';

/** The organisation's texts as the pages show them; empty until the admin enters them. */
export type ElectionTexts = {
  title: string;
  organisation: string;
  website: string | null;
  supportEmail: string | null;
  opensAt: string | null;
  /** The organisation's IANA time zone (UTC until the admin sets one). */
  timeZone: string;
};

export function electionTexts(e: Election | undefined): ElectionTexts {
  return {
    title: e?.title ?? '',
    organisation: e?.organisation ?? '',
    website: e?.website ?? null,
    supportEmail: e?.support_email ?? null,
    opensAt: e?.opens_at ?? null,
    timeZone: e?.time_zone ?? 'UTC',
  };
}

/** GET election: the organisation's texts, schedule and phase (anyone may read it); of one election, else the current one. */
export function useElection(electionId?: number) {
  const query = useQuery(queries.election(electionId));
  const election = query.data?.status === 200 ? query.data.body.data : undefined;
  // docs/api.md "Languages": the organisation's default language, once the server sends it, fills in
  // when neither the member, this device nor the browser chose one.
  const defaultLanguage = (election as { default_language?: string } | undefined)?.default_language;
  useEffect(() => setOrganisationDefault(defaultLanguage), [defaultLanguage]);
  return { election, texts: electionTexts(election), query };
}

/** "3 May 2026, 08:00 EAT": the reader's language, the organisation's clock and zone. */
export function formatDateTime(iso: string, timeZone: string): string {
  return formatInZone(iso, timeZone);
}
