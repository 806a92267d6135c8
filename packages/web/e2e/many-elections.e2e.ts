/// <reference types="node" />
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { axeScan, screenshot, signInOverApi, type ApiClient, type Session, settled, storeSession, useE2E } from './harness';

/**
 * Many elections in one installation (docs/api.md "Many elections, motions and ranked counts"),
 * in Chromium against the real server. The admin, in the browser: closes the demo election (a
 * member voted in it) from the dashboard, archives it and copies it into "Elections 2027" with its
 * candidates on the Elections page, adds a by-election there (New) and gives it one position and
 * its candidate on its Set-up page, and opens both from the dashboard, choosing each with the
 * election switcher. The member, on both rolls, votes in each from the dashboard and sees every
 * receipt with its election; the public list shows both, the archived declaration stays reachable
 * by its address; the pages pass axe at 1280 and 390 px. Only the member's vote in the demo
 * election before it closes goes over the API. This file's server is its own copy of the demo
 * (harness.ts `useE2E`), so closing its current election touches no other file's state.
 */

const MEMBER_NO = '1006';
const BY_CANDIDATE = '1012';
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;

const e2e = useE2E();

type Election = { id: number; title: string; phase: string; archived?: boolean };
type Group = { title: string; position_id: number; candidates: { id: number; name: string }[] };

let admin: { session: Session; client: ApiClient };
let voter: Session;
const ids = { old: 0, annual: 0, by: 0 };
let oldTitle = '';

const asAdmin = <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
  admin.client.ok<T>(method, path, body ?? (method === 'POST' ? {} : undefined), admin.session.bearer_token);

