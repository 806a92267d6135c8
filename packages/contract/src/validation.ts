import { z } from 'zod';
import { normalisePhone, PHONE_FORMAT_MESSAGE } from './phone';
import { said } from './messages';

/**
 * Field rules with their exact messages (docs/api.md "Validation"). The server validates requests with these
 * and the browser validates forms with the same schemas, so the two can never disagree.
 */

const lengthMessages = (n: number) => ({
  min: said('field.minLength', { n }),
  max: said('field.maxLength', { n }),
});

export const IDENTIFIER_FORMAT_MESSAGE = said('field.identifierFormat');

const DIGITS = /^\d+$/;
const CMAKE = /^CMAKE\d+\/\d+$/;
const EMAIL = z.string().email();

/**
 * Sign-in identifier: a member number (digits or CMAKE##/##), an email, or a registered phone in any
 * accepted spelling (docs/api.md "Sign-in identifiers"), 3–150 characters.
 */
export const identifierSchema = z
  .string({ required_error: said('field.enterMemberNumber'), invalid_type_error: said('field.enterMemberNumber') })
  .trim()
  .min(3, said('field.minLength', { n: 3 }))
  .max(150, said('field.maxLength', { n: 150 }))
  .refine(
    (v) => DIGITS.test(v) || CMAKE.test(v) || followsMemberNoPattern(v, null) || EMAIL.safeParse(v).success || isPhone(v),
    IDENTIFIER_FORMAT_MESSAGE,
  );

/** verify/phone's identifier before its format: 3–150 characters (the server checks the format with `isSignInIdentifier`). */
export const signInIdentifierSchema = z
  .string({ required_error: said('field.enterMemberNumber'), invalid_type_error: said('field.enterMemberNumber') })
  .trim()
  .min(3, said('field.minLength', { n: 3 }))
  .max(150, said('field.maxLength', { n: 150 }));

/**
 * What verify/phone accepts (docs/api.md "Sign-in identifiers"): a member number under the
 * organisation's `member_no_pattern` (null: the default rule, or the spec's digits and CMAKE##/##),
 * an e-mail, or a phone in an accepted spelling. Anything else gets IDENTIFIER_FORMAT_MESSAGE.
 */
export function isSignInIdentifier(value: string, memberNoPattern: string | null | undefined): boolean {
  const v = value.trim();
  if (memberNoPattern == null ? identifierSchema.safeParse(v).success : followsMemberNoPattern(v, memberNoPattern)) return true;
  return EMAIL.safeParse(v).success || normalisePhone(v) !== null;
}

/** A phone in a spelling `normalisePhone` takes (`0712 345 678`, `+254 712 345 678`, …). */
const isPhone = (v: string) => normalisePhone(v) !== null;

/** A string of exactly `n` digits, with the spec's three messages. */
export function exactDigits(n: number, requiredMessage = said('field.required')) {
  const m = lengthMessages(n);
  return z
    .string({ required_error: requiredMessage, invalid_type_error: requiredMessage })
    .trim()
    .min(n, m.min)
    .max(n, m.max)
    .regex(DIGITS, said('field.digitsOnly'));
}

/** Sign-up Voter ID: exactly 4 digits. */
export const voterIdSchema = exactDigits(4, said('field.enterVoterId'));
/** Phone number: exactly 10 digits. */
export const phoneSchema = exactDigits(10, said('field.enterPhone'));
/** One-time code or authenticator token: exactly 6 digits. */
export const tokenSchema = exactDigits(6, said('field.enterOtp'));

export const CONSENT_MESSAGE = said('field.consent');
/** The consent checkbox: must be ticked. */
export const consentSchema = z.literal(true, {
  errorMap: () => ({ message: CONSENT_MESSAGE }),
});

export const passwordSchema = z
  .string({
    required_error: said('field.isRequired', { field: 'password' }),
    invalid_type_error: said('field.isRequired', { field: 'password' }),
  })
  .min(1, said('field.isRequired', { field: 'password' }))
  .max(200, said('field.maxLength', { n: 200 }));

