/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeScan, screenshot, signInAdminInBrowser, signInVoterInBrowser, useE2E } from './harness';

/**
 * Issue 39 (the register) in Chromium against the real server: the admin opens the inspection
 * window over the API; a member opens "On the roll?", is told they are on the roll and that claims
 * are open, and makes a correction; the admin finds it in the Register page's claims queue and
 * upholds it with a reason, asked once more first; the member then sees the ruling and its reason.
 * Both pages at 390 px: no sideways scroll and no serious or critical axe violation.
 */

const e2e = useE2E();
const MEMBER = '1050';
const DETAILS = 'My branch is Nakuru since March, not Nairobi.';
const REASON = 'The transfer letter of 3 March is on file; the branch is corrected.';

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** The API as the signed-in admin (the browser's session: one admin code a minute). */
async function asAdmin<T>(token: string, method: 'GET' | 'PATCH', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

describe('a claim on the register (issue 39)', () => {
  it('a member sees "Am I on the roll?", makes a claim while the register is open, and sees the ruling the admin gave', async () => {
    const admin = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: e2e.server.baseUrl, bypassCSP: true });
    const adminPage = await admin.newPage();
    await signInAdminInBrowser(adminPage, e2e.server);
    const token = (await adminPage.evaluate(() => window.localStorage.getItem('token')))!;
    // The inspection window: opened an hour ago, closing tomorrow.
    const current = await asAdmin<{ data: { id: number } }>(token, 'GET', '/election');
    const now = Date.now();
    await asAdmin(token, 'PATCH', `/elections/${current.data.id}`, {
      register: { opens_at: new Date(now - 3_600_000).toISOString(), closes_at: new Date(now + 86_400_000).toISOString() },
    });

    // The member: on the roll, claims open; a correction.
    const member = await e2e.browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: e2e.server.baseUrl, bypassCSP: true });
    const memberPage = await member.newPage();
    await signInVoterInBrowser(memberPage, e2e.sink, MEMBER);
    // On a phone the menu is behind its button.
    await memberPage.getByRole('button', { name: /^Menu/ }).click();
    await memberPage.getByRole('menuitem', { name: 'On the roll?' }).click();
    await memberPage.waitForURL('**/voter/register');
    const answer = memberPage.getByTestId('roll-answer');
    await answer.waitFor({ timeout: 20_000 });
    expect(await answer.textContent()).toMatch(/^Yes: you are on the roll of /);
    expect(await memberPage.getByTestId('register-window-state').textContent()).toMatch(/It is open now: you can make a claim below\.$/);
    await memberPage.getByText('You have made no claim in this election.').waitFor();
    await noSidewaysScroll(memberPage);
    expect(await axeScan(memberPage)).toEqual([]);
    await screenshot(memberPage, 'issue39-on-the-roll-390');

    await memberPage.getByRole('radio', { name: 'Correction' }).click();
    await memberPage.getByLabel('Details').fill(DETAILS);
    await memberPage.getByRole('button', { name: 'Make the claim' }).click();
    await memberPage.getByText('Your claim is recorded: the returning officer will rule on it').first().waitFor();
    const mine = memberPage.getByRole('list', { name: 'My claims' });
    await mine.getByText(DETAILS).waitFor();
    await mine.getByText('Waiting for a ruling').waitFor();

    // The admin: the Register page, the claim in the queue, upheld with a reason after the question.
    await nav(adminPage, 'Register').click();
    await adminPage.waitForURL('**/admin/register');
    await adminPage.getByTestId('roll-size').waitFor({ timeout: 20_000 });
    expect(await adminPage.getByTestId('roll-size').textContent()).toMatch(/^\d+ members on the roll\. Not frozen yet/);
    await adminPage.getByText('Open now: members can make claims.').waitFor();
    const queue = adminPage.getByRole('list', { name: 'Claims' });
    const card = queue.getByRole('listitem').filter({ hasText: DETAILS });
    await card.waitFor({ timeout: 20_000 });
    expect(await card.textContent()).toContain(`(${MEMBER})`);
    await card.getByRole('radio', { name: 'Uphold' }).click();
    await card.getByLabel('Reason').fill(REASON);
    await card.getByRole('button', { name: 'Rule on the claim' }).click();
    const dialog = adminPage.getByRole('alertdialog', { name: 'Uphold this claim?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`“${REASON}”`);
    await dialog.getByRole('button', { name: 'Uphold the claim' }).click();
    await adminPage.getByText('Claim upheld: the claimant is told').first().waitFor();
    await adminPage.getByText('No claim here.').waitFor();
    await adminPage.getByRole('button', { name: 'Upheld', exact: true }).click();
    await queue.getByText(`The returning officer's reason: ${REASON}`).waitFor();
    await adminPage.setViewportSize({ width: 390, height: 844 });
    await noSidewaysScroll(adminPage);
    expect(await axeScan(adminPage)).toEqual([]);
    await screenshot(adminPage, 'issue39-admin-register-390');

    // The member sees the ruling and its reason.
    await memberPage.reload();
    const ruled = memberPage.getByRole('list', { name: 'My claims' });
    await ruled.getByText('Upheld', { exact: true }).waitFor({ timeout: 20_000 });
    await ruled.getByText(`The returning officer's reason: ${REASON}`).waitFor();
    await screenshot(memberPage, 'issue39-ruling-390');
    await member.close();
    await admin.close();
  });
});
