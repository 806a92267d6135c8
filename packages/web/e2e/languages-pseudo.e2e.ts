/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { axeScan, screenshot, type Session, settled, signInOverApi, storeSession, useE2E, WEB_DIR } from './harness';

/**
 * docs/i18n.md "Pseudo-locale": the voter and public screens in the pseudo-locale en-XA at
 * 390 px (no plain-English text outside the catalogue, no text cut off), axe clean in English and
 * Kiswahili with <html lang> following, and the printed declaration in Kiswahili after close.
 *
 * The pseudo-locale is only offered by builds made with VITE_PSEUDO_LOCALE=1, so this file builds
 * the web app once more that way into node_modules/.cache (never dist/, which stays the production
 * build) and points its server there through WEB_DIST_DIR; the build is reused while it is newer
 * than dist/index.html.
 */
function pseudoDist(): string {
  const out = join(WEB_DIR, 'node_modules/.cache/kura-e2e-pseudo');
  const prod = join(WEB_DIR, 'dist/index.html');
  const built = join(out, 'index.html');
  const fresh = existsSync(built) && (!existsSync(prod) || statSync(built).mtimeMs >= statSync(prod).mtimeMs);
  if (!fresh) {
    execFileSync(process.execPath, [join(WEB_DIR, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out, '--emptyOutDir'], {
      cwd: WEB_DIR,
      env: { ...process.env, VITE_PSEUDO_LOCALE: '1' },
      stdio: 'ignore',
    });
  }
  return out;
}

const MEMBER_NO = '1001';
const PHONE = { width: 390, height: 844 };

let voter: Session;
let admin: Session;
const e2e = useE2E({
  env: { WEB_DIST_DIR: pseudoDist() },
  ready: async (server) => {
    admin = (await signInOverApi(server, { kind: 'admin' })).session;
    const toggle = await fetch(`${server.baseUrl}/api/v1/toggle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${admin.bearer_token}` },
      body: JSON.stringify({ status: true }),
    });
    if (!toggle.ok) throw new Error(`toggle: ${toggle.status}`);
  },
});

beforeAll(async () => {
  voter = (await signInOverApi(e2e.server, { kind: 'voter', memberNo: MEMBER_NO, sink: e2e.sink })).session;
});

/**
 * A tab in `language` (this device's choice, as the switcher stores it), signed in as the member
 * when `session` is given. Every document it loads starts as in a new context: its storage emptied
 * and the language and session put back, so one tab serves a sweep over many screens
 * (`overScreens`) where a new context per screen cost several times the screen's own load (a new
 * renderer process, a cold cache). Every string of the server's JSON answers and live frames is
 * recorded, per screen (`reset`): names, titles and other data the screens show as they come.
 */
