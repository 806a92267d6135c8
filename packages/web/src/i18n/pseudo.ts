import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';

/**
 * The pseudo-locale `en-XA` (docs/i18n.md): every English message with its letters accented and
 * about 30% longer, in brackets, so a string that stays plain English was never moved into the
 * catalogue, and a layout that breaks with longer text shows. Placeholders, plurals and tags keep
 * their ICU structure; only the literal text changes.
 */
const ACCENTS: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ó',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ú',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ó',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ú',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};
const VOWELS = /[aeiouAEIOU]/;

/** Accents the letters and doubles every third vowel. */
export function pseudoText(text: string): string {
  let vowels = 0;
  let out = '';
  for (const ch of text) {
    const accented = ACCENTS[ch] ?? ch;
    out += accented;
    if (VOWELS.test(ch) && ++vowels % 3 === 0) out += accented;
  }
  return out;
}

function walk(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((el) => {
    if (el.type === TYPE.literal) return { ...el, value: pseudoText(el.value) };
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      const options = Object.fromEntries(Object.entries(el.options).map(([k, o]) => [k, { ...o, value: walk(o.value) }]));
      return { ...el, options } as MessageFormatElement;
    }
    if (el.type === TYPE.tag) return { ...el, children: walk(el.children) };
    return el;
  });
}

function literalLength(elements: MessageFormatElement[]): number {
  let n = 0;
  for (const el of elements) {
    if (el.type === TYPE.literal) n += [...el.value].length;
    else if (el.type === TYPE.tag) n += literalLength(el.children);
    else if (el.type === TYPE.plural || el.type === TYPE.select) n += literalLength(Object.values(el.options)[0]?.value ?? []);
  }
  return n;
}

/**
 * One message in the pseudo-locale: `[Šíĝñ íñ ~~]`-style, with its ICU arguments untouched, its
 * text padded to at least 30% longer than the English.
 */
export function pseudoMessage(message: string): string {
  const ast = parse(message);
  const english = literalLength(ast);
  const pseudo = walk(ast);
  const pad = Math.ceil(english * 1.3) - literalLength(pseudo) - 2;
  // the padding breaks like words do (runs of at most 10), so a long message wraps as a real one would
  const padding = pad > 0 ? ` ${('~'.repeat(pad).match(/~{1,10}/g) ?? []).join(' ')}` : '';
  return `[${printAST(pseudo)}${padding}]`;
}

/** The whole `en-XA` catalogue, made from the English one. */
export function pseudoCatalogue(en: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(en).map(([key, message]) => [key, pseudoMessage(message)]));
}
