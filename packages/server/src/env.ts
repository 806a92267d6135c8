import { z } from 'zod';

/**
 * The one place that reads process.env. Every variable of docs/operations.md's "Configuration" table plus a few
 * product texts. A bad value stops the start with one line per variable.
 */

const bool01 = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const optionalUrl = z.string().trim().url().optional();
const positiveInt = (def: number) => z.coerce.number().int().positive().default(def);

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    // The parts of DATABASE_URL, for deployments that keep the password apart (docker-compose.yml):
    // DATABASE_URL is composed from them, percent-encoded, when it is unset (see composeDatabaseUrl).
    DATABASE_HOST: z.string().trim().optional(),
    DATABASE_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    DATABASE_USER: z.string().optional(),
    DATABASE_PASSWORD: z.string().optional(),
    DATABASE_NAME: z.string().optional(),
    // Small on purpose: a vote is one statement, so busy connections pipeline further queries, and
    // fewer connections mean fewer socket writes per query (BENCHMARKS.md: 8 beat 20 by a quarter).
    DATABASE_POOL_MAX: positiveInt(8),
    DATA_DIR: z.string().default('./data'),
    SEED_DEMO: bool01.optional(),
    ADMIN_EMAIL: z.string().trim().toLowerCase().email().optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    AGENT_EMAILS: z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .split(',')
              .map((e) => e.trim().toLowerCase())
              .filter(Boolean)
          : [],
      )
      .pipe(z.array(z.string().email('must be a comma-separated list of emails'))),
    SMTP_URL: z
      .string()
      .trim()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().default('Kura Elections <no-reply@localhost>'),
    SMS_PROVIDER: z.enum(['console', 'webhook', 'africastalking']).default('console'),
    SMS_WEBHOOK_URL: optionalUrl,
    AFRICASTALKING_USERNAME: z.string().optional(),
    AFRICASTALKING_API_KEY: z.string().optional(),
    AFRICASTALKING_SENDER_ID: z.string().optional(),
    AFRICASTALKING_URL: z.string().url().default('https://api.africastalking.com/version1/messaging'),
    GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
    /** The secret path segment of the USSD callback (`POST /api/v1/ussd/{token}`); unset turns the channel off. */
    USSD_CALLBACK_TOKEN: z.string().trim().min(32, 'must be at least 32 characters').optional(),
    BALLOT_KEY: z
      .string()
      .trim()
      .regex(/^[0-9a-fA-F]{64}$|^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes as 64 hex characters or base64')
      .optional(),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    REDIS_URL: z
      .string()
      .trim()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    VOTER_SESSION_IDLE_MINUTES: positiveInt(120),
    STAFF_SESSION_IDLE_MINUTES: positiveInt(480),
    RATE_LIMIT_IP_SENDS_PER_HOUR: positiveInt(1000),
    RATE_LIMIT_IP_TRIES_PER_HOUR: positiveInt(1000),
    RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: positiveInt(100),
    RATE_LIMIT_DETAILS_PER_HOUR: positiveInt(1000),
    /** Public receipt checks (`GET psk/receipt/{vvpat}`) per address per hour. */
    RATE_LIMIT_RECEIPT_CHECKS_PER_HOUR: positiveInt(1000),
    COMMITMENT_INTERVAL_SECONDS: positiveInt(300),
    /** Minimum number of queued ballots the mixer publishes at once (the anonymity set). */
    MIX_MIN_BATCH: positiveInt(20),
    MIX_INTERVAL_MS: positiveInt(2000),
    /** Reminder messages sent per second, across all server processes (fractions allowed: 0.5 is one every 2 s). */
    REMINDER_RATE_PER_SECOND: z.coerce.number().positive().max(1000).default(5),
    /** The product's name in sign-in messages and the authenticator app. */
    APP_NAME: z.string().default('Kura'),
    // First-start defaults only: an empty organisation text in the database takes these once;
    // after that the back office's Set-up page owns them (modules/elections).
    ORG_NAME: z.string().trim().max(200).optional(),
    ORG_WEBSITE: z.string().trim().url().optional(),
    SUPPORT_EMAIL: z.string().trim().toLowerCase().email().optional(),
    ELECTION_TITLE: z.string().trim().max(200).optional(),
    DEFAULT_PIN: z
      .string()
      .regex(/^\d{4,8}$/, 'must be 4 to 8 digits')
      .default('1234'),
    WEB_DIST_DIR: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    const need = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
    for (const key of ['SESSION_SECRET', 'BALLOT_KEY'] as const) {
      const weak = env[key] ? weakSecret(key === 'BALLOT_KEY' ? keyBytes(env[key]) : env[key]) : undefined;
      if (weak) need(key, `${weak}; generate one with: openssl rand -hex 32`);
    }
    if (env.SMS_PROVIDER === 'webhook' && !env.SMS_WEBHOOK_URL) need('SMS_WEBHOOK_URL', 'is required when SMS_PROVIDER=webhook');
    if (env.SMS_PROVIDER === 'africastalking') {
      if (!env.AFRICASTALKING_USERNAME) need('AFRICASTALKING_USERNAME', 'is required when SMS_PROVIDER=africastalking');
      if (!env.AFRICASTALKING_API_KEY) need('AFRICASTALKING_API_KEY', 'is required when SMS_PROVIDER=africastalking');
    }
    if ((env.ADMIN_EMAIL && !env.ADMIN_PASSWORD) || (!env.ADMIN_EMAIL && env.ADMIN_PASSWORD)) {
      need(env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL', 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
    }
    if (env.NODE_ENV === 'production') {
      if (!env.SMTP_URL) need('SMTP_URL', 'is required in production (codes cannot be written to the log)');
      if (env.SMS_PROVIDER === 'console') need('SMS_PROVIDER', 'must be a real provider in production, not console');
      if (!env.BALLOT_KEY) need('BALLOT_KEY', 'is required in production');
      if (!env.SESSION_SECRET) need('SESSION_SECRET', 'is required in production');
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** BALLOT_KEY as the 32 bytes it encodes (hex or base64), as text of byte values, for `weakSecret`. */
function keyBytes(value: string): string {
  const bytes = /^[0-9a-fA-F]{64}$/.test(value.trim()) ? Buffer.from(value.trim(), 'hex') : Buffer.from(value.trim(), 'base64');
  return String.fromCharCode(...bytes);
}

/**
 * Why a secret is too predictable to start with, or undefined. Not a proof of randomness (nothing
 * is), but it refuses what people type instead of generating: one character repeated, a short
 * pattern repeated, or too few different characters (`openssl rand -hex 32` passes with room).
 */
export function weakSecret(value: string): string | undefined {
  const chars = [...value];
  const distinct = new Set(chars).size;
  if (distinct < 8) return `is too predictable (only ${distinct} different characters)`;
  for (let period = 1; period <= chars.length / 2; period++) {
    if (chars.every((c, i) => c === chars[i % period])) return 'is too predictable (a repeated pattern)';
  }
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  const bits = -[...counts.values()].reduce((sum, n) => sum + (n / chars.length) * Math.log2(n / chars.length), 0) * chars.length;
  if (bits < 96) return `is too predictable (about ${Math.floor(bits)} bits of variety, at least 96 needed)`;
  return undefined;
}

export class EnvError extends Error {
  constructor(readonly lines: string[]) {
    super(`Invalid configuration:\n${lines.join('\n')}`);
  }
}

/**
 * DATABASE_URL from DATABASE_HOST/PORT/USER/PASSWORD/NAME, each part percent-encoded, so a password
 * with `/ @ # + % :` works (pasted raw into a URL it breaks the parse). An explicit DATABASE_URL wins.
 */
export function composeDatabaseUrl(env: Record<string, string>): string | undefined {
  if (env.DATABASE_URL || !env.DATABASE_HOST) return env.DATABASE_URL;
  const enc = encodeURIComponent;
  const user = env.DATABASE_USER ? enc(env.DATABASE_USER) + (env.DATABASE_PASSWORD ? `:${enc(env.DATABASE_PASSWORD)}` : '') + '@' : '';
  const host = env.DATABASE_HOST.includes(':') ? `[${env.DATABASE_HOST}]` : env.DATABASE_HOST;
  return `postgres://${user}${host}:${env.DATABASE_PORT ?? '5432'}/${enc(env.DATABASE_NAME ?? 'postgres')}`;
}

/** Parse a raw environment; throws EnvError with one line per bad variable. */
export function parseEnv(raw: Record<string, string | undefined>): Env {
  // An empty string means "unset", as in most .env tooling.
  const cleaned: Record<string, string> = Object.fromEntries(
    Object.entries(raw).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
  );
  const databaseUrl = composeDatabaseUrl(cleaned);
  if (databaseUrl) cleaned.DATABASE_URL = databaseUrl;
  const result = EnvSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => {
    const key = i.path[0] ?? 'environment';
    return `${String(key)}: ${i.message}`;
  });
  throw new EnvError([...new Set(lines)]);
}

let cached: Env | undefined;
/** The process environment, parsed once. */
export function loadEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * The environment of a process entry point (main.ts, cli.ts): parsed, or the reason printed and
 * the process ended with status 1. Other errors are thrown as they are.
 */
export function loadEnvOrExit(): Env {
  try {
    return loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
