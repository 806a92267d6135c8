/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Download, Locator, Page, Response } from 'playwright-core';
import { countBlt } from '../../count/src/index';
import {
  addCandidate,
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  nav,
  screenshot,
  signInAdminInBrowser,
  signInAgentInBrowser,
  signInVoterInBrowser,
  toast,
  useE2E,
  sidewaysBy,
} from './harness';

/**
 * Issue 37's "done when": a secretary's first hour, from an empty install to a declared AGM, in
 * Chromium against the real server, with nothing outside the browser but starting the server.
 *
 * The server starts without the demo and without an admin; the admin login and the public page
 * say how to make the first one, and the server is started again with ADMIN_EMAIL and
 * ADMIN_PASSWORD, the README's one step ("or ADMIN_EMAIL and ADMIN_PASSWORD", docs/operations.md
 * "The first admin"). From there the browser alone: the welcome toast, once for the whole tab;
 * the organisation's texts and its time zone; an AGM with two motions, a 3-seat ranked (STV) board
 * and a plurality chair; the members from the CSV template, filled in with member numbers like
 * UFC-001, no e-mail on some lines and phones in four Kenyan spellings (shown in E.164), and one
 * member's language set on his edit form; the candidates with photos; an agent added on the Staff
 * page, who signs in and watches; results for staff only while voting runs; the opening, confirmed
 * (it freezes the roll); the public page saying at once (one 403, not tried again) that results
 * are for staff; three members vote with their SMS code, two on a 390 px phone (one in English who
 * signs in with her phone number, one in Kiswahili), each reloading the page mid-ballot and finding
 * the draft kept; the agent's and the admin's tiles counting votes one per position; the
 * commitments at 0 ballots, saying why (the mixer's batch); the close (confirmed); the declaration
 * with the motions' arithmetic and the count round by round, in English and in Kiswahili; the BLT
 * download recounted to the declared quota and elected; the results CSV named after the election;
 * the Logs page on the organisation's clock; the copy to next year and the archive, after which
 * the public pages say no election is open.
 *
 * The mixer's batch is the install's default (MIX_MIN_BATCH 20, docs/api.md), not the 1 the other
 * e2e files use: an AGM of three ballots never fills it, so its commitments read 0 until the close.
 */

const ORG = 'Umoja Farmers Cooperative';
const TITLE = 'UFC AGM 2026';
const NEXT = 'UFC AGM 2027';
const SUPPORT = 'elections@ufc.test';
const AGENT = 'observer@ufc.test';
const SECRETARY = 'Grace Wanjiru';
/** The organisation's clock (a fresh install's is UTC). */
const ZONE = 'Africa/Nairobi';
/** The signed-in shell's welcome (the catalogue's shell.welcome). */
const WELCOME = 'Secure and Transparent Voting ✅';
/** GET results' 403 while results are for staff only (the server's catalogue, results.staffOnly, en and sw). */
const STAFF_ONLY = 'Results are shown to election staff only until voting closes';
const STAFF_ONLY_SW = 'Matokeo yanaonyeshwa kwa maafisa wa uchaguzi pekee hadi upigaji kura utakapofungwa';

const ACCOUNTS = 'Adopt the 2025 accounts';
const RULE_12 = 'Amend rule 12';
const BOARD = 'Board';
const CHAIR = 'Chair';
/** How Set-up lists a position elected by all members. */
const listed = (name: string) => `${name} - National`;

/**
 * The register as the secretary types it into the template: four phone spellings, e-mail only on
 * some lines, Kiswahili for Njeri (Otieno's she sets on his edit form afterwards).
 */
const MEMBERS = [
  { no: 'UFC-001', name: 'Wanjiku Kamau', email: 'wanjiku@ufc.test', phone: '0712 345 001', language: '' },
  { no: 'UFC-002', name: 'Otieno Okoth', email: '', phone: '+254 722 345 002', language: '' },
  { no: 'UFC-003', name: 'Achieng Atieno', email: 'achieng@ufc.test', phone: '0712.345.003', language: '' },
  { no: 'UFC-004', name: 'Kiprotich Langat', email: '', phone: '254712345004', language: '' },
  { no: 'UFC-005', name: 'Njeri Mwangi', email: '', phone: '0712-345-005', language: 'sw' },
  { no: 'UFC-006', name: 'Mary Wambui', email: 'mary@ufc.test', phone: '0712345006', language: '' },
  { no: 'UFC-007', name: 'Peter Kariuki', email: '', phone: '0712 345 007', language: '' },
  { no: 'UFC-008', name: 'Ruth Chebet', email: 'ruth@ufc.test', phone: '0712 345 008', language: '' },
  { no: 'UFC-009', name: 'Daniel Mutua', email: '', phone: '0712 345 009', language: '' },
  { no: 'UFC-010', name: 'Faith Akinyi', email: '', phone: '0712 345 010', language: '' },
];
const BRANCH = 'Thika';
/** What the Members page must show for the four spellings of the issue. */
const E164 = [
  ['UFC-001', '+254712345001'],
  ['UFC-002', '+254722345002'],
  ['UFC-004', '+254712345004'],
  ['UFC-005', '+254712345005'],
] as const;