async function pageIn(
  language: string,
  session?: Session,
  accountType: 'member' | 'admin' = 'member',
): Promise<{
  context: BrowserContext;
  page: Page;
  data: Set<string>;
  /** Starts a new screen: its data, reads and GETs recorded afresh. */
  reset: () => void;
  collected: () => Promise<void>;
  recollect: () => Promise<void>;
}> {
  // bypassCSP: the server's CSP (rightly) refuses the injected axe-core script.
  const context = await e2e.browser.newContext({ viewport: PHONE, baseURL: e2e.server.baseUrl, bypassCSP: true });
  await storeSession(context, session && { session, accountType }, { everyDocument: true, language });
  const page = await context.newPage();
  // The screen's records; `reset` replaces them, and what arrives is added to the current screen's.
  let data = new Set<string>();
  // each response's body is read as it arrives; `collected` waits for the reads still running, so a
  // check never runs before the data of a response the page has already shown
  let reading = new Set<Promise<void>>();
  // every JSON GET the page made, with its headers, to read again if a check finds English
  let gets = new Map<string, Promise<Record<string, string>>>();
  const reset = () => {
    data = new Set<string>(['Kura']);
    reading = new Set();
    gets = new Map();
  };
  reset();
  const collect = (value: unknown, key = '', into = data) => {
    // a server's message is wording, not data: it must not excuse English on the page; nor is a
    // language code (`default_language: "en"`) text the page shows, and as data it would blank out
    // every "en" inside a word
    if (typeof value === 'string') {
      if (key !== 'message' && key !== 'error' && key !== 'default_language' && key !== 'language') into.add(value);
    } else if (Array.isArray(value)) for (const v of value) collect(v, key, into);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) collect(v, k, into);
  };
  // the live channel's data too (Socket.IO frames: a packet type, then JSON): a position's name can
  // reach the dashboard by socket before any response that carries it
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const json = typeof payload === 'string' ? payload.replace(/^\d+/, '') : '';
      if (!json.startsWith('[') && !json.startsWith('{')) return;
      try {
        collect(JSON.parse(json));
      } catch {
        // not a JSON packet
      }
    }),
  );
  page.on('response', (res) => {
    if (!(res.headers()['content-type'] ?? '').includes('json')) return;
    // the screen this response belongs to, even if its body is read after the next screen began
    const into = data;
    const screenReads = reading;
    if (res.request().method() === 'GET')
      gets.set(
        res.url(),
        res
          .request()
          .allHeaders()
          .catch(() => ({})),
      );
    // Under load Chromium can fail to hand over a body it has already given the page (evicted from
    // its buffer): then a GET is read once more, with the page's own headers, so data the page shows
    // is never mistaken for untranslated text (CI saw the demo election's title so, stop 36).
    const again = async () => {
      if (res.request().method() !== 'GET') return;
      const retry = await context.request.get(res.url(), { headers: await res.request().allHeaders() });
      collect(await retry.json(), '', into);
    };
    const read = res
      .json()
      .then((body) => collect(body, '', into))
      .catch(() => again().catch(() => undefined)) // not JSON after all, or gone with the page
      .finally(() => screenReads.delete(read));
    screenReads.add(read);
  });
  const collected = async () => {
    while (reading.size > 0) await Promise.all([...reading]);
  };
  // Under load a body can also come back read but empty of what the page shows (CI, stop 44: the
  // elections list's titles on /admin/elections): every GET is read once more, from the server,
  // before a finding stands. Text that is really untranslated is in no answer and still fails.
  const recollect = async () => {
    for (const [url, headers] of gets) {
      try {
        const again = await context.request.get(url, { headers: await headers });
        collect(await again.json());
      } catch {
        // not JSON any more, or the context is closing
      }
    }
  };
  return {
    context,
    page,
    get data() {
      return data;
    },
    reset,
    collected,
    recollect,
  };
}

/**
 * Lets the screen settle: the network quiet (500 ms without a request), then the last render: the
 * animations that end (a toast sliding in) finished and two frames drawn. This replaced a fixed
 * 500 ms pause after the quiet, some 24 s of the file's ~50 screens spent idle.
 */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await settled(page);
}

/** Months and zone names come from Intl (en-XA formats as English), the language names from the switcher. */
const ALLOWED =
  /\b(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|UTC|GMT|EAT|AM|PM|am|pm|at|English|Kiswahili|Pseudo|en-XA|XA|en|sw)\b/g;

/** Plain-ASCII words on the screen (text and the user-facing attributes) that are not data. */
async function untranslated(page: Page, data: Set<string>): Promise<string[]> {
  const text = await page.evaluate(() => {
    let out = document.body.innerText;
    for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [alt], [title]')) {
      for (const attr of ['aria-label', 'placeholder', 'alt', 'title']) out += `\n${el.getAttribute(attr) ?? ''}`;
    }
    return out;
  });
  let rest = text;
  for (const d of [...data].sort((a, b) => b.length - a.length)) if (d.trim().length > 1) rest = rest.split(d).join(' ');
  const dataWords = new Set([...data].flatMap((d) => d.match(/[A-Za-z]+/g) ?? []));
  // a placeholder the server fills in (the reminder's {name}) is a token, not a word
  rest = rest.replace(ALLOWED, ' ').replace(/\{[A-Za-z_]+\}/g, ' ');
  const words = rest.match(/(?<![\p{L}\p{M}])[A-Za-z]{2,}(?![\p{L}\p{M}])/gu) ?? [];
  return [...new Set(words.filter((w) => !dataWords.has(w)))];
}

