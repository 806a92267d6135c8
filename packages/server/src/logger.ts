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

export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level: env.LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
