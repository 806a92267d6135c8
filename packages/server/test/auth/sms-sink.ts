import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SentSms = { to: string; message: string };

export type SmsSink = {
  /** For SMS_WEBHOOK_URL. */
  url: string;
  messages: SentSms[];
  /** When each of `messages` arrived (ms since the epoch), index for index. */
  arrivals: number[];
  /** Answer the next `n` requests with this HTTP status instead of 200. */
  failNext(status: number, n?: number): void;
  /** The six-digit code in the latest text to `to`. */
  codeFor(to: string): string;
  close(): Promise<void>;
};

/** A real HTTP endpoint on loopback standing in for the SMS_PROVIDER=webhook gateway. */
export async function startSmsSink(): Promise<SmsSink> {
  const messages: SentSms[] = [];
  const arrivals: number[] = [];
  let failing = { status: 0, left: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failing.left > 0) {
        failing.left--;
        res.writeHead(failing.status, { 'content-type': 'application/json' }).end('{"error":"gateway down"}');
        return;
      }
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SentSms;
        if (
          req.method !== 'POST' ||
          !/json/.test(req.headers['content-type'] ?? '') ||
          typeof body.to !== 'string' ||
          typeof body.message !== 'string'
        ) {
          res.writeHead(400).end();
          return;
        }
        messages.push({ to: body.to, message: body.message });
        arrivals.push(Date.now());
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"queued"}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    messages,
    arrivals,
    failNext(status, n = 1) {
      failing = { status, left: n };
    },
    codeFor(to) {
      const sms = [...messages].reverse().find((m) => m.to === to);
      const code = sms && /\b(\d{6})\b/.exec(sms.message)?.[1];
      if (!code) throw new Error(`no code texted to ${to}`);
      return code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
