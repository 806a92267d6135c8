import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A received message; `at` is when it arrived (ms since the epoch). */
export type CapturedMail = { from: string; to: string[]; raw: string; at: number };

export type SmtpCapture = {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  messages: CapturedMail[];
  /** Reject the next `n` messages with a permanent SMTP error (delivery failure tests). */
  rejectNext(n?: number): void;
  /** Hold every later message this long before answering it (a slow relay); 0 answers at once. */
  delayReplies(ms: number): void;
  /** The six-digit code in the latest mail to `to`. */
  codeFor(to: string): string;
  /** Waits for a mail to `to` that arrived at or after `since` and answers its code (browser tests). */
  codeSince(to: string, since: number, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
};

/** The security code in the newest mail to `to` that arrived at or after `since`, if any. */
function latestCode(messages: CapturedMail[], to: string, since = 0): string | undefined {
  const mail = [...messages].reverse().find((m) => m.at >= since && m.to.includes(to.toLowerCase()));
  const body =
    mail?.raw
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('\n') ?? '';
  return /security code is (\d{6})/.exec(body)?.[1];
}

/** A real SMTP server on loopback that keeps every message it is given (no auth, no TLS). */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  let rejecting = 0;
  let delayMs = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (rejecting > 0) {
          rejecting--;
          const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
          return callback(error);
        }
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    rejectNext(n = 1) {
      rejecting = n;
    },
    delayReplies(ms) {
      delayMs = ms;
    },
    codeFor(to) {
      const code = latestCode(messages, to);
      if (!code) throw new Error(`no code mailed to ${to}`);
      return code;
    },
    async codeSince(to, since, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const code = latestCode(messages, to, since);
        if (code) return code;
        if (Date.now() >= end) throw new Error(`no code was mailed to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
