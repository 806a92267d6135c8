import { parentPort, workerData } from 'node:worker_threads';
import { startPgliteInline } from './pglite-host';

// Runs PGlite and its socket server on a worker thread; see pglite-host.ts.
const { dataDir } = workerData as { dataDir: string };

startPgliteInline(dataDir).then(
  (host) => {
    parentPort?.postMessage({ url: host.url });
    parentPort?.on('message', async (msg) => {
      if (msg === 'close') {
        await host.close();
        parentPort?.postMessage({ closed: true });
      }
    });
  },
  (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
