/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, purplePng, screenshot, useE2E } from './harness';

/**
 * Issue 40 (nominations) in Chromium against the real server, one nomination from start to ballot:
 * the admin opens a nominations window and gives a new position its rule (two proposers, one
 * seconder) over the API; a member nominates on the voter's Nominations page, naming the nominee,
 * the second proposer and the seconder, with a statement; the second proposer and the seconder each
 * sign in and confirm; the nominee signs in and accepts with a statement of their own and a photo;
 * the admin decides it valid on the admin Nominations page; the window closes, the admin opens
 * voting from the dashboard; the nominating member finds the nominee on the ballot with the
 * nominee's statement and photo, and the public Elections page lists the nomination and its
 * supporters by name. Members sign in by SMS (one code a minute each): each role is its own member,
 * and all of them (and the admin) sign in at once at the start, which keeps the file quick.
 */

const e2e = useE2E();

const POSITION = 'Organising Secretary';
const TITLE = `${POSITION} National`;
const PROPOSER = '1301';
const SECOND_PROPOSER = '1302';
const SECONDER = '1303';
const NOMINEE = '1304';
const PROPOSER_STATEMENT = 'Proposed for running the branch welfare fund for three years.';
const NOMINEE_STATEMENT = "I will publish the society's accounts to every member each quarter.";
const REASON = 'Proposed, seconded and accepted by members on the roll.';
/** Busy CI (two files at once on two cores): every wait is generous. */
const WAIT = 30_000;

/** The card in `scope` whose title is `heading` (a nomination's or a request's): the innermost box holding it. */
const cardOf = (page: Page, scope: Page | Locator, heading: string | RegExp) =>
  scope
    .locator('div.rounded-lg')
    .filter({ has: page.getByRole('heading', { name: heading, exact: true }) })
    .last();

/** The API as the admin signed in in the browser (set-up only; a second admin sign-in would wait out the minute). */
async function asAdmin<T>(token: string, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type Member = { page: Page; close: () => Promise<void> };

/** The code steps of the members' sign-ins, one after another: the SMS sink hands out the first code after a time, whoever it is for. */
let codeStep: Promise<unknown> = Promise.resolve();

/**
 * A member signs in through the browser (as harness.ts signInVoterInBrowser) in a context of their
 * own; several may sign in at once, their code steps taking turns.
 */
async function signInMember(memberNo: string, width: number): Promise<Member> {
  const context = await e2e.browser.newContext({ viewport: { width, height: 900 }, baseURL: e2e.server.baseUrl });
  context.setDefaultTimeout(WAIT);
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Member number, phone number or email').fill(memberNo);
  await page.getByRole('checkbox').click();
  const code = codeStep.then(async () => {
    const since = Date.now();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter the 6-digit code we sent to your phone by SMS.').waitFor();
    return e2e.sink.codeSince(since, WAIT);
  });
  codeStep = code.catch(() => undefined);
  await page.getByLabel('6-digit code', { exact: true }).fill(await code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/voter', { timeout: WAIT });
  return { page, close: () => context.close() };
}

/** The admin signs in through the browser (as harness.ts signInAdminInBrowser, with this file's waits); lands on /admin. */
async function signInAdmin(page: Page) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  const since = Date.now();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Security code').fill(await e2e.server.emailCodeSince(ADMIN_EMAIL, since, WAIT));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/admin', { timeout: WAIT });
}

/** The voter's Nominations page, through the voter menu's "Nominations" (where the notices send members). */
async function openNominations(page: Page) {
  if (!new URL(page.url()).pathname.startsWith('/voter')) await page.goto('/voter');
  const side = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Nominations', exact: true });
  const menu = page.getByRole('button', { name: /^Menu/ });
  // Whichever the viewport has, once the shell is drawn (isVisible does not wait: asked while the
  // page still loads, a desktop page was taken for a phone and waited for a Menu button it lacks).
  await side.or(menu).first().waitFor({ timeout: WAIT });
  if (await side.isVisible()) await side.click();
  else {
    // On a phone the menu folds into a button named after the page ("Menu: Home").
    await menu.click();
    await page.getByRole('menuitem', { name: 'Nominations', exact: true }).click();
  }
  await page.waitForURL('**/voter/nominate', { timeout: WAIT });
  await page.getByRole('heading', { name: 'Waiting for you' }).waitFor();
}

/** A named supporter confirms the request waiting for them. */
async function confirmSupport({ page, close }: Member, memberNo: string, role: 'Proposer' | 'Seconder', nomineeName: string) {
  await openNominations(page);
  const waiting = page.getByRole('region', { name: 'Waiting for you' });
  const request = cardOf(page, waiting, `${role} of ${nomineeName} for ${TITLE}?`);
  await request.waitFor();
  // The proposer's statement goes with the request.
  await request.getByText(PROPOSER_STATEMENT).waitFor();
  await request.getByRole('button', { name: 'Confirm my support' }).click();
  await page.getByText('Your support is recorded').first().waitFor();
  await waiting.getByText('Nothing is waiting for you.').waitFor();
  const mine = page.getByRole('region', { name: 'My nominations' });
  await mine
    .getByRole('listitem')
    .filter({ hasText: new RegExp(`^${role}: .* \\(${memberNo}\\) — confirmed$`) })
    .waitFor();
  await close();
}

