import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import { createAdapter as createRedisAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { RealtimeContext } from './context';

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
export function createScaleOut(ctx: RealtimeContext, options: ScaleOutOptions): ScaleOut | undefined {
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
    // The adapter holds one client checked out for LISTEN and attaches no 'error' listener to it;
    // the pool's own listener covers idle clients only. Without this, a terminated connection
    // (database restart, failover, pg_terminate_backend) is an unhandled 'error' that kills the
    // process. The adapter reconnects on the client's 'end'.
    // A client that dies while checked out is never released by the adapter either: give it back
    // (destroyed), or each database blip leaks a pool slot until LISTEN can no longer reconnect and
    // pool.end() waits forever at shutdown.
    pool.on('connect', (client) => {
      client.on('error', onError);
      client.once('end', () => {
        try {
          (client as pg.PoolClient).release?.(true);
        } catch {
          // idle or already released: the pool has dealt with it
        }
      });
    });
    return {
      kind: 'postgres',
      adapter: createPostgresAdapter(pool, { errorHandler: onError }),
      async close() {
        // Bounded: a shutdown must not hang on a connection the database already dropped.
        await Promise.race([pool.end().catch(onError), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
      },
    };
  }
  return undefined;
}
