/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiClient, screenshot, signInAdminInBrowser, signInVoterInBrowser, useE2E } from './harness';

/**
 * Issue 37 in Chromium against the real server, at 1280 and 390 px: the New and Edit election
 * dialogs fit a 1280×900 screen (Save in view, the date inputs inside the dialog); the ballot
 * heads positions as typed, shows a ranked position's photos and its description, keeps a half
 * filled ballot across a reload, asks before leaving it, and confirms with "Cast my vote".
 */

const e2e = useE2E();
/** The admin's bearer token from the browser's sign-in (a second sign-in would wait out the minute between codes). */
let adminToken = '';

/** The element's box inside the viewport and inside `container` (no overflow to the right). */
async function fitsIn(page: Page, selector: ReturnType<Page['locator']>, container: ReturnType<Page['locator']>) {
  const [box, outer] = await Promise.all([selector.boundingBox(), container.boundingBox()]);
  const viewport = page.viewportSize()!;
  return (
    box !== null &&
    outer !== null &&
    box.x >= outer.x - 1 &&
    box.x + box.width <= outer.x + outer.width + 1 &&
    box.y >= 0 &&
    box.y + box.height <= viewport.height + 1
  );
}

describe('a secretary on her own (issue 37)', () => {
  it('the election dialogs fit 1280×900 with Save in view and the dates inside', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: e2e.server.baseUrl });
    const page = await context.newPage();
    await signInAdminInBrowser(page, e2e.server);
    adminToken = (await page.evaluate(() => window.localStorage.getItem('token')))!;
    await page.goto('/admin/elections');
    await page.getByRole('button', { name: 'New election' }).click();
    const dialog = page.getByRole('dialog', { name: 'New election' });
    await dialog.waitFor();
    expect(await fitsIn(page, dialog.getByRole('button', { name: 'Create election' }), dialog)).toBe(true);
    for (const label of ['Voting opens', 'Voting closes'])
      expect(await fitsIn(page, dialog.getByLabel(label, { exact: true }), dialog), label).toBe(true);
    await screenshot(page, 'issue37-new-election-1280x900');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    const edit = page.getByRole('dialog', { name: /^Edit / });
    await edit.waitFor();
    expect(await fitsIn(page, edit.getByRole('button', { name: 'Save changes' }), edit)).toBe(true);
    await context.close();
  });

  it('the ballot: headings as typed, photos and description on a ranked position, a draft across reload, a warning before leaving', async () => {
    // Set-up over the API: a ranked "Board of the SACCO" position with a description and three candidates.
    expect(adminToken).toBeTruthy();
    const admin = apiClient(e2e.server);
    await admin.csrf();
    const token = adminToken;
    const created = await admin.ok<{ data: { id: number }[] }>(
      'POST',
      '/positions',
      { name: 'Board of the SACCO', seats: 2, kind: 'candidates', method: 'ranked', description: 'Two seats, counted by STV.' },
      token,
    );
    const board = created.data[0]!.id;
    for (const memberNo of ['1301', '1302', '1303'])
      await admin.ok('POST', '/assign/psk/position', { member_no: memberNo, position_ids: [board] }, token);
    await admin.ok('POST', '/toggle', { status: true }, token);

    for (const [width, memberNo] of [
      [390, '1050'],
      [1280, '1051'],
    ] as const) {
      const context = await e2e.browser.newContext({ viewport: { width, height: 900 }, baseURL: e2e.server.baseUrl });
      const page = await context.newPage();
      await signInVoterInBrowser(page, e2e.sink, memberNo);
      await page.goto('/voter/elect');
      const heading = page.getByRole('heading', { name: /^Board of the SACCO/ });
      await heading.waitFor({ timeout: 20_000 });
      // As typed ("of the" stays lower case); "(National)" only when the ballot also has a branch position.
      const title = (await heading.textContent())!;
      expect(title).toMatch(/^Board of the SACCO( \(National\))?$/);
      const group = page.getByRole('group', { name: title });
      await page.getByText('Two seats, counted by STV.').waitFor();
      expect(await group.locator('img').count()).toBe(3);

      const first = group.getByRole('button', { name: /^Rank .* number 1$/ }).first();
      const firstName = (await first.getAttribute('aria-label'))!.replace(/^Rank (.*) number 1$/, '$1');
      await first.click();
      await group.getByText(`Your order: 1. ${firstName}`).waitFor();

      // A reload keeps the draft.
      await page.reload();
      await page.getByRole('group', { name: title }).getByText(`Your order: 1. ${firstName}`).waitFor({ timeout: 20_000 });
      await screenshot(page, `issue37-ballot-draft-${width}`);

      // Leaving asks first; Stay keeps the ballot.
      await page.getByRole('link', { name: /home$/ }).first().click();
      const leave = page.getByRole('alertdialog');
      await leave.getByText('Leave without voting?').waitFor();
      await leave.getByRole('button', { name: 'Stay on the ballot' }).click();
      expect(page.url()).toContain('/voter/elect');

      await page.getByRole('button', { name: 'Vote', exact: true }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cast my vote' }).click();
      await page.getByText('You have successfully voted').waitFor({ timeout: 20_000 });
      // My receipts shows the rank.
      await page.goto('/voter/vpat');
      await page.getByText(`1. ${firstName}`).waitFor({ timeout: 20_000 });
      await screenshot(page, `issue37-my-receipts-${width}`);
      await context.close();
    }
  });
});
