import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { retryRead } from './errors';

/** The app's QueryClient rule (main.tsx), with no delay between tries. */
async function attempts(failure: unknown): Promise<number> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: retryRead, retryDelay: 0 } } });
  let calls = 0;
  await client
    .fetchQuery({
      queryKey: ['x'],
      queryFn: () => {
        calls++;
        return Promise.reject(failure);
      },
    })
    .catch(() => undefined);
  return calls;
}

describe('retryRead: a refusal is shown at once, a failure is tried once more', () => {
  it('does not retry a 403 (results for staff only), 404 or 401', async () => {
    const refusal = (status: number) => ({ status, body: { message: 'Results are shown to staff only until voting closes' } });
    expect(await attempts(refusal(403))).toBe(1);
    expect(await attempts(refusal(404))).toBe(1);
    expect(await attempts(refusal(401))).toBe(1);
  });

  it('retries a network failure, a 5xx and a 429 once', async () => {
    expect(await attempts({ status: 429, body: { message: 'Too many requests' } })).toBe(2);
    expect(await attempts(new TypeError('Failed to fetch'))).toBe(2);
    expect(await attempts({ status: 503, body: { message: 'Unavailable' } })).toBe(2);
  });
});
