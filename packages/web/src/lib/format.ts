import { getLocale, t } from '@/i18n';

/**
 * A position title from the server ("Chairperson National") with its level word in the reader's
 * language ("Chairperson (Kitaifa)"); English reads it as it is. Receipts and the receipt check.
 */
export function positionTitleIn(title: string): string {
  const locale = getLocale();
  if (locale === 'en' || locale === 'en-XA' || !title.endsWith(' National')) return title;
  return t('ballot.nationalPosition', { name: title.slice(0, -' National'.length) });
}

/** docs/screens.md "Ballot and results": percentage = count / total × 100 with 2 decimals. A zero total reads 0.00%. */
export function percentage(count: number, total: number): string {
  const value = total > 0 ? (count / total) * 100 : 0;
  return `${value.toFixed(2)}%`;
}

/** docs/screens.md "Ballot and results": 'vote' for a count of 1 or less, 'votes' above that. */
export function voteWord(count: number): 'vote' | 'votes' {
  return count <= 1 ? 'vote' : 'votes';
}

/** The results-row text: percentage, then count, then vote|votes (the catalogue's results.row, in the reader's language). */
export function resultText(count: number, total: number): string {
  return t('results.row', { percent: percentage(count, total), number: String(count), count });
}

/** Position select value: name_level (docs/screens.md "Browser storage"). */
export function positionKey(p: { name: string; level: string }): string {
  return `${p.name}_${p.level}`;
}

/** Position select label: name plus level. */
export function positionLabel(p: { name: string; level: string }): string {
  return `${p.name} ${p.level}`;
}

/** `name - level`, the label of a position checkbox (docs/screens.md "Staff pages"). */
export const positionOptionLabel = (p: { name: string; level: string }) => `${p.name} - ${p.level}`;

export function capitalise(text: string): string {
  return text.replace(/(^|[\s_-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

export function initial(name: string | null | undefined): string {
  const t = (name ?? '').trim();
  return t ? t.charAt(0).toUpperCase() : '?';
}
