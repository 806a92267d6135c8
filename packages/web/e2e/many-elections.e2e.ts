/// <reference types="node" />
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { axeScan, screenshot, signInOverApi, type ApiClient, type Session, useE2E } from './harness';

/**
 * Many elections in one installation (docs/api.md "Many elections, motions and ranked counts"),
 * in Chromium against the real server: the admin closes and archives the demo election (a member
 * voted in it), copies it into "Elections 2027" with its candidates, adds a by-election with one
 * position, and opens both; the member, on both rolls, votes in each from the dashboard and sees
 * every receipt with its election; the public list shows both, the archived declaration stays
 * reachable by its address; the new pages pass axe at 1280 and 390 px. The admin's steps go over
 * the API (set-up); what the voter and the public see is checked in the browser. This file's server
 * is its own copy of the demo, so nothing here touches another file's state.
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

/** A page with the member's session where the web app keeps it (and axe allowed in: bypassCSP). */
async function pageAs(
  as: 'voter' | 'public',
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({ viewport, baseURL: e2e.server.baseUrl, bypassCSP: true });
  if (as === 'voter') {
    await context.addInitScript((s: Session) => {
      if (sessionStorage.getItem('e2e-seeded')) return;
      sessionStorage.setItem('e2e-seeded', '1');
      localStorage.setItem('token', s.bearer_token);
      localStorage.setItem('hash', s.hash);
      localStorage.setItem('name', s.name);
      localStorage.setItem('balance', String(s.balance));
      localStorage.setItem('account_type', 'member');
    }, voter);
  }
  return { context, page: await context.newPage() };
}

async function expectAxeClean(page: Page, what: string) {
  // Let entering animations (a toast) finish so axe sees the settled page.
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
  });
  expect(await axeScan(page), what).toEqual([]);
}

/** Chooses the first candidate of every position on the page's ballot, votes and confirms. */
async function voteOnPage(page: Page) {
  const radios = page.locator('input[type=radio]');
  await radios.first().waitFor();
  const names = await radios.evaluateAll((els) => [...new Set(els.map((e) => (e as HTMLInputElement).name))]);
  for (const name of names) await page.locator(`input[type=radio][name="${name}"]`).first().check();
  await page.getByRole('button', { name: 'Vote', exact: true }).click();
  await page.getByRole('button', { name: 'Yes!' }).click();
  await page.getByText('You have successfully voted').waitFor();
  return names.length;
}

beforeAll(async () => {
  admin = await signInOverApi(e2e.server, { kind: 'admin' });
  voter = (await signInOverApi(e2e.server, { kind: 'voter', memberNo: MEMBER_NO, sink: e2e.sink })).session;

  // The demo election: open, the member votes in it (one position), then it closes for good.
  // The demo's election (a demo may also hold an archived one of an earlier year).
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
  await asAdmin('POST', `/election/close?election_id=${ids.old}`);
  await asAdmin('POST', `/elections/${ids.old}/archive`);

  // Its copy, with the same positions (and titles) and candidates, and a by-election of one position.
  ids.annual = (
    await asAdmin<{ data: Election }>('POST', `/elections/${ids.old}/copy`, { title: 'Elections 2027', candidates: true })
  ).data.id;
  ids.by = (await asAdmin<{ data: Election }>('POST', '/elections', { title: 'By-election 2027' })).data.id;
  const [position] = (await asAdmin<{ data: { id: number }[] }>('POST', `/positions?election_id=${ids.by}`, { name: 'Treasurer' })).data;
  await asAdmin('POST', `/assign/psk/position?election_id=${ids.by}`, { member_no: BY_CANDIDATE, position_ids: [position!.id] });
  await asAdmin('POST', `/toggle?election_id=${ids.annual}`, { status: true });
  await asAdmin('POST', `/toggle?election_id=${ids.by}`, { status: true });
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
