/// <reference types="node" />
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeScan, REPO_DIR, SCREENSHOT_DIR, type Session, signInOverApi, signInVoterInBrowser, useE2E } from './harness';

/**
 * docs/api.md "Languages", end to end: a member whose language is `sw` on their record (set by the
 * admin's member edit) signs in on a browser that asks for English and gets Kiswahili from their
 * session; the ballot shows the Kiswahili name the admin gave a position; they vote, switch to
 * English and back (saved on their record), and after close the declaration prints in Kiswahili.
 * axe is clean in both languages and <html lang> follows.
 */
const MEMBER_NO = '1001';
const TRANSLATED = 'Mwenyekiti';

let admin: Session;
// One admin sign-in (a second within the minute is refused): it switches voting on and sets up below.
const e2e = useE2E({
  ready: async (server) => {
    const signedIn = await signInOverApi(server, { kind: 'admin' });
    admin = signedIn.session;
    await signedIn.client.ok('POST', '/toggle', { status: true }, admin.bearer_token);
  },
});
let chair: { id: number; name: string };

type Member = { id: number; member_no: string; name: string; phone: string; email: string; county: string; language: string | null };

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.baseUrl}/api/v1${path}`, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${admin.bearer_token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const member = async () =>
  (await api<{ data: Member[] }>('GET', `/search/member?query=${MEMBER_NO}`)).data.find((m) => m.member_no === MEMBER_NO)!;

beforeAll(async () => {
  // The member's language, on their record (the admin's member edit).
  const m = await member();
  await api('POST', `/edit/psk/member/${m.id}`, {
    name: m.name,
    phone: m.phone,
    email: m.email,
    county: m.county,
    member_no: m.member_no,
    language: 'sw',
  });
  // A Kiswahili name for the first national position (the set-up page's position edit).
  const positions = (await api<{ data: { id: number; name: string; level: string }[] }>('GET', '/psk/positions')).data;
  chair = positions.find((p) => p.level === 'National' && p.name === 'Chairperson')!;
  await api('PATCH', `/positions/${chair.id}`, { translations: { sw: { name: TRANSLATED } } });
});

const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe('a member whose language is Kiswahili', () => {
  it('signs in and votes in Kiswahili, the position named in it; English and back; the declaration prints in Kiswahili', async () => {
    // bypassCSP: the server's CSP (rightly) refuses the injected axe-core script. The browser asks for English.
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      baseURL: e2e.server.baseUrl,
      bypassCSP: true,
      locale: 'en-US',
    });
    const page = await context.newPage();
    await page.goto('/sign-in');
    expect(await lang(page)).toBe('en');
    await signInVoterInBrowser(page, e2e.sink, MEMBER_NO);
    // The session carries the member's language: it comes first.
    await page.getByRole('heading', { name: 'Dashibodi' }).waitFor();
    expect(await lang(page)).toBe('sw');

    await page.goto('/voter/elect');
    await page.getByRole('button', { name: 'Piga kura', exact: true }).waitFor();
    expect(await lang(page)).toBe('sw');
    // the position named in Kiswahili (its level word as the ballot shows it), never in English
    await page.getByRole('heading', { name: new RegExp(`^${TRANSLATED}\\b`) }).waitFor();
    expect(await page.getByRole('heading', { name: new RegExp(`^${chair.name}\\b`) }).count()).toBe(0);
    for (const close of await page.getByRole('button', { name: 'Funga' }).all()) await close.click();
    expect(await axeScan(page)).toEqual([]);

    // README "Languages": the Kiswahili ballot, with the admin's Kiswahili name for a position
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const shot = join(SCREENSHOT_DIR, 'voter-elect-sw-translated.png');
    await page.screenshot({ path: shot });
    if (process.env.E2E_UPDATE_DOC_IMAGES === '1') copyFileSync(shot, join(REPO_DIR, 'docs/images/ballot-sw.png'));
    await page.setViewportSize({ width: 390, height: 844 });

    const radios = page.getByRole('radio');
    await radios.first().waitFor();
    const names = await radios.evaluateAll((els) => [...new Set(els.map((e) => (e as HTMLInputElement).name))]);
    for (const name of names) await page.locator(`input[type=radio][name="${name}"]`).first().check();
    await page.getByRole('button', { name: 'Piga kura', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Una uhakika?').waitFor();
    await dialog.getByText(TRANSLATED, { exact: false }).first().waitFor();
    await dialog.getByRole('button', { name: 'Piga kura yangu' }).click();
    await page.getByText('Umefanikiwa kupiga kura').waitFor();

    // English from the voter's header, saved on the record
    await page.getByLabel('Lugha').selectOption('en');
    await page.getByText('You have successfully voted').waitFor();
    expect(await lang(page)).toBe('en');
    expect(await axeScan(page)).toEqual([]);
    await expect.poll(async () => (await member()).language).toBe('en');

    // and back
    await page.getByLabel('Language').selectOption('sw');
    await page.getByText('Umefanikiwa kupiga kura').waitFor();
    expect(await lang(page)).toBe('sw');
    await expect.poll(async () => (await member()).language).toBe('sw');

    // After close: the declaration, printed, in Kiswahili with the Kiswahili name
    await api('POST', '/election/close');
    await page.goto('/results');
    await page.getByRole('heading', { name: 'Tangazo la matokeo' }).waitFor({ timeout: 20_000 });
    expect(await lang(page)).toBe('sw');
    await page.getByRole('heading', { name: new RegExp(`^${TRANSLATED} National`) }).waitFor();
    expect(await axeScan(page)).toEqual([]);
    await page.emulateMedia({ media: 'print' });
    const printed = await page.evaluate(() => document.body.innerText);
    expect(printed).toContain(`${TRANSLATED} National`);
    for (const english of ['Declaration of results', 'Returning officer', 'Final commitment']) expect(printed).not.toContain(english);
    expect(await page.getByRole('heading', { name: new RegExp(`^${chair.name} National`) }).count()).toBe(0);
    await context.close();
  }, 180_000);
});
