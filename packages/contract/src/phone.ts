import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { said } from './messages';

/**
 * Register phones (docs/api.md "Register formats"): a Kenyan mobile in any spelling people write it
 * (`0712 345 678`, `0712-345-678`, `0712.345.678`, `254712345678`, `+254 712 345 678`, `01…` numbers
 * too) or, with a `+` and another country code, a valid international mobile. Stored and shown in
 * E.164 (`+254712345678`). The mobile metadata of libphonenumber-js says which numbers are mobiles, so
 * a landline or a short code is refused, as SMS could never reach it.
 */
export const PHONE_FORMAT_MESSAGE = said('field.phoneFormat');

const SEPARATORS = /[\s.\-()\u00a0]/g;

/** The E.164 form of a register phone, or null when it is not a mobile number in an accepted spelling. */
export function normalisePhone(input: string): string | null {
  if (typeof input !== 'string') return null;
  let s = input.trim().replace(SEPARATORS, '');
  if (s.length === 0 || s.length > 20) return null;
  if (!/^\+?\d+$/.test(s)) return null;
  // `254…` without the plus is the Kenyan country code written the way SMS gateways print it.
  if (s.startsWith('254') && s.length === 12) s = `+${s}`;
  // Without a plus only Kenyan national numbers (0…) are accepted.
  if (!s.startsWith('+') && !s.startsWith('0')) return null;
  const parsed = parsePhoneNumberFromString(s, 'KE');
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}

/** A phone as people read it: `+254 712 345 678`. */
export function formatPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed ? parsed.formatInternational() : e164;
}
