import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';

/** A callback token for tests (at least 32 characters). */
export const USSD_TOKEN = 'ussd-test-token-0123456789abcdef0123';

/**
 * Africa's Talking's USSD gateway as a phone drives it: one `sessionId`, every input so far
 * `*`-joined in `text`, form-encoded, the answer in text/plain.
 */
export function phoneSession(app: Express, phoneNumber: string, options: { sessionId?: string; token?: string } = {}) {
  const sessionId = options.sessionId ?? `ATUid_${randomBytes(8).toString('hex')}`;
  const inputs: string[] = [];
  const post = (text: string) =>
    request(app)
      .post(`/api/v1/ussd/${options.token ?? USSD_TOKEN}`)
      .type('form')
      .send({ sessionId, serviceCode: '*384*123#', phoneNumber, networkCode: '63902', text });
  return {
    sessionId,
    inputs,
    /** The text the next request carries after `input` (or the first request's, with none). */
    textWith: (input?: string) => (input === undefined ? inputs.join('*') : [...inputs, input].join('*')),
    /** Dials (no input) or sends one input; answers the whole answer (`CON …` / `END …`). */
    async send(input?: string): Promise<string> {
      if (input !== undefined) inputs.push(input);
      const res = await post(inputs.join('*'));
      if (res.status !== 200) throw new Error(`USSD answered ${res.status}: ${res.text}`);
      return res.text;
    },
    /** The request again with the same text (the gateway repeating itself). */
    async repeat(): Promise<string> {
      return (await post(inputs.join('*'))).text;
    },
  };
}

/**
 * The Redis the store tests also run against: REDIS_URL, else the local default, when it answers
 * within a second; undefined otherwise (those runs are then skipped).
 */
export async function reachableRedis(): Promise<string | undefined> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG' ? url : undefined;
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}
