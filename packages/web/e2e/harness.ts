/// <reference types="node" />
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
// The server's own test SMTP sink: the same capture its delivery tests use.
import { startSmtpCapture } from '../../server/test/auth/smtp-capture';

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
  logLines: string[];
  /** The 6-digit code of the newest mail to `to` that the SMTP sink received after `since`. */
  emailCodeSince: (to: string, since: number, timeoutMs?: number) => Promise<string>;
  stop: () => Promise<void>;
};

/** Starts the real server (built dist/main.js, else the TypeScript source) on a free port with a fresh embedded database. */
export async function startServer(smsWebhookUrl: string): Promise<RunningServer> {
  if (!existsSync(join(WEB_DIR, 'dist/index.html'))) throw new Error('Build the web app first: pnpm --filter @kura/web build');
  const port = await freePort();
  const smtp = await startSmtpCapture();
  const dataDir = mkdtempSync(join(tmpdir(), 'kura-e2e-'));
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
      MIX_INTERVAL_MS: '200',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines: string[] = [];
  const collect = (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const baseUrl = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logLines.slice(-30).join('\n')}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready:\n${logLines.slice(-30).join('\n')}`);
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    baseUrl,
    logLines,
    emailCodeSince: (to, since, timeoutMs) => smtp.codeSince(to, since, timeoutMs),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise<void>((r) => {
          const t = setTimeout(() => {
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
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A minimal cookie-keeping API client for set-up steps done as the admin (not what the tests check). */
export async function enableVoting(server: RunningServer) {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = pair!.split('=');
      jar.set(k!.trim(), v.join('='));
    }
  };
  const headers = () => ({
    'content-type': 'application/json',
    accept: 'application/json',
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
  });
  keep(await fetch(`${server.baseUrl}/sanctum/csrf-cookie`));
  const since = Date.now();
  const login = await fetch(`${server.baseUrl}/api/v1/admin/login`, { method: 'POST', headers: headers(), body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) });
  keep(login);
  if (!login.ok) throw new Error(`admin login: ${login.status} ${await login.text()}`);
  const code = await server.emailCodeSince(ADMIN_EMAIL, since);
  const verify = await fetch(`${server.baseUrl}/api/v1/verify/admin`, { method: 'POST', headers: headers(), body: JSON.stringify({ token: code }) });
  keep(verify);
  if (!verify.ok) throw new Error(`admin verify: ${verify.status} ${await verify.text()}`);
  const { bearer_token } = (await verify.json()) as { bearer_token: string };
  const toggle = await fetch(`${server.baseUrl}/api/v1/toggle`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer_token}` },
    body: JSON.stringify({ status: true }),
  });
  if (!toggle.ok) throw new Error(`toggle: ${toggle.status} ${await toggle.text()}`);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
