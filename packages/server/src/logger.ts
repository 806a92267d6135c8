import pino, { type Logger } from 'pino';
import type { Env } from './env';

/**
 * Paths pino must never print. Request bodies are not logged at all; these cover headers and
 * anything a handler might attach to a log line by mistake.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.pass',
  '*.pin',
  '*.token',
  '*.code',
  '*.otp',
  '*.bearer_token',
  '*.oauth_id_token',
  '*.credential',
  '*.secret',
  '*.candidates',
];

/** A failed query's parameters as Drizzle words them in its message ("Failed query: …\nparams: …"). */
const PARAMS_IN_MESSAGE = /\nparams: [\s\S]*$/;
/** The properties of a database error a log line keeps: which statement and why, never the values. */
const KEPT = ['severity', 'routine', 'schema_name', 'table_name', 'column_name', 'constraint_name', 'query'] as const;

/**
 * An error as a log line may show it, along its cause chain: a failed query's SQL text and its
 * SQLSTATE, but never its parameters (Drizzle puts them in the message and in `params`, postgres.js
 * in `parameters`) nor Postgres's `detail` ("Key (email)=(…) already exists"): a member's phone or
 * e-mail, or a one-time code's hash, must not reach the log through an unexpected failure.
 */
export function scrubError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 8) return error;
  const message = error.message.replace(PARAMS_IN_MESSAGE, '\nparams: [redacted]');
  const scrubbed = new Error(message);
  scrubbed.name = error.name;
  const frames = error.stack?.indexOf('\n    at ') ?? -1;
  scrubbed.stack = `${error.name}: ${message}${frames >= 0 ? error.stack!.slice(frames) : ''}`;
  const source = error as unknown as Record<string, unknown>;
  const target = scrubbed as unknown as Record<string, unknown>;
  for (const key of KEPT) if (typeof source[key] === 'string') target[key] = source[key];
  // The SQLSTATE as `sqlstate` (`*.code` is redacted: one-time codes); pino prints a cause's
  // message and stack but not its fields, so a cause's comes up to the top.
  if (typeof source.code === 'string') target.sqlstate = source.code;
  if (error.cause !== undefined) {
    scrubbed.cause = scrubError(error.cause, depth + 1);
    const inner = (scrubbed.cause as { sqlstate?: unknown } | undefined)?.sqlstate;
    if (target.sqlstate === undefined && typeof inner === 'string') target.sqlstate = inner;
  }
  return scrubbed;
}

/** pino's error serializer on the scrubbed error (the logger's and the request logger's `err`). */
export const errSerializer = (error: unknown) => pino.stdSerializers.err(scrubError(error) as Error);

export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level: env.LOG_LEVEL,
      serializers: { err: errSerializer },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
