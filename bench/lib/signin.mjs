// Voter sign-in with an SMS code through the real API: verify/phone texts a code (caught by the
// SMS sink), verify/sms spends it with the pending cookie and the XSRF double-submit pair.
import { cannon, summarise } from './load.mjs';
import { nowMs, percentile, round } from './util.mjs';

export async function csrfPair(url) {
  const res = await fetch(`${url}/sanctum/csrf-cookie`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
  if (!cookie) throw new Error(`no XSRF-TOKEN cookie (status ${res.status})`);
  return decodeURIComponent(cookie.split(';')[0].slice('XSRF-TOKEN='.length));
}

/**
 * Step one for each member number (32 at a time): POST verify/phone, keep the pending cookie and
 * read the code from the sink. Bounded by the list and by `seconds`.
 */
export async function requestCodes({ url, sink, memberNos, phoneOf, concurrency = 32, seconds = 20 }) {
  const deadline = nowMs() + seconds * 1000;
  const prepared = [];
  const latencies = [];
  let failures = 0;
  let next = 0;
  const started = nowMs();
  const worker = async () => {
    while (next < memberNos.length && nowMs() < deadline) {
      const memberNo = memberNos[next++];
      const t0 = nowMs();
      const res = await fetch(`${url}/api/v1/verify/phone`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ unique_id: memberNo, consent: true }),
      }).catch(() => undefined);
      if (!res?.ok) {
        failures++;
        await res?.text();
        continue;
      }
      await res.text();
      latencies.push(nowMs() - t0);
      const pending = res.headers.getSetCookie().find((c) => c.startsWith('kura_pending_voter='));
      const code = await sink.codeFor(phoneOf(memberNo)).catch(() => undefined);
      if (!pending || !code) {
        failures++;
        continue;
      }
      prepared.push({ cookie: pending.split(';')[0], code });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (nowMs() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    prepared,
    sends: latencies.length,
    failures,
    perSec: round(latencies.length / elapsed, 1),
    p99: round(percentile(latencies, 99), 1),
  };
}

/** Step two at `connections` concurrent: POST verify/sms, one prepared sign-in per request. */
export async function verifyCodes({ url, prepared, xsrf, connections = 32, seconds }) {
  let next = 0;
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
          path: '/api/v1/verify/sms',
          setupRequest(req) {
            let item = prepared[next++];
            if (!item) {
              if (!exhausted) {
                exhausted = true;
                setImmediate(() => instance?.stop());
              }
              item = prepared[prepared.length - 1];
            }
            return {
              ...req,
              headers: {
                'content-type': 'application/json',
                cookie: `${item.cookie}; XSRF-TOKEN=${encodeURIComponent(xsrf)}`,
                'x-xsrf-token': xsrf,
              },
              body: JSON.stringify({ token: item.code }),
            };
          },
        },
      ],
    },
    (inst) => (instance = inst),
  );
  return { ...summarise(result), exhausted };
}