/** Elements whose text is cut off: content wider than the box where overflow is hidden or clipped. */
async function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      if (!el.textContent?.trim() || el.clientWidth <= 1 || el.getClientRects().length === 0) continue;
      // a carousel's viewport hides the other slides by design; each slide is checked on its own
      if (el.querySelector('[aria-roledescription="slide"]')) continue;
      const style = getComputedStyle(el);
      // visually hidden until focused (the skip link, sr-only labels)
      if ((style.clip && style.clip !== 'auto') || style.clipPath !== 'none' || style.width === '1px') continue;
      const hides = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
      if (hides && el.scrollWidth > el.clientWidth + 1)
        found.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${el.textContent.trim().slice(0, 60)}"`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth) {
      // name the innermost elements that stick out, to say what to fix
      const out = [...document.body.querySelectorAll<HTMLElement>('*')].filter(
        (el) =>
          el.getBoundingClientRect().right > window.innerWidth + 1 &&
          ![...el.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 1),
      );
      const names = out.slice(0, 3).map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
      found.push(`the page is ${document.documentElement.scrollWidth}px wide: ${names.join(', ')}`);
    }
    return found;
  });
}

/** The voter and public screens (the legal documents stay English: docs/i18n.md). */
const PUBLIC = [
  '/',
  '/sign-in',
  '/verify',
  '/sign-up',
  '/password',
  '/verify-token',
  '/receipt',
  '/commitments',
  '/results',
  '/elections',
  '/no-such-page',
];
const VOTER = ['/voter', '/voter/elect', '/voter/vpat', '/voter/education', '/voter/nominate'];
const STAFF = [
  '/admin',
  '/admin/members',
  '/admin/setup',
  '/admin/candidates',
  '/admin/logs',
  '/admin/vpat',
  '/admin/issues',
  '/admin/reminders',
  '/admin/elections',
  '/admin/organisation',
];

/**
 * Visits each path in `language`, in one tab (`pageIn`), and runs `check` on it; answers every
 * finding, labelled by path. A check cut short because the document navigated while it read the
 * page (Chromium: "Execution context was destroyed") is run once more in a fresh tab and says so:
 * CI1 of 2026-12-03 met it once on /results under load, not reproduced; a screen that navigates
 * every time still fails.
 */
async function overScreens(
  language: string,
  paths: string[],
  session: Session | undefined,
  check: (page: Page, data: Set<string>) => Promise<string[]>,
  accountType: 'member' | 'admin' = 'member',
): Promise<string[]> {
  const findings: string[] = [];
  let tab = await pageIn(language, session, accountType);
  try {
    for (const path of paths) {
      let screen = await overScreen(tab, language, path, check);
      if (screen.navigated) {
        console.log(`${path}: the page navigated while it was read (${screen.navigated}); reading it again`);
        await tab.context.close();
        tab = await pageIn(language, session, accountType);
        screen = await overScreen(tab, language, path, check);
        if (screen.navigated) screen.findings.push(`${path}: did not render (${screen.navigated})`);
      }
      findings.push(...screen.findings);
    }
  } finally {
    await tab.context.close();
  }
  return findings;
}

/** One screen's findings, opened in the tab as a new document; `navigated` when the check was cut short so. */
async function overScreen(
  tab: Awaited<ReturnType<typeof pageIn>>,
  language: string,
  path: string,
  check: (page: Page, data: Set<string>) => Promise<string[]>,
): Promise<{ findings: string[]; navigated?: string }> {
  const findings: string[] = [];
  const { context, page } = tab;
  tab.reset();
  try {
    // no cookie kept from the screen before: as in a new context
    await context.clearCookies();
    await page.goto(path);
    await settle(page);
    await tab.collected();
    if ((await page.evaluate(() => document.documentElement.lang)) !== language)
      findings.push(`${path}: <html lang> is ${await page.evaluate(() => document.documentElement.lang)}`);
    let found = await check(page, tab.data);
    if (found.length > 0) {
      await tab.recollect();
      const first = found;
      found = await check(page, tab.data);
      if (found.length < first.length)
        console.log(`${path}: read the page's answers again, and ${first.length - found.length} finding(s) were data`);
    }
    for (const f of found) findings.push(`${path}: ${f}`);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? '';
    if (/Execution context was destroyed/.test(message)) return { findings, navigated: message };
    findings.push(`${path}: did not render (${message})`);
  }
  return { findings };
}

