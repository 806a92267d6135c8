import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import { createAdapter as createRedisAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { AppContext } from '../context';

export type ScaleOut = {
  kind: 'redis' | 'postgres';
  adapter: ReturnType<typeof createPostgresAdapter> | ReturnType<typeof createRedisAdapter>;
  /** Releases the adapter's connections (after the Socket.IO server closed its adapters). */
  close(): Promise<void>;
};

export type ScaleOutOptions = { redisUrl?: string; databaseUrl?: string };

/**
 * The Socket.IO cluster adapter: Redis when REDIS_URL is set, else Postgres LISTEN/NOTIFY when
 * the server runs on a real Postgres; none (in-memory, one process) with the embedded database.
 */
export function createScaleOut(ctx: AppContext, options: ScaleOutOptions): ScaleOut | undefined {
  const onError = (err: Error) => ctx.logger.warn({ err }, 'realtime adapter error');
  if (options.redisUrl) {
    const pub = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    pub.on('error', onError);
    sub.on('error', onError);
    return {
      kind: 'redis',
      adapter: createRedisAdapter(pub, sub),
      async close() {
        await Promise.allSettled([pub.quit(), sub.quit()]);
      },
    };
  }
  if (options.databaseUrl && ctx.database.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4, application_name: 'kura-realtime' });
    pool.on('error', onError);
    return {
      kind: 'postgres',
      adapter: createPostgresAdapter(pool, { errorHandler: onError }),
      async close() {
        await pool.end().catch(onError);
      },
    };
  }
  return undefined;
}
