/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { addCandidate, nav, screenshot, signInAdminInBrowser, signInVoterInBrowser, toast, useE2E } from './harness';

/**
 * Any organisation's election from an empty install (the election is data, ADR 004), in the browser alone: the server
 * starts without the demo (SEED_DEMO=0) with the admin and one agent from the environment; the
 * admin sets up a savings cooperative on the Set-up page (texts, 3 branches, a 3-seat board, a
 * treasurer, a delegate per branch), imports its members from a CSV that brings a fourth branch,
 * adds candidates with photos and statements through the Add candidate dialog, and switches voting
 * on; two members sign in with their SMS code and vote, one for all 3 board seats and one for 2;
 * their receipts and the declared result show it. No page ever names the demo's society.
 */

const AGENT_EMAIL = 'observer@umoja.test';
const ORG = 'Umoja Savings and Credit Cooperative';
const TITLE = 'Umoja Board Elections 2026';
const BRANCHES = ['Harbour', 'Hillside', 'Riverside'];
const NEW_BRANCH = 'Lakeside';

const MEMBERS = [
  ['7001', 'Grace Achieng', 'Harbour'],
  ['7002', 'Peter Otieno', 'Hillside'],
  ['7003', 'Ruth Njoki', 'Riverside'],
  ['7004', 'Daniel Kiprop', NEW_BRANCH],
  ['7005', 'Mary Wambui', 'Harbour'],
  ['7006', 'John Mutua', 'Hillside'],
  ['7007', 'Alice Chebet', 'Harbour'],
  ['7008', 'Samuel Ouma', 'Hillside'],
  ['7009', 'Esther Nduta', 'Riverside'],
  ['7010', 'Brian Kamau', NEW_BRANCH],
  ['7011', 'Faith Akinyi', 'Harbour'],
  ['7012', 'George Were', 'Hillside'],
] as const;
const CSV = [
  'member_no,name,email,phone,branch',
  ...MEMBERS.map(
    ([no, name, branch], i) =>
      `${no},${name},${name.toLowerCase().replace(' ', '.')}@umoja.test,07220000${String(i + 1).padStart(2, '0')},${branch}`,
  ),
].join('\n');

const BOARD = 'Board member - National';
const TREASURER = 'Treasurer - National';
const delegate = (branch: string) => `Branch delegate - ${branch}`;
/** Who stands for what, each with a statement; the board and treasurer from the Candidates page, delegates from Set-up. */
const CANDIDATES: { memberNo: string; name: string; position: string; statement: string }[] = [
  {
    memberNo: '7001',
    name: 'Grace Achieng',
    position: BOARD,
    statement: 'Twelve years of running the Harbour loans desk. I will publish the loan book every quarter.',
  },
  {
    memberNo: '7002',
    name: 'Peter Otieno',
    position: BOARD,
    statement: 'Lower fees on small savings accounts and a mobile statement for every member.',
  },
  { memberNo: '7003', name: 'Ruth Njoki', position: BOARD, statement: 'An audit committee that reports to members, not to the board.' },
  { memberNo: '7004', name: 'Daniel Kiprop', position: BOARD, statement: 'Lakeside deserves a voice on the board.' },
  { memberNo: '7005', name: 'Mary Wambui', position: TREASURER, statement: 'Certified accountant; clean books for six years.' },
  { memberNo: '7006', name: 'John Mutua', position: TREASURER, statement: 'Dividends paid on time, every time.' },
];
const DELEGATES = [
  { memberNo: '7007', name: 'Alice Chebet', branch: 'Harbour' },
  { memberNo: '7008', name: 'Samuel Ouma', branch: 'Hillside' },
  { memberNo: '7009', name: 'Esther Nduta', branch: 'Riverside' },
  { memberNo: '7010', name: 'Brian Kamau', branch: NEW_BRANCH },
];
/** Voter A (Harbour) fills all 3 board seats; voter B (Hillside) only 2. */
const VOTER_A = {
  memberNo: '7011',
  board: ['Grace Achieng', 'Peter Otieno', 'Ruth Njoki'],
  treasurer: 'Mary Wambui',
  delegate: 'Alice Chebet',
};
const VOTER_B = { memberNo: '7012', board: ['Grace Achieng', 'Peter Otieno'] };

/** What the demo society's install would show: never on this organisation's pages. */
const DEMO_WORDS = /Kenya|Pharmac|Physiotherap|psk\.or\.ke|Nairobi|Mombasa|Kisumu/i;

