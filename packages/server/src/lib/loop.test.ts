import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createLoop, type LoopOptions } from './loop';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise with its resolve function, to hold a run in flight. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Waits (real clock) until `check` holds, or fails after `ms`. */
async function until(check: () => boolean, ms = 2000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await sleep(5);
  }
}

/** A loop whose log lines are kept, with a counting run around `work`. */
function counted(work: (n: number) => Promise<number | void>, options: Partial<LoopOptions> = {}) {
  const logged: { err: unknown; msg: string }[] = [];
  const state = { runs: 0, active: 0, maxActive: 0 };
  const loop = createLoop({
    logger: { error: ((obj: { err: unknown }, msg: string) => logged.push({ err: obj.err, msg })) as never },
    failure: 'test loop failed',
    intervalMs: 60_000,
    runAtStart: false,
    run: async () => {
      state.runs++;
      state.active++;
      state.maxActive = Math.max(state.maxActive, state.active);
      try {
        return await work(state.runs);
      } finally {
        state.active--;
      }
    },
    ...options,
  });
  return { loop, state, logged };
}

describe('background loop', () => {
  it('runs at start, or first waits the interval', async () => {
    const eager = counted(async () => {}, { runAtStart: true });
    eager.loop.start();
    await until(() => eager.state.runs === 1);
    const lazy = counted(async () => {}, { intervalMs: 40 });
    lazy.loop.start();
    await sleep(10);
    expect(lazy.state.runs).toBe(0);
    await until(() => lazy.state.runs >= 2);
    await Promise.all([eager.loop.stop(), lazy.loop.stop()]);
    expect(eager.state.runs).toBe(1);
  });

  it('stop waits for the run in flight, then for the drain, and no run follows', async () => {
    const held = gate();
    let drained = false;
    const { loop, state } = counted(() => held.opened, {
      runAtStart: true,
      intervalMs: 1,
      drain: async () => {
        await sleep(20);
        drained = true;
      },
    });
    loop.start();
    await until(() => state.active === 1);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await sleep(30);
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(state.active).toBe(0);
    expect(drained).toBe(true);
    const runs = state.runs;
    loop.wake();
    await sleep(30);
    expect(state.runs).toBe(runs);
  });

  it('wake runs at once instead of waiting the interval', async () => {
    const { loop, state } = counted(async () => {});
    loop.start();
    await sleep(10);
    expect(state.runs).toBe(0);
    const woken = Date.now();
    loop.wake();
    await until(() => state.runs === 1);
    expect(Date.now() - woken).toBeLessThan(1000);
    await loop.stop();
  });

  it('wakes on its events while started, and unsubscribes at stop', async () => {
    const events = new EventEmitter();
    const { loop, state } = counted(async () => {}, {
      wakeOn: (wake) => {
        events.on('poke', wake);
        return () => events.off('poke', wake);
      },
    });
    loop.start();
    events.emit('poke');
    await until(() => state.runs === 1);
    await loop.stop();
    expect(events.listenerCount('poke')).toBe(0);
  });

  it('logs a run that throws and carries on after the interval', async () => {
    const failure = new Error('database hiccup');
    const { loop, state, logged } = counted(
      async (n) => {
        if (n === 1) throw failure;
      },
      { runAtStart: true, intervalMs: 20 },
    );
    loop.start();
    await until(() => state.runs >= 3);
    await loop.stop();
    expect(logged).toEqual([{ err: failure, msg: 'test loop failed' }]);
  });

  it('never overlaps runs: wakes during a run make one more run right after it', async () => {
    const { loop, state } = counted(() => sleep(40).then(() => 60_000), { runAtStart: true, intervalMs: 1 });
    loop.start();
    await until(() => state.active === 1);
    for (let i = 0; i < 5; i++) loop.wake();
    await until(() => state.runs === 2);
    await sleep(100);
    expect(state.runs).toBe(2);
    expect(state.maxActive).toBe(1);
    await loop.stop();
  });

  it('waits as long as a run answers, 0 meaning at once', async () => {
    const { loop, state } = counted(async (n) => (n < 5 ? 0 : 60_000), { runAtStart: true, intervalMs: 60_000 });
    loop.start();
    await until(() => state.runs === 5);
    await sleep(30);
    expect(state.runs).toBe(5);
    await loop.stop();
  });

  it('runNow waits for the run in flight, runs once more and throws what the run throws', async () => {
    const held = gate();
    const { loop, state } = counted(
      async (n) => {
        if (n === 1) await held.opened;
        if (n === 2) throw new Error('second run failed');
      },
      { runAtStart: true },
    );
    loop.start();
    await until(() => state.active === 1);
    const now = loop.runNow();
    await sleep(20);
    expect(state.runs).toBe(1);
    held.open();
    await expect(now).rejects.toThrow('second run failed');
    expect(state.maxActive).toBe(1);
    await loop.stop();
    // Also without a start (tests drive a stopped loop round by round).
    await loop.runNow();
    expect(state.runs).toBe(3);
  });
});