const pseudoCheck = async (page: Page, data: Set<string>) => [
  ...(await untranslated(page, data)).map((w) => `untranslated "${w}"`),
  ...(await cutOff(page)).map((c) => `cut off: ${c}`),
];

/** The staff screens' tables scroll sideways by design: only the untranslated check applies to them. */
const untranslatedOnly = async (page: Page, data: Set<string>) => (await untranslated(page, data)).map((w) => `untranslated "${w}"`);

describe('pseudo-locale en-XA at 390 px (docs/i18n.md "Pseudo-locale")', () => {
  it('the public screens show no text outside the catalogue and none cut off', async () => {
    expect(await overScreens('en-XA', PUBLIC, undefined, pseudoCheck)).toEqual([]);
  }, 300_000);

  it('the voter screens show no text outside the catalogue and none cut off', async () => {
    expect(await overScreens('en-XA', VOTER, voter, pseudoCheck)).toEqual([]);
  }, 300_000);

  it('the admin screens too (beyond the issue: staff screens are converted as well)', async () => {
    expect(await overScreens('en-XA', STAFF, admin, untranslatedOnly, 'admin')).toEqual([]);
  }, 300_000);

  it('the check itself finds a plain-English string and a clipped one', async () => {
    const { context, page, data, collected } = await pageIn('en-XA');
    await page.goto('/');
    await settle(page);
    // the page's answers read before the check, as overScreen does (CI6: under load the landing's
    // organisation name and election title were not read yet, and counted as English)
    await collected();
    await page.evaluate(() => {
      const p = document.createElement('p');
      p.textContent = 'Forgotten string';
      p.style.cssText = 'width:40px;overflow:hidden;white-space:nowrap';
      document.querySelector('main')!.append(p);
    });
    expect(await untranslated(page, data)).toEqual(['Forgotten', 'string']);
    expect((await cutOff(page)).some((c) => c.includes('Forgotten string'))).toBe(true);
    await context.close();
  });
});

describe('axe in English and Kiswahili, <html lang> following', () => {
  for (const language of ['en', 'sw']) {
    it(`no serious or critical violation in ${language}`, async () => {
      // English screens are axe-scanned in a11y.e2e.ts, every screen at both widths: here English
      // checks only that <html lang> follows (overScreens), Kiswahili gets the scan as well.
      const scan = language === 'en' ? async () => [] : axeScan;
      const findings = [
        ...(await overScreens(language, ['/', '/sign-in', '/receipt', '/results'], undefined, scan)),
        ...(await overScreens(language, ['/voter', '/voter/elect', '/voter/vpat'], voter, scan)),
      ];
      expect(findings).toEqual([]);
    }, 300_000);
  }
});

describe('the declaration after close', () => {
  it('prints in Kiswahili for a member whose language is sw; en-XA shows it whole', async () => {
    const closed = await fetch(`${e2e.server.baseUrl}/api/v1/election/close`, {
      method: 'POST',
      headers: { accept: 'application/json', authorization: `Bearer ${admin.bearer_token}` },
    });
    expect(closed.status).toBe(200);

    const { context, page } = await pageIn('sw', voter);
    await page.goto('/results');
    await page.getByRole('heading', { name: 'Tangazo la matokeo' }).waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Chapisha / Hifadhi kama PDF' }).isVisible()).toBe(false);
    expect(await page.getByText(/Afisa msimamizi wa uchaguzi/).isVisible()).toBe(true);
    expect(await page.getByText('Ahadi ya mwisho').isVisible()).toBe(true);
    const printed = await page.evaluate(() => document.body.innerText);
    for (const english of ['Declaration of results', 'Returning officer', 'Final commitment', 'Turnout by branch'])
      expect(printed).not.toContain(english);
    await screenshot(page, 'declaration-print-sw');
    await context.close();

    expect(await overScreens('en-XA', ['/results'], voter, pseudoCheck)).toEqual([]);
  }, 120_000);
});
