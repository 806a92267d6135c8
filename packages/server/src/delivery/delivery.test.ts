import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { createLogger } from '../logger';
import { startSmsSink, type SmsSink } from '../../test/auth/sms-sink';
import { startSmtpCapture, type SmtpCapture } from '../../test/auth/smtp-capture';
import { createDelivery, DeliveryError } from './index';
import { toInternational } from './sms';

const STRONG_KEY = '3f9a1c7e5b2d8046f1e3a7c9b5d20e4f6a8c1e3b5d7f9021436587a9cbdef012';
const STRONG_SECRET = 'q7Yw2Lp9Xz4Nc6Vb8Mk1Jh3Gf5Ds0Aa-r2T';

/** Each transport against a real local endpoint; no database needed. */

function capturedLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, sink) };
}

const env = (raw: Record<string, string>) => parseEnv({ NODE_ENV: 'test', ...raw });

let smtp: SmtpCapture;
let sms: SmsSink;
beforeAll(async () => {
  [smtp, sms] = await Promise.all([startSmtpCapture(), startSmsSink()]);
});
afterAll(async () => {
  await Promise.all([smtp?.close(), sms?.close()]);
});

describe('delivery', () => {
  it('writes codes to the log with the console transports (development only)', async () => {
    const { lines, logger } = capturedLogger();
    const delivery = createDelivery(env({}), logger);
    await delivery.sendSms({ to: '0712345678', message: '654321 is your code' });
    await delivery.sendEmail({ to: 'a@example.org', subject: 'Code', text: 'Your security code is 123987.' });
    expect(lines.join('\n')).toContain('654321');
    expect(lines.join('\n')).toContain('123987');
  });

  it('refuses the console transports in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', BALLOT_KEY: STRONG_KEY, SESSION_SECRET: STRONG_SECRET })).toThrow(
      /SMTP_URL[\s\S]*SMS_PROVIDER/,
    );
  });

  it('sends email through SMTP and reports a refused message as a DeliveryError', async () => {
    const { logger } = capturedLogger();
    const delivery = createDelivery(env({ SMTP_URL: smtp.url, MAIL_FROM: 'Kura <codes@kura.test>' }), logger);
    await delivery.sendEmail({ to: 'admin@example.org', subject: 'Kura security code', text: 'Your Kura security code is 246810.' });
    expect(smtp.codeFor('admin@example.org')).toBe('246810');
    expect(smtp.messages.at(-1)!.raw).toMatch(/Subject: Kura security code/);
    smtp.rejectNext();
    await expect(delivery.sendEmail({ to: 'admin@example.org', subject: 's', text: 't' })).rejects.toBeInstanceOf(DeliveryError);
    delivery.close();
  });

  it('reports an unreachable mail server as a DeliveryError without the message text', async () => {
    const { logger } = capturedLogger();
    const closed = await startSmtpCapture();
    await closed.close();
    const delivery = createDelivery(env({ SMTP_URL: closed.url }), logger);
    const error = await delivery.sendEmail({ to: 'a@example.org', subject: 's', text: 'code 999111' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(String((error as Error).message)).not.toContain('999111');
    delivery.close();
  });

  it('posts {to, message} JSON to the SMS webhook and fails on a non-2xx answer', async () => {
    const { logger } = capturedLogger();
    const delivery = createDelivery(env({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: sms.url }), logger);
    await delivery.sendSms({ to: '0711000222', message: '135790 is your code' });
    expect(sms.messages.at(-1)).toEqual({ to: '0711000222', message: '135790 is your code' });
    sms.failNext(503);
    await expect(delivery.sendSms({ to: '0711000222', message: 'x' })).rejects.toBeInstanceOf(DeliveryError);
  });

  it("speaks Africa's Talking: form body, apiKey header, international number, recipient status", async () => {
    const seen: { headers: IncomingMessage['headers']; body: URLSearchParams }[] = [];
    let statusCode = 101;
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: new URLSearchParams(raw) });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            SMSMessageData: {
              Message: 'Sent to 1/1',
              Recipients: [{ statusCode, status: statusCode === 101 ? 'Success' : 'InvalidPhoneNumber' }],
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = server.address() as AddressInfo;
      const { logger } = capturedLogger();
      const delivery = createDelivery(
        env({
          SMS_PROVIDER: 'africastalking',
          AFRICASTALKING_USERNAME: 'kura',
          AFRICASTALKING_API_KEY: 'at-key',
          AFRICASTALKING_SENDER_ID: 'KURA',
          AFRICASTALKING_URL: `http://127.0.0.1:${port}/version1/messaging`,
        }),
        logger,
      );
      await delivery.sendSms({ to: '0712345678', message: '112233 is your code' });
      expect(seen[0]!.headers.apikey).toBe('at-key');
      expect(Object.fromEntries(seen[0]!.body)).toEqual({
        username: 'kura',
        to: '+254712345678',
        message: '112233 is your code',
        from: 'KURA',
      });
      statusCode = 403;
      await expect(delivery.sendSms({ to: '0712345678', message: 'x' })).rejects.toBeInstanceOf(DeliveryError);
    } finally {
      server.close();
    }
  });

  it('turns local numbers into international ones', () => {
    expect(toInternational('0712345678')).toBe('+254712345678');
    expect(toInternational('254712345678')).toBe('+254712345678');
    expect(toInternational('+254 712 345 678')).toBe('+254712345678');
  });
});
