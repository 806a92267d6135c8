// Preloaded into the server child (`node --import`): an in-process event-loop delay histogram
// (perf_hooks.monitorEventLoopDelay) read by the bench over the fork IPC channel. The server code
// itself is untouched; nothing of this exists unless the bench starts the process.
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (typeof process.send === 'function') {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();

  // Times each Socket.IO broadcast of DetailedResultsUpdate or ResultsTally (the synchronous fan-out to every
  // socket in the room), by wrapping BroadcastOperator#emit of the server's own socket.io copy;
  // counts the sockets it names (room sizes) and the bytes of its payload (JSON, the last one seen).
  const fresh = () => ({ count: 0, totalMs: 0, maxMs: 0, sockets: 0, payloadBytes: 0 });
  let broadcast = fresh();
  try {
    const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
    // Past the package's "exports": the file beside its CommonJS entry (the one main.js loads too).
    const entry = require.resolve('socket.io');
    const { BroadcastOperator } = require(entry.replace(/index\.js$/, 'broadcast-operator.js'));
    const original = BroadcastOperator.prototype.emit;
    BroadcastOperator.prototype.emit = function timedEmit(ev, ...args) {
      if (ev !== 'DetailedResultsUpdate' && ev !== 'ResultsTally') return original.call(this, ev, ...args);
      for (const room of this.rooms ?? []) broadcast.sockets += this.adapter?.rooms?.get(room)?.size ?? 0;
      if (broadcast.count % 16 === 0) broadcast.payloadBytes = Buffer.byteLength(JSON.stringify(args));
      const t0 = performance.now();
      try {
        return original.call(this, ev, ...args);
      } finally {
        const ms = performance.now() - t0;
        broadcast.count++;
        broadcast.totalMs += ms;
        if (ms > broadcast.maxMs) broadcast.maxMs = ms;
      }
    };
  } catch {
    broadcast = undefined;
  }
  const ms = (ns) => Math.round((ns / 1e6) * 100) / 100;
  process.on('message', (message) => {
    if (!message || typeof message !== 'object' || typeof message.eld !== 'string') return;
    if (message.eld === 'reset') {
      histogram.reset();
      if (broadcast) broadcast = fresh();
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
        broadcast: broadcast && {
          count: broadcast.count,
          meanMs: broadcast.count ? Math.round((broadcast.totalMs / broadcast.count) * 10) / 10 : 0,
          maxMs: Math.round(broadcast.maxMs * 10) / 10,
          totalMs: Math.round(broadcast.totalMs),
          sockets: broadcast.sockets,
          usPerSocket: broadcast.sockets ? Math.round((broadcast.totalMs * 1000) / broadcast.sockets) : 0,
          payloadBytes: broadcast.payloadBytes,
        },
      });
    }
  });
  // The IPC channel must not keep the server alive on its own.
  process.channel?.unref();
}
