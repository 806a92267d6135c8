import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for what must happen (timers run late on a loaded machine); fails after 5 s. */
async function until(check: () => boolean) {
  for (const end = Date.now() + 5000; !check(); await sleep(5)) if (Date.now() > end) throw new Error('timed out');
}

describe('coalesce', () => {
  it('runs the first request on the next turn of the event loop, not in the caller, and folds a burst into one trailing run', async () => {
    let runs = 0;
    const c = coalesce(
      30,
      () => void runs++,
      () => {},
    );
    c.request();
    c.request();
    await Promise.resolve();
    expect(runs, 'not in the caller nor its microtasks').toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(1);
    for (let i = 0; i < 50; i++) c.request();
    expect(runs).toBe(1);
    await until(() => runs === 2);
    await sleep(80);
    expect(runs).toBe(2);
    c.close();
  });

  it('never overlaps a slow run, and still delivers the state after the last request', async () => {
    let active = 0;
    let maxActive = 0;
    let state = 0;
    const delivered: number[] = [];
    const c = coalesce(
      10,
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        const seen = state;
        await sleep(40); // a fan-out slower than the window
        delivered.push(seen);
        active--;
      },
      () => {},
    );
    for (let i = 1; i <= 20; i++) {
      state = i;
      c.request();
      await sleep(5);
    }
    await until(() => delivered.at(-1) === 20 && active === 0);
    await sleep(60);
    expect(maxActive).toBe(1);
    expect(delivered.at(-1)).toBe(20);
    expect(delivered).toEqual([...delivered].sort((a, b) => a - b));
    expect(delivered.length).toBeLessThan(10);
    c.close();
  });

  it('reports a failing run and keeps coalescing', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const c = coalesce(
      10,
      () => {
        runs++;
        if (runs === 1) throw new Error('first fails');
      },
      (err) => errors.push(err),
    );
    c.request();
    await sleep(1);
    c.request();
    await until(() => runs === 2);
    expect(errors).toHaveLength(1);
    expect(runs).toBe(2);
    c.close();
  });
});
