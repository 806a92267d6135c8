import type { BallotGroup, Language } from '@kura/contract';
import { t } from '../../i18n';
import { fitGsm, gsmLength } from './gsm';

/** The longest screen a USSD phone shows, in GSM 7-bit units (docs/api.md "Voting by USSD"). */
export const MAX_SCREEN = 182;
/** Longest position title and option name on a screen, so a page holds several options. */
const TITLE_MAX = 40;
const OPTION_MAX = 28;

/** A screen that waits for input (`CON`) or ends the session (`END`): the gateway's convention. */
export const con = (screen: string) => `CON ${screen}`;
export const end = (screen: string) => `END ${screen}`;

/** Lines joined into one screen, each in GSM characters, cut as a whole to the limit. */
export function screen(...lines: (string | undefined | false)[]): string {
  const kept = lines.filter((l): l is string => typeof l === 'string' && l.length > 0).flatMap((l) => l.split('\n'));
  const text = kept.map((l) => fitGsm(l, MAX_SCREEN)).join('\n');
  if (gsmLength(text) <= MAX_SCREEN) return text;
  // Never reached by the screens built here (they are packed to fit); a last guard all the same.
  let out = '';
  for (const ch of text) {
    if (gsmLength(out + ch) > MAX_SCREEN) break;
    out += ch;
  }
  return out;
}

/** The position's title in the member's language (the translation the admin gave, else the stored one). */
export function titleOf(group: BallotGroup, language: Language): string {
  return group.translations?.[language]?.title ?? group.title;
}

/** How many choices a position takes on one ballot, and whether the screen asks for several. */
export function choicesOf(group: BallotGroup): { max: number; several: boolean } {
  if (group.kind === 'motion') return { max: 1, several: false };
  if (group.method === 'approval' || group.method === 'ranked') return { max: group.candidates.length, several: true };
  return { max: Math.max(1, group.seats), several: group.seats > 1 };
}

const MOTION_WORDS = { Yes: 'ussd.yes', No: 'ussd.no', Abstain: 'ussd.abstain' } as const;

/** An option's name as the screen shows it: a motion's Yes, No or Abstain in the member's language. */
export function optionName(group: BallotGroup, candidate: { name: string }, language: Language): string {
  if (group.kind === 'motion' && candidate.name in MOTION_WORDS)
    return t(language, MOTION_WORDS[candidate.name as keyof typeof MOTION_WORDS]);
  return candidate.name;
}

export type PositionView = {
  /** The options still open, numbered from 1 in this order (those already chosen here are left out). */
  options: { id: number; name: string }[];
  /** The options' indexes on each page. */
  pages: number[][];
};

/** The header lines of a position's screen: an invalid-input note, the title, what to choose. */
function headerOf(group: BallotGroup, language: Language, chosen: number, invalid: boolean): string[] {
  const { max, several } = choicesOf(group);
  const lines = invalid ? [t(language, 'ussd.invalid')] : [];
  lines.push(fitGsm(titleOf(group, language), TITLE_MAX));
  if (several) {
    if (group.method === 'ranked') lines.push(t(language, 'ussd.rankChoice', { rank: chosen + 1 }));
    else if (group.method === 'approval') lines.push(t(language, 'ussd.chooseApproved', { chosen }));
    else lines.push(t(language, 'ussd.chooseUpTo', { seats: max, chosen }));
  }
  return lines;
}

function footerOf(group: BallotGroup, language: Language, more: boolean): string[] {
  const lines = more ? [t(language, 'ussd.more')] : [];
  lines.push(choicesOf(group).several ? `${t(language, 'ussd.done')} ${t(language, 'ussd.backSkip')}` : t(language, 'ussd.backSkip'));
  return lines;
}

const optionLine = (n: number, name: string) => `${n}.${fitGsm(name, OPTION_MAX)}`;
const lengthOf = (lines: string[]) => gsmLength(lines.join('\n'));

/**
 * The position's options and how they fall into pages: as many options per page as fit the
 * screen with its header (the longest the position can have) and footer (with `98.More`).
 */
export function positionView(group: BallotGroup, language: Language, chosen: number[]): PositionView {
  const options = group.candidates.filter((c) => !chosen.includes(c.id)).map((c) => ({ id: c.id, name: optionName(group, c, language) }));
  const fixed = lengthOf([...headerOf(group, language, group.candidates.length, true), ...footerOf(group, language, true)]);
  const pages: number[][] = [];
  let page: number[] = [];
  let used = fixed;
  options.forEach((option, i) => {
    const line = gsmLength(optionLine(i + 1, option.name)) + 1;
    if (page.length > 0 && used + line > MAX_SCREEN) {
      pages.push(page);
      page = [];
      used = fixed;
    }
    page.push(i);
    used += line;
  });
  pages.push(page);
  return { options, pages };
}

/** One page of a position's screen. */
export function positionScreen(group: BallotGroup, language: Language, chosen: number[], pageIndex: number, invalid: boolean): string {
  const view = positionView(group, language, chosen);
  const page = view.pages[Math.min(pageIndex, view.pages.length - 1)] ?? [];
  const more = pageIndex < view.pages.length - 1;
  return screen(
    ...headerOf(group, language, chosen.length, invalid),
    ...page.map((i) => optionLine(i + 1, view.options[i]!.name)),
    ...footerOf(group, language, more),
  );
}

/** A menu of numbered items with a header (the election menu). */
export function menuScreen(header: string, items: string[], invalid: boolean, language: Language): string {
  return screen(invalid ? t(language, 'ussd.invalid') : undefined, header, ...items.map((item, i) => optionLine(i + 1, item)));
}

/**
 * The summary before the vote: each position with the names chosen (or "skipped"), when that fits
 * the screen; else how many positions have choices.
 */
export function confirmScreen(rows: { title: string; names: string[] | null }[], language: Language, invalid: boolean): string {
  const head = [invalid ? t(language, 'ussd.invalid') : undefined, t(language, 'ussd.confirm')].filter((l): l is string => !!l);
  const actions = t(language, 'ussd.confirmActions');
  const lines = rows.map(
    (r) => `${fitGsm(r.title, 20)}: ${r.names === null ? t(language, 'ussd.skipped') : r.names.map((n) => fitGsm(n, 16)).join(', ')}`,
  );
  const full = [...head, ...lines, actions];
  if (lengthOf(full.map((l) => fitGsm(l, MAX_SCREEN))) <= MAX_SCREEN) return screen(...full);
  const chosen = rows.filter((r) => r.names !== null).length;
  return screen(...head, t(language, 'ussd.summaryShort', { chosen, total: rows.length }), actions);
}
