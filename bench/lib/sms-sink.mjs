// A tiny SMS provider on 127.0.0.1 for SMS_PROVIDER=webhook: it receives {to, message} and hands
// the 6-digit code to whoever waits for that phone number.
import { createServer } from 'node:http';

export async function startSmsSink() {
  const codes = new Map();
  const waiters = new Map();
  let received = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        const { to, message } = JSON.parse(body);
        const code = /\b(\d{6})\b/.exec(message)?.[1];
        received++;
        const waiting = waiters.get(to);
        if (waiting) {
          waiters.delete(to);
          waiting(code);
        } else codes.set(to, code);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/sms`,
    get received() {
      return received;
    },
    /** The next code texted to `phone` (waits up to `timeoutMs`). */
    codeFor(phone, timeoutMs = 15_000) {
      const code = codes.get(phone);
      if (code) {
        codes.delete(phone);
        return Promise.resolve(code);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(phone);
          reject(new Error(`no SMS for ${phone}`));
        }, timeoutMs);
        waiters.set(phone, (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
