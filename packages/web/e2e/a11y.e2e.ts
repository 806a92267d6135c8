/// <reference types="node" />
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { axeScan, screenshot, type Session, settled, signInOverApi, storeSession, useE2E, sidewaysBy } from './harness';

/**
 * Accessibility in Chromium: an axe-core scan (WCAG 2.1 A and AA) of every screen at 1280 and
 * 390 px that fails on any serious or critical violation, a keyboard-only ballot, and the welcome
 * toast kept clear of the photo and Sign Out. To cover a new screen, add it to SCREENS.
 */

const MEMBER_NO = '1001';
const AGENT_EMAIL = 'e2e-agent@kura.test';
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;

type Role = 'public' | 'voter' | 'admin' | 'agent';
type Screen = {
  path: string;
  as: Role;
  /** something that shows the screen has rendered */
  ready: (page: Page) => Promise<unknown>;
  /** a state to put the screen in before scanning (a menu open, a dialog) */
  prepare?: (page: Page, width: number) => Promise<unknown>;
  name?: string;
  /** scanned below 768 px only (a state that exists only there) */
  narrowOnly?: boolean;
};

const heading = (page: Page) => page.locator('h1, h2').first().waitFor();
const mainText = (page: Page) => page.locator('main').first().waitFor();

/** Every screen (and a few states of them). /api/docs is the third-party Swagger UI: not ours to scan. */
const SCREENS: Screen[] = [
  { path: '/', as: 'public', ready: (p) => p.getByRole('heading', { name: 'Current election statistics' }).waitFor() },
  { path: '/verify', as: 'public', ready: heading },
  { path: '/sign-in', as: 'public', ready: (p) => p.getByLabel('Member number, phone number or email').waitFor() },
  { path: '/sign-up', as: 'public', ready: heading },
  { path: '/password', as: 'public', ready: heading },
  { path: '/verify-token', as: 'public', ready: heading },
  { path: '/admin/login', as: 'public', ready: heading },
  { path: '/agent/login', as: 'public', ready: heading },
  { path: '/data-collection', as: 'public', ready: heading },
  { path: '/privacy', as: 'public', ready: heading },
  { path: '/terms', as: 'public', ready: heading },
  { path: '/receipt', as: 'public', ready: heading },
  { path: '/commitments', as: 'public', ready: heading },
  { path: '/results', as: 'public', ready: heading },
  { path: '/elections', as: 'public', ready: (p) => p.getByRole('heading', { level: 1, name: 'Elections' }).waitFor() },
  { path: '/voter', as: 'voter', ready: mainText },
  { path: '/voter/elect', as: 'voter', ready: (p) => p.getByRole('button', { name: 'Vote' }).waitFor() },
  {
    path: '/voter/elect',
    name: 'voter-elect-confirm',
    as: 'voter',
    ready: (p) => p.getByRole('button', { name: 'Vote' }).waitFor(),
    prepare: async (p) => {
      // by keyboard: the welcome toast may lie over a radio in the right-hand column for its 5 s
      // Chosen until the choice holds (the ballot once drew itself before its election answered
      // and started again when it did, dropping the choice; the page now waits for both).
      const radio = p.locator('input[type=radio]:not(:disabled)').first();
      await expect
        .poll(
          async () => {
            await radio.focus();
            await p.keyboard.press('Space');
            return radio.isChecked();
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      await p.getByRole('button', { name: 'Vote' }).focus();
      await p.keyboard.press('Enter');
      await p.getByRole('alertdialog').waitFor();
    },
  },
  // the keyboard test below has voted by then, so the receipts table shows
  { path: '/voter/vpat', as: 'voter', ready: (p) => p.getByRole('table').or(p.getByText('You have not voted yet')).first().waitFor() },
  { path: '/voter/education', as: 'voter', ready: mainText },
  { path: '/voter/nominate', as: 'voter', ready: mainText },
  {
    path: '/voter',
    name: 'voter-mobile-menu-open',
    as: 'voter',
    ready: mainText,
    // at 768 px and up the menu is a bar, not a button: the same screen as /voter, scanned once
    narrowOnly: true,
    prepare: async (p) => {
      await p.getByRole('button', { name: /^Menu/ }).click();
      await p.getByRole('menu').waitFor();
    },
  },
  { path: '/scan-qr', as: 'voter', ready: heading },
  { path: '/admin', as: 'admin', ready: mainText },
  { path: '/admin/members', as: 'admin', ready: (p) => p.getByRole('table').waitFor() },
  { path: '/admin/candidates', as: 'admin', ready: (p) => p.getByRole('table').waitFor() },
  { path: '/admin/logs', as: 'admin', ready: (p) => p.getByRole('table').waitFor() },
  {
    path: '/admin/vpat',
    as: 'admin',
    // the receipts table (the voter above has voted) or its empty state, not just the page's frame
    ready: (p) => p.getByRole('table').or(p.getByText('No votes have been cast yet.')).first().waitFor(),
  },
  { path: '/admin/issues', as: 'admin', ready: mainText },
  { path: '/admin/reminders', as: 'admin', ready: mainText },
  { path: '/admin/elections', as: 'admin', ready: (p) => p.getByRole('table', { name: 'Elections' }).waitFor() },
  { path: '/admin/organisation', as: 'admin', ready: (p) => p.getByLabel('Organisation name').waitFor() },
  // down to its last form, the new position's
  { path: '/admin/setup', as: 'admin', ready: (p) => p.getByLabel('New position name').waitFor() },
  { path: '/agent', as: 'agent', ready: mainText },
];

const e2e = useE2E({ env: { AGENT_EMAILS: AGENT_EMAIL } });
const sessions: Partial<Record<Role, { session: Session; accountType: string }>> = {};

/** Signs in over the API with the shared harness sign-in (the SMS or emailed code from the sinks). */
async function signIn(kind: 'voter' | 'admin' | 'agent'): Promise<Session> {
  const who = kind === 'voter' ? { kind, memberNo: MEMBER_NO, sink: e2e.sink } : kind === 'admin' ? { kind } : { kind, email: AGENT_EMAIL };
  return (await signInOverApi(e2e.server, who)).session;
}

beforeAll(async () => {
  sessions.admin = { session: await signIn('admin'), accountType: 'admin' };
  const toggle = await fetch(`${e2e.server.baseUrl}/api/v1/toggle`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sessions.admin.session.bearer_token}` },
    body: JSON.stringify({ status: true }),
  });
  if (!toggle.ok) throw new Error(`toggle: ${toggle.status}`);
  sessions.voter = { session: await signIn('voter'), accountType: 'member' };
  sessions.agent = { session: await signIn('agent'), accountType: 'agent' };
});

/** A page signed in as `as` (the session put where the web app keeps it), at the given size. */
async function pageAs(as: Role, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP: the server's CSP (rightly) refuses the injected axe-core script.
  const context = await e2e.browser.newContext({ viewport, baseURL: e2e.server.baseUrl, bypassCSP: true });
  const signedIn = as === 'public' ? undefined : sessions[as];
  await storeSession(context, signedIn);
  return { context, page: await context.newPage() };
}

/** How far below its label a field may start: a form grid row stretched by a neighbour's hint once pushed inputs ~30 px down. */
const LABEL_GAP_PX = 16;

/**
 * Text fields, selects and text areas whose label sits above them but more than LABEL_GAP_PX away
 * (a label that drifts from its field reads as belonging to nothing).
 */
async function detachedLabels(page: Page): Promise<string[]> {
  return page.evaluate((maxGap) => {
    const found: string[] = [];
    for (const label of document.querySelectorAll<HTMLLabelElement>('main label[for]')) {
      const control = document.getElementById(label.htmlFor);
      if (
        !control ||
        !control.matches('input:not([type=checkbox]):not([type=radio]):not([type=hidden]), select, textarea, [role=combobox]')
      )
        continue;
      // The text's box, not the label's: a label stretched by its grid row keeps its text at the top.
      const text = document.createRange();
      text.selectNodeContents(label);
      const l = text.getBoundingClientRect();
      const c = control.getBoundingClientRect();
      if (l.height === 0 || c.height === 0 || c.top < l.bottom - 1) continue;
      const gap = Math.round(c.top - l.bottom);
      if (gap > maxGap) found.push(`the field of "${label.innerText.trim()}" starts ${gap} px below its label`);
    }
    return found;
  }, LABEL_GAP_PX);
}

/**
 * A tab for a sweep over many screens: one context and page signed in as `as` at the given size,
 * in which every document starts as it would in a new context: its storage emptied, the session
 * put back where the web app keeps it, its cookies cleared before it loads (`openScreen`). One tab
 * per role and width replaces a new context per screen: a new context's renderer process and cold
 * cache cost some 3.5 s of CPU a screen, a load in a reused tab about 1 s (measured on the 2-core
 * machine), and the app's own navigation less again (`openScreen`).
 */
async function tabAs(as: Role, viewport: { width: number; height: number }): Promise<Tab> {
  // bypassCSP: the server's CSP (rightly) refuses the injected axe-core script.
  const context = await e2e.browser.newContext({ viewport, baseURL: e2e.server.baseUrl, bypassCSP: true });
  const signedIn = as === 'public' ? undefined : sessions[as];
  await storeSession(context, signedIn, { everyDocument: true });
  const page = await context.newPage();
  // the requests still open, to say what a screen that does not render was waiting for
  const open = new Map<string, number>();
  page.on('request', (r) => open.set(r.url(), Date.now()));
  page.on('requestfinished', (r) => open.delete(r.url()));
  page.on('requestfailed', (r) => open.delete(r.url()));
  return { as, context, page, open };
}
type Tab = { as: Role; context: BrowserContext; page: Page; open: Map<string, number> };

/** The not-found page's heading: the screen between two screens of a sweep (`openScreen`). */
const NOT_FOUND = 'Page not found';

/** A navigation by the app's router (TanStack's history follows `history.pushState`), as a link's would be. */
const pushState = (page: Page, path: string) =>
  page.evaluate((to) => {
    const key = Math.random().toString(36).slice(2, 10);
    const index = (window.history.state as { __TSR_index?: number } | null)?.__TSR_index ?? 0;
    window.history.pushState({ __TSR_index: index + 1, key, __TSR_key: key }, '', to);
  }, path);

/**
 * Opens a screen in the tab. The tab's first screen, and a screen at the address already shown (in
 * another state), are loaded as a new document; every other one is reached as a member reaches it,
 * by the app's own navigation, by way of the not-found page: every layout is left, and the screen
 * counts as shown once the not-found page is gone (the router shows a page until the next one can
 * render) and the screen's own sign is there. A whole document per screen cost the sweep about
 * 0.6 s of CPU a screen more (Chromium, the server's assets, Playwright's events: BENCHMARKS.md).
 * Most screens' addresses are still loaded as documents by the pseudo-locale sweep and the
 * journeys; the legal pages and /scan-qr are reached here by navigation only (their
 * address loads the same shell and router as every other).
 */
async function openScreen(tab: Tab, s: Screen) {
  const { context, page } = tab;
  const shown = page.url() === 'about:blank' ? undefined : new URL(page.url()).pathname;
  if (shown === undefined || shown === s.path) {
    await context.clearCookies();
    await page.goto(s.path);
  } else {
    await pushState(page, `/e2e-between-screens`);
    await page.getByRole('heading', { name: NOT_FOUND }).waitFor();
    await pushState(page, s.path);
    await page.getByRole('heading', { name: NOT_FOUND }).waitFor({ state: 'detached' });
  }
  await s.ready(page);
}

/** A page wider than its window (`sidewaysBy`). Election Set-up once was, by 16 px at 390: a native select as wide as its longest option. */
async function sideways(page: Page): Promise<string[]> {
  const over = await sidewaysBy(page);
  return over > 0 ? [`the page scrolls sideways by ${over} px`] : [];
}

/**
 * Opens one screen in the tab (`openScreen`), puts it in its state and scans it: the axe
 * violations found, or `stalled` with what the page showed and the requests it was still waiting
 * for when it did not render.
 */
async function scanScreen(
  tab: Tab,
  s: Screen,
  viewport: { width: number; height: number },
  label: string,
): Promise<{ failures: string[]; stalled?: string }> {
  const { page, open } = tab;
  open.clear();
  try {
    await openScreen(tab, s);
    await s.prepare?.(page, viewport.width);
    await settled(page);
    const failures = [...(await axeScan(page)), ...(await detachedLabels(page)), ...(await sideways(page))].map((v) => `${label}: ${v}`);
    if (viewport.width < 768)
      await screenshot(page, `a11y-${(s.name ?? s.path).replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'landing'}-${viewport.width}`);
    return { failures };
  } catch (error) {
    const shown = await page.evaluate(() => document.body.innerText.replace(/\s+/g, ' ').slice(0, 160)).catch(() => '(page gone)');
    const waiting = [...open].map(([url, at]) => `${new URL(url).pathname} for ${Date.now() - at} ms`).join(', ') || 'none';
    return {
      failures: [],
      stalled: `${label}: did not render (${(error as Error).message.split('\n')[0]}; at ${page.url()} showing "${shown}"; requests open: ${waiting})`,
    };
  }
}

const tab = (page: Page, shift = false) => page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      type: (el as HTMLInputElement | null)?.type ?? '',
      name:
        el?.getAttribute('aria-label') ??
        ((el as HTMLInputElement | null)?.labels?.[0]?.textContent?.trim() || el?.textContent?.trim() || ''),
      id: el?.id ?? '',
      inDialog: Boolean(el?.closest('[role=alertdialog]')),
    };
  });

async function tabUntil(page: Page, test: (f: Awaited<ReturnType<typeof focused>>) => boolean, max = 60) {
  for (let i = 0; i < max; i++) {
    await tab(page);
    const f = await focused(page);
    if (test(f)) return f;
  }
  throw new Error('focus never reached the target');
}

describe('keyboard-only ballot', () => {
  it('skips to the content, reaches every candidate and Vote, and the dialog traps and returns focus (Escape = Cancel)', async () => {
    const { context, page } = await pageAs('voter', WIDTHS[0]);
    await page.goto('/voter/elect');
    await page.getByRole('button', { name: 'Vote' }).waitFor();
    const ballot = (await (
      await fetch(`${e2e.server.baseUrl}/api/v1/psk/candidates/v2`, {
        headers: { authorization: `Bearer ${sessions.voter!.session.bearer_token}` },
      })
    ).json()) as { data: { title: string; candidates: { name: string }[] }[] };
    const groups = ballot.data.filter((g) => g.candidates.length > 0);
    expect(groups.length).toBeGreaterThan(1);

    // The first Tab stop is the skip link; it moves focus into the main content.
    await page.locator('body').focus();
    await tab(page);
    expect(await focused(page)).toMatchObject({ tag: 'a', name: 'Skip to main content' });
    await page.keyboard.press('Enter');
    expect((await focused(page)).id).toBe('main');

    // Every candidate: Tab into each radio group, arrows through its candidates.
    const reached: string[] = [];
    for (const group of groups) {
      const first = await tabUntil(page, (f) => f.type === 'radio');
      reached.push(first.name);
      for (let i = 1; i < group.candidates.length; i++) {
        await page.keyboard.press('ArrowDown');
        reached.push((await focused(page)).name);
      }
      if (group.candidates.length === 1) await page.keyboard.press('Space');
    }
    expect(reached.sort()).toEqual(groups.flatMap((g) => g.candidates.map((c) => c.name)).sort());

    // Vote opens the confirmation; Tab stays inside it.
    const vote = await tabUntil(page, (f) => f.tag === 'button' && f.name === 'Vote');
    expect(vote.name).toBe('Vote');
    const checkedBefore = await page.locator('input[type=radio]:checked').count();
    expect(checkedBefore).toBe(groups.length);
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    for (let i = 0; i < 6; i++) {
      expect((await focused(page)).inDialog).toBe(true);
      await tab(page, i % 2 === 1);
    }

    // Escape: closed, focus back on Vote, the choices cleared (as Cancel does).
    await page.keyboard.press('Escape');
    await page
      .getByRole('alertdialog')
      .waitFor({ state: 'detached' })
      .catch(async (error: Error) => {
        // Seen once in a full run (never alone): the dialog still open 30 s after Escape. What was on
        // the page then, for the next time: the dialog's state, the toasts shown (a Radix layer mounted
        // after the dialog takes Escape first) and where focus was.
        const seen = await page.evaluate(() => ({
          dialogs: [...document.querySelectorAll('[role=alertdialog]')].map((d) => d.getAttribute('data-state')),
          toasts: [...document.querySelectorAll('li[data-swipe-direction]')].map(
            (t) => `${t.getAttribute('data-state')}: ${t.textContent}`,
          ),
          focus: `${document.activeElement?.tagName} ${document.activeElement?.textContent?.slice(0, 40)}`,
        }));
        throw new Error(`${error.message.split('\n')[0]}; on the page: ${JSON.stringify(seen)}`);
      });
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Vote' });
    expect(await page.locator('input[type=radio]:checked').count()).toBe(0);
    await screenshot(page, 'a11y-ballot-after-escape');

    // Cancel: the same.
    await page.getByRole('radio').first().focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Vote' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await tabUntil(page, (f) => f.name === 'Cancel', 6);
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Vote' });
    expect(await page.locator('input[type=radio]:checked').count()).toBe(0);

    // Cast my vote for the first position only: focus returns to Vote and the rest of the ballot stays votable.
    await page.getByRole('radio').first().focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Vote' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await tabUntil(page, (f) => f.name === 'Cast my vote', 6);
    await page.keyboard.press('Enter');
    await page.getByText('You have successfully voted').waitFor();
    await expect.poll(async () => (await focused(page)).name).toMatch(/^Vot(e|ing…)$/);
    await page.getByText('You have already voted for this position.').waitFor();
    expect(await page.locator('input[type=radio]:not(:disabled)').count()).toBeGreaterThan(0);
    await context.close();
  });
});

describe('axe-core scan (WCAG 2.1 A/AA): no serious or critical violation on any screen', () => {
  for (const viewport of WIDTHS) {
    it(`every screen at ${viewport.width}px`, async () => {
      const failures: string[] = [];
      // One tab per role (SCREENS lists each role's screens together), kept from screen to screen.
      let tab: Tab | undefined;
      try {
        for (const s of SCREENS) {
          if (s.narrowOnly && viewport.width >= 768) continue;
          const label = `${s.name ?? s.path} @${viewport.width}`;
          if (tab?.as !== s.as) {
            await tab?.context.close();
            tab = await tabAs(s.as, viewport);
          }
          // A screen that does not render is opened once more in a fresh context: a stall of the
          // shared machine (the deployment test builds images beside this suite) is not the screen's
          // fault, but one that stalls twice running fails. Each stall is printed with what the page
          // showed and which requests were still open, so a real hang can be told from a slow machine.
          let outcome = await scanScreen(tab, s, viewport, label);
          if (outcome.stalled) {
            console.warn(`a11y scan: ${outcome.stalled}; opening the screen once more`);
            await tab.context.close();
            tab = await tabAs(s.as, viewport);
            outcome = await scanScreen(tab, s, viewport, label);
          }
          failures.push(...outcome.failures, ...(outcome.stalled ? [outcome.stalled] : []));
        }
      } finally {
        await tab?.context.close();
      }
      expect(failures).toEqual([]);
    }, 600_000);
  }
});

describe('the welcome toast', () => {
  for (const viewport of WIDTHS) {
    it(`does not cover the photo or Sign Out at ${viewport.width}px`, async () => {
      const { context, page } = await pageAs('voter', viewport);
      await page.goto('/voter');
      const toast = page.locator('li').filter({ hasText: 'Secure and Transparent Voting' });
      await toast.waitFor();
      await settled(page); // the slide-in animation
      const box = (await toast.boundingBox())!;
      for (const target of [page.getByRole('button', { name: 'Sign Out' }), page.locator('header [title]').first()]) {
        const other = (await target.boundingBox())!;
        const overlaps =
          box.x < other.x + other.width && other.x < box.x + box.width && box.y < other.y + other.height && other.y < box.y + box.height;
        expect(overlaps).toBe(false);
      }
      await screenshot(page, `a11y-welcome-toast-${viewport.width}`);
      await context.close();
    });
  }
});