describe('a nomination from the Nominations page to the ballot (issue 40)', () => {
  it('nominated, supported, accepted, decided valid, on the ballot and in the public list', async () => {
    // Everyone signs in at once: the admin (the code by e-mail) and the four members (by SMS).
    const adminContext = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: e2e.server.baseUrl });
    adminContext.setDefaultTimeout(WAIT);
    const admin = await adminContext.newPage();
    const [proposer, secondProposer, seconder, nominee] = await Promise.all([
      signInMember(PROPOSER, 1280),
      signInMember(SECOND_PROPOSER, 390),
      signInMember(SECONDER, 390),
      signInMember(NOMINEE, 390),
      signInAdmin(admin),
    ]);
    // The browser's admin session for the set-up (a second admin sign-in would wait out the minute).
    const token = (await admin.evaluate(() => window.localStorage.getItem('token')))!;
    const election = (await asAdmin<{ data: { id: number } }>(token, 'GET', '/election')).data.id;
    // The window: opened an hour ago, closing in an hour; a new position that members nominate for.
    const opensAt = new Date(Date.now() - 3_600_000).toISOString();
    await asAdmin(token, 'PATCH', `/elections/${election}`, {
      nominations: { opens_at: opensAt, closes_at: new Date(Date.now() + 3_600_000).toISOString(), appeal_days: 3 },
    });
    await asAdmin(token, 'POST', '/positions', {
      name: POSITION,
      nomination: { proposers: 2, seconders: 1, same_branch: false, self: false },
    });

    // The proposer nominates: the first proposer is themselves, filled in and fixed.
    await openNominations(proposer.page);
    const form = proposer.page.getByRole('region', { name: 'Nominate a member' });
    const position = form.getByLabel('Position', { exact: true });
    await expect.poll(() => position.textContent(), { timeout: WAIT }).toContain(TITLE);
    await form.getByText('Needs 2 proposers and 1 seconder, members on the roll.').waitFor();
    expect(await form.getByLabel('Proposer 1: member number').inputValue()).toBe(PROPOSER);
    expect(await form.getByLabel('Proposer 1: member number').isDisabled()).toBe(true);
    await form.getByLabel("Nominee's member number").fill(NOMINEE);
    await form.getByLabel('Proposer 2: member number').fill(SECOND_PROPOSER);
    await form.getByLabel('Seconder 1: member number').fill(SECONDER);
    await form.getByLabel('Statement to the members').fill(PROPOSER_STATEMENT);
    await form.getByRole('button', { name: 'Nominate', exact: true }).click();
    await proposer.page.getByText('Nomination made: the members named are told').first().waitFor();
    const mine = proposer.page.getByRole('region', { name: 'My nominations' });
    const madeHeading = mine.getByRole('heading', { name: new RegExp(`\\(${NOMINEE}\\) — ${TITLE}$`) });
    await madeHeading.waitFor();
    const nomineeName = /^(.*) \(\d+\) — /.exec((await madeHeading.textContent())!)![1]!;
    const made = cardOf(proposer.page, mine, `${nomineeName} (${NOMINEE}) — ${TITLE}`);
    expect(await made.getByText('Status: Waiting for supporters').count()).toBe(1);
    const supporterLines = await made.getByRole('listitem').allTextContents();
    expect(supporterLines).toEqual([
      expect.stringMatching(new RegExp(`^Proposer: .* \\(${PROPOSER}\\) — confirmed$`)),
      expect.stringMatching(new RegExp(`^Proposer: .* \\(${SECOND_PROPOSER}\\) — not yet confirmed$`)),
      expect.stringMatching(new RegExp(`^Seconder: .* \\(${SECONDER}\\) — not yet confirmed$`)),
    ]);
    const supporterNames = supporterLines.map((l) => /^\w+: (.*) \(\d+\) — /.exec(l)![1]!);
    await screenshot(proposer.page, 'issue40-nominated');

    // The second proposer and the seconder confirm.
    await confirmSupport(secondProposer, SECOND_PROPOSER, 'Proposer', nomineeName);
    await confirmSupport(seconder, SECONDER, 'Seconder', nomineeName);

    // The nominee accepts, with a statement of their own (the proposer's is offered first) and a photo.
    await openNominations(nominee.page);
    const waiting = nominee.page.getByRole('region', { name: 'Waiting for you' });
    const request = cardOf(nominee.page, waiting, `You are nominated for ${TITLE}`);
    await request.waitFor();
    const statement = request.getByLabel('Statement to the members');
    expect(await statement.inputValue()).toBe(PROPOSER_STATEMENT);
    await statement.fill(NOMINEE_STATEMENT);
    await request
      .getByLabel('Photo (JPEG, PNG or WebP, at most 5 MB)')
      .setInputFiles({ name: 'nominee.png', mimeType: 'image/png', buffer: purplePng([0x20, 0x60, 0xa0]) });
    await request.getByRole('button', { name: 'Accept the nomination' }).click();
    await nominee.page.getByText('You have accepted the nomination').first().waitFor();
    await waiting.getByText('Nothing is waiting for you.').waitFor();
    await cardOf(nominee.page, nominee.page.getByRole('region', { name: 'My nominations' }), `${nomineeName} (${NOMINEE}) — ${TITLE}`)
      .getByText('Status: Submitted')
      .waitFor();
    await screenshot(nominee.page, 'issue40-accepted-390');
    await nominee.close();

    // The admin decides it valid on the Nominations page (the queue opens on the submitted ones).
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Nominations', exact: true }).click();
    await admin.waitForURL('**/admin/nominations');
    const filter = admin.getByRole('group', { name: 'Show nominations by status' });
    expect(await filter.getByRole('button', { name: 'Submitted', exact: true }).getAttribute('aria-pressed')).toBe('true');
    const queued = cardOf(admin, admin, `${nomineeName} (${NOMINEE}) — ${TITLE}`);
    await queued.waitFor();
    await queued.getByText(NOMINEE_STATEMENT).waitFor();
    await queued.getByText('No eligibility rule applies to this position.').waitFor();
    expect(
      await queued
        .getByRole('listitem')
        .filter({ hasText: / — confirmed$/ })
        .count(),
    ).toBe(3);
    await queued.getByLabel('Reason (required when invalid)').fill(REASON);
    await queued.getByRole('button', { name: 'Valid', exact: true }).click();
    await admin.getByText('Decided valid: the nominee is now a candidate').first().waitFor();
    await admin.getByText('No nomination here.').waitFor();
    await filter.getByRole('button', { name: 'Valid', exact: true }).click();
    await cardOf(admin, admin, `${nomineeName} (${NOMINEE}) — ${TITLE}`).getByText(`Status: Valid — ${REASON}`).waitFor();
    await screenshot(admin, 'issue40-decided-valid');

    // The window closes (over the API), then the admin opens voting from the dashboard.
    await asAdmin(token, 'PATCH', `/elections/${election}`, {
      nominations: { opens_at: opensAt, closes_at: new Date().toISOString(), appeal_days: 3 },
    });
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }).click();
    await admin.waitForURL('**/admin');
    const toggle = admin.getByRole('switch', { name: 'Voting enabled' });
    await expect.poll(() => toggle.isEnabled(), { timeout: WAIT }).toBe(true);
    await toggle.click();
    // The first opening freezes the roll, so the switch asks first (naming the positions nobody stands for).
    const confirm = admin.getByRole('alertdialog').getByRole('button', { name: /^(Open voting|Enable voting anyway)$/ });
    await confirm
      .or(admin.getByText('Voting has been enabled', { exact: true }))
      .first()
      .waitFor();
    if (await confirm.isVisible()) await confirm.click();
    await admin.getByText('Voting has been enabled', { exact: true }).first().waitFor();

    // The proposer, still signed in, finds the nominee on the ballot with their statement and photo.
    await proposer.page.goto('/voter/elect');
    const heading = proposer.page.getByRole('heading', { name: new RegExp(`^${POSITION}`) });
    await heading.waitFor();
    const ballot = proposer.page.getByRole('group', { name: (await heading.textContent())! });
    const candidate = ballot.getByRole('radio');
    expect(await candidate.count()).toBe(1);
    expect(await candidate.getAttribute('data-name')).toBe(nomineeName);
    expect(await candidate.getAttribute('data-photo')).toMatch(/\S/);
    await ballot.getByText('Read statement').click();
    await ballot.getByText(NOMINEE_STATEMENT).waitFor();
    expect(await ballot.locator('img').getAttribute('src')).not.toBe('/default-avatar.svg');
    await screenshot(proposer.page, 'issue40-ballot');
    await proposer.close();

    // The public Elections page lists the nomination with its supporters by name.
    const publicContext = await e2e.browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: e2e.server.baseUrl });
    publicContext.setDefaultTimeout(WAIT);
    const anyone = await publicContext.newPage();
    await anyone.goto('/elections');
    const listed = anyone.getByTestId(`election-${election}`);
    await listed.getByText('Status: Open').waitFor();
    await listed.getByText('Nominations', { exact: true }).click();
    await listed.getByText(`${nomineeName}, ${TITLE}: Valid`, { exact: true }).waitFor();
    await listed
      .getByText(`Proposer: ${supporterNames[0]}; Proposer: ${supporterNames[1]}; Seconder: ${supporterNames[2]}`, { exact: true })
      .waitFor();
    // No member numbers in public.
    expect(await listed.getByText(new RegExp(`\\(${NOMINEE}\\)|${SECONDER}`)).count()).toBe(0);
    await screenshot(anyone, 'issue40-public-nominations-390');
    await publicContext.close();
    await adminContext.close();
  });
});
