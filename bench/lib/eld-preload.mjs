// Preloaded into the server child (`node --import`): an in-process event-loop delay histogram
// (perf_hooks.monitorEventLoopDelay) read by the bench over the fork IPC channel. The server code
// itself is untouched; nothing of this exists unless the bench starts the process.
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (typeof process.send === 'function') {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns) => Math.round((ns / 1e6) * 100) / 100;
  process.on('message', (message) => {
    if (!message || typeof message !== 'object' || typeof message.eld !== 'string') return;
    if (message.eld === 'reset') {
      histogram.reset();
      process.send({ eld: 'reset', id: message.id });
    } else if (message.eld === 'read') {
      const cpu = process.cpuUsage();
      process.send({
        eld: 'read',
        id: message.id,
        stats: {
          p50: ms(histogram.percentile(50)),
          p99: ms(histogram.percentile(99)),
          max: ms(histogram.max),
          mean: ms(histogram.mean),
          count: histogram.count,
        },
        cpuMs: (cpu.user + cpu.system) / 1000,
        rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      });
    }
  });
  // The IPC channel must not keep the server alive on its own.
  process.channel?.unref();
}