const BOARD_CANDIDATES = ['UFC-006', 'UFC-007', 'UFC-008', 'UFC-009'];
const CHAIR_CANDIDATES = ['UFC-003', 'UFC-010'];
const nameOf = (no: string) => MEMBERS.find((m) => m.no === no)!.name;
const [MARY, PETER, RUTH, DANIEL] = BOARD_CANDIDATES.map(nameOf) as [string, string, string, string];
const [ACHIENG, FAITH] = CHAIR_CANDIDATES.map(nameOf) as [string, string];

// On the embedded database, as `pnpm start` on a new machine (ADR 016): setup-organisation walks a
// fresh installation on PostgreSQL, as `docker compose up` makes one.
const e2e = useE2E({
  env: { SEED_DEMO: '0', ADMIN_EMAIL: '', ADMIN_PASSWORD: '', MIX_MIN_BATCH: '20' },
  restartable: true,
  embedded: true,
});

/** Shared along the walk: the secretary's page (one sign-in: a second within the minute is refused), the agent's, the Kiswahili voter's. */
let admin: Page;
let agent: Page;
let swahili: Page;
const contexts: BrowserContext[] = [];
async function open(width: number, height: number) {
  const { context, page } = await e2e.newPage(width, height);
  contexts.push(context);
  return page;
}

/** A page on a phone goes through its menu (the menu button names the page it is on: "Menu: Home"). */
async function phoneMenu(page: Page, item: string, prefix: 'Menu' | 'Menyu' = 'Menu') {
  await page.getByRole('button', { name: new RegExp(`^${prefix}`) }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** The ballot's group of a position (the fieldset named by its heading, as the admin typed it). */
const group = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

/** The cells of the row that names `text` in a table (header cell first). */
const rowCells = (scope: Page | Locator, text: string) =>
  scope.locator('tbody tr', { hasText: text }).first().locator('th, td').allTextContents();

/**
 * Counts, in the tab's sessionStorage (so across page loads), every toast that shows `text`: an
 * init script, run in the page before the app.
 */
function countToasts(text: string) {
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes)
        if (node instanceof HTMLLIElement && node.textContent?.includes(text))
          sessionStorage.setItem('e2e.toasts', String(Number(sessionStorage.getItem('e2e.toasts') ?? '0') + 1));
  }).observe(document, { childList: true, subtree: true });
}
const toastsCounted = (page: Page) => page.evaluate(() => Number(sessionStorage.getItem('e2e.toasts') ?? '0'));

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/**
 * The instant a staff table's time names when it is on Nairobi's clock (East Africa Time, UTC+3 all
 * year), as formatInZone writes it in the browser's English: "<month> <day>, <year> at 09:40 PM GMT+3"
 * (or "EAT", a 24-hour clock, the day first); undefined when it is not.
 */
function nairobiInstant(shown: string): number | undefined {
  const zone = /\s(GMT\+3|EAT)$/.exec(shown);
  const time = /\b(\d{1,2}):(\d{2})(?:\s*([AP]M))?/.exec(shown);
  const month = MONTHS.findIndex((m) => shown.includes(m));
  const year = /\b(\d{4})\b/.exec(shown);
  const day = /\b(\d{1,2})\b/.exec(shown.replace(time?.[0] ?? '', '').replace(zone?.[0] ?? '', ''));
  if (!zone || !time || month < 0 || !year || !day) return undefined;
  const hour = (Number(time[1]) % (time[3] ? 12 : 24)) + (time[3] === 'PM' ? 12 : 0);
  return Date.UTC(Number(year[1]), month, Number(day[1]), hour - 3, Number(time[2]));
}

async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

