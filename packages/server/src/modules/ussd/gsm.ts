/**
 * The GSM 03.38 alphabet a USSD screen is sent in: every screen is measured in its 7-bit units
 * (a character of the extension table takes two), and text outside it (a name with `ā`, curly
 * quotes) is written with the nearest GSM characters, so a phone never shows a broken screen.
 */

const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const EXTENSION = '^{}\\[~]|€\f';
const BASIC_SET = new Set(BASIC);
const EXTENSION_SET = new Set(EXTENSION);

const NEAREST: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00a0': ' ',
  '\t': ' ',
};

/** Whether every character of `text` is in the GSM 7-bit alphabet (basic or extension table). */
export function isGsm(text: string): boolean {
  for (const ch of text) if (!BASIC_SET.has(ch) && !EXTENSION_SET.has(ch)) return false;
  return true;
}

/** `text` in GSM characters: kept where it is one, else its letter without accents, a near sign, or `?`. */
export function toGsm(text: string): string {
  let out = '';
  for (const ch of text) {
    if (BASIC_SET.has(ch) || EXTENSION_SET.has(ch)) {
      out += ch;
      continue;
    }
    const near = NEAREST[ch];
    if (near !== undefined) {
      out += near;
      continue;
    }
    const bare = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += bare.length > 0 && [...bare].every((c) => BASIC_SET.has(c)) ? bare : '?';
  }
  return out;
}

/** The length of a GSM text in 7-bit units: two for a character of the extension table. */
export function gsmLength(text: string): number {
  let n = 0;
  for (const ch of text) n += EXTENSION_SET.has(ch) ? 2 : 1;
  return n;
}

/** `text` in GSM characters, cut to at most `max` units (the last one a `.` when cut). */
export function fitGsm(text: string, max: number): string {
  const gsm = toGsm(text).replace(/\s+/g, ' ').trim();
  if (gsmLength(gsm) <= max) return gsm;
  let out = '';
  for (const ch of gsm) {
    if (gsmLength(out + ch) > max - 1) break;
    out += ch;
  }
  return `${out.trimEnd()}.`;
}
