import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { createApp, createRequestListener } from './app';
import { createContext, prepareData } from './bootstrap';
import { loadEnvOrExit } from './env';
import { createLogger } from './logger';

async function main() {
  const env = loadEnvOrExit();
  const logger = createLogger(env);
  const ctx = await createContext({ env, logger });
  const report = await prepareData(ctx);
  // Services start once the data is in place; the app only reads them (ctx.close stops them in reverse).
  await ctx.start();

  const app = createApp(ctx);
  const server = createServer(createRequestListener(ctx, app));
  const realtime = await ctx.realtime.attach(server);

  // Track keep-alive sockets so shutdown can close idle ones while in-flight requests finish.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  const url = `http://localhost:${port}`;
  const banner = [
    `Kura is running at ${url}  (database: ${ctx.database.kind === 'pglite' ? `embedded PGlite in ${env.DATA_DIR}` : 'PostgreSQL'})`,
    ...report.lines,
    `API docs: ${url}/api/docs`,
  ];
  logger.info({ url }, 'listening');
  console.log(`\n${banner.join('\n')}\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, 20_000);
    force.unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await realtime.close();
    await closed;
    for (const socket of sockets) socket.destroy();
    await ctx.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('Kura failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
