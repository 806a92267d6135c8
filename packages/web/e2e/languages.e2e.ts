/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { enableVoting, SCREENSHOT_DIR, screenshot, useE2E, sidewaysBy } from './harness';

/** docs/i18n.md: a member who reads Kiswahili signs in, votes and checks receipts in it. */
const MEMBER_NO = '1001';

const e2e = useE2E({ ready: enableVoting });

describe('Kiswahili', () => {
  it('a member chooses Kiswahili on the sign-in page, votes in it, switches to English and back; <html lang> follows', async () => {
    const { context, page } = await e2e.newPage(390, 844);
    // docs/i18n.md "Loading a language": the Kiswahili catalogue is a chunk of its own, fetched when chosen.
    const kiswahiliChunk: string[] = [];
    page.on('request', (r) => {
      if (/^\/assets\/sw-[^/]*\.js$/.test(new URL(r.url()).pathname)) kiswahiliChunk.push(r.url());
    });
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(kiswahiliChunk).toEqual([]);
    await page.getByLabel('Language').selectOption('sw');
    await page.getByRole('button', { name: 'Ingia', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');
    expect(kiswahiliChunk).toHaveLength(1);

    await page.getByLabel('Nambari ya mwanachama, nambari ya simu au barua pepe').fill(MEMBER_NO);
    await page.getByRole('checkbox').click();
    const since = Date.now();
    await page.getByRole('button', { name: 'Ingia', exact: true }).click();
    await page.getByText('Weka msimbo wa tarakimu 6 tuliokutumia kwa SMS.').waitFor();
    const code = await e2e.sink.codeSince(since);
    await page.getByLabel('Msimbo wa tarakimu 6', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Thibitisha' }).click();
    await page.waitForURL('**/voter', { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Dashibodi' }).waitFor();

    // the choice made on the sign-in page is remembered on this device
    await page.goto('/voter/elect');
    await page.getByRole('button', { name: 'Piga kura', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');
    const radios = page.getByRole('radio');
    await radios.first().waitFor();
    const names = await radios.evaluateAll((els) => [...new Set(els.map((e) => (e as HTMLInputElement).name))]);
    for (const name of names) await page.locator(`input[type=radio][name="${name}"]`).first().check();
    // nothing wider than a 390 px phone
    expect(await sidewaysBy(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'voter-elect-sw-390');
    // README "Languages": the Kiswahili ballot
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const close of await page.getByRole('button', { name: 'Funga' }).all()) await close.click();
    await expect.poll(() => page.getByText('Upigaji kura salama na wa wazi').count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'voter-elect-sw.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Piga kura', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Una uhakika?').waitFor();
    await dialog.getByText('Kura ikishapigwa haiwezi kubadilishwa.').waitFor();
    await dialog.getByRole('button', { name: 'Piga kura yangu' }).click();
    await page.getByText('Umefanikiwa kupiga kura').waitFor();

    // English and back, from the voter's header
    await page.getByLabel('Lugha').selectOption('en');
    await page.getByText('You have successfully voted').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByLabel('Language').selectOption('sw');
    await page.getByText('Umefanikiwa kupiga kura').waitFor();

    await page.goto('/voter/vpat');
    // Under CI's load this once took past 30 s: a minute, and what the page showed instead when it fails.
    await page
      .getByRole('columnheader', { name: 'Msimbo wa risiti' })
      .waitFor({ timeout: 60_000 })
      .catch(async (error: Error) => {
        await screenshot(page, 'languages-vpat-failure');
        const shown = await page
          .locator('body')
          .innerText()
          .catch(() => '');
        throw new Error(`${error.message}\nThe page showed: ${shown.slice(0, 600)}`);
      });
    await page.getByRole('columnheader', { name: 'Mgombea uliyemchagua' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('sw');
    await context.close();
  });

  it('a tab left open across an upgrade, whose Kiswahili chunk is gone, reloads once into the new build in Kiswahili', async () => {
    const { context, page } = await e2e.newPage(390, 844);
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // The upgrade, as this tab meets it: its build's Kiswahili chunk answers 404 (once), and the
    // server's page now names another entry script (lib/stale-build.ts compares the two).
    let gone = 1;
    await page.route(/\/assets\/sw-[^/]*\.js$/, (route) =>
      gone-- > 0 ? route.fulfill({ status: 404, body: 'Not Found' }) : route.continue(),
    );
    await page.route(
      (url) => url.pathname === '/',
      async (route) => {
        const served = await route.fetch();
        const html = (await served.text()).replace(/\/assets\/index-[^"]+\.js/, '/assets/index-NEWBUILD.js');
        await route.fulfill({ response: served, body: html });
      },
    );
    let loads = 0;
    page.on('load', () => (loads += 1));
    await page.getByLabel('Language').selectOption('sw');
    await page.getByRole('button', { name: 'Ingia', exact: true }).waitFor();
    expect(loads).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');
    await context.close();
  });
});
