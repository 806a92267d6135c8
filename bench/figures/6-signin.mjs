// Figure 6: sign-in under load. SMS one-time codes are requested (step one), then verified by 32
// concurrent members, first on an idle server and then while 32 voters cast. Target: the loaded
// verification's p99 under 200 ms with no failures.
import { castVotes } from '../lib/load.mjs';
import { csrfPair, requestCodes, verifyCodes } from '../lib/signin.mjs';
import { cpuMeter, round } from '../lib/util.mjs';

export async function measure(b, { server, sink, seeded, pool, spread }) {
  const xsrf = await csrfPair(server.url);
  const VERIFY_SECONDS = Math.max(3, Math.round(b.seconds * 0.6));
  const half = Math.floor(seeded.signerNos.length / 2);
  // Idle baseline: codes first (step one), then verifications alone.
  const codesIdle = await requestCodes({
    url: server.url,
    sink,
    memberNos: seeded.signerNos.slice(0, half),
    phoneOf: seeded.phoneOf,
    seconds: 15,
  });
  b.say(
    `sign-in step one (verify/phone, idle): ${codesIdle.sends} codes sent, ${codesIdle.perSec}/s, p99 ${codesIdle.p99} ms, ${codesIdle.failures} failures`,
  );
  const idle = await verifyCodes({
    url: server.url,
    prepared: codesIdle.prepared,
    xsrf,
    connections: b.connections,
    seconds: VERIFY_SECONDS,
  });
  b.say(
    `sign-in verify/sms idle: ${idle.okPerSec}/s p99 ${idle.p99} ms non2xx ${idle.non2xx}${idle.exhausted ? ' (ran out of codes)' : ''}`,
  );

  const codesLoaded = await requestCodes({
    url: server.url,
    sink,
    memberNos: seeded.signerNos.slice(half),
    phoneOf: seeded.phoneOf,
    seconds: 15,
  });
  b.say(`sign-in step one (verify/phone, second batch): ${codesLoaded.sends} codes sent, ${codesLoaded.perSec}/s`);
  await server.eldReset();
  const meter = cpuMeter({ server: server.pid });
  const sampler = b.poolSampler();
  const [loaded, votes] = await Promise.all([
    verifyCodes({ url: server.url, prepared: codesLoaded.prepared, xsrf, connections: b.connections, seconds: VERIFY_SECONDS }),
    castVotes({ url: server.url, pool, connections: b.connections, seconds: VERIFY_SECONDS, choose: spread }),
  ]);
  const cpu = meter();
  const poolUse = await sampler.stop();
  const eld = await server.eldRead();
  b.say(
    `sign-in verify/sms while casting: ${loaded.okPerSec}/s p99 ${loaded.p99} ms non2xx ${loaded.non2xx}${loaded.exhausted ? ' (ran out of codes)' : ''}; ballots meanwhile ${votes.okPerSec}/s p99 ${votes.p99} ms; event loop p99 ${eld.stats.p99} ms; cpu ${JSON.stringify(cpu)}; pool busy ${JSON.stringify(poolUse)}`,
  );
  b.results.phases.signin = {
    codesIdle: { ...codesIdle, prepared: undefined },
    idle,
    codesLoaded: { ...codesLoaded, prepared: undefined },
    loaded,
    votes,
    cpu,
    eld: eld.stats,
    poolUse,
  };
  return { idle, loaded, votes };
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ signin }) {
  if (!signin) return [];
  const { idle, loaded, votes } = signin;
  return [
    {
      id: '6',
      name: 'SMS-code verifications/s, 32 conc., casting',
      value: `${loaded.okPerSec}/s p99 ${loaded.p99} ms`,
      baseline: `idle ${idle.okPerSec}/s p99 ${idle.p99} ms`,
      ratio: round(loaded.okPerSec / idle.okPerSec, 2),
      target: 'p99<200ms',
      met: loaded.p99 < 200 && loaded.non2xx === 0,
      note: `ballots meanwhile ${votes.okPerSec}/s`,
    },
  ];
}
