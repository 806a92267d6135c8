import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { MemoryStore, rateLimit, type Options } from 'express-rate-limit';
import type { Core } from '../core';
import { AppError } from '../errors';
import { sha256 } from '../lib/crypto';

const HOUR_MS = 60 * 60_000;

export const TOO_MANY_FROM_ADDRESS = 'Too many attempts from this network, please try again later';

export type IpLimiters = {
  /** Requests that send a code (SMS or email). */
  sends: RequestHandler;
  /** Requests that check a secret (code, password, pin, authenticator token, Google credential); only failures count. */
  tries: RequestHandler;
};

/**
 * Per-IP ceilings on sends and tries (RATE_LIMIT_IP_*). Many members share one address (office
 * networks, carrier NAT), so these are generous; the per-code, per-identifier and per-account
 * limits are what stop guessing. Counters live in this process's memory: with several server
 * processes each enforces its own share, which only ever makes the ceiling stricter per process.
 */
export function createIpLimiters(ctx: Core): IpLimiters {
  const make = (limit: number, property: string, countOnlyFailures: boolean) => {
    const store = new MemoryStore();
    ctx.onClose(() => store.shutdown());
    return rateLimit({
      windowMs: HOUR_MS,
      limit,
      store,
      standardHeaders: false,
      legacyHeaders: false,
      requestPropertyName: property,
      skipSuccessfulRequests: countOnlyFailures,
      handler: (req: Request, _res: Response, next: NextFunction, options: Options) => {
        const info = (req as Request & Record<string, { resetTime?: Date } | undefined>)[options.requestPropertyName];
        const resetMs = info?.resetTime ? info.resetTime.getTime() - Date.now() : HOUR_MS;
        next(new AppError('TOO_MANY_REQUESTS', TOO_MANY_FROM_ADDRESS, { retryAfter: Math.max(1, Math.ceil(resetMs / 1000)) }));
      },
    });
  };
  return {
    sends: make(ctx.env.RATE_LIMIT_IP_SENDS_PER_HOUR, 'rateLimitSends', false),
    tries: make(ctx.env.RATE_LIMIT_IP_TRIES_PER_HOUR, 'rateLimitTries', true),
  };
}

/**
 * A per-IP hourly ceiling on a public lookup (member details, receipt checks): generous, since
 * members share office and carrier NAT addresses; it stops harvesting and floods, and answers 429
 * with Retry-After in the error envelope.
 */
export function createLookupLimit(ctx: Core, limit: number, message: string): RequestHandler {
  const store = new MemoryStore();
  ctx.onClose(() => store.shutdown());
  return rateLimit({
    windowMs: HOUR_MS,
    limit,
    store,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (req: Request, _res: Response, next: NextFunction) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const retryAfter = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : HOUR_MS / 1000;
      next(new AppError('TOO_MANY_REQUESTS', message, { retryAfter }));
    },
  });
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
