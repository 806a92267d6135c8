import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { StoredSession, UssdSessionStore } from './session-store';

/**
 * The session store on Redis (REDIS_URL set): one hash per session (`v` version, `d` the state as
 * JSON, `h` held until, `t` last answer; times in ms since the epoch), each step one Lua script so
 * that "nobody holds it" (or "still at this version") is checked and acted on at once, as the
 * database store's conditional UPDATE does. Redis forgets a session by itself `ttlMs` after its
 * last write, so `purge` has nothing to do.
 */
const TAKE = `
local row = redis.call('HMGET', KEYS[1], 'v', 'd', 'h', 't')
if not row[1] or not row[2] then return false end
local h = tonumber(row[3] or '0')
if h > 0 and h >= tonumber(ARGV[1]) then return false end
local next = tonumber(row[1]) + 1
redis.call('HSET', KEYS[1], 'v', next, 'h', ARGV[2])
return {next, row[2], row[4]}`;

const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
redis.call('HSET', KEYS[1], 'v', 1, 'd', ARGV[1], 'h', 0, 't', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

const WRITE = `
local v = redis.call('HGET', KEYS[1], 'v')
if not v or tonumber(v) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', tonumber(v) + 1, 'd', ARGV[2], 'h', 0, 't', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

const RELEASE = `
local v = redis.call('HGET', KEYS[1], 'v')
if not v or tonumber(v) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'h', 0)
return 1`;

export class RedisSessionStore<D> implements UssdSessionStore<D> {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly ttlMs: number,
    logger?: Pick<Logger, 'warn'>,
    private readonly prefix = 'kura:ussd:',
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 3 });
    this.redis.on('error', (err) => logger?.warn({ err }, 'USSD session store (Redis) error'));
  }

  private key(sessionId: string) {
    return `${this.prefix}${sessionId}`;
  }

  async read(sessionId: string): Promise<StoredSession<D> | undefined> {
    const row = await this.redis.hgetall(this.key(sessionId));
    if (!row.v || row.d === undefined) return undefined;
    const held = Number(row.h ?? 0);
    return {
      version: Number(row.v),
      data: JSON.parse(row.d) as D,
      heldUntil: held > 0 ? new Date(held) : null,
      touchedAt: new Date(Number(row.t)),
    };
  }

  async create(sessionId: string, data: D, now: Date): Promise<boolean> {
    const created = await this.redis.eval(CREATE, 1, this.key(sessionId), JSON.stringify(data), now.getTime(), this.ttlMs);
    return created === 1;
  }

  async take(sessionId: string, now: Date, heldUntil: Date): Promise<StoredSession<D> | undefined> {
    const taken = (await this.redis.eval(TAKE, 1, this.key(sessionId), now.getTime(), heldUntil.getTime())) as
      [number, string, string] | null;
    if (!taken) return undefined;
    return { version: Number(taken[0]), data: JSON.parse(taken[1]) as D, heldUntil, touchedAt: new Date(Number(taken[2])) };
  }

  async write(sessionId: string, version: number, data: D, now: Date): Promise<void> {
    await this.redis.eval(WRITE, 1, this.key(sessionId), version, JSON.stringify(data), now.getTime(), this.ttlMs);
  }

  async release(sessionId: string, version: number): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key(sessionId), version);
  }

  async purge(): Promise<void> {
    // Redis expires each session `ttlMs` after its last write.
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
