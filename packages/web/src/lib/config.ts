/**
 * Runtime configuration of the deployment (not of the election: the organisation's texts come from
 * GET election, see lib/election.ts). The server replaces `<!--kura-config-->` in index.html with
 * `<meta name="kura-config" content="{json}">`; in dev (Vite alone) the tag is absent and the
 * defaults below apply.
 */
export type KuraConfig = {
  appName: string;
  defaultPin: string;
  googleClientId: string | null;
};

export const DEFAULT_CONFIG: KuraConfig = {
  appName: 'Kura',
  defaultPin: '1234',
  googleClientId: null,
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
    defaultPin: str(parsed.defaultPin, d.defaultPin),
    googleClientId: typeof parsed.googleClientId === 'string' && parsed.googleClientId.trim() !== '' ? parsed.googleClientId : null,
  };
}

export const config: KuraConfig = readConfig();
