/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeScan, screenshot, signInAdminInBrowser, useE2E } from './harness';

/**
 * The admin's USSD page in Chromium against the real server: the channel is on, the callback URL
 * shows only when asked for, and the phone simulator votes through the real callback — member
 * number, the code texted to the member's phone keyed in on the keypad, every position of the
 * demo ballot, the confirmation — after which the receipts arrive by SMS and the statistics count
 * the member under USSD. Then the page at 390 px: no sideways scroll and no axe violation.
 */

const TOKEN = 'e2e-ussd-token-0123456789abcdef0123456789';
const e2e = useE2E({ env: { USSD_CALLBACK_TOKEN: TOKEN } });

/** The API as the signed-in admin (the browser's session: one admin code a minute). */
async function asAdmin<T>(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** The simulator's current screen, once it is no longer waiting for the server. */
async function screenText(page: Page): Promise<string> {
  await expect.poll(() => page.getByTestId('ussd-state').textContent(), { timeout: 15_000 }).not.toBe('Waiting for the answer…');
  return (await page.getByTestId('ussd-screen').textContent()) ?? '';
}

async function answer(page: Page, input: string): Promise<string> {
  await page.getByLabel('Your answer').fill(input);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  return screenText(page);
}

describe('the USSD simulator', () => {
  it('votes a whole ballot through the real callback', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 1000 }, baseURL: e2e.server.baseUrl, bypassCSP: true });
    const page = await context.newPage();
    await signInAdminInBrowser(page, e2e.server);
    const token = (await page.evaluate(() => window.localStorage.getItem('token')))!;
    // Voting on, and a member of the demo register with the phone the network would give.
    await asAdmin(token, 'POST', '/toggle', { status: true });
    const list = await asAdmin<{ data: { member_no: string; phone: string }[] }>(token, 'GET', '/members?page=1');
    const member = list.data.find((m) => m.phone)!;
    await nav(page, 'USSD').click();
    await page.waitForURL('**/admin/ussd');
    await expect.poll(() => page.getByTestId('ussd-channel-state').textContent(), { timeout: 15_000 }).toBe('On');
    const url = page.getByTestId('ussd-callback-url');
    expect(await url.textContent()).not.toContain(TOKEN);
    await page.getByRole('button', { name: 'Show the full address' }).click();
    expect(await url.textContent()).toBe(`${e2e.server.baseUrl}/api/v1/ussd/${TOKEN}`);
    await page.getByRole('button', { name: 'Hide the address' }).click();

    // Dial from the member's phone, and sign in.
    await page.getByLabel('Dialling phone number').fill(member.phone);
    await page.getByRole('button', { name: 'Dial' }).click();
    expect(await screenText(page)).toMatch(/Enter your member number$/);
    const since = Date.now();
    expect(await answer(page, member.member_no)).toMatch(/^A 6-digit code has been sent/);
    const code = await e2e.sink.codeSince(since);
    const keypad = page.getByRole('group', { name: 'Keypad' });
    for (const digit of code) await keypad.getByRole('button', { name: digit, exact: true }).click();
    const field = page.getByLabel('Your answer');
    expect(await field.inputValue()).toBe(code);
    // Enter in the answer field sends it.
    await field.press('Enter');
    let shown = await screenText(page);

    // Every position: the first option, then Done where several choices are allowed.
    for (let step = 0; step < 40 && !shown.startsWith('Confirm your vote:'); step++) {
      expect(shown).toMatch(/\n1\./);
      expect(shown.length).toBeLessThanOrEqual(182);
      const chose = /\(\d+ chosen\)|Your [2-9](nd|rd|th) choice/.test(shown) && shown.includes('99.Done');
      shown = await answer(page, shown.startsWith('Choose an election') ? '1' : chose ? '99' : '1');
    }
    expect(shown).toMatch(/^Confirm your vote:/);
    await screenshot(page, 'ussd-simulator-confirm');
    const receiptsSince = Date.now();
    expect(await answer(page, '1')).toBe('Your vote is recorded. Your receipts follow by SMS. Thank you.');
    expect(await page.getByTestId('ussd-state').textContent()).toBe('Session ended. Dial again to start a new one.');

    // The receipts by SMS, without a choice; the statistics count the member under USSD.
    await expect.poll(() => e2e.sink.messages.some((m) => m.at >= receiptsSince && m.to === member.phone), { timeout: 15_000 }).toBe(true);
    const stats = await asAdmin<{ data: { channels: { web: number; ussd: number } } }>(token, 'GET', '/agent/statistics');
    expect(stats.data.channels.ussd).toBe(1);

    // At 390 px: no sideways scroll, and no serious or critical axe violation.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Hang up' }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeScan(page)).toEqual([]);
    await screenshot(page, 'ussd-simulator-390');
    await context.close();
  });
});