export const emailSchema = z
  .string({
    required_error: said('field.isRequired', { field: 'email' }),
    invalid_type_error: said('field.isRequired', { field: 'email' }),
  })
  .trim()
  .min(1, said('field.isRequired', { field: 'email' }))
  .max(150, said('field.maxLength', { n: 150 }))
  .email(said('field.emailInvalid'));

export const GOOGLE_BUTTON_MESSAGE = said('field.googleButton');
/** Google ID token (the button's `credential`); required. */
export const googleCredentialSchema = z
  .string({ required_error: said('field.googleCredential'), invalid_type_error: said('field.googleCredential') })
  .min(1, said('field.googleCredential'))
  .max(8192, said('field.credentialTooLong'));

/** The refusal of a name with an invisible or control character; `what` names the field. */
export const nameCharactersMessage = (what = 'name') => said('field.nameCharacters', { what });
export const NAME_CHARACTERS_MESSAGE = nameCharactersMessage();

/**
 * Characters a display name may not hold, because they are invisible or break the line: control
 * characters (C0, DEL, C1: tab, line breaks, escape), format characters (zero-width space, joiners,
 * word joiner, byte-order mark, soft hyphen, the bidirectional marks, embeddings, overrides and
 * isolates U+200E-U+200F, U+202A-U+202E, U+2066-U+2069), the line and paragraph separators, lone
 * surrogates, and letters that render as nothing (the combining grapheme joiner, Hangul fillers).
 */
export const INVISIBLE_IN_NAMES = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u034f\u115f\u1160\u3164\uffa0]/u;

/**
 * A display name as stored and compared: NFKC (full-width letters, ligatures and odd spaces become
 * their plain forms, accents are composed), trimmed, runs of spaces collapsed to one.
 */
export const normaliseName = (name: string): string => name.normalize('NFKC').replace(/\s+/gu, ' ').trim();

/**
 * The rule for every display name (branches, positions, candidates, members; in the API and the
 * CSV import): refused when it holds an invisible or control character, so `Nationa\u200bl` cannot
 * pass for "National" nor a CSV cell store a line break; otherwise normalised, then measured.
 */
export function displayNameSchema(options: { max: number; required?: string; invalidType?: string; characters?: string }) {
  const required = options.required ?? said('field.isRequired', { field: 'name' });
  return z
    .string({ required_error: required, invalid_type_error: options.invalidType ?? required })
    .refine((v) => !INVISIBLE_IN_NAMES.test(v), options.characters ?? NAME_CHARACTERS_MESSAGE)
    .transform(normaliseName)
    .pipe(
      z
        .string()
        .min(1, required)
        .max(options.max, said('field.maxLength', { n: options.max })),
    );
}

/** A member's display name. */
export const nameSchema = displayNameSchema({ max: 150 });

/**
 * The member-number rule when the organisation sets none (`member_no_pattern` null): 1 to 32
 * letters, digits, "-", "/" or "." (`UFC-001`, `CMAKE12/34`, `1042`). docs/api.md "Register formats".
 */
export const DEFAULT_MEMBER_NO_PATTERN = '[A-Za-z0-9./-]{1,32}';
export const DEFAULT_MEMBER_NO_MESSAGE = said('field.memberNoDefault');
export const MEMBER_NO_PATTERN_INVALID = said('field.memberNoPatternInvalid');

export const MEMBER_NO_PATTERN_SLOW = said('field.memberNoPatternUnsafe');

/**
 * Whether a pattern risks catastrophic backtracking on hostile input: a quantified group holding a
 * quantifier (`(a+)+`, `(\\d*-?)*`) or a back-reference. The pattern is an admin's, but it runs
 * against whatever anyone types at the public sign-in, so one such pattern would let anybody stall
 * the server. Member-number formats never need either.
 */
