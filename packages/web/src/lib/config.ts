/**
 * Runtime configuration. The server replaces `<!--kura-config-->` in index.html with
 * `<meta name="kura-config" content="{json}">`; in dev (Vite alone) the tag is absent and the
 * defaults below apply.
 */
export type KuraConfig = {
  appName: string;
  orgName: string;
  orgWebsite: string;
  supportEmail: string;
  defaultPin: string;
  googleClientId: string | null;
  electionTitle: string;
  electionStart: string;
};

export const DEFAULT_CONFIG: KuraConfig = {
  appName: 'Kura',
  orgName: 'Pharmaceutical Society of Kenya',
  orgWebsite: 'https://psk.or.ke',
  supportEmail: 'info@psk.or.ke',
  defaultPin: '1234',
  googleClientId: null,
  electionTitle: 'PSK Elections 2025',
  electionStart: '03/10/2025',
};

const str = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() !== '' ? v : fallback);

export function readConfig(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): KuraConfig {
  const raw = doc?.querySelector('meta[name="kura-config"]')?.getAttribute('content');
  if (!raw) return DEFAULT_CONFIG;
  let parsed: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return DEFAULT_CONFIG;
    parsed = value as Record<string, unknown>;
  } catch {
    return DEFAULT_CONFIG;
  }
  const d = DEFAULT_CONFIG;
  return {
    appName: str(parsed.appName, d.appName),
    orgName: str(parsed.orgName, d.orgName),
    orgWebsite: str(parsed.orgWebsite, d.orgWebsite),
    supportEmail: str(parsed.supportEmail, d.supportEmail),
    defaultPin: str(parsed.defaultPin, d.defaultPin),
    googleClientId: typeof parsed.googleClientId === 'string' && parsed.googleClientId.trim() !== '' ? parsed.googleClientId : null,
    electionTitle: str(parsed.electionTitle, d.electionTitle),
    electionStart: str(parsed.electionStart, d.electionStart),
  };
}

export const config: KuraConfig = readConfig();
