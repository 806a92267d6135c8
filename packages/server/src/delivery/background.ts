import type { Logger } from 'pino';
import type { Service } from '../lib/service';

/**
 * Messages nobody waits for (a notice after the answer has gone), sent one at a time in the order
 * given. A failure is logged, never thrown; stopping waits for those already queued, so a CLI
 * import or a shutdown does not drop them.
 */
export class BackgroundSender implements Service {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly logger: Logger) {}

  start(): void {}

  /** Queues `send` after the ones before it. */
  enqueue(send: () => Promise<void>): void {
    this.tail = this.tail.then(send).catch((error: unknown) => this.logger.warn({ err: error }, 'background send failed'));
  }

  async stop(): Promise<void> {
    await this.tail;
  }
}