export function memberNoPatternIsSlow(pattern: string): boolean {
  if (/\\[1-9]|\\k</.test(pattern)) return true;
  // Strip escapes and character classes, then look for a group with a quantifier inside and after it.
  const plain = pattern.replace(/\\./g, 'x').replace(/\[(?:[^\]\\]|\\.)*\]/g, 'x');
  const stack: boolean[] = [];
  for (let i = 0; i < plain.length; i++) {
    const c = plain[i]!;
    if (c === '(') stack.push(false);
    else if (c === ')') {
      const inner = stack.pop() ?? false;
      const next = plain[i + 1];
      const quantified = next === '*' || next === '+' || next === '{' || next === '?';
      if (inner && quantified && next !== '?') return true;
      if (stack.length > 0 && (inner || quantified)) stack[stack.length - 1] = true;
    } else if ((c === '*' || c === '+' || c === '{') && stack.length > 0) stack[stack.length - 1] = true;
  }
  return false;
}

/** The organisation's pattern as a regular expression matching the whole member number, or null when it does not compile. */
export function memberNoRegExp(pattern: string | null | undefined): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern ?? DEFAULT_MEMBER_NO_PATTERN})$`, 'u');
  } catch {
    return null;
  }
}

/** Whether `value` is a member number under the organisation's pattern (null: the default rule). */
export function followsMemberNoPattern(value: string, pattern: string | null | undefined): boolean {
  return memberNoRegExp(pattern)?.test(value) ?? false;
}

/** The refusal of a member number that does not follow the organisation's pattern. */
export const memberNoFormatMessage = (pattern: string | null | undefined): string =>
  pattern == null ? DEFAULT_MEMBER_NO_MESSAGE : said('field.memberNoPattern', { pattern });

/**
 * Member number as a request carries it: 1–50 characters without invisible ones. Its format is the
 * organisation's `member_no_pattern`, which the server checks (it is a setting, not a constant).
 */
export const memberNoSchema = z
  .string({
    required_error: said('field.isRequiredPlain', { field: 'member number' }),
    invalid_type_error: said('field.isRequiredPlain', { field: 'member number' }),
  })
  .trim()
  .min(1, said('field.isRequiredPlain', { field: 'member number' }))
  .max(50, said('field.maxLength', { n: 50 }))
  .refine((v) => !INVISIBLE_IN_NAMES.test(v), said('field.memberNoInvisible'));

/** An optional e-mail (members sign in by SMS): absent, null or empty means none; stored lower-cased. */
export const optionalEmailSchema = z
  .union([z.string({ invalid_type_error: said('field.emailInvalid') }), z.null()], {
    errorMap: () => ({ message: said('field.emailInvalid') }),
  })
  .optional()
  .transform((v) => (v == null ? '' : v.trim()))
  .refine((v) => v.length <= 150, said('field.maxLength', { n: 150 }))
  .refine((v) => v === '' || EMAIL.safeParse(v).success, said('field.emailInvalid'))
  .transform((v) => (v === '' ? null : v.toLowerCase()));

/**
 * A register phone in any accepted spelling (`0712 345 678`, `254712345678`, `+254 712-345-678`),
 * answered in E.164 (`+254712345678`); anything else is refused with the format's message.
 */
export const registerPhoneSchema = z
  .string({
    required_error: said('field.isRequired', { field: 'phone' }),
    invalid_type_error: said('field.isRequired', { field: 'phone' }),
  })
  .trim()
  .min(1, said('field.isRequired', { field: 'phone' }))
  .transform((v, ctx) => {
    const e164 = normalisePhone(v);
    if (e164 === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: PHONE_FORMAT_MESSAGE });
      return z.NEVER;
    }
    return e164;
  });

/**
 * The pfNumber sent back by the authenticator and pin steps: the member number the browser
 * stored at sign-in/sign-up (1–50 characters). The server looks it up; it does not re-check
 * the format, so a member number stored in an older format still works.
 */
export const pfNumberSchema = z
  .string({
    required_error: said('field.isRequired', { field: 'pfNumber' }),
    invalid_type_error: said('field.isRequired', { field: 'pfNumber' }),
  })
  .trim()
  .min(1, said('field.isRequired', { field: 'pfNumber' }))
  .max(50, said('field.maxLength', { n: 50 }));

/** The pin / password of the Password screen. */
export const passSchema = z
  .string({
    required_error: said('field.isRequired', { field: 'password' }),
    invalid_type_error: said('field.isRequired', { field: 'password' }),
  })
  .min(1, said('field.isRequired', { field: 'password' }))
  .max(100, said('field.maxLength', { n: 100 }));

export const PIN_FORMAT_MESSAGE = said('field.pinFormat');
export const PIN_TRIVIAL_MESSAGE = said('field.pinTrivial');

/** One digit repeated (0000) or a run up or down, wrapping past 9 (1234, 9876, 8901). */
export function isTrivialPin(pin: string): boolean {
  if (!/^\d{4,8}$/.test(pin)) return false;
  const d = [...pin].map(Number);
  const step = (d[1]! - d[0]! + 10) % 10;
  return (step === 0 || step === 1 || step === 9) && d.every((x, i) => i === 0 || (x - d[i - 1]! + 10) % 10 === step);
}

/** The member's current authenticator pin (the default pin until they set their own). */
export const currentPinSchema = z
  .string({ required_error: said('field.currentPin'), invalid_type_error: said('field.currentPin') })
  .min(1, said('field.currentPin'))
  .max(100, said('field.maxLength', { n: 100 }));

/** A member's own pin: 4 to 8 digits, not trivial (the server also refuses the default pin). */
export const newPinSchema = z
  .string({ required_error: said('field.newPin'), invalid_type_error: said('field.newPin') })
  .regex(/^\d{4,8}$/, PIN_FORMAT_MESSAGE)
  .refine((v) => !isTrivialPin(v), PIN_TRIVIAL_MESSAGE);

/**
 * The largest id the database stores (a 4-byte `integer`). Every numeric id the contract accepts
 * (path, query, body, multipart) is built from `idNumber` below, so no id reaches the database out
 * of range (`1e20` or `9007199254740993` is a 422, not a driver error); `contract.test.ts` walks
 * every route's request schemas and fails on an unbounded number.
 */
export const MAX_ID = 2_147_483_647;

/** A positive whole number no larger than `MAX_ID`, with messages naming the field. */
export const idNumber = (field = 'id', requiredMessage = said('field.isRequired', { field })) =>
  z
    .number({ required_error: requiredMessage, invalid_type_error: said('field.mustBeNumber', { field }) })
    .int(said('field.mustBeWhole', { field }))
    .positive(said('field.mustBePositive', { field }))
    .max(MAX_ID, said('field.tooLarge', { field }));

/** An id that arrives as text (path, query, multipart field), coerced, then checked like `idNumber`. */
export const textIdNumber = (field = 'id') =>
  z.coerce
    .number({ invalid_type_error: said('field.mustBeNumber', { field }) })
    .int(said('field.mustBeWhole', { field }))
    .positive(said('field.mustBePositive', { field }))
    .max(MAX_ID, said('field.tooLarge', { field }));

/** A numeric id in a path (`/edit/psk/member/{id}`): a positive whole number. */
export const pathIdSchema = textIdNumber('id');

/** A database id inside a body or query: a positive whole number. */
export const positiveIdSchema = (field = 'id') => idNumber(field);

/** An optional free-text search filter in a query string. */
export const filterSchema = (max = 150) =>
  z
    .string()
    .trim()
    .max(max, said('field.maxLength', { n: max }))
    .optional();

/**
 * `?election_id=N` on every call of the voting and results family (docs/api.md "Many elections,
 * motions and ranked counts"): the election the call acts on, the current one when absent. A
 * typed client passes a bounded id; any other text is left to the server, which answers 404 "No
 * such election" alike for every value that names no election.
 */
export const ElectionQuery = z.object({
  election_id: z.union([idNumber('election_id'), z.string()]).optional(),
});
export type ElectionQuery = z.infer<typeof ElectionQuery>;
