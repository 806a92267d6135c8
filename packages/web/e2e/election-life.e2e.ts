/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, SCREENSHOT_DIR, signInAdminInBrowser, signInOverApi, useE2E } from './harness';

/**
 * The election's life in Chromium against the real server: the admin schedules voting to open a
 * few seconds ahead; the landing page counts down and opens by itself; members vote; the admin
 * closes the election; the public Results page declares the elected candidates and the final
 * commitment; a voter checks a receipt on the public page; the printed declaration is rendered.
 */

const e2e = useE2E();

/** A voter signed in through the API (set-up only): votes for the first candidate of every position on their ballot. */
async function voteAs(memberNo: string): Promise<string[]> {
  const { session, client } = await signInOverApi(e2e.server, { kind: 'voter', memberNo, sink: e2e.sink });
  const token = session.bearer_token;
  const ballot = await client.ok<{ data: { position_id: number; candidates: { id: number }[] }[] }>(
    'GET',
    '/psk/candidates/v2',
    undefined,
    token,
  );
  const groups = ballot.data.filter((g) => g.candidates.length > 0);
  const candidates = Object.fromEntries(groups.map((g) => [String(g.position_id), g.candidates[0]!.id]));
  const res = await client.call('POST', '/psk/vote', { candidates }, token);
  if (res.status !== 201) throw new Error(`vote: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { receipts: { vvpat: string }[] }).receipts.map((r) => r.vvpat);
}

/** A datetime-local value on the UTC wall clock (the test sets the organisation's zone to UTC). */
const utcInput = (d: Date) => d.toISOString().slice(0, 19);

const signInAdmin = (page: Page) => signInAdminInBrowser(page, e2e.server);

describe('the election from schedule to declaration', () => {
  it('opens on time by itself, closes on the admin’s word, declares the result, and a receipt checks out', async () => {
    const adminContext = await e2e.browser.newContext({ viewport: { width: 1280, height: 1000 }, baseURL: e2e.server.baseUrl });
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
    const publicContext = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: e2e.server.baseUrl });
    const landing = await publicContext.newPage();
    // What the landing was answered when it read the election and its results (said if the check
    // after the opening fails: it failed once, in a loaded run, with nothing to say why).
    const answers: string[] = [];
    landing.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/v1/election') || path.startsWith('/api/v1/psk/results'))
        answers.push(`${Date.now() % 100_000} ${r.status()} ${path}`);
    });
    await landing.goto('/');
    const countdown = landing.getByTestId('voting-countdown');
    await expect.poll(() => countdown.textContent(), { timeout: 10_000 }).toMatch(/Voting opens in 00:00:\d\d/);
    const first = await countdown.textContent();
    // It ticks: the next second shows without a reload.
    await expect.poll(() => countdown.textContent(), { timeout: 5_000 }).not.toBe(first);
    await screenshot(landing, 'election-life-countdown');
    await expect.poll(() => countdown.textContent(), { timeout: 30_000 }).toMatch(/Voting is open\. It closes in/);
    // Once open, staff-only results: the public page says so instead of showing counts. (Checked
    // after the opening: before it the landing has no results card, so a check made then raced the
    // opening, and failed when the scheduler and the page's backed-off re-ask came late.)
    try {
      await expect
        .poll(() => landing.getByText('Results are shown to election staff only until voting closes').count(), { timeout: 10_000 })
        .toBe(1);
    } catch (error) {
      const main = await landing
        .locator('main')
        .innerText()
        .catch(() => '(no main)');
      throw new Error(`${String(error)}\nthe landing showed: ${main}\nits answers (ms, status, path):\n${answers.join('\n')}`);
    }
    expect(await landing.getByTestId('landing-not-open').count()).toBe(0);
    expect((await (await fetch(`${e2e.server.baseUrl}/api/v1/psk/election/status`)).json()).active).toBe('1');

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
    const commitments = (await (await fetch(`${e2e.server.baseUrl}/api/v1/psk/commitments`)).json()) as {
      data: { hash: string; count: number }[];
    };
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
    await expect
      .poll(() => check.getByRole('status').filter({ hasText: receipts[0]! }).textContent(), { timeout: 10_000 })
      .toMatch(/is in the count, for /);
    await screenshot(check, 'election-life-receipt');

    await adminContext.close();
    await publicContext.close();
  });
});
