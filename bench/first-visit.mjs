// A member's first visit on a phone's network: /sign-in in a new Chromium context (empty cache)
// under an emulated mobile link, until its Sign in button shows, against two built servers at once
// that differ only in their web directory: A the build without its precompressed files (every
// asset as it is, as before docs/decisions/017), B the build as it ships. Rounds alternate A B / B A.
// Not part of `pnpm bench`; see BENCHMARKS.md. Needs `pnpm build` and Debian's chromium.
// usage: node bench/first-visit.mjs [ROUNDS=5]
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverEnv, startServer } from './lib/server.mjs';
import { median } from './lib/ab.mjs';
import { ROOT } from './lib/util.mjs';

const ROUNDS = Number(process.argv[2] ?? 5);
const { chromium } = createRequire(join(ROOT, 'packages/web/package.json'))('playwright-core');
const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p));
// Lighthouse's mobile links: "slow 4G" (150 ms round trip, 1.6 Mbit/s down) and "3G" (300 ms, 700 kbit/s).
const LINKS = {
  'slow 4G': { latency: 150, downloadThroughput: (1638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
  '3G': { latency: 300, downloadThroughput: (700 * 1024) / 8, uploadThroughput: (700 * 1024) / 8 },
};

const dist = join(ROOT, 'packages/web/dist');
const tmp = mkdtempSync(join(tmpdir(), 'kura-first-visit-'));
const plainDist = join(tmp, 'dist-plain');
cpSync(dist, plainDist, { recursive: true });
for (const f of readdirSync(join(plainDist, 'assets'))) if (/\.(br|gz)$/.test(f)) unlinkSync(join(plainDist, 'assets', f));

const servers = {};
for (const [name, webDist] of [
  ['A', plainDist],
  ['B', dist],
]) {
  servers[name] = await startServer({
    env: serverEnv({ DATA_DIR: join(tmp, name), WEB_DIST_DIR: webDist, SMS_WEBHOOK_URL: 'http://127.0.0.1:9/sms' }),
    label: `first-visit-${name}`,
  });
}
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });

async function visit(name, link) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: servers[name].url });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...LINKS[link] });
  let bytes = 0;
  const encodings = new Set();
  cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
  cdp.on('Network.responseReceived', (e) => {
    if (e.response.url.includes('/assets/'))
      encodings.add(e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? 'none');
  });
  const start = performance.now();
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ timeout: 120_000 });
  const ms = performance.now() - start;
  await context.close();
  return { ms, bytes, encodings: [...encodings].join('+') };
}

try {
  for (const link of Object.keys(LINKS)) {
    const runs = { A: [], B: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const name of round % 2 ? ['A', 'B'] : ['B', 'A']) {
        const r = await visit(name, link);
        runs[name].push(r);
        console.log(
          `${link} round ${round} ${name}: ${Math.round(r.ms)} ms, ${Math.round(r.bytes / 1024)} KiB over the wire (assets: ${r.encodings})`,
        );
      }
    }
    const ms = (n) => Math.round(median(runs[n].map((r) => r.ms)));
    const kib = (n) => Math.round(median(runs[n].map((r) => r.bytes)) / 1024);
    console.log(
      `${link}: A ${ms('A')} ms ${kib('A')} KiB, B ${ms('B')} ms ${kib('B')} KiB; B/A time ${(ms('B') / ms('A')).toFixed(2)}, bytes ${(kib('B') / kib('A')).toFixed(2)}`,
    );
  }
} finally {
  await browser.close();
  for (const s of Object.values(servers)) await s.stop();
  rmSync(tmp, { recursive: true, force: true });
}
