/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, useE2E } from './harness';

/**
 * Three defects seen in Chromium, pinned where they showed: a fresh browser opening a staff page,
 * the staff shell's first second after sign-in, and the tutorial of an election without a schedule.
 */
const e2e = useE2E();

describe('staff areas in a fresh browser', () => {
  it("opens /admin/… and /agent/… on that area's own login, not the voter's sign-in", async () => {
    for (const [path, login] of [
      ['/admin/members', '/admin/login'],
      ['/admin', '/admin/login'],
      ['/agent', '/agent/login'],
    ] as const) {
      const { context, page } = await e2e.newPage();
      // The guard may move the browser before the load event (see admin.e2e's guard): wait for the response only.
      await page.goto(path, { waitUntil: 'commit' });
      await page.waitForURL((url) => url.pathname === login, { timeout: 15_000 });
      await page.getByRole('heading', { name: login === '/admin/login' ? 'Admin Login' : 'Agent Login' }).waitFor();
      await context.close();
    }
  });
});

/**
 * Installs, before the page's scripts, a watch on every animation frame: once the header's Sign Out
 * exists, what the pointer would hit at its centre. Answers a reader of what covered it.
 */
const WATCH_FRAMES = 240;
function watchSignOut() {
  const w = window as unknown as { __covered: string[]; __frames: number };
  w.__covered = [];
  w.__frames = 0;
  const tick = () => {
    const button = [...document.querySelectorAll('header button')].find((b) => b.textContent?.includes('Sign Out'));
    if (button) {
      const r = button.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !button.contains(hit)) w.__covered.push(hit ? hit.outerHTML.slice(0, 120) : 'nothing');
      w.__frames += 1;
    }
    if (w.__frames < 240) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
type Watched = { __covered: string[]; __frames: number };

describe("the header's controls after a staff sign-in", () => {
  /** The admin's browser storage after the sign-in, for the narrow screen (one code a minute per address). */
  let storage: [string, string][] = [];

  it('nothing ever covers Sign Out, from the first frame of the admin area (1280 px, through the sign-in)', async () => {
    const { context, page } = await e2e.newPage(1280, 800);
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    const since = Date.now();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const code = await e2e.server.emailCodeSince(ADMIN_EMAIL, since);
    await page.getByLabel('Security code').fill(code);
    // The welcome toast slid down from above over Sign Out for a moment, and a click then hit it.
    await page.evaluate(watchSignOut);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/admin', { timeout: 20_000 });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as Watched).__frames), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(WATCH_FRAMES);
    expect(await page.evaluate(() => (window as unknown as Watched).__covered)).toEqual([]);
    storage = await page.evaluate(() => Object.entries(localStorage));
    await context.close();
  });

  it('nothing ever covers Sign Out when the admin area opens at 390 px', async () => {
    expect(storage.length).toBeGreaterThan(0);
    const { context, page } = await e2e.newPage(390, 800);
    await context.addInitScript((entries: [string, string][]) => {
      for (const [k, v] of entries) localStorage.setItem(k, v);
    }, storage);
    await context.addInitScript(watchSignOut);
    await page.goto('/admin');
    await page.getByText('Secure and Transparent Voting ✅', { exact: true }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as Watched).__frames), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(WATCH_FRAMES);
    expect(await page.evaluate(() => (window as unknown as Watched).__covered)).toEqual([]);
    // No word of the header is cut short on a phone (the app's name once showed as "K…" beside the
    // photo and Sign Out): every text shown in it (not the screen reader's 1-pixel ones) fits its box.
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('header *')]
        .filter(
          (el) =>
            el.getBoundingClientRect().width > 1 && [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim()),
        )
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent),
    );
    expect(cut).toEqual([]);
    // Sign Out answers the first click while the toast shows.
    await page.getByRole('button', { name: 'Sign Out' }).click({ timeout: 2_000 });
    await page.waitForURL('**/admin/login');
    await context.close();
  });

  it("a public page's toast sits below its header at 390 px, where the header takes two rows", async () => {
    const { context, page } = await e2e.newPage(390, 800);
    await page.goto('/sign-in');
    await page.getByLabel('Member number, phone number or email').fill('1001');
    await page.getByRole('checkbox').click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter the 6-digit code we sent to your phone by SMS.').waitFor();
    await page.getByLabel('6-digit code', { exact: true }).fill('000000'); // a refused code: a red toast
    await page.getByRole('button', { name: 'Verify' }).click();
    const toastItem = page
      .getByRole('region', { name: /Notifications/ })
      .locator('li')
      .first();
    await toastItem.waitFor();
    await page.waitForTimeout(400); // the slide-in is over
    const headerBottom = await page
      .locator('header')
      .first()
      .evaluate((h) => h.getBoundingClientRect().bottom);
    const toastTop = await toastItem.evaluate((t) => t.getBoundingClientRect().top);
    expect(toastTop).toBeGreaterThanOrEqual(headerBottom);
    await context.close();
  });
});
