// Load through the HTTP API with autocannon: votes (one distinct member per request), plain GETs,
// and prepared one-shot requests (SMS-code verifications).
import autocannon from 'autocannon';
import { round } from './util.mjs';

/** Runs autocannon and answers its result; `onInstance` gets the running instance (to stop it early). */
export function cannon(options, onInstance) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ timeout: 30, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
    onInstance?.(instance);
  });
}

/** The figures of an autocannon result: 2xx per second and latency percentiles (ms). */
export function summarise(result) {
  const ok = result['2xx'] ?? 0;
  const seconds = result.duration || 1;
  return {
    okPerSec: round(ok / seconds, 1),
    ok,
    non2xx: result.non2xx ?? 0,
    errors: result.errors ?? 0,
    timeouts: result.timeouts ?? 0,
    p50: result.latency?.p50,
    p99: result.latency?.p99,
    max: result.latency?.max,
    seconds: round(seconds, 2),
    statusCodes: result.statusCodeStats,
  };
}

/**
 * A pool of voters (member ids with bearer tokens), consumed in order across phases: every vote
 * request goes out with a member that has not voted yet.
 */
export class VoterPool {
  constructor(ids, tokenOf) {
    this.ids = ids;
    this.tokenOf = tokenOf;
    this.next = 0;
  }
  get remaining() {
    return this.ids.length - this.next;
  }
  take() {
    if (this.next >= this.ids.length) return undefined;
    return this.ids[this.next++];
  }
}

/**
 * Casts votes at full speed: `connections` concurrent voters, each request a distinct member (one
 * the pool hands out) with a ballot of `choose(i)` ({position_id: candidate_id}), sent to
 * `pathOf(i)` (default `/api/v1/psk/vote`). Bounded by `seconds` and by the pool.
 */
export async function castVotes({ url, pool, connections = 32, seconds, choose, pathOf }) {
  let i = 0;
  let instance;
  let exhausted = false;
  const result = await cannon(
    {
      url,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/psk/vote',
          setupRequest(req) {
            let id = pool.take();
            if (id === undefined) {
              // Out of fresh members: stop; the few requests still built reuse a member (409, counted).
              if (!exhausted) {
                exhausted = true;
                setImmediate(() => instance?.stop());
              }
              id = pool.ids[pool.ids.length - 1];
            }
            const n = i++;
            const body = JSON.stringify({ candidates: choose(n) });
            return {
              ...req,
              ...(pathOf ? { path: pathOf(n) } : {}),
              headers: { 'content-type': 'application/json', authorization: `Bearer ${pool.tokenOf(id)}` },
              body,
            };
          },
        },
      ],
    },
    (inst) => (instance = inst),
  );
  return { ...summarise(result), exhausted };
}

/** GET `path` with `connections` connections for `seconds`. */
export async function hammer({ url, path, connections, seconds }) {
  return summarise(await cannon({ url: url + path, connections, duration: seconds }));
}