async function voterCall(method: 'GET' | 'POST', path: string, body?: unknown) {
  return fetch(`${e2e.server.baseUrl}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${voter.bearer_token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A page with the member's or the admin's session where the web app keeps it (and axe allowed in: bypassCSP). */
async function pageAs(
  as: 'voter' | 'admin' | 'public',
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({ viewport, baseURL: e2e.server.baseUrl, bypassCSP: true });
  await storeSession(
    context,
    as === 'public' ? undefined : { session: as === 'voter' ? voter : admin.session, accountType: as === 'voter' ? 'member' : 'admin' },
  );
  return { context, page: await context.newPage() };
}

async function expectAxeClean(page: Page, what: string) {
  // The welcome toast fades out 5 s after the tab opened; on a slow machine that fell inside a later
  // scan, which saw its title half transparent. Close it first (a11y.e2e.ts scans the toast itself).
  const welcome = page.locator('li').filter({ hasText: 'Secure and Transparent Voting' });
  const close = welcome.getByRole('button', { name: 'Close' });
  if (await welcome.count()) await close.click().catch(() => undefined);
  await welcome.waitFor({ state: 'detached' });
  // Let entering animations (a dialog) finish so axe sees the settled page.
  await settled(page);
  expect(await axeScan(page), what).toEqual([]);
}

/** Chooses the first candidate of every position on the page's ballot, votes and confirms. */
async function voteOnPage(page: Page) {
  const radios = page.locator('input[type=radio]');
  await radios.first().waitFor();
  const names = await radios.evaluateAll((els) => [...new Set(els.map((e) => (e as HTMLInputElement).name))]);
  for (const name of names) await page.locator(`input[type=radio][name="${name}"]`).first().check();
  await page.getByRole('button', { name: 'Vote', exact: true }).click();
  await page.getByRole('button', { name: 'Cast my vote' }).click();
  await page.getByText('You have successfully voted').waitFor();
  return names.length;
}

beforeAll(async () => {
  admin = await signInOverApi(e2e.server, { kind: 'admin' });
  voter = (await signInOverApi(e2e.server, { kind: 'voter', memberNo: MEMBER_NO, sink: e2e.sink })).session;

  // The demo's election (a demo also holds an archived one of an earlier year): open, and the
  // member votes in it (one position), the set-up for what the admin then does in the browser.
  const live = (await asAdmin<{ data: Election[] }>('GET', '/elections')).data.filter((e) => !e.archived);
  expect(live).toHaveLength(1);
  ids.old = live[0]!.id;
  oldTitle = live[0]!.title;
  await asAdmin('POST', `/toggle?election_id=${ids.old}`, { status: true });
  const ballot = ((await (await voterCall('GET', `/psk/candidates/v2?election_id=${ids.old}`)).json()) as { data: Group[] }).data;
  const first = ballot.find((g) => g.candidates.length > 0)!;
  const cast = await voterCall('POST', `/psk/vote?election_id=${ids.old}`, {
    candidates: { [first.position_id]: first.candidates[0]!.id },
  });
  expect(cast.status).toBe(201);
});

/** The admin's dashboard, with the session signed in over the API (one emailed code a minute). */
async function adminPage(viewport: { width: number; height: number }) {
  const { context, page } = await pageAs('admin', viewport);
  await page.goto('/admin');
  return { context, page };
}

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor({ timeout: 20_000 });

/** Chooses an election with the staff pages' switcher (a labelled combobox), by its title. */
async function chooseElection(page: Page, title: string) {
  await page.getByRole('combobox', { name: 'Election' }).click();
  await page.getByRole('option', { name: new RegExp(`^${title} \\(`) }).click();
  await expect.poll(() => page.getByRole('combobox', { name: 'Election' }).textContent()).toContain(title);
}

describe('the admin runs the next election in the browser', () => {
  it('closes and archives the demo election, copies it, adds a by-election with one position, and opens both', async () => {
    const { context, page } = await adminPage(WIDTHS[0]);

    // Close the demo election from the dashboard (it is the current one).
    await page.getByRole('button', { name: 'Close the election' }).click();
    const closing = page.getByRole('alertdialog');
    await closing.getByRole('button', { name: 'Close the election' }).click();
    await expect.poll(() => page.getByTestId('election-phase').textContent(), { timeout: 30_000 }).toMatch(/^Closed/);

    // The Elections page: archive it, then copy it with its candidates.
    await page.getByRole('link', { name: 'Elections', exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/admin/elections');
    const table = page.getByRole('table', { name: 'Elections' });
    await table.getByRole('rowheader', { name: new RegExp(`^${oldTitle}`) }).waitFor();
    await page.getByRole('button', { name: `Archive ${oldTitle}` }).click();
    const archiving = page.getByRole('alertdialog', { name: `Archive ${oldTitle}?` });
    await archiving.getByRole('button', { name: 'Archive', exact: true }).click();
    await toast(page, `Election archived: ${oldTitle}`);
    await archiving.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Copy ${oldTitle}` }).click();
    const copying = page.getByRole('dialog', { name: `Copy ${oldTitle}` });
    await copying.getByLabel('Title of the new election').fill('Elections 2027');
    await copying.getByLabel('Copy the candidates too').check();
    await copying.getByRole('button', { name: 'Copy', exact: true }).click();
    await toast(page, 'Election copied: Elections 2027');
    await copying.waitFor({ state: 'detached' });

    // A by-election (New), then its one position and candidate on its Set-up page.
    await page.getByRole('button', { name: 'New election' }).click();
    const creating = page.getByRole('dialog', { name: 'New election' });
    await creating.getByLabel('Title', { exact: true }).fill('By-election 2027');
    await creating.getByRole('button', { name: 'Create election' }).click();
    await toast(page, 'Election created: By-election 2027');
    await creating.waitFor({ state: 'detached' });
    await table.getByRole('rowheader', { name: /^Elections 2027/ }).waitFor();
    await expectAxeClean(page, '/admin/elections 1280');
    await screenshot(page, 'many-elections-admin-1280');

    await page.getByRole('link', { name: 'Set up Elections 2027' }).waitFor();
    ids.annual = Number(
      new URL((await page.getByRole('link', { name: 'Set up Elections 2027' }).getAttribute('href'))!, 'http://x').searchParams.get(
        'election',
      ),
    );
    await page.getByRole('link', { name: 'Set up By-election 2027' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/setup' && url.searchParams.has('election'));
    ids.by = Number(new URL(page.url()).searchParams.get('election'));
    expect(ids.by).toBeGreaterThan(ids.annual);
    await expect.poll(() => page.getByRole('combobox', { name: 'Election' }).textContent()).toContain('By-election 2027');
    const positions = page.getByRole('region', { name: 'Positions', exact: true });
    await positions.getByLabel('New position name').fill('Treasurer');
    await positions.getByLabel('Seats').fill('1');
    await positions.getByLabel('Elected by').selectOption('national');
    await positions.getByRole('button', { name: 'Add position' }).click();
    await toast(page, 'Position added');
    await positions.getByRole('button', { name: 'Add a candidate for Treasurer - National' }).click();
    const adding = page.getByRole('dialog', { name: 'Add Candidate' });
    await adding.getByLabel('Find the member').fill(BY_CANDIDATE);
    await adding.getByLabel('Find the member').press('Enter');
    await adding.getByRole('radio', { name: new RegExp(`\\(${BY_CANDIDATE}, `) }).check();
    await adding.getByRole('button', { name: 'Add candidate' }).click();
    await toast(page, 'Candidate added');
    await adding.waitFor({ state: 'detached' });
    // The checklist shows the by-election's roll: every member, not yet frozen.
    const roll = page.getByRole('list', { name: 'Set-up checklist' }).locator('li', { hasText: 'Roll' });
    await expect.poll(() => roll.textContent(), { timeout: 20_000 }).toMatch(/\d+ members on the roll$/);

    // Open both from the dashboard, each chosen with the switcher.
    await page.getByRole('link', { name: 'Home', exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/admin');
    for (const title of ['Elections 2027', 'By-election 2027']) {
      await chooseElection(page, title);
      // includeHidden: a question hides the page behind it. A first opening asks one (it freezes
      // the roll; the demo's copy also has branch positions with no candidate), and the admin opens.
      const toggle = page.getByRole('switch', { name: 'Voting enabled', includeHidden: true });
      const asked = page.getByRole('alertdialog', {
        name: /^(Open voting and freeze the roll\?|Open voting with positions that have no candidate\?)$/,
      });
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
      await toggle.click();
      await expect
        .poll(async () => ((await asked.isVisible()) ? 'asked' : await toggle.getAttribute('aria-checked')), { timeout: 20_000 })
        .not.toBe('false');
      if (await asked.isVisible()) await asked.getByRole('button', { name: /^(Open voting|Enable voting anyway)$/ }).click();
      await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 20_000 }).toBe('true');
    }
    // The menu keeps the chosen election: the by-election's Set-up page says its roll is frozen.
    await page.getByRole('link', { name: 'Set-up', exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/admin/setup' && url.searchParams.get('election') === String(ids.by));
    await expect.poll(() => roll.textContent(), { timeout: 20_000 }).toMatch(/members on the roll, frozen when voting opened$/);

    // The README's picture of the Elections page (docs/images/elections.png): both open, last year's archived.
    await page.getByRole('link', { name: 'Elections', exact: true }).first().click();
    await page.getByRole('table', { name: 'Elections' }).getByText('Archived').first().waitFor();
    await expect.poll(() => page.getByRole('table', { name: 'Elections' }).getByText('Open', { exact: true }).count()).toBe(2);
    for (const close of await page.getByRole('button', { name: 'Close', exact: true }).all()) await close.click().catch(() => undefined);
    await expect.poll(() => page.getByText(/^Voting has been/).count(), { timeout: 10_000 }).toBe(0);
    await screenshot(page, 'elections-page');

    const listed = (await asAdmin<{ data: Election[] }>('GET', '/elections')).data;
    expect(listed.find((e) => e.id === ids.old)).toMatchObject({ archived: true, phase: 'closed' });
    expect(listed.find((e) => e.id === ids.annual)).toMatchObject({ title: 'Elections 2027', phase: 'open' });
    expect(listed.find((e) => e.id === ids.by)).toMatchObject({ title: 'By-election 2027', phase: 'open' });
    await context.close();
  });

  it('the Elections page passes axe at 390 px', async () => {
    const { context, page } = await adminPage(WIDTHS[1]);
    await page.goto('/admin/elections');
    await page
      .getByRole('table', { name: 'Elections' })
      .getByRole('rowheader', { name: /^By-election 2027/ })
      .waitFor();
    await expectAxeClean(page, '/admin/elections 390');
    await page.getByRole('button', { name: 'Edit By-election 2027' }).click();
    await page.getByRole('dialog', { name: 'Edit By-election 2027' }).getByText('the roll is frozen').waitFor();
    await expectAxeClean(page, '/admin/elections edit dialog 390');
    await screenshot(page, 'many-elections-admin-390');
    await context.close();
  });
});

describe('many elections: a member on two rolls, the public list, an archived declaration', () => {
  it('the member sees both open elections on the dashboard, votes in each separately, and sees every receipt with its election', async () => {
    const { context, page } = await pageAs('voter', WIDTHS[0]);
    await page.goto('/voter');
    const annual = page.getByTestId(`my-election-${ids.annual}`);
    const by = page.getByTestId(`my-election-${ids.by}`);
    await annual.getByRole('heading', { name: 'Elections 2027' }).waitFor();
    await by.getByRole('heading', { name: 'By-election 2027' }).waitFor();
    // A vote in the archived election (same position titles) is not a vote in its copy.
    await annual.getByText('You have not voted yet').waitFor();
    await by.getByText('You have not voted yet').waitFor();
    expect(await page.getByTestId(`my-election-${ids.old}`).count()).toBe(0);
    await expectAxeClean(page, 'voter dashboard 1280');
    await screenshot(page, 'many-elections-dashboard');

    await annual.getByRole('link', { name: 'Vote in Elections 2027' }).click();
    await page.waitForURL((url) => url.pathname === '/voter/elect' && url.searchParams.get('election') === String(ids.annual));
    await page.getByRole('heading', { name: 'Elections 2027' }).waitFor();
    const annualPositions = await voteOnPage(page);

    await page.goto('/voter');
    await annual.getByText('You have voted').waitFor();
    await by.getByText('You have not voted yet').waitFor();
    await by.getByRole('link', { name: 'Vote in By-election 2027' }).click();
    await page.waitForURL((url) => url.pathname === '/voter/elect' && url.searchParams.get('election') === String(ids.by));
    await page.getByRole('heading', { name: 'By-election 2027' }).waitFor();
    expect(await voteOnPage(page)).toBe(1);

    await page.goto('/voter');
    await by.getByText('You have voted').waitFor();
    await annual.getByText('You have voted').waitFor();

    await page.goto('/voter/vpat');
    await page.getByRole('columnheader', { name: 'Election' }).waitFor();
    // Every receipt names its election: one per position voted for, in each election.
    const receiptsOf = async (title: string) =>
      (await page.locator('tbody tr').allInnerTexts()).filter((row) => row.split('\t').some((cell) => cell.trim() === title)).length;
    await expect.poll(() => receiptsOf('By-election 2027'), { timeout: 10_000 }).toBe(1);
    expect(await receiptsOf('Elections 2027')).toBe(annualPositions);
    expect(await receiptsOf(oldTitle)).toBe(1);
    await page.getByRole('columnheader', { name: 'Election' }).waitFor();
    await screenshot(page, 'many-elections-receipts');
    await context.close();
  });

  it('the public /elections page lists both open elections (not the archived one) with links to their pages', async () => {
    for (const viewport of WIDTHS) {
      const { context, page } = await pageAs('public', viewport);
      await page.goto('/elections');
      await page.getByRole('heading', { level: 1, name: 'Elections' }).waitFor();
      const annual = page.getByTestId(`election-${ids.annual}`);
      const by = page.getByTestId(`election-${ids.by}`);
      await annual.getByRole('heading', { name: 'Elections 2027' }).waitFor();
      await by.getByRole('heading', { name: 'By-election 2027' }).waitFor();
      await by.getByText(/Status: Open/).waitFor();
      expect(await page.getByTestId(`election-${ids.old}`).count()).toBe(0);
      expect(await by.getByRole('link', { name: 'Commitments of By-election 2027' }).getAttribute('href')).toBe(
        `/commitments?election=${ids.by}`,
      );
      await expectAxeClean(page, `/elections ${viewport.width}`);
      await screenshot(page, `many-elections-public-${viewport.width}`);

      await by.getByRole('link', { name: 'Commitments of By-election 2027' }).click();
      await page.waitForURL((url) => url.pathname === '/commitments' && url.searchParams.get('election') === String(ids.by));
      await page.getByRole('heading', { name: 'Published commitments' }).waitFor();
      await expectAxeClean(page, `/commitments?election ${viewport.width}`);
      await context.close();
    }
  });

  it("the archived election's declaration is still reachable by its address, named, with the switcher", async () => {
    for (const viewport of WIDTHS) {
      const { context, page } = await pageAs('public', viewport);
      await page.goto(`/results?election=${ids.old}`);
      await page.getByRole('heading', { name: 'Declaration of results' }).waitFor();
      const named = await page.getByTestId('declaration-election').innerText();
      expect(named).toContain(oldTitle);
      expect(named).toContain('Archived');
      await page.getByRole('combobox', { name: 'Election' }).waitFor();
      await expectAxeClean(page, `/results?election (archived) ${viewport.width}`);
      await screenshot(page, `many-elections-declaration-${viewport.width}`);
      await context.close();
    }
  });

  it('the dashboard and the ballot of one election pass axe at 390 px', async () => {
    const { context, page } = await pageAs('voter', WIDTHS[1]);
    await page.goto('/voter');
    await page.getByTestId(`my-election-${ids.by}`).getByText('You have voted').waitFor();
    await expectAxeClean(page, 'voter dashboard 390');
    await page.goto(`/voter/elect?election=${ids.by}`);
    await page.getByRole('heading', { name: 'By-election 2027' }).waitFor();
    await expectAxeClean(page, 'ballot 390');
    await page.goto('/voter/vpat');
    await page.getByRole('columnheader', { name: 'Election' }).waitFor();
    await expectAxeClean(page, 'receipts 390');
    await context.close();
  });
});
