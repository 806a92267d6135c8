/// <reference types="node" />
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { createServer, type Server } from 'node:http';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
// The server's own test SMTP sink: the same capture its delivery tests use.
import { startSmtpCapture } from '../../server/test/auth/smtp-capture';
import { createDatabase, dropDatabase, e2ePostgresHost, newDatabaseName, postgresEnv } from './postgres';

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_DIR = resolve(here, '..');
export const REPO_DIR = resolve(WEB_DIR, '../..');
export const SCREENSHOT_DIR = join(here, 'screenshots');

export const ADMIN_EMAIL = 'e2e-admin@kura.test';
export const ADMIN_PASSWORD = 'e2e-admin-password-2025';

export type SmsMessage = { to: string; message: string; at: number };

/** An HTTP SMS sink: the server's `webhook` SMS provider POSTs `{to, message}` here. */
export async function startSmsSink() {
  const messages: SmsMessage[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      try {
        const body = JSON.parse(raw) as { to: string; message: string };
        messages.push({ to: body.to, message: body.message, at: Date.now() });
      } catch {
        // ignore junk
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    messages,
    /** The 6-digit code of the first message that arrives after `since`. */
    async codeSince(since: number, timeoutMs = 15_000): Promise<string> {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        const m = messages.find((x) => x.at >= since && /\b\d{6}\b/.test(x.message));
        if (m) return m.message.match(/\b(\d{6})\b/)![1]!;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no SMS code arrived');
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function freePort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export type RunningServer = {
  baseUrl: string;
  /** The server's DATA_DIR (its embedded database, uploads, secrets). */
  dataDir: string;
  /** The PostgreSQL database it runs on (e2e/postgres.ts), or none: the embedded PGlite in `dataDir`. */
  database?: string;
  logLines: string[];
  /** The 6-digit code of the newest mail to `to` that the SMTP sink received after `since`. */
  emailCodeSince: (to: string, since: number, timeoutMs?: number) => Promise<string>;
  stop: () => Promise<void>;
};

export type SmsSink = Awaited<ReturnType<typeof startSmsSink>>;

declare module 'vitest' {
  // Vitest's provided values are declared by merging into its interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    /** The data directory of a server stopped right after it seeded the demo (e2e/global-setup.ts). */
    e2eDemoDataDir: string | undefined;
    /** Its PostgreSQL database, when the demo was seeded on one (e2e/postgres.ts); else it is in the directory. */
    e2eDemoDatabase: string | undefined;
  }
}

/** The run's seeded demo (its data directory, and database on PostgreSQL), when a global setup made one and this is a test worker. */
function demoTemplate(): { dataDir: string; database?: string } | undefined {
  try {
    const dataDir = inject('e2eDemoDataDir');
    return dataDir ? { dataDir, database: inject('e2eDemoDatabase') } : undefined;
  } catch {
    return undefined; // outside a test worker (the global setup itself)
  }
}

/**
 * Starts the real server (built dist/main.js, else the TypeScript source) on a free port with a
 * fresh embedded database: the demo election unless `env` says otherwise (`SEED_DEMO: '0'`).
 * The demo is a copy of the run's seeded data directory (e2e/global-setup.ts) where there is one
 * and `env` sets no SEED_DEMO, else the server seeds it itself; `dataDirFrom` names another
 * directory to copy, or `false` for none; `keepDataDir` leaves the directory in place at `stop()`
 * (the caller removes it). Where the run has a PostgreSQL (`E2E_PGHOST`, e2e/postgres.ts) the
 * server runs on a database of its own, dropped at `stop()`: a copy of the demo's, or an empty one
 * for a fresh installation (SEED_DEMO set); `embedded`, a restartable server (`keepDataDir`) and a
 * copied directory stay on PGlite; `database` runs the server on one the caller made (and drops).
 */
export async function startServer(
  smsWebhookUrl: string,
  env: Record<string, string> = {},
  options: { dataDirFrom?: string | false; keepDataDir?: boolean; database?: string; embedded?: boolean } = {},
): Promise<RunningServer> {
  if (!existsSync(join(WEB_DIR, 'dist/index.html'))) throw new Error('Build the web app first: pnpm --filter @kura/web build');
  const port = await freePort();
  const smtp = await startSmtpCapture();
  const dataDir = mkdtempSync(join(tmpdir(), 'kura-e2e-'));
  const demo = options.dataDirFrom === undefined && env.SEED_DEMO === undefined ? demoTemplate() : undefined;
  const from = options.dataDirFrom ?? demo?.dataDir;
  if (from) cpSync(from, dataDir, { recursive: true });
  const onPostgres =
    Boolean(e2ePostgresHost()) && !options.database && !options.embedded && !options.keepDataDir && options.dataDirFrom === undefined;
  const ownDatabase = onPostgres && (demo?.database || env.SEED_DEMO !== undefined) ? newDatabaseName('server') : undefined;
  if (ownDatabase) await createDatabase(ownDatabase, demo?.database);
  const database = options.database ?? ownDatabase;
  const built = join(REPO_DIR, 'packages/server/dist/main.js');
  // E2E_SERVER=src runs the TypeScript source (handy while the server changes under you).
  const useBuilt = process.env.E2E_SERVER !== 'src' && existsSync(built);
  const args = useBuilt ? [built] : ['--import', 'tsx', join(REPO_DIR, 'packages/server/src/main.ts')];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: join(REPO_DIR, 'packages/server'),
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: '1',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: smsWebhookUrl,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Kura Elections <no-reply@kura.test>',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      WEB_DIST_DIR: join(WEB_DIR, 'dist'),
      MIX_MIN_BATCH: '1',
      // Once a second: a receipt is mixed within a second of its vote, and an idle server costs
      // half the CPU it did at 200 ms (two of them run through the whole suite).
      MIX_INTERVAL_MS: '1000',
      LOG_LEVEL: 'info',
      ...env,
      ...(database ? postgresEnv(database) : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines: string[] = [];
  const collect = (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const baseUrl = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 120_000;
  const failed = async (why: string) => {
    child.kill('SIGKILL');
    await smtp.close();
    if (ownDatabase) await dropDatabase(ownDatabase).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    return new Error(`${why}:\n${logLines.slice(-30).join('\n')}`);
  };
  for (;;) {
    if (child.exitCode !== null) throw await failed('server exited early');
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw await failed('server did not become ready');
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    baseUrl,
    dataDir,
    database,
    logLines,
    emailCodeSince: (to, since, timeoutMs) => smtp.codeSince(to, since, timeoutMs),
    async stop() {
      let killed = false;
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise<void>((r) => {
          const t = setTimeout(() => {
            killed = true;
            child.kill('SIGKILL');
            r();
          }, 10_000);
          child.once('exit', () => {
            clearTimeout(t);
            r();
          });
        });
      }
      await smtp.close();
      if (ownDatabase) await dropDatabase(ownDatabase);
      if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
      // A directory kept to be copied must hold a database that was shut down cleanly.
      else if (killed || child.exitCode !== 0) throw new Error(`the server did not stop cleanly:\n${logLines.slice(-30).join('\n')}`);
    },
  };
}

/** What a sign-in answers (verify/sms, verify/admin, verify/agent). */
export type Session = { bearer_token: string; hash: string; name: string; photo: string | null; balance: number };

/**
 * Puts a session (and a language choice) where the web app keeps them, localStorage, before any of
 * the page's scripts run. By default once per tab, in its first document: what the app changes
 * afterwards (a sign-out, a language picked) stands. `everyDocument`: each top-level document the
 * tab loads starts with its storage emptied and them put back, as in a new context, so one tab can
 * serve a sweep over many screens (a frame leaves its page's storage alone).
 */
export async function storeSession(
  context: BrowserContext,
  signedIn: { session: Session; accountType: string } | undefined,
  options: { everyDocument?: boolean; language?: string } = {},
): Promise<void> {
  const everyDocument = options.everyDocument ?? false;
  if (!signedIn && !everyDocument && !options.language) return;
  await context.addInitScript(
    ({ s, type, every, lng }) => {
      if (every) {
        if (window !== window.top) return;
        localStorage.clear();
        sessionStorage.clear();
      } else {
        if (sessionStorage.getItem('e2e-seeded')) return;
        sessionStorage.setItem('e2e-seeded', '1');
      }
      if (lng) localStorage.setItem('language', lng);
      if (!s) return;
      localStorage.setItem('token', s.bearer_token);
      localStorage.setItem('hash', s.hash);
      localStorage.setItem('name', s.name);
      localStorage.setItem('balance', String(s.balance));
      localStorage.setItem('account_type', type);
    },
    { s: signedIn?.session ?? null, type: signedIn?.accountType ?? '', every: everyDocument, lng: options.language ?? null },
  );
}

/**
 * A cookie-keeping API client, as the web app talks to the server: the CSRF cookie and its header,
 * the pending sign-in cookie, and a bearer token once signed in. For set-up steps only; what the
 * tests check happens in the browser.
 */
export function apiClient(server: { baseUrl: string }) {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = pair!.split('=');
      jar.set(k!.trim(), v.join('='));
    }
  };
  const headers = (token?: string) => ({
    'content-type': 'application/json',
    accept: 'application/json',
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  /** A call under /api/v1; the response is answered as it is (cookies kept). */
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: headers(token),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    keep(res);
    return res;
  };
  /** A call that must succeed: its JSON body, else an error naming the call and the answer. */
  const ok = async <T>(method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<T> => {
    const res = await call(method, path, body, token);
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    headers,
    call,
    ok,
    csrf: async () => keep(await fetch(`${server.baseUrl}/sanctum/csrf-cookie`)),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

export type Who = { kind: 'voter'; memberNo: string; sink: SmsSink } | { kind: 'admin' } | { kind: 'agent'; email: string };

/**
 * Signs in over the API with the one-time code: a voter's from the SMS sink, the admin's
 * (ADMIN_EMAIL) and an agent's from the SMTP sink. Answers the session and the client that holds
 * its cookies.
 */
export async function signInOverApi(server: RunningServer, who: Who): Promise<{ session: Session; client: ApiClient }> {
  const client = apiClient(server);
  await client.csrf();
  const since = Date.now();
  let session: Session;
  if (who.kind === 'voter') {
    await client.ok('POST', '/verify/phone', { unique_id: who.memberNo, consent: true });
    session = await client.ok<Session>('POST', '/verify/sms', { token: await who.sink.codeSince(since) });
  } else if (who.kind === 'admin') {
    await client.ok('POST', '/admin/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    session = await client.ok<Session>('POST', '/verify/admin', { token: await server.emailCodeSince(ADMIN_EMAIL, since) });
  } else {
    await client.ok('POST', '/agent/login', { email: who.email });
    session = await client.ok<Session>('POST', '/verify/agent', { token: await server.emailCodeSince(who.email, since) });
  }
  return { session, client };
}

/** Signs the admin (ADMIN_EMAIL) in through the browser: password, then the emailed code; lands on /admin. */
export async function signInAdminInBrowser(page: Page, server: RunningServer) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  const since = Date.now();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const code = await server.emailCodeSince(ADMIN_EMAIL, since);
  await page.getByLabel('Security code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/admin', { timeout: 20_000 });
}

/** The sign-in page's words in each language a member may choose there (the catalogues' signIn.* and code.*). */
const SIGN_IN_WORDS = {
  en: {
    identifier: 'Member number, phone number or email',
    submit: 'Sign in',
    prompt: 'Enter the 6-digit code we sent to your phone by SMS.',
    code: '6-digit code',
    verify: 'Verify',
  },
  sw: {
    identifier: 'Nambari ya mwanachama, nambari ya simu au barua pepe',
    submit: 'Ingia',
    prompt: 'Weka msimbo wa tarakimu 6 tuliokutumia kwa SMS.',
    code: 'Msimbo wa tarakimu 6',
    verify: 'Thibitisha',
  },
} as const;

/**
 * Signs a member in through the browser: the identifier (member number, or registered phone in any
 * spelling), consent, then the SMS code; lands on /voter. With `language: 'sw'` the member first
 * chooses Kiswahili on the sign-in page (the choice is kept on this device) and signs in in it;
 * `atCode` runs on the code step before the code is typed.
 */
export async function signInVoterInBrowser(
  page: Page,
  sink: SmsSink,
  memberNo: string,
  options: { language?: 'en' | 'sw'; atCode?: (page: Page) => Promise<void> } = {},
) {
  const words = SIGN_IN_WORDS[options.language ?? 'en'];
  await page.goto('/sign-in');
  if (options.language === 'sw') {
    await page.getByLabel('Language').selectOption('sw');
    await page.getByRole('button', { name: words.submit, exact: true }).waitFor();
  }
  await page.getByLabel(words.identifier).fill(memberNo);
  await page.getByRole('checkbox').click();
  const since = Date.now();
  await page.getByRole('button', { name: words.submit, exact: true }).click();
  await page.getByText(words.prompt).waitFor();
  await options.atCode?.(page);
  const code = await sink.codeSince(since);
  await page.getByLabel(words.code, { exact: true }).fill(code);
  await page.getByRole('button', { name: words.verify }).click();
  await page.waitForURL('**/voter', { timeout: 15_000 });
}

/** Signs an agent in through the browser: the e-mail, then the emailed code; lands on /agent. */
export async function signInAgentInBrowser(page: Page, server: RunningServer, email: string) {
  await page.goto('/agent/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  const since = Date.now();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const code = await server.emailCodeSince(email, since);
  await page.getByLabel('Security code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/agent', { timeout: 20_000 });
}

/** A staff or voter page's main menu link. */
export const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** Waits for a toast (or any text) shown exactly so. */
export const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor({ timeout: 30_000 });

/**
 * The Add Candidate dialog, open on the page: the position (unless already chosen), a member found
 * by number, a photo of one colour and a statement; waits for the "Candidate added" toast.
 */
export async function addCandidate(
  page: Page,
  c: { memberNo: string; name: string; position?: string; statement: string },
  colour: [number, number, number],
) {
  const dialog = page.getByRole('dialog', { name: 'Add Candidate' });
  await dialog.waitFor();
  if (c.position) await dialog.getByLabel('Position').selectOption({ label: c.position });
  await dialog.getByLabel('Find the member').fill(c.memberNo);
  await dialog.getByLabel('Find the member').press('Enter');
  // A single match is chosen at once.
  await expect
    .poll(() => dialog.getByRole('radio', { name: new RegExp(`^${c.name} \\(${c.memberNo},`) }).isChecked(), { timeout: 10_000 })
    .toBe(true);
  await dialog
    .getByLabel('Profile picture (optional)')
    .setInputFiles({ name: `${c.memberNo}.png`, mimeType: 'image/png', buffer: purplePng(colour) });
  await dialog.getByText('Preview of the new picture', { exact: false }).waitFor();
  await dialog.getByLabel('Statement to voters (optional)').fill(c.statement);
  await dialog.getByText(`${c.statement.length} of 2,000 characters`, { exact: false }).waitFor();
  await dialog.getByRole('button', { name: 'Add candidate' }).click();
  await toast(page, 'Candidate added');
  await dialog.waitFor({ state: 'detached' });
}

/** Switches voting on as the admin, over the API (set-up for tests that are about something else). */
export async function enableVoting(server: RunningServer) {
  const { session, client } = await signInOverApi(server, { kind: 'admin' });
  await client.ok('POST', '/toggle', { status: true }, session.bearer_token);
}

/** A tiny valid 8×8 PNG of one colour (purple by default), built here so tests need no fixture file. */
export function purplePng(rgb: [number, number, number] = [0x80, 0x00, 0x80]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, sum]);
  };
  const w = 8;
  const h = 8;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The Chromium the suite drives: `CHROMIUM_PATH` when set, else Debian's headless shell
 * (`apt-get install -y chromium-headless-shell`: the same Blink and V8 build as the package
 * `chromium`, without the browser's own user interface layer) when it is installed, else Debian's
 * `chromium`. The shell ran the whole suite with the same results in about a seventh less time
 * alone (BENCHMARKS.md; docs/decisions/015-the-browser-suite-on-the-headless-shell.md; its CPU
 * figures there came from `/usr/bin/time`, which misses the renderers Chromium's zygote forks).
 */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? HEADLESS_SHELLS.find((path) => existsSync(path)) ?? '/usr/bin/chromium';
}
/** Where Debian's package `chromium-headless-shell` puts the binary, then its wrapper script. */
const HEADLESS_SHELLS = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  // Every page of every context navigates again once when Chromium aborts a navigation with
  // net::ERR_NETWORK_CHANGED: CI runs the Docker test beside this suite, and the networks it creates
  // and removes are "network changes" to Chromium even for 127.0.0.1 (CI, admin.e2e's first goto).
  // Every context asks for reduced motion unless its options say otherwise: the public pages'
  // banner otherwise slides every 4 s for as long as a page stays open (an idle landing page cost
  // 1.9 s of Chromium's CPU in 20 s, 0.2 s with reduced motion), and no e2e test looks at motion
  // (the banner's own tests do, in src/components/layout/announcement-banner.test.tsx).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    const context = await newContext({ reducedMotion: 'reduce', ...options });
    const newPage = context.newPage.bind(context);
    context.newPage = async () => retryGotoOnNetworkChange(await newPage());
    context.on('page', retryGotoOnNetworkChange);
    return context;
  };
  return browser;
}

const patched = new WeakSet<Page>();
function retryGotoOnNetworkChange(page: Page): Page {
  if (patched.has(page)) return page;
  patched.add(page);
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    try {
      return await goto(url, options);
    } catch (error) {
      if (!String(error).includes('net::ERR_NETWORK_CHANGED')) throw error;
      return goto(url, options);
    }
  };
  return page;
}

/** One e2e file's running pieces: the SMS sink, the server and Chromium (set once its beforeAll has run). */
export type E2E = {
  sink: SmsSink;
  server: RunningServer;
  browser: Browser;
  /** A fresh browser context on the server at the given viewport, and a page in it. */
  newPage: (width?: number, height?: number) => Promise<{ context: BrowserContext; page: Page }>;
  /**
   * Stops the server and starts it again on its data (a copy of its directory) with `env` added
   * to the file's: an operator's restart with new settings. Only with `useE2E({ restartable: true })`.
   * `server` is the new one afterwards (a new port: open new browser contexts).
   */
  restart: (env: Record<string, string>) => Promise<RunningServer>;
};

/**
 * Registers the file's beforeAll (the SMS sink, the server started with `env`, then `ready`, then
 * Chromium) and its afterAll (all three stopped). The returned object's fields are set in beforeAll.
 * `restartable` keeps the server's data directory at stop so `restart` can start on it.
 */
export function useE2E(
  options: {
    env?: Record<string, string>;
    ready?: (server: RunningServer) => Promise<unknown>;
    restartable?: boolean;
    /** On the embedded PGlite even where the run has a PostgreSQL (`startServer`). */
    embedded?: boolean;
  } = {},
): E2E {
  const keepDataDir = options.restartable ?? false;
  const e2e = {
    async newPage(width = 1280, height = 900) {
      const context = await e2e.browser.newContext({ viewport: { width, height }, baseURL: e2e.server.baseUrl });
      return { context, page: await context.newPage() };
    },
    async restart(env: Record<string, string>) {
      if (!keepDataDir) throw new Error('restart needs useE2E({ restartable: true })');
      const old = e2e.server;
      await old.stop();
      try {
        e2e.server = await startServer(e2e.sink.url, { ...options.env, ...env }, { dataDirFrom: old.dataDir, keepDataDir });
      } finally {
        rmSync(old.dataDir, { recursive: true, force: true });
      }
      return e2e.server;
    },
  } as E2E;
  beforeAll(async () => {
    e2e.sink = await startSmsSink();
    e2e.server = await startServer(e2e.sink.url, options.env, { keepDataDir, embedded: options.embedded });
    await options.ready?.(e2e.server);
    e2e.browser = await launchBrowser();
  });
  afterAll(async () => {
    await e2e.browser?.close();
    try {
      await e2e.server?.stop();
    } finally {
      if (keepDataDir && e2e.server) rmSync(e2e.server.dataDir, { recursive: true, force: true });
    }
    await e2e.sink?.close();
  });
  return e2e;
}

/**
 * Waits for every running animation that ends (a toast sliding in, a dialog fading in) to finish,
 * and for two frames, so axe, screenshots and bounding boxes see the final state; looping ones (a
 * spinner) are not waited for.
 */
export async function settled(page: Page) {
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

/**
 * How much wider than its window the page is, in CSS px: above 0, a member must scroll the page
 * sideways to read it (WCAG 1.4.10, Reflow). Tables and other wide parts that scroll in frames of
 * their own do not count.
 */
export const sidewaysBy = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * A full-page picture of the screen in e2e/screenshots/ (gitignored), for a person to look at;
 * nothing reads it. `E2E_SCREENSHOTS=0` skips them (CI sets it: its clone is thrown away, and the
 * 110 pictures cost Chromium some 15 s of CPU).
 */
export async function screenshot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS === '0') return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

type AxeResult = {
  passes: unknown[];
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
};

/**
 * An axe-core scan (WCAG 2.1 A and AA) of the page as it stands: its serious and critical
 * violations, one line each; a scan that checked nothing is a finding too. The page's context needs
 * `bypassCSP` (the server's CSP rightly refuses the injected script).
 */
export async function axeScan(page: Page): Promise<string[]> {
  // The page at rest: no pointer over a control (its hover colour), and no colour transition half
  // way (a control just chosen fades to its colours; read mid-fade its contrast fails: CI5's
  // register page at 390 px).
  await page.mouse.move(0, 0);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // not a spinner's endless turn
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Once per document: a sweep that moves by the app's own navigation scans one document many times.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SOURCE });
  const result = (await page.evaluate(() =>
    (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<unknown> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    }),
  )) as AxeResult;
  if (result.passes.length === 0) return ['axe checked nothing'];
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}
