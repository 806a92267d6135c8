import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { MemoryStore, rateLimit } from 'express-rate-limit';
import type { Core } from '../core';
import { AppError } from '../errors';
import type { MessageId } from '../i18n';
import { sha256 } from '../lib/crypto';

const HOUR_MS = 60 * 60_000;

export const TOO_MANY_FROM_ADDRESS = 'Too many attempts from this network, please try again later';

/**
 * A per-IP hourly ceiling, answering 429 in the error envelope with Retry-After (the seconds until
 * the address's window resets). Many members share one address (office networks, carrier NAT), so
 * every ceiling is generous; the per-code, per-identifier and per-account limits are what stop
 * guessing. Counters live in this process's memory and are not shared, not even with REDIS_URL
 * set: with N server processes behind the proxy an address gets up to N times the ceiling in an
 * hour (each process counts only the requests it served), and a restart starts every count again.
 * The per-code, per-identifier and per-account limits are in the database and hold across
 * processes (docs/operations.md, "Rate limits with several processes").
 */
export type IpLimitOptions = {
  /** Requests per address per hour. */
  limit: number;
  /** The 429's message, by catalogue id. */
  message: MessageId;
  /** Count only failed requests (checks of a secret), not every request. */
  onlyFailures?: boolean;
  /** Send the draft-7 RateLimit headers on every answer (the public lookups do; the auth calls do not). */
  headers?: boolean;
  /** Where the count is kept on the request; two limiters on one route need two names. */
  property?: string;
};

export function createIpLimit(ctx: Core, options: IpLimitOptions): RequestHandler {
  const store = new MemoryStore();
  ctx.onClose(() => store.shutdown());
  const property = options.property ?? 'rateLimit';
  return rateLimit({
    windowMs: HOUR_MS,
    limit: options.limit,
    store,
    standardHeaders: options.headers ? 'draft-7' : false,
    legacyHeaders: false,
    requestPropertyName: property,
    skipSuccessfulRequests: options.onlyFailures ?? false,
    handler: (req: Request, _res: Response, next: NextFunction) => {
      const info = (req as Request & Record<string, { resetTime?: Date } | undefined>)[property];
      const resetMs = info?.resetTime ? info.resetTime.getTime() - Date.now() : HOUR_MS;
      next(AppError.say('TOO_MANY_REQUESTS', options.message, undefined, { retryAfter: Math.max(1, Math.ceil(resetMs / 1000)) }));
    },
  });
}

export type IpLimiters = {
  /** Requests that send a code (SMS or email). */
  sends: RequestHandler;
  /** Requests that check a secret (code, password, pin, authenticator token, Google credential); only failures count. */
  tries: RequestHandler;
};

/** The auth calls' ceilings on sends and tries (RATE_LIMIT_IP_*). */
export function createIpLimiters(ctx: Core): IpLimiters {
  return {
    sends: createIpLimit(ctx, { limit: ctx.env.RATE_LIMIT_IP_SENDS_PER_HOUR, message: 'limits.network', property: 'rateLimitSends' }),
    tries: createIpLimit(ctx, {
      limit: ctx.env.RATE_LIMIT_IP_TRIES_PER_HOUR,
      message: 'limits.network',
      property: 'rateLimitTries',
      onlyFailures: true,
    }),
  };
}

/**
 * "One send per identifier per minute" for identifiers that match no account (agent login
 * answers the same whether or not the email is an agent's, so it must also throttle the same).
 * Known accounts are throttled by their stored codes; this keeps a small in-memory map.
 */
export function createDecoyThrottle(ctx: Core, intervalMs: number) {
  const lastSend = new Map<string, number>();
  return {
    /** Seconds to wait, or 0 when a send may go now (and is recorded). */
    hit(identifier: string): number {
      const now = ctx.now().getTime();
      if (lastSend.size > 10_000) {
        for (const [key, at] of lastSend) if (now - at >= intervalMs) lastSend.delete(key);
      }
      const key = sha256(identifier.toLowerCase());
      const at = lastSend.get(key);
      if (at !== undefined && now - at < intervalMs) return Math.max(1, Math.ceil((intervalMs - (now - at)) / 1000));
      lastSend.set(key, now);
      return 0;
    },
  };
}