describe('a secretary on her own: the first hour from an empty install to a declared AGM (issue 37)', () => {
  it('an empty install says how to make the first admin; started again with ADMIN_EMAIL and ADMIN_PASSWORD, she signs in and is welcomed once for the tab', async () => {
    const { context, page } = await e2e.newPage(1280, 900);
    for (const path of ['/admin/login', '/']) {
      await page.goto(path);
      const note = page.getByRole('note', { name: 'No admin yet' });
      await note.waitFor({ timeout: 30_000 });
      expect(await note.textContent(), path).toContain('pnpm cli admin:create you@example.org');
      expect(await note.textContent(), path).toContain('ADMIN_EMAIL and ADMIN_PASSWORD');
    }
    // The start banner says so too.
    expect(e2e.server.logLines.some((l) => l.includes('No admin yet. Create the first one with: pnpm cli admin:create'))).toBe(true);
    await context.close();

    // The README's one step: the same install started again with the first admin's e-mail and password.
    const server = await e2e.restart({ ADMIN_EMAIL, ADMIN_PASSWORD });
    expect(server.logLines.some((l) => l.includes(`Admin ${ADMIN_EMAIL} created or updated from ADMIN_EMAIL.`))).toBe(true);
    expect(server.logLines.some((l) => l.includes('No admin yet'))).toBe(false);
    admin = await open(1280, 900);
    await admin.addInitScript(countToasts, WELCOME);
    await signInAdminInBrowser(admin, server);
    // Welcomed once at sign-in.
    await expect.poll(() => toastsCounted(admin), { timeout: 30_000 }).toBe(1);

    // The untitled election the install made is explained on the Elections page.
    await nav(admin, 'Elections').click();
    await admin.waitForURL('**/admin/elections');
    await admin
      .getByRole('note')
      .filter({ hasText: 'The untitled election below was made when Kura was installed' })
      .waitFor({ timeout: 30_000 });
    // Once per tab, not per page: not on Elections, nor on Set-up loaded afresh (the shell mounts again).
    await admin.goto('/admin/setup');
    await admin.getByRole('region', { name: 'Organisation', exact: true }).waitFor({ timeout: 30_000 });
    await admin.waitForTimeout(1_000);
    expect(await toastsCounted(admin)).toBe(1);
    expect(await admin.getByText(WELCOME, { exact: true }).count()).toBe(0);
  });

  it('sets up the organisation with its time zone and an AGM with two motions, a 3-seat ranked board and a chair', async () => {
    await nav(admin, 'Set-up').click();
    await admin.waitForURL('**/admin/setup');
    const org = admin.getByRole('region', { name: 'Organisation', exact: true });
    await org.getByLabel('Election title').fill(TITLE);
    await org.getByLabel('Organisation name').fill(ORG);
    await org.getByLabel('Support email').fill(SUPPORT);
    await org.getByRole('button', { name: 'Save organisation texts' }).click();
    await toast(admin, 'Organisation texts saved');

    const positions = admin.getByRole('region', { name: 'Positions', exact: true });
    const item = (name: string) =>
      positions
        .getByRole('list', { name: 'Positions' })
        .getByRole('listitem')
        .filter({ hasText: listed(name) });
    const add = async (
      name: string,
      fields: { motion: { threshold: string; quorum?: string; text: string } } | { method: string; seats: number; description: string },
    ) => {
      await positions.getByLabel('New position name').fill(name);
      await positions.getByLabel('Elected by').selectOption('national');
      if ('motion' in fields) {
        await positions.getByLabel('Kind').selectOption({ label: 'Motion (Yes / No / Abstain)' });
        await positions.getByLabel('Threshold').selectOption({ label: fields.motion.threshold });
        await positions.getByLabel('Quorum (%)').fill(fields.motion.quorum ?? '');
        await positions.getByLabel('Motion text (optional)').fill(fields.motion.text);
      } else {
        await positions.getByLabel('Kind').selectOption({ label: 'Candidates' });
        await positions.getByLabel('Voting method').selectOption({ label: fields.method });
        await positions.getByLabel('Seats').fill(String(fields.seats));
        await positions.getByLabel('Description (optional)').fill(fields.description);
      }
      await positions.getByRole('button', { name: 'Add position' }).click();
      await toast(admin, 'motion' in fields ? 'Motion added' : 'Position added');
    };
    await add(ACCOUNTS, {
      motion: { threshold: 'Majority (more than half of Yes and No)', text: 'That the audited accounts for 2025 be adopted.' },
    });
    await expect.poll(() => item(ACCOUNTS).textContent(), { timeout: 30_000 }).toContain('Motion · majority');
    await add(RULE_12, { motion: { threshold: 'Two thirds', quorum: '20', text: 'That members may vote online.' } });
    await expect.poll(() => item(RULE_12).textContent(), { timeout: 30_000 }).toContain('Motion · two thirds · quorum 20%');
    await add(BOARD, {
      method: 'Ranked (order of preference, counted by STV)',
      seats: 3,
      description: 'Three seats, counted by single transferable vote.',
    });
    await expect.poll(() => item(BOARD).textContent(), { timeout: 30_000 }).toContain('3 seats · ranked');
    await add(CHAIR, { method: 'Plurality (choose up to the seats)', seats: 1, description: 'Chairs the board for two years.' });
    await expect.poll(() => item(CHAIR).textContent(), { timeout: 30_000 }).toContain('1 seat · plurality');

    // The organisation's clock, on the Organisation page (the form filled from the server first).
    await nav(admin, 'Organisation').click();
    await admin.waitForURL('**/admin/organisation');
    const organisation = admin.getByRole('region', { name: 'The organisation', exact: true });
    await expect.poll(() => organisation.getByLabel('Organisation name').inputValue(), { timeout: 30_000 }).toBe(ORG);
    await organisation.getByLabel("The organisation's time zone").fill(ZONE);
    await organisation.getByRole('button', { name: 'Save organisation' }).click();
    await toast(admin, 'The organisation has been saved');
  });

  it("imports the members from the CSV template: UFC-001 numbers, e-mail on some lines, phones in any spelling shown in E.164; a member's language set on his edit form", async () => {
    await nav(admin, 'Manage').click();
    await admin.waitForURL('**/admin/members');
    // The formats are said on the page, and the template is what she fills in.
    await admin.getByText('Member numbers: 1 to 32 letters, digits', { exact: false }).waitFor();
    await admin.getByText('E-mail: optional (members sign in with a code by SMS).').waitFor();
    const template = await downloadOf(admin, () => admin.getByRole('button', { name: 'Download the CSV template' }).click());
    expect(template.name).toBe('members-template.csv');
    const header = template.text.split(/\r?\n/)[0]!;
    expect(header).toBe('member_no,name,email,phone,branch,language');
    const cells = (m: (typeof MEMBERS)[number]): Record<string, string> => ({ ...m, member_no: m.no, branch: BRANCH });
    const csv = [
      header,
      ...MEMBERS.map((m) =>
        header
          .split(',')
          .map((column) => cells(m)[column] ?? '')
          .join(','),
      ),
    ].join('\r\n');

    await admin.getByLabel("Create branches that don't exist yet").check();
    await admin
      .getByLabel('CSV file of members')
      .setInputFiles({ name: 'ufc-members.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await toast(admin, 'Members imported');
    expect(await admin.getByRole('status', { name: 'Import result' }).textContent()).toContain(`${MEMBERS.length} created, 0 updated`);

    // The register shows every phone in E.164, no e-mail where none was given, the member's language.
    const table = admin.getByRole('table');
    await table.locator('tbody tr', { hasText: 'UFC-005' }).waitFor({ timeout: 30_000 });
    for (const [no, phone] of E164) expect((await rowCells(table, no))[4], no).toBe(phone);
    const otieno = await rowCells(table, 'UFC-002');
    expect(otieno[3]).toBe('');
    expect(otieno[6]).toBe('Default');
    expect((await rowCells(table, 'UFC-005'))[6]).toBe('Kiswahili');
    // Otieno's language, set on his edit form (his SMS then comes in Kiswahili), and seen there again.
    await admin.getByRole('button', { name: 'Edit Otieno Okoth' }).click();
    let editing = admin.getByRole('dialog', { name: 'Edit member' });
    const language = () => editing.getByLabel('Language', { exact: true });
    expect(await language().inputValue()).toBe('');
    await language().selectOption({ label: 'Kiswahili' });
    await editing.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(admin, 'Member updated successfully');
    await editing.waitFor({ state: 'detached' });
    await expect.poll(async () => (await rowCells(table, 'UFC-002'))[6], { timeout: 30_000 }).toBe('Kiswahili');
    await admin.getByRole('button', { name: 'Edit Otieno Okoth' }).click();
    editing = admin.getByRole('dialog', { name: 'Edit member' });
    await expect.poll(() => language().locator('option:checked').textContent(), { timeout: 30_000 }).toBe('Kiswahili');
    await editing.getByRole('button', { name: 'Cancel', exact: true }).click();
    await editing.waitFor({ state: 'detached' });
    // One member at a time too: Add member, and Remove on each line.
    await admin.getByRole('button', { name: 'Add member' }).waitFor();
    await admin.getByRole('button', { name: 'Remove Otieno Okoth' }).waitFor();
  });

  it('adds the candidates with photos, an agent on the Staff page who signs in, her own name, and opens voting with results for staff only (the roll freezes, and it says so)', async () => {
    await nav(admin, 'Set-up').click();
    await admin.waitForURL('**/admin/setup');
    const positions = admin.getByRole('region', { name: 'Positions', exact: true });
    for (const [i, no] of [...BOARD_CANDIDATES, ...CHAIR_CANDIDATES].entries()) {
      const position = BOARD_CANDIDATES.includes(no) ? BOARD : CHAIR;
      await positions.getByRole('button', { name: `Add a candidate for ${listed(position)}` }).click();
      await addCandidate(admin, { memberNo: no, name: nameOf(no), statement: `${nameOf(no)}: open books, monthly meetings.` }, [
        40 + i * 30,
        120,
        160 - i * 20,
      ]);
    }
    await positions.getByText(`Candidates: ${MARY}, ${PETER}, ${RUTH}, ${DANIEL}`, { exact: true }).waitFor({ timeout: 30_000 });

    // Staff: her display name, and an agent (observer) added with no restart.
    await nav(admin, 'Staff').click();
    await admin.waitForURL('**/admin/staff');
    await admin.getByRole('textbox', { name: 'Display name' }).fill(SECRETARY);
    await admin.getByRole('button', { name: 'Save name' }).click();
    await toast(admin, 'Your display name was saved');
    await admin.getByRole('button', { name: 'Add staff' }).click();
    const adding = admin.getByRole('dialog', { name: 'Add an admin or agent' });
    await adding.getByText('No restart is needed').waitFor();
    await adding.getByLabel('E-mail address').fill(AGENT);
    await adding.getByRole('button', { name: 'Add staff' }).click();
    await toast(admin, `${AGENT} was added as an agent and can sign in now`);
    await expect.poll(() => rowCells(admin.getByRole('table'), AGENT), { timeout: 30_000 }).toContain('Agent');
    // The server's answer fills the form back in; the table follows.
    await expect.poll(() => admin.getByRole('textbox', { name: 'Display name' }).inputValue()).toBe(SECRETARY);
    await expect.poll(async () => (await rowCells(admin.getByRole('table'), ADMIN_EMAIL))[1], { timeout: 30_000 }).toBe(SECRETARY);

    agent = await open(1280, 900);
    await signInAgentInBrowser(agent, e2e.server, AGENT);
    await agent.getByRole('heading', { name: 'General Election Statistics' }).waitFor({ timeout: 30_000 });

    // Results for staff only while voting runs, on the dashboard's schedule (its zone is the organisation's, set above).
    await nav(admin, 'Home').click();
    await admin.waitForURL('**/admin');
    const schedule = admin.getByRole('region', { name: 'Schedule and results', exact: true });
    await expect.poll(() => schedule.getByLabel("The organisation's time zone").inputValue(), { timeout: 30_000 }).toBe(ZONE);
    await schedule.getByRole('radio', { name: /^Staff only:/ }).click();
    await schedule.getByRole('button', { name: 'Save schedule' }).click();
    await toast(admin, 'Schedule saved');

    // Opening asks first, and says the roll freezes for good.
    const toggle = admin.getByRole('switch', { name: 'Voting enabled' });
    await expect.poll(() => toggle.isEnabled(), { timeout: 30_000 }).toBe(true);
    await toggle.click();
    const opening = admin.getByRole('alertdialog', { name: 'Open voting and freeze the roll?' });
    await opening.waitFor();
    expect(await opening.textContent()).toContain(`The roll is frozen for good: the ${MEMBERS.length} members on it now`);
    await opening.getByRole('button', { name: 'Open voting' }).click();
    await toast(admin, 'Voting has been enabled');
    await expect.poll(() => admin.getByTestId('election-phase').textContent(), { timeout: 30_000 }).toBe('Open: members can vote.');
  });

  it('results are for staff, said at once; members vote with their SMS code, in English and Kiswahili on a phone, a reload keeping the draft; the commitments read 0 and say why; the agent and the admin watch', async () => {
    // ---- Wanjiku, on a 390 px phone in English, looks at the public page: results are for staff,
    // said at once (a 403 is not tried again).
    const en = await open(390, 844);
    const refused: string[] = [];
    const onResponse = (res: Response) => {
      if (new URL(res.url()).pathname === '/api/v1/psk/results' && res.status() === 403) refused.push(res.url());
    };
    en.on('response', onResponse);
    await en.goto('/');
    await en.getByRole('heading', { name: 'Current election statistics' }).waitFor({ timeout: 30_000 });
    await en.getByText(STAFF_ONLY, { exact: true }).waitFor({ timeout: 3_000 });
    expect(refused).toHaveLength(1);
    en.off('response', onResponse);
    // She signs in with her phone number as she writes it.
    await en.goto('/sign-in');
    await en.getByLabel('Member number, phone number or email').fill('UFC-099');
    await en.getByRole('checkbox').click();
    await en.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect
      .poll(() => en.getByRole('alert').filter({ hasText: 'could not find' }).textContent(), { timeout: 30_000 })
      .toBe(`We could not find that member number or phone number. Check it, or contact ${SUPPORT}.`);
    let since = Date.now();
    await signInVoterInBrowser(en, e2e.sink, '0712 345 001', {
      atCode: async (page) => {
        await page.getByRole('button', { name: 'Resend code' }).waitFor();
        await page.getByText(/^You can ask for a new code in \d+ seconds?\.$/).waitFor();
      },
    });
    expect(e2e.sink.messages.find((m) => m.at >= since)?.to).toBe('+254712345001');
    await phoneMenu(en, 'Voting');
    await en.waitForURL('**/voter/elect');
    // Headings as typed (one level: no "National"), the board's description and its photos.
    await en.getByRole('heading', { name: BOARD, exact: true }).waitFor({ timeout: 30_000 });
    const board = group(en, BOARD);
    await en.getByText('Three seats, counted by single transferable vote.').waitFor();
    expect(await board.locator('img').count()).toBe(4);
    await group(en, ACCOUNTS).getByRole('radio', { name: 'Yes' }).check();
    await group(en, RULE_12).getByRole('radio', { name: 'Yes' }).check();
    await group(en, CHAIR).getByRole('radio', { name: ACHIENG }).check();
    await board.getByRole('button', { name: `Rank ${MARY} number 1` }).click();
    await board.getByRole('button', { name: `Rank ${PETER} number 2` }).click();
    await board.getByText(`Your order: 1. ${MARY}, 2. ${PETER}`).waitFor();
    expect(await sidewaysBy(en)).toBeLessThanOrEqual(0);
    // A reload mid-ballot keeps the draft.
    await en.reload();
    await group(en, BOARD).getByText(`Your order: 1. ${MARY}, 2. ${PETER}`).waitFor({ timeout: 30_000 });
    expect(await group(en, ACCOUNTS).getByRole('radio', { name: 'Yes' }).isChecked()).toBe(true);
    expect(await group(en, CHAIR).getByRole('radio', { name: ACHIENG }).isChecked()).toBe(true);
    await group(en, BOARD)
      .getByRole('button', { name: `Rank ${RUTH} number 3` })
      .click();
    await en.getByRole('button', { name: 'Vote', exact: true }).click();
    const confirm = en.getByRole('alertdialog');
    await expect.poll(() => confirm.textContent()).toContain(`1. ${MARY}, 2. ${PETER}, 3. ${RUTH}`);
    await confirm.getByRole('button', { name: 'Cast my vote' }).click();
    await en.getByText('You have successfully voted').first().waitFor({ timeout: 30_000 });
    await phoneMenu(en, 'My receipts');
    await en.getByRole('heading', { level: 1, name: 'My receipts' }).waitFor();
    for (const ranked of [`1. ${MARY}`, `2. ${PETER}`, `3. ${RUTH}`])
      await en.getByRole('cell', { name: ranked, exact: true }).waitFor({ timeout: 30_000 });
    await screenshot(en, 'first-hour-receipts-390');

    // ---- Otieno, on a phone in Kiswahili (the language she set on his edit form: the SMS comes in it).
    swahili = await open(390, 844);
    since = Date.now();
    await signInVoterInBrowser(swahili, e2e.sink, 'UFC-002', { language: 'sw' });
    const sms = e2e.sink.messages.find((m) => m.at >= since)!;
    expect(sms.to).toBe('+254722345002');
    expect(sms.message).toContain('ni msimbo wako wa kuingia');
    await swahili.getByRole('heading', { name: 'Dashibodi' }).waitFor();
    await swahili.getByText(STAFF_ONLY_SW, { exact: true }).waitFor({ timeout: 30_000 });
    await phoneMenu(swahili, 'Piga kura', 'Menyu');
    await swahili.waitForURL('**/voter/elect');
    const ubao = group(swahili, BOARD);
    await ubao.getByRole('button', { name: `Mpange ${PETER} nambari 1` }).waitFor({ timeout: 30_000 });
    await group(swahili, ACCOUNTS).getByRole('radio', { name: 'Ndiyo' }).check();
    await group(swahili, RULE_12).getByRole('radio', { name: 'Hapana' }).check();
    await ubao.getByRole('button', { name: `Mpange ${PETER} nambari 1` }).click();
    await swahili.reload();
    await group(swahili, BOARD).getByText(`Mpangilio wako: 1. ${PETER}`).waitFor({ timeout: 30_000 });
    expect(await group(swahili, RULE_12).getByRole('radio', { name: 'Hapana' }).isChecked()).toBe(true);
    await group(swahili, BOARD)
      .getByRole('button', { name: `Mpange ${MARY} nambari 2` })
      .click();
    await group(swahili, CHAIR).getByRole('radio', { name: ACHIENG }).check();
    await screenshot(swahili, 'first-hour-ballot-sw-390');
    await swahili.getByRole('button', { name: 'Piga kura', exact: true }).click();
    const thibitisha = swahili.getByRole('alertdialog');
    await thibitisha.getByText('Una uhakika?').waitFor();
    await thibitisha.getByRole('button', { name: 'Piga kura yangu' }).click();
    await swahili.getByText('Umefanikiwa kupiga kura').first().waitFor({ timeout: 30_000 });
    await phoneMenu(swahili, 'Risiti zangu', 'Menyu');
    await swahili.getByRole('heading', { level: 1, name: 'Risiti zangu' }).waitFor();
    await swahili.getByRole('columnheader', { name: 'Msimbo wa risiti' }).waitFor({ timeout: 30_000 });
    await swahili.getByRole('cell', { name: `1. ${PETER}`, exact: true }).waitFor({ timeout: 30_000 });

    // ---- Kiprotich, at a desk, signs in with his phone spelled another way.
    const desk = await open(1280, 900);
    since = Date.now();
    await signInVoterInBrowser(desk, e2e.sink, '+254 712 345 004');
    expect(e2e.sink.messages.find((m) => m.at >= since)?.to).toBe('+254712345004');
    await nav(desk, 'Voting').click();
    await group(desk, BOARD)
      .getByRole('button', { name: `Rank ${DANIEL} number 1` })
      .click({ timeout: 30_000 });
    await group(desk, ACCOUNTS).getByRole('radio', { name: 'No' }).check();
    await group(desk, RULE_12).getByRole('radio', { name: 'Abstain' }).check();
    await group(desk, CHAIR).getByRole('radio', { name: FAITH }).check();
    await desk.getByRole('button', { name: 'Vote', exact: true }).click();
    await desk.getByRole('alertdialog').getByRole('button', { name: 'Cast my vote' }).click();
    await desk.getByText('You have successfully voted').first().waitFor({ timeout: 30_000 });
    await nav(desk, 'My receipts').click();
    await desk.getByRole('cell', { name: `1. ${DANIEL}`, exact: true }).waitFor({ timeout: 30_000 });

    // ---- The commitments still read 0 ballots, and say why: 3 ballots a position never fill the mixer's batch.
    await desk.goto('/commitments');
    const batch = desk.getByTestId('commitments-batch');
    await batch.waitFor({ timeout: 30_000 });
    expect(await batch.textContent()).toMatch(/^Why a commitment can read 0 ballots: .* once at least 20 of them are waiting, /);
    const committed = desk.getByRole('region', { name: 'Published commitments' }).locator('tbody tr td:nth-child(2)');
    await committed.first().waitFor({ timeout: 30_000 });
    expect(new Set(await committed.allTextContents())).toEqual(new Set(['0']));

    // ---- The agent's dashboard and the admin's followed along: 3 members, 4 positions each, votes counted per position.
    for (const page of [agent, admin]) {
      const tile = (key: string) => page.getByTestId(`tile-${key}`);
      await expect.poll(() => tile('membersVoted').textContent(), { timeout: 30_000 }).toBe('3Members Voted');
      await expect.poll(() => tile('votesCasted').textContent(), { timeout: 30_000 }).toBe('12Votes cast (one per position)');
    }
  });

  it("closes (confirmed) and declares: the motions with their arithmetic, the count by round, in English and Kiswahili; the BLT download recounts the board; the results CSV is named after the election; the Logs are on the organisation's clock", async () => {
    const closedFrom = Date.now();
    await admin.getByRole('button', { name: 'Close the election' }).click();
    const closing = admin.getByRole('alertdialog', { name: 'Close the election for good?' });
    expect(await closing.textContent()).toContain('cannot be reopened');
    await closing.getByRole('button', { name: 'Close the election' }).click();
    await expect.poll(() => admin.getByTestId('election-phase').textContent(), { timeout: 30_000 }).toMatch(/^Closed/);

    const pub = await open(1280, 900);
    await pub.goto('/results');
    await pub.getByRole('heading', { name: 'Declaration of results' }).waitFor({ timeout: 30_000 });
    expect(await pub.getByTestId('declaration-organisation').textContent()).toBe(ORG);
    await pub.getByText(/Turnout: 3 of 10 members/).waitFor();
    const section = (name: string) => pub.getByRole('region', { name: new RegExp(`^${name}\\b`) }).first();
    const arithmetic = (name: string) => section(name).getByRole('listitem').allTextContents();

    expect(
      await section(ACCOUNTS)
        .getByText(/^Outcome:/)
        .textContent(),
    ).toBe('Outcome: PASSED');
    expect(await arithmetic(ACCOUNTS)).toEqual(['Yes: 2 of 3 Yes and No votes = 66.7 % > 50 % needed: the threshold was met.']);
    expect(
      await section(RULE_12)
        .getByText(/^Outcome:/)
        .textContent(),
    ).toBe('Outcome: NOT PASSED');
    expect(await arithmetic(RULE_12)).toEqual([
      'Yes: 1 of 2 Yes and No votes = 50 % < 66.7 % needed: the threshold was not met.',
      'Quorum: 3 of 10 members on the roll voted on it = 30 % ≥ 20 %: the quorum was met.',
    ]);
    const chair = await rowCells(section(CHAIR), ACHIENG);
    expect([chair[1], chair[3]]).toEqual(['2', 'Elected']);

    // The board: quota 1 (3 ballots, 3 seats), the three first preferences elected.
    const declared = (await section(BOARD)
      .getByText(/^Quota:/)
      .textContent())!;
    expect(declared).toMatch(/^Quota: 1\.00000\. Elected: /);
    const elected = declared
      .replace(/^Quota: [\d.]+\. Elected: /, '')
      .replace(/\.$/, '')
      .split(', ')
      .sort();
    expect(elected).toEqual([DANIEL, MARY, PETER].sort());
    await section(BOARD)
      .getByRole('table', { name: new RegExp(`^Count of ${BOARD}\\b.*round by round$`) })
      .waitFor();
    await screenshot(pub, 'first-hour-declaration');

    // The recount: the BLT download, named after the election, counts to the same quota and elected.
    const blt = await downloadOf(pub, () => section(BOARD).getByRole('link', { name: 'Download the ballots (BLT)' }).click());
    expect(blt.name).toMatch(/^ufc-agm-2026-board.*\.blt$/);
    // "4 3", a line per ballot (weight, candidates in order, 0), "0", the candidates, the title.
    const lines = blt.text.trim().split('\n');
    expect(lines[0]).toBe('4 3');
    expect(lines[4]).toBe('0');
    const names = lines.slice(5, 9).map((l) => l.replace(/^"|"$/g, ''));
    expect([...names].sort()).toEqual([DANIEL, MARY, PETER, RUTH].sort());
    expect(lines[9]).toMatch(new RegExp(`^"${BOARD}\\b`));
    const ballots = lines.slice(1, 4).map((l) =>
      l
        .split(' ')
        .slice(1, -1)
        .map((k) => names[Number(k) - 1])
        .join(' > '),
    );
    expect(ballots.sort()).toEqual([`${MARY} > ${PETER} > ${RUTH}`, `${PETER} > ${MARY}`, DANIEL].sort());
    expect(lines.slice(1, 4).every((l) => l.startsWith('1 ') && l.endsWith(' 0'))).toBe(true);
    const { count } = countBlt(blt.text);
    expect(count.ballots).toBe(3);
    expect(count.seats).toBe(3);
    expect(count.quota).toBe('1.00000');
    expect(count.elected.map((v) => v.name).sort()).toEqual(elected);

    // The declaration in Kiswahili, on Otieno's phone: the quorum said the right way round.
    await swahili.goto('/results');
    await swahili.getByRole('heading', { name: 'Tangazo la matokeo' }).waitFor({ timeout: 30_000 });
    const kiswahili = await swahili.evaluate(() => document.body.innerText);
    expect(kiswahili).toContain('Akidi: wanachama 3 kati ya 10 walio kwenye daftari waliipigia kura = 30 % ≥ 20 %: akidi ilitimia.');
    expect(kiswahili).not.toMatch(/wasiopiga/);
    expect(kiswahili).toContain(ORG);

    // The results CSV from the dashboard is named after the election too.
    const results = await downloadOf(admin, () => admin.getByRole('button', { name: 'Export results (CSV)' }).click());
    expect(results.name).toMatch(/^ufc-agm-2026-results-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(results.text.split(/\r?\n/)[0]).toMatch(/^position_id,position,seats,/);

    // The Logs page shows its times on the organisation's clock: the newest entry (the close) in Nairobi's time.
    await nav(admin, 'Logs').click();
    await admin.waitForURL('**/admin/logs');
    const logs = admin.getByRole('region', { name: 'System logs' });
    const newest = logs.locator('tbody tr').first();
    await newest.waitFor({ timeout: 30_000 });
    const created = (await newest.locator('td').nth(4).textContent())!;
    const at = nairobiInstant(created);
    expect(at, created).toBeDefined();
    expect(at!, created).toBeGreaterThanOrEqual(closedFrom - 60_000);
    expect(at!, created).toBeLessThanOrEqual(Date.now());
  });

  it('copies the AGM to next year and archives it; the public pages then say no election is open', async () => {
    await nav(admin, 'Elections').click();
    await admin.waitForURL('**/admin/elections');
    await admin.getByRole('button', { name: `Copy ${TITLE}` }).click();
    const copying = admin.getByRole('dialog', { name: `Copy ${TITLE}` });
    await copying.getByLabel('Title of the new election').fill(NEXT);
    await copying.getByRole('button', { name: 'Copy', exact: true }).click();
    await toast(admin, `Election copied: ${NEXT}`);
    await copying.waitFor({ state: 'detached' });
    await admin.getByRole('button', { name: `Archive ${TITLE}` }).click();
    const archiving = admin.getByRole('alertdialog', { name: `Archive ${TITLE}?` });
    await archiving.getByRole('button', { name: 'Archive', exact: true }).click();
    await toast(admin, `Election archived: ${TITLE}`);
    const table = admin.getByRole('table', { name: 'Elections' });
    await table.locator('tr', { hasText: TITLE }).getByText('Archived').first().waitFor({ timeout: 30_000 });

    // Next year's AGM has this year's motions and positions, in set-up.
    await admin.getByRole('link', { name: `Set up ${NEXT}` }).click();
    await admin.waitForURL((url) => url.pathname === '/admin/setup' && url.searchParams.has('election'));
    const positions = admin.getByRole('region', { name: 'Positions', exact: true });
    for (const name of [ACCOUNTS, RULE_12, BOARD, CHAIR])
      await positions.getByRole('list', { name: 'Positions' }).getByText(listed(name), { exact: true }).waitFor({ timeout: 30_000 });

    const pub = await open(390, 844);
    await pub.goto('/');
    await pub.getByTestId('landing-not-open').waitFor({ timeout: 30_000 });
    // The public list no longer shows the archived AGM (GET elections lists archived ones for staff
    // only), and says so without claiming that no election was ever held.
    await pub.goto('/elections');
    await pub.getByRole('heading', { level: 1, name: 'Elections' }).waitFor({ timeout: 30_000 });
    await pub
      .getByText('No election is open now. Closed elections are listed here until they are archived.', { exact: true })
      .waitFor({ timeout: 30_000 });
    await expect.poll(() => pub.getByText(TITLE).count(), { timeout: 30_000 }).toBe(0);

    // The secretary's tab was welcomed once in all this hour.
    expect(await toastsCounted(admin)).toBe(1);
    for (const context of contexts) await context.close();
  });
});