const e2e = useE2E({ env: { SEED_DEMO: '0', AGENT_EMAILS: AGENT_EMAIL } });

const newPage = e2e.newPage;

/** The page's visible text names nothing of the demo society (nor "PSK", case-sensitive: it is in API paths). */
async function expectNoDemo(page: Page, where: string) {
  const text = await page.evaluate(() => `${document.title}\n${document.body.innerText}`);
  expect(text, where).not.toMatch(DEMO_WORDS);
  expect(text, where).not.toMatch(/\bPSK\b/);
}

const checklistItem = (page: Page, label: string): Locator =>
  page
    .getByRole('list', { name: 'Set-up checklist' })
    .locator('li')
    .filter({ has: page.locator('strong', { hasText: new RegExp(`^${label}$`) }) });

describe("a savings cooperative's election from an empty install", () => {
  it('is set up in the browser alone, voted in by two members (3 and 2 board seats) and declared; nothing names the demo', async () => {
    // ---- The admin (from ADMIN_EMAIL/ADMIN_PASSWORD) signs in: an empty install.
    const { context: adminContext, page: admin } = await newPage(1280, 1000);
    await signInAdminInBrowser(admin, e2e.server);
    await nav(admin, 'Set-up').click();
    await admin.waitForURL('**/admin/setup');
    await expect.poll(() => checklistItem(admin, 'Branches').textContent(), { timeout: 15_000 }).toContain('Add at least one branch.');
    expect(await checklistItem(admin, 'Positions').textContent()).toContain('Add at least one position.');
    expect(await checklistItem(admin, 'Organisation texts').textContent()).toContain('(to do)');
    // The agent came from AGENT_EMAILS.
    await expect.poll(() => checklistItem(admin, 'Agents').textContent(), { timeout: 10_000 }).toContain('1 agent (observers)');

    // ---- Organisation texts.
    const org = admin.getByRole('region', { name: 'Organisation', exact: true });
    await org.getByLabel('Election title').fill(TITLE);
    await org.getByLabel('Organisation name').fill(ORG);
    await org.getByLabel('Website').fill('https://umoja.test');
    await org.getByLabel('Support email').fill('elections@umoja.test');
    await org.getByRole('button', { name: 'Save organisation texts' }).click();
    await toast(admin, 'Organisation texts saved');
    await expect.poll(() => checklistItem(admin, 'Organisation texts').textContent()).toContain(`${ORG}: ${TITLE}`);

    // ---- Three branches.
    const branches = admin.getByRole('region', { name: 'Branches', exact: true });
    for (const name of BRANCHES) {
      await branches.getByLabel('New branch name').fill(name);
      await branches.getByRole('button', { name: 'Add branch' }).click();
      await branches.getByRole('list', { name: 'Branches' }).getByText(name, { exact: true }).waitFor();
    }
    await expect.poll(() => checklistItem(admin, 'Branches').textContent()).toContain('3 branches');

    // ---- Positions: a 3-seat national board, a treasurer, a delegate in every branch.
    const positions = admin.getByRole('region', { name: 'Positions', exact: true });
    const positionList = positions.getByRole('list', { name: 'Positions' });
    const addPosition = async (
      name: string,
      seats: number,
      scope: 'national' | 'every' | 'branch',
      description: string,
      branch?: string,
    ) => {
      await positions.getByLabel('New position name').fill(name);
      await positions.getByLabel('Seats').fill(String(seats));
      await positions.getByLabel('Elected by').selectOption(scope);
      if (branch) await positions.getByLabel('Branch', { exact: true }).selectOption({ label: branch });
      await positions.getByLabel('Description (optional)').fill(description);
      await positions.getByRole('button', { name: 'Add position' }).click();
      await toast(admin, 'Position added');
    };
    await addPosition('Board member', 3, 'national', 'Three seats; every member chooses up to three.');
    await positionList.getByText(BOARD, { exact: true }).waitFor();
    await addPosition('Treasurer', 1, 'national', 'Keeps the books and reports to the AGM.');
    await positionList.getByText(TREASURER, { exact: true }).waitFor();
    await addPosition('Branch delegate', 1, 'every', 'Speaks for the branch at the AGM.');
    for (const b of BRANCHES) await positionList.getByText(delegate(b), { exact: true }).waitFor();
    expect(await positionList.getByText('3 seats', { exact: false }).count()).toBe(1);
    await expect.poll(() => checklistItem(admin, 'Candidates').textContent()).toContain(`No candidate for: ${BOARD}`);

    // ---- Members from a CSV that brings a branch nobody created yet (the create-branches choice ticked).
    await nav(admin, 'Manage').click();
    await admin.waitForURL('**/admin/members');
    await admin.getByLabel("Create branches that don't exist yet").check();
    await admin
      .getByLabel('CSV file of members')
      .setInputFiles({ name: 'umoja-members.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await toast(admin, 'Members imported');
    expect(await admin.getByRole('status', { name: 'Import result' }).textContent()).toContain(`${MEMBERS.length} created, 0 updated`);
    await admin.locator('tbody tr', { hasText: 'Grace Achieng' }).first().waitFor();
    await expectNoDemo(admin, 'members page');

    // The new branch gets its delegate too (one branch).
    await nav(admin, 'Set-up').click();
    await admin.waitForURL('**/admin/setup');
    await branches.getByRole('list', { name: 'Branches' }).getByText(NEW_BRANCH, { exact: true }).waitFor();
    await addPosition('Branch delegate', 1, 'branch', 'Speaks for the branch at the AGM.', NEW_BRANCH);
    await positionList.getByText(delegate(NEW_BRANCH), { exact: true }).waitFor();

    // ---- Candidates: board and treasurer from the Candidates page, with photos and statements.
    await nav(admin, 'Candidates').click();
    await admin.waitForURL('**/admin/candidates');
    await admin.getByText('There are no candidates yet', { exact: false }).waitFor();
    for (const [i, c] of CANDIDATES.entries()) {
      await admin.getByRole('button', { name: 'Add candidate' }).click();
      await addCandidate(admin, c, [40 + i * 30, 90, 160 - i * 20]);
      await admin.locator('tbody tr', { hasText: c.memberNo }).first().waitFor();
    }
    const grace = admin.locator('tbody tr', { hasText: '7001' }).first();
    await expect.poll(() => grace.getByRole('img').getAttribute('src'), { timeout: 10_000 }).toMatch(/^\/uploads\//);
    // The Edit Candidate dialog carries the statement.
    await grace.getByRole('button', { name: 'Edit Grace Achieng' }).click();
    const edit = admin.getByRole('dialog', { name: 'Edit Candidate' });
    expect(await edit.getByLabel('Statement to voters (optional)').inputValue()).toBe(CANDIDATES[0]!.statement);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'detached' });
    await expectNoDemo(admin, 'candidates page');

    // ---- Delegates from each position on the Set-up page (the position chosen already).
    await nav(admin, 'Set-up').click();
    await admin.waitForURL('**/admin/setup');
    for (const [i, d] of DELEGATES.entries()) {
      await positions.getByRole('button', { name: `Add a candidate for ${delegate(d.branch)}` }).click();
      const dialog = admin.getByRole('dialog', { name: 'Add Candidate' });
      await expect
        .poll(async () => (await dialog.getByLabel('Position').locator('option:checked').textContent())?.trim())
        .toBe(delegate(d.branch));
      await addCandidate(admin, { ...d, statement: `${d.name} for ${d.branch}: an open branch meeting every month.` }, [
        200,
        60 + i * 40,
        60,
      ]);
    }

    // ---- The checklist: everything but the optional schedule (voting opens with the switch).
    for (const item of ['Organisation texts', 'Branches', 'Positions', 'Candidates', 'Members', 'Agents']) {
      await expect.poll(() => checklistItem(admin, item).textContent(), { timeout: 10_000 }).toContain('(done)');
    }
    expect(await checklistItem(admin, 'Branches').textContent()).toContain('4 branches');
    expect(await checklistItem(admin, 'Positions').textContent()).toContain('6 positions');
    expect(await checklistItem(admin, 'Candidates').textContent()).toContain('Every position has a candidate.');
    expect(await checklistItem(admin, 'Members').textContent()).toContain(`${MEMBERS.length} members`);
    expect(await checklistItem(admin, 'Schedule').textContent()).toContain('open and close voting with the switch');
    await positionList.getByText('Candidates: Grace Achieng, Peter Otieno, Ruth Njoki, Daniel Kiprop', { exact: true }).waitFor();
    await expectNoDemo(admin, 'set-up page');
    // The operator guide's picture of the Set-up page (docs/images/setup.png), without the last toast.
    for (const close of await admin.getByRole('button', { name: 'Close', exact: true }).all()) await close.click().catch(() => undefined);
    await expect.poll(() => admin.getByText('Candidate added', { exact: true }).count(), { timeout: 10_000 }).toBe(0);
    await admin.evaluate(() => window.scrollTo(0, 0));
    await screenshot(admin, 'setup-page');

    // ---- Voting on, from the dashboard: every position has a candidate, so the one question is the
    // first opening's (it freezes the roll, and says so); the phase follows.
    await nav(admin, 'Home').click();
    await admin.waitForURL('**/admin');
    const toggle = admin.getByRole('switch', { name: 'Voting enabled' });
    await expect.poll(() => toggle.isEnabled(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => admin.getByTestId('election-phase').textContent()).toBe('Set-up: voting has not been opened yet.');
    await toggle.click();
    const opening = admin.getByRole('alertdialog', { name: 'Open voting and freeze the roll?' });
    await opening.waitFor();
    expect(await opening.textContent()).toContain('The roll is frozen for good');
    expect(await opening.textContent()).not.toContain('No candidate stands for');
    await opening.getByRole('button', { name: 'Open voting' }).click();
    await toast(admin, 'Voting has been enabled');
    await expect.poll(() => admin.getByTestId('election-phase').textContent(), { timeout: 10_000 }).toBe('Open: members can vote.');
    await expectNoDemo(admin, 'admin dashboard');

    // ---- Voter A signs in with the SMS code and fills all 3 board seats, the treasurer and the Harbour delegate.
    const a = await newPage(1280, 1000);
    await signInVoterInBrowser(a.page, e2e.sink, VOTER_A.memberNo);
    await expectNoDemo(a.page, 'voter dashboard');
    await nav(a.page, 'Voting').click();
    await a.page.waitForURL('**/voter/elect');
    const pick = (page: Page, name: string) => page.locator(`input[data-name="${name}"]`);
    await pick(a.page, 'Grace Achieng').waitFor();
    // Harbour's delegate only: no other branch's position on this ballot.
    expect(await pick(a.page, 'Samuel Ouma').count()).toBe(0);
    expect(await pick(a.page, 'Grace Achieng').getAttribute('type')).toBe('checkbox');
    expect(await pick(a.page, 'Mary Wambui').getAttribute('type')).toBe('radio');
    await a.page.getByText('Choose up to 3 (0 chosen)').waitFor();
    // A statement, collapsed until asked for.
    const graceLabel = a.page.locator('label', { has: pick(a.page, 'Grace Achieng') });
    const statement = graceLabel.getByText(CANDIDATES[0]!.statement);
    expect(await statement.isVisible()).toBe(false);
    await graceLabel.getByText('Read statement').click();
    await statement.waitFor();
    for (const name of VOTER_A.board) await pick(a.page, name).check();
    await a.page.getByText('Choose up to 3 (3 chosen)').waitFor();
    // The fourth board candidate cannot be added.
    expect(await pick(a.page, 'Daniel Kiprop').isDisabled()).toBe(true);
    await pick(a.page, VOTER_A.treasurer).check();
    await pick(a.page, VOTER_A.delegate).check();
    await expectNoDemo(a.page, 'ballot');
    await a.page.getByRole('button', { name: 'Vote', exact: true }).click();
    const confirmA = a.page.getByRole('alertdialog');
    await confirmA.getByText('Are you sure?').waitFor();
    for (const name of [...VOTER_A.board, VOTER_A.treasurer, VOTER_A.delegate])
      await confirmA.getByText(name, { exact: false }).first().waitFor();
    await confirmA.getByRole('button', { name: 'Cast my vote' }).click();
    await a.page.getByText('You have successfully voted').first().waitFor({ timeout: 15_000 });

    // Voter A's receipts: one code per position, the board's code on its three rows.
    await nav(a.page, 'My receipts').click();
    await a.page.waitForURL('**/voter/vpat');
    const rowsA = a.page.locator('tbody tr');
    await expect.poll(() => rowsA.count(), { timeout: 15_000 }).toBe(5);
    const receiptsA = await rowsA.evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
    );
    const boardRowsA = receiptsA.filter((r) => r[3]!.startsWith('Board member'));
    expect(boardRowsA.map((r) => r[2]).sort()).toEqual([...VOTER_A.board].sort());
    expect(new Set(boardRowsA.map((r) => r[1])).size).toBe(1);
    expect(new Set(receiptsA.map((r) => r[1])).size).toBe(3);
    expect(receiptsA.find((r) => r[3]!.startsWith('Treasurer'))![2]).toBe(VOTER_A.treasurer);
    expect(receiptsA.find((r) => r[3]!.startsWith('Branch delegate'))![2]).toBe(VOTER_A.delegate);
    await expectNoDemo(a.page, 'voter A receipts');
    await screenshot(a.page, 'setup-org-voter-a-receipts');

    // ---- Voter B (Hillside) chooses only 2 of the 3 board seats and nothing else.
    const b = await newPage(1280, 1000);
    await signInVoterInBrowser(b.page, e2e.sink, VOTER_B.memberNo);
    await nav(b.page, 'Voting').click();
    await b.page.waitForURL('**/voter/elect');
    await pick(b.page, 'Grace Achieng').waitFor();
    expect(await pick(b.page, 'Alice Chebet').count()).toBe(0);
    await pick(b.page, 'Samuel Ouma').waitFor();
    for (const name of VOTER_B.board) await pick(b.page, name).check();
    await b.page.getByText('Choose up to 3 (2 chosen)').waitFor();
    await b.page.getByRole('button', { name: 'Vote', exact: true }).click();
    await b.page.getByRole('alertdialog').getByRole('button', { name: 'Cast my vote' }).click();
    await b.page.getByText('You have successfully voted').first().waitFor({ timeout: 15_000 });
    await nav(b.page, 'My receipts').click();
    await b.page.waitForURL('**/voter/vpat');
    const rowsB = b.page.locator('tbody tr');
    await expect.poll(() => rowsB.count(), { timeout: 15_000 }).toBe(2);
    const receiptsB = await rowsB.evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
    );
    expect(receiptsB.map((r) => r[2]).sort()).toEqual([...VOTER_B.board].sort());
    expect(new Set(receiptsB.map((r) => r[1])).size).toBe(1);
    expect(receiptsB.every((r) => r[3]!.startsWith('Board member'))).toBe(true);
    await expectNoDemo(b.page, 'voter B receipts');

    // ---- The admin closes the election; the declared result counts every board choice.
    await admin.getByRole('button', { name: 'Close the election' }).click();
    const closeDialog = admin.getByRole('alertdialog');
    await closeDialog.getByRole('button', { name: 'Close the election' }).click();
    await expect.poll(() => admin.getByTestId('election-phase').textContent(), { timeout: 30_000 }).toMatch(/^Closed/);

    const pub = await newPage(1280, 1000);
    await pub.page.goto('/results');
    await pub.page.getByRole('heading', { name: 'Declaration of results' }).waitFor({ timeout: 20_000 });
    const section = (title: RegExp) => pub.page.getByRole('region', { name: title });
    const outcome = async (title: RegExp, name: string) => {
      const cells = await section(title).locator('tbody tr', { hasText: name }).locator('th, td').allTextContents();
      return { votes: Number(cells[1]), outcome: cells[3]?.trim() ?? '' };
    };
    const board = /^Board member National/;
    expect(await section(board).locator('h2').textContent()).toContain('3 seats');
    expect(await outcome(board, 'Grace Achieng')).toEqual({ votes: 2, outcome: 'Elected' });
    expect(await outcome(board, 'Peter Otieno')).toEqual({ votes: 2, outcome: 'Elected' });
    expect(await outcome(board, 'Ruth Njoki')).toEqual({ votes: 1, outcome: 'Elected' });
    expect(await outcome(board, 'Daniel Kiprop')).toEqual({ votes: 0, outcome: '' });
    expect(await outcome(/^Treasurer National/, 'Mary Wambui')).toEqual({ votes: 1, outcome: 'Elected' });
    expect(await outcome(/^Treasurer National/, 'John Mutua')).toEqual({ votes: 0, outcome: '' });
    expect(await outcome(/^Branch delegate Harbour/, 'Alice Chebet')).toEqual({ votes: 1, outcome: 'Elected' });
    expect(await pub.page.getByText(/Turnout: 2 of 12 members/).count()).toBe(1);
    await expectNoDemo(pub.page, 'declared results');
    await screenshot(pub.page, 'setup-org-results');

    // The public landing page carries the cooperative's name and nothing of the demo's.
    await pub.page.goto('/');
    await expect.poll(() => pub.page.evaluate(() => document.body.innerText), { timeout: 15_000 }).toContain(ORG);
    await expectNoDemo(pub.page, 'landing page');

    for (const ctx of [a.context, b.context, pub.context, adminContext]) await ctx.close();
  }, 420_000);
});
