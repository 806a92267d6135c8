/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, launchBrowser, SCREENSHOT_DIR, screenshot, startServer, startSmsSink, type RunningServer } from './harness';

/**
 * The election's life in Chromium against the real server: the admin schedules voting to open a
 * few seconds ahead; the landing page counts down and opens by itself; members vote; the admin
 * closes the election; the public Results page declares the elected candidates and the final
 * commitment; a voter checks a receipt on the public page; the printed declaration is rendered.
 */

let sink: Awaited<ReturnType<typeof startSmsSink>>;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  sink = await startSmsSink();
  server = await startServer(sink.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.close();
});

/** A voter signed in through the API (set-up only): votes for the first candidate of every position on their ballot. */
async function voteAs(memberNo: string): Promise<string[]> {
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
  keep(await fetch(`${server.baseUrl}/sanctum/csrf-cookie`));
  const since = Date.now();
  const phone = await fetch(`${server.baseUrl}/api/v1/verify/phone`, { method: 'POST', headers: headers(), body: JSON.stringify({ unique_id: memberNo, consent: true }) });
  keep(phone);
  if (!phone.ok) throw new Error(`verify/phone: ${phone.status} ${await phone.text()}`);
  const code = await sink.codeSince(since);
  const sms = await fetch(`${server.baseUrl}/api/v1/verify/sms`, { method: 'POST', headers: headers(), body: JSON.stringify({ token: code }) });
  keep(sms);
  if (!sms.ok) throw new Error(`verify/sms: ${sms.status} ${await sms.text()}`);
  const token = ((await sms.json()) as { bearer_token: string }).bearer_token;
  const ballot = await fetch(`${server.baseUrl}/api/v1/psk/candidates/v2`, { headers: headers(token) });
  const groups = ((await ballot.json()) as { data: { position_id: number; candidates: { id: number }[] }[] }).data.filter((g) => g.candidates.length > 0);
  const candidates = Object.fromEntries(groups.map((g) => [String(g.position_id), g.candidates[0]!.id]));
  const res = await fetch(`${server.baseUrl}/api/v1/psk/vote`, { method: 'POST', headers: headers(token), body: JSON.stringify({ candidates }) });
  if (res.status !== 201) throw new Error(`vote: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { receipts: { vvpat: string }[] }).receipts.map((r) => r.vvpat);
}

/** A datetime-local value on the UTC wall clock (the test sets the organisation's zone to UTC). */
const utcInput = (d: Date) => d.toISOString().slice(0, 19);

async function signInAdmin(page: Page) {
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

describe('the election from schedule to declaration', () => {
  it('opens on time by itself, closes on the admin’s word, declares the result, and a receipt checks out', async () => {
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 1000 }, baseURL: server.baseUrl });
    const admin = await adminContext.newPage();
    await signInAdmin(admin);

    // The admin schedules the opening 12 seconds ahead, with the organisation's time zone shown.
    const schedule = admin.getByRole('region', { name: 'Schedule and results' });
    // The demo society's zone is shown; the schedule is typed on the organisation's clock, set to UTC here.
    await expect.poll(() => schedule.getByText(/Times are in/).textContent()).toMatch(/Africa\/Nairobi \(UTC\+03:00\)/);
    await schedule.getByLabel("The organisation's time zone").fill('UTC');
    await expect.poll(() => schedule.getByText(/Times are in/).textContent()).toMatch(/UTC \(UTC\+00:00\)/);
    const opensAt = new Date(Date.now() + 12_000);
    await schedule.getByLabel('Voting opens', { exact: true }).fill(utcInput(opensAt));
    await schedule.getByLabel('Voting closes', { exact: true }).fill(utcInput(new Date(Date.now() + 3_600_000)));
    await schedule.getByText(/^Staff only:/).click();
    await schedule.getByRole('button', { name: 'Save schedule' }).click();
    await expect.poll(() => schedule.getByTestId('election-phase').textContent(), { timeout: 10_000 }).toMatch(/^Scheduled/);

    // The public landing page counts down, then opens by itself.
    const publicContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: server.baseUrl });
    const landing = await publicContext.newPage();
    await landing.goto('/');
    const countdown = landing.getByTestId('voting-countdown');
    await expect.poll(() => countdown.textContent(), { timeout: 10_000 }).toMatch(/Voting opens in 00:00:\d\d/);
    const first = await countdown.textContent();
    await landing.waitForTimeout(1500);
    expect(await countdown.textContent()).not.toBe(first);
    await screenshot(landing, 'election-life-countdown');
    // Staff-only results: the public page says so instead of showing counts.
    await expect.poll(() => landing.getByText('Results are shown to election staff only until voting closes').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => countdown.textContent(), { timeout: 30_000 }).toMatch(/Voting is open\. It closes in/);
    expect((await (await fetch(`${server.baseUrl}/api/v1/psk/election/status`)).json()).active).toBe('1');

    // Members vote.
    const receipts = [...(await voteAs('1003')), ...(await voteAs('1004')), ...(await voteAs('1005'))];
    expect(receipts.length).toBeGreaterThan(2);

    // The admin closes the election, through a dialog that says what closing does.
    await admin.reload();
    await admin.getByRole('button', { name: 'Close the election' }).click();
    const dialog = admin.getByRole('alertdialog');
    await expect.poll(() => dialog.textContent()).toMatch(/final commitment.*audit/s);
    await dialog.getByRole('button', { name: 'Close the election' }).click();
    await expect.poll(() => admin.getByTestId('election-phase').textContent(), { timeout: 30_000 }).toMatch(/^Closed/);

    // The public Results page: elected candidates and the final commitment.
    const results = await publicContext.newPage();
    await results.goto('/results');
    await results.getByRole('heading', { name: 'Declaration of results' }).waitFor({ timeout: 20_000 });
    expect(await results.getByRole('cell', { name: 'Elected', exact: true }).count()).toBeGreaterThan(0);
    const commitments = (await (await fetch(`${server.baseUrl}/api/v1/psk/commitments`)).json()) as { data: { hash: string; count: number }[] };
    expect(await results.getByTestId('final-hash').textContent()).toBe(commitments.data[0]!.hash);
    expect(commitments.data[0]!.count).toBe(receipts.length);
    await screenshot(results, 'election-life-results');

    // The printed declaration: Chromium's PDF (A4, print stylesheet), rendered to PNG when poppler is here.
    await results.emulateMedia({ media: 'print' });
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const pdfPath = join(SCREENSHOT_DIR, 'election-life-declaration.pdf');
    writeFileSync(pdfPath, await results.pdf({ format: 'A4', printBackground: true }));
    let rendered = false;
    try {
      execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', pdfPath, join(SCREENSHOT_DIR, 'election-life-declaration')]);
      rendered = true;
    } catch {
      await results.screenshot({ path: join(SCREENSHOT_DIR, 'election-life-declaration-print.png'), fullPage: true });
    }
    expect(rendered ? existsSync(join(SCREENSHOT_DIR, 'election-life-declaration-1.png')) : true).toBe(true);
    // The site chrome is gone in print; the declaration and the signature line are there.
    expect(await results.getByRole('button', { name: 'Print / Save as PDF' }).isVisible()).toBe(false);
    expect(await results.getByText(/Returning officer/).isVisible()).toBe(true);

    // A voter checks a receipt on the public page: counted, the position only.
    const check = await publicContext.newPage();
    await check.goto('/receipt');
    await check.getByLabel('Receipt code').fill(receipts[0]!);
    await check.getByRole('button', { name: 'Check receipt' }).click();
    await expect.poll(() => check.getByRole('status').filter({ hasText: receipts[0]! }).textContent(), { timeout: 10_000 }).toMatch(/is in the count, for /);
    await screenshot(check, 'election-life-receipt');

    await adminContext.close();
    await publicContext.close();
  });
});
