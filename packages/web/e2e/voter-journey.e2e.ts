/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { enableVoting, screenshot, useE2E, sidewaysBy } from './harness';

const MEMBER_NO = '1001';

const e2e = useE2E({ ready: enableVoting });

const newPage = e2e.newPage;

describe('public pages', () => {
  it('landing shows the seeded positions and the results card, defaulting to Chairperson National', async () => {
    const { context, page } = await newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Current election statistics' }).waitFor();
    const select = page.getByRole('combobox', { name: 'Position' });
    await expect.poll(() => select.textContent()).toContain('Chairperson National');
    await page.getByRole('heading', { name: 'Chairperson National', level: 2 }).waitFor();
    await page.getByText('No votes at the moment for the selected position').waitFor();
    expect(await page.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/sign-in');
    expect(await page.getByRole('link', { name: 'Verify', exact: true }).getAttribute('href')).toBe('/verify');
    await page.getByRole('button', { name: 'Customize Colors' }).waitFor();
    await screenshot(page, 'landing');

    await select.click();
    await page.getByRole('option', { name: 'President National' }).click();
    await page.getByRole('heading', { name: 'President National', level: 2 }).waitFor();
    await context.close();
  });

  it('landing is usable at 360px, its scripts and styles sent compressed', async () => {
    const { context, page } = await newPage(360, 780);
    const encodings = new Map<string, string>();
    page.on('response', (res) => {
      if (new URL(res.url()).pathname.startsWith('/assets/')) encodings.set(res.url(), res.headers()['content-encoding'] ?? 'none');
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Current election statistics' }).waitFor();
    const overflow = await sidewaysBy(page);
    expect(overflow).toBeLessThanOrEqual(0);
    // A phone's first visit: every script and style sheet the build compressed (all over 1 kB)
    // comes brotli- or gzip-encoded, the precompressed files the server picked for the browser,
    // and the whole is well under half its size (the build's files: a little over a quarter).
    const assets = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .filter((e) => new URL(e.name).pathname.startsWith('/assets/'))
        .map((e) => ({ url: e.name, encoded: e.encodedBodySize, decoded: e.decodedBodySize })),
    );
    const large = assets.filter((a) => a.decoded > 1024);
    expect(large.length).toBeGreaterThan(5);
    for (const a of large) expect([a.url, encodings.get(a.url)]).toEqual([a.url, expect.stringMatching(/^(br|gzip)$/)]);
    const sum = (key: 'encoded' | 'decoded') => assets.reduce((n, a) => n + a[key], 0);
    expect(sum('encoded')).toBeLessThan(0.4 * sum('decoded'));
    await screenshot(page, 'landing-360');
    await context.close();
  });

  it('sign-in shows the identifier messages live and disables Sign in', async () => {
    const { context, page } = await newPage();
    await page.goto('/sign-in');
    const input = page.getByLabel('Member number, phone number or email');
    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    await input.fill('ab');
    await page.getByText('Must be at least 3 characters long').waitFor();
    expect(await button.isDisabled()).toBe(true);
    await input.fill('not an id');
    await page.getByText('Should only contain digits, be a valid email address, or follow CMAKE##/## format').waitFor();
    await input.fill('1'.repeat(151));
    await page.getByText('Must be at most 150 characters long').waitFor();
    await screenshot(page, 'sign-in-invalid');
    await input.fill('CMAKE12/34');
    await expect.poll(() => button.isDisabled()).toBe(false);
    await context.close();
  });

  it('verify shows the registered (masked) details of a member', async () => {
    const { context, page } = await newPage();
    await page.goto('/verify');
    await page.getByLabel('Enter your member number or email').fill(MEMBER_NO);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Branch').waitFor();
    await screenshot(page, 'verify');
    await page.getByLabel('Enter your member number or email').fill('999999');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('alert').first().waitFor();
    await context.close();
  });
});

describe('voter journey', () => {
  it('signs in with an SMS code, votes on every eligible position, sees receipts, and the landing page updates live', async () => {
    const watcher = await newPage();
    // The events the landing page's socket receives (Socket.IO frames: `42["Event",{...}]`).
    const events: string[] = [];
    watcher.page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        const event = /^\d+\["([A-Za-z]+)"/.exec(String(payload))?.[1];
        if (event) events.push(event);
      }),
    );
    await watcher.page.goto('/');
    await watcher.page.getByText('No votes at the moment for the selected position').waitFor();

    const { context, page } = await newPage();
    await page.goto('/sign-in');
    // An identifier that names no one says so on the page, with whom to ask, and stays here.
    await page.getByLabel('Member number, phone number or email').fill('0799 999 999');
    await page.getByRole('checkbox').click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText(/We could not find that member number or phone number\. Check it, or contact /).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.getByLabel('Member number, phone number or email').fill(MEMBER_NO);
    const since = Date.now();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter the 6-digit code we sent to your phone by SMS.').waitFor();
    await screenshot(page, 'sign-in-token');
    await page.getByRole('button', { name: 'Resend code' }).waitFor();
    await page.getByText(/You can ask for a new code in \d+ seconds/).waitFor();
    const code = await e2e.sink.codeSince(since);
    await page.getByLabel('6-digit code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/voter', { timeout: 15_000 });
    expect(await page.evaluate(() => localStorage.getItem('account_type'))).toBe('member');
    await page.getByText('Secure and Transparent Voting ✅').first().waitFor();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await screenshot(page, 'voter-dashboard');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Voting' }).click();
    await page.waitForURL('**/voter/elect');
    await page.getByRole('button', { name: 'Vote', exact: true }).waitFor();
    const radios = page.getByRole('radio');
    await radios.first().waitFor();
    const names = await radios.evaluateAll((els) => [...new Set(els.map((e) => (e as HTMLInputElement).name))]);
    expect(names.length).toBeGreaterThan(0);
    const chosen: string[] = [];
    for (const name of names) {
      const first = page.locator(`input[type=radio][name="${name}"]`).first();
      await first.check();
      chosen.push((await first.getAttribute('data-name')) ?? '');
    }
    await screenshot(page, 'voter-elect');
    await page.getByRole('button', { name: 'Vote', exact: true }).click();
    await page.getByRole('alertdialog').getByText('Are you sure?').waitFor();
    await screenshot(page, 'voter-elect-confirm');
    await page.getByRole('button', { name: 'Cast my vote' }).click();
    await page.getByText('You have successfully voted').waitFor();
    await screenshot(page, 'voter-voted');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My receipts' }).click();
    await page.waitForURL('**/voter/vpat');
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(names.length);
    const firstRef = (await rows.first().locator('td').nth(1).textContent())?.trim() ?? '';
    expect(firstRef.length).toBeGreaterThan(4);
    await screenshot(page, 'voter-vpat');

    // Live: the landing page in the other tab moves without a reload.
    await watcher.page.getByText('100.00% 1 vote').first().waitFor({ timeout: 15_000 });
    // ...from the tally channel (issue #28), not the full results one.
    expect(events).toContain('ResultsTally');
    expect(events).not.toContain('DetailedResultsUpdate');
    await screenshot(watcher.page, 'landing-after-vote');

    // A second visit says plainly that the voter has voted.
    await page.goto('/voter/elect');
    await page.getByText('You have already voted for every position.').waitFor();

    await page.goto('/voter/education');
    await page.getByText('Open Voting', { exact: true }).waitFor();
    // The demo election has no schedule: the tutorial tells no dates (never a sample sentence's).
    expect(await page.getByText('voting starts on').count()).toBe(0);
    await screenshot(page, 'voter-education');

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('/voter');
    await page.waitForURL('**/sign-in');

    await context.close();
    await watcher.context.close();
  });
});
